"""Issue 11's fifth Clan Feud round: the fast path's draft kept from one move to the next.

``rules.apply_kept`` (the state class's ``_apply_kept``) goes on editing one draft through a
whole playout, and ``rules.kept_state`` freezes it at the end. Between moves the draft must
describe exactly the state the copying ``apply`` makes (every field; the task stack as a
list), its sequences tuples again (the rules' memos are keyed by a tuple's identity), and
what the kernel asks of it (the phase, the legal actions or chance weights) the same."""

from __future__ import annotations

import attrs
import pytest

import clangames
from clangames.clan_feud import rules
from clangames.clan_feud.state import ClanFeudState
from clangames.clan_feud.working import _NESTED, _SEQUENCES, W
from clangames.engine.rng import Rng

FIELDS = [f.name for f in attrs.fields(ClanFeudState)]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 5), (5, 6)])
def test_a_kept_draft_describes_the_copying_moves_state_at_every_step(
    players: int, seed: int
) -> None:
    game = clangames.load("clan_feud", players=players)
    start = game.initial_state()
    assert isinstance(start, ClanFeudState)
    final, _, moves = clangames.rollout_moves(start, Rng(seed), first_mover=True)
    p0, a0 = moves[0]
    copied = rules.apply(start, a0, p0)
    draft = rules.apply(start, a0, p0)  # the kernel's first move copies: the caller's state
    for p, a in moves[1:]:
        copied = rules.apply(copied, a, p)
        draft = rules.apply_kept(draft, a, p)
        assert type(draft) is W
        assert type(draft.tasks) is list and tuple(draft.tasks) == copied.tasks
        for name in FIELDS:
            if name not in ("tasks", "game"):
                assert getattr(draft, name) == getattr(copied, name), name
        for name in (*_SEQUENCES, *_NESTED):
            value = getattr(draft, name)
            assert type(value) is tuple, name
            if name in _NESTED:
                assert all(type(row) is tuple for row in value), name
        assert draft.phase.to_move == copied.phase.to_move
        asked(draft, copied)
    made = rules.kept_state(draft)
    assert made is draft and type(made) is ClanFeudState
    assert made == copied == final and made.to_json() == final.to_json()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.turn = 0  # type: ignore[misc]


def asked(draft: ClanFeudState, copied: ClanFeudState) -> int:
    """What the kernel asks of the draft equals the state's answers (every seat to move,
    a sealed node's too, through the rules' ``legal_actions`` on the draft itself); the
    sealed nodes met."""
    if copied.is_chance:
        assert draft._chance_weights() == copied.chance_weights()
        return 0
    for p in copied.to_move:
        assert draft._legal(p) == copied.legal_actions(p)
    assert type(draft) is W and type(draft.tasks) is list  # asking changed nothing
    return int(copied.phase.simultaneous)


def test_a_kept_draft_answers_at_sealed_battle_nodes() -> None:
    """Battles are rare in random play: seeded five-player games are walked until kept
    drafts have been asked at sealed nodes (a seat's options worked out on the draft)."""
    game = clangames.load("clan_feud", players=5)
    sealed = 0
    for seed in range(40):
        start = game.initial_state()
        _, _, moves = clangames.rollout_moves(start, Rng(seed), first_mover=True)
        (p0, a0), rest = moves[0], moves[1:]
        copied, draft = rules.apply(start, a0, p0), rules.apply(start, a0, p0)
        for p, a in rest:
            copied = rules.apply(copied, a, p)
            draft = rules.apply_kept(draft, a, p)
            sealed += asked(draft, copied)
        if sealed >= 6:
            break
    assert sealed >= 6


def test_kept_state_hands_a_state_back_as_it_is() -> None:
    state = clangames.load("clan_feud", players=3).initial_state()
    assert isinstance(state, ClanFeudState)
    before = state.to_json()
    assert rules.kept_state(state) is state and type(state) is ClanFeudState
    assert state.to_json() == before


@pytest.mark.parametrize("players", [2, 5])
def test_rollouts_end_on_frozen_states_whatever_their_length(players: int) -> None:
    """Cut after 0, 1, 2 or many steps, or played out: a state, never the draft, and the
    state the step-by-step API reaches."""
    game = clangames.load("clan_feud", players=players)
    start = game.initial_state()
    for limit in (0, 1, 2, 7, 60, None):
        state, _, steps = clangames.rollout(start, Rng(11), limit, first_mover=True)
        assert type(state) is ClanFeudState
        walked = start
        _, _, moves = clangames.rollout_moves(start, Rng(11), limit, first_mover=True)
        assert len(moves) == steps
        for p, a in moves:
            walked = walked.apply(a, p)
        assert state == walked and state.to_json() == walked.to_json()
        hash(state)
