"""The fifth round of speed work on KOA Kingmaker's moves (issue 11): the commitments'
legal actions and the seals' chance outcomes read the game's memos inline, a seal finds
its household and the next one in one pass, the table is cleared to one shared value,
and a reveal takes its hits from the game's memo of counts. Every transition must be the
one the rules made before (tests/koa_kingmaker/legacy_rules.py, frozen): the same legal
actions in the same order, the same chance outcomes and weights, the same successor for
every legal action or outcome, on every state of seeded games of every player count."""

from __future__ import annotations

import pytest

import clangames
from clangames.engine.simultaneous import Commitments
from clangames.koa_kingmaker import rules
from clangames.koa_kingmaker.cards import BANNER, FANATIC, GOLD, JESTER, MARSHALS, SEER, THIEF

from . import legacy_rules

GAMES = 60


def _states(players: int, games: int, seed: int = 0) -> list[clangames.State]:
    """Every state of ``games`` seeded random games, from the step-by-step API."""
    game = clangames.load("koa_kingmaker", players=players)
    states = []
    for k in range(games):
        rng = clangames.Rng(seed + k)
        state = game.initial_state()
        states.append(state)
        while not state.is_terminal:
            state, rng, _ = clangames.rollout(state, rng, 1)
            states.append(state)
    return states


def _successors(state: clangames.State) -> list[tuple[object, int]]:
    """Every (action, player) the rules allow in ``state``, chance outcomes included."""
    if state.is_chance:
        return [(action, clangames.CHANCE) for action, _ in state._chance_weights()]
    return [(a, p) for p in state.to_move for a in state._legal(p)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_transition_is_the_legacy_rules_one(players: int) -> None:
    reveals = 0
    for state in _states(players, GAMES, seed=100 * players):
        for p in state.to_move:
            if p == clangames.CHANCE:
                assert state._chance_weights() == legacy_rules.chance_weights(state)
            else:
                assert state._legal(p) == legacy_rules.legal_actions(state, p)
        for action, player in _successors(state):
            new = rules.apply(state, action, player)
            assert new == legacy_rules.apply(state, action, player)
            reveals += new.round > state.round > 0
    assert reveals > GAMES  # rounds ended in every game


@pytest.mark.parametrize("players", [2, 5])
def test_the_fast_path_plays_the_legacy_games(players: int) -> None:
    """Whole playouts through the owned moves end where the legacy moves, step by step,
    end (the rollout tests compare the fast path with the step-by-step API of today)."""
    game = clangames.load("koa_kingmaker", players=players)
    for seed in range(40):
        fast, _, steps = clangames.rollout(game.initial_state(), clangames.Rng(seed))
        state, rng = game.initial_state(), clangames.Rng(seed)
        for _ in range(steps):  # rollout's stream: a mover drawn at a decision, then its action
            if state.is_chance:
                weights = legacy_rules.chance_weights(state)
                index, rng = rng.weighted([w for _, w in weights])
                state = legacy_rules.apply(state, weights[index][0], clangames.CHANCE)
                continue
            index, rng = rng.below(len(state.to_move))
            mover = state.to_move[index]
            legal = legacy_rules.legal_actions(state, mover)
            index, rng = rng.below(len(legal))
            state = legacy_rules.apply(state, legal[index], mover)
        assert fast == state and fast.is_terminal


def test_a_cleared_table_is_an_open_one() -> None:
    state = next(s for s in _states(2, 1) if s.phase.name == "seal")
    assert state.table == Commitments.open(5)
    assert state.table.ids == (-1,) * 5


def test_the_character_kinds_are_numbered_as_the_reveal_unpacks_them() -> None:
    # reveal() unpacks its per-kind masks in this order
    assert tuple(range(7)) == (JESTER, SEER, MARSHALS, GOLD, THIEF, BANNER, FANATIC)


def test_the_hits_memo_is_emptied_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small limit: the memo never holds more, and the transitions stay the legacy ones."""
    monkeypatch.setattr(rules, "HITS_MEMO_LIMIT", 3)
    game = clangames.load("koa_kingmaker", players=5)
    game.hits_memo.clear()
    sizes = set()
    for state in _states(5, 6, seed=7):
        for action, player in _successors(state):
            assert rules.apply(state, action, player) == legacy_rules.apply(state, action, player)
            sizes.add(len(game.hits_memo))
    assert max(sizes) == 3 and 1 in sizes


def test_count_hits_reads_the_key_as_the_legacy_count() -> None:
    """Hand-made counts: a Banner doubles its house's nomination, a Seer's count is
    removed, Marshals send the hit back to their nominators (but a Seer), ties hit all."""
    game = clangames.load("koa_kingmaker", players=5)

    def key(
        nominations: dict[int, int], banners: int = 0, seers: int = 0, marshals: int = 0
    ) -> int:
        packed = 0
        for nominator, target in nominations.items():
            packed |= 1 << 5 * target + nominator
        return packed | banners << 25 | seers << 30 | marshals << 35

    assert rules.count_hits(game, key({0: 1, 2: 1, 3: 4})) == ((1, -1),)
    assert rules.count_hits(game, key({0: 1, 2: 1, 3: 4}, banners=1 << 3)) == ((1, -1), (4, -1))
    assert rules.count_hits(game, key({0: 1, 2: 1, 3: 4}, seers=1 << 1)) == ((4, -1),)
    assert rules.count_hits(game, key({0: 1, 2: 1, 3: 4}, marshals=1 << 1)) == ((0, 1), (2, 1))
    assert rules.count_hits(game, key({0: 1, 2: 1}, seers=1 << 2, marshals=1 << 1)) == ((0, 1),)
    assert rules.count_hits(game, key({}, seers=1)) == ()
