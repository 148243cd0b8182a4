"""The fast rollout path plays exactly the games of the step-by-step API, for every game."""

from __future__ import annotations

import pytest

import clangames
from clangames import CHANCE, Match, Rng, State
from clangames.bots import ISMCTSBot, RandomBot
from clangames.engine.rollout import RolloutError, rollout, rollout_moves, rollout_seats
from clangames.testing.conformance import random_playout

CONFIGS = [
    (spec.name, n)
    for spec in clangames.games()
    if spec.name in ("kings_kilt", "koa_kingmaker", "kilt_castle")
    for n in range(spec.min_players, spec.max_players + 1)
]
SEEDS = range(6)


def _step_by_step(
    state: State, rng: Rng, max_steps: int | None, draw_mover: bool
) -> tuple[State, Rng, list[tuple[int, str]]]:
    """The documented random loop through the public API (legal_actions, apply,
    sample_chance), optionally cut after ``max_steps`` steps."""
    moves: list[tuple[int, str]] = []
    while not state.is_terminal and (max_steps is None or len(moves) < max_steps):
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            player = CHANCE
        else:
            player = state.to_move[0]
            if draw_mover:
                k, rng = rng.below(len(state.to_move))
                player = state.to_move[k]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            action = legal[j]
        moves.append((player, state.action_text(action)))
        state = state.apply(action, player)
    return state, rng, moves


def _texts(state: State, moves: tuple[tuple[int, object], ...]) -> list[tuple[int, str]]:
    return [(p, state.game.action_text(a)) for p, a in moves]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_rollout_plays_the_conformance_random_playout(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    for seed in SEEDS:
        record, final, rng_after = random_playout(game, Rng(seed))
        state, rng, steps = rollout(game.initial_state(), Rng(seed))
        assert state == final and state.is_terminal
        assert rng == rng_after
        assert steps == len(record.moves)
        state, rng, moves = rollout_moves(game.initial_state(), Rng(seed))
        assert state == final and rng == rng_after
        assert _texts(state, moves) == [(m.player, m.action) for m in record.moves]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@pytest.mark.parametrize("first_mover", [False, True])
def test_rollout_to_a_depth_from_any_state(name: str, players: int, first_mover: bool) -> None:
    game = clangames.load(name, players=players)
    for seed in SEEDS:
        # Start from a mid-game state reached by the public API, then go 1..40 steps deeper.
        start, _, _ = _step_by_step(game.initial_state(), Rng(seed), 7 * seed, True)
        depth = 1 + 7 * seed
        expected, rng_after, moves = _step_by_step(start, Rng(seed + 100), depth, not first_mover)
        state, rng, played = rollout_moves(start, Rng(seed + 100), depth, first_mover=first_mover)
        assert state == expected and rng == rng_after
        assert _texts(state, played) == moves
        assert len(played) == min(depth, len(moves))
        state, rng, steps = rollout(start, Rng(seed + 100), depth, first_mover=first_mover)
        assert (state, rng, steps) == (expected, rng_after, len(moves))


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_rollout_seats_plays_the_match_of_random_bots(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    for seed in SEEDS:
        root = Rng(seed).fork(3)
        bots = {p: RandomBot(root.fork(p + 1)) for p in range(players)}
        match = Match(game, root, bots)
        match.run()
        played = rollout_seats(
            game.initial_state(), root, [root.fork(p + 1) for p in range(players)]
        )
        assert played.state == match.state and played.state.is_terminal
        assert played.rng == match.rng
        assert played.seat_rngs == tuple(bots[p].rng for p in range(players))
        assert _texts(played.state, played.moves) == [
            (m.player, m.action) for m in match.record.moves
        ]
        assert played.steps == len(match.record.moves)


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_rollout_seats_to_a_depth(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    for seed in SEEDS:
        root = Rng(seed)
        depth = 5 + 11 * seed
        match = Match(game, root, {p: RandomBot(root.fork(p + 1)) for p in range(players)})
        match.run(max_steps=depth)
        played = rollout_seats(
            game.initial_state(), root, [root.fork(p + 1) for p in range(players)], depth
        )
        assert played.state == match.state and played.rng == match.rng
        assert played.steps == min(depth, len(match.record.moves))


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle"])
def test_rollout_seats_with_a_search_bot_plays_the_match(name: str) -> None:
    game = clangames.load(name, players=2)
    root = Rng(11)
    match = Match(
        game, root, {0: ISMCTSBot(root.fork(1), iterations=4), 1: RandomBot(root.fork(2))}
    )
    match.run()
    played = rollout_seats(
        game.initial_state(),
        root,
        [root.fork(1), root.fork(2)],
        policies={0: ISMCTSBot(root.fork(1), iterations=4)},
    )
    assert played.state == match.state and played.rng == match.rng
    assert _texts(played.state, played.moves) == [(m.player, m.action) for m in match.record.moves]


def test_a_terminal_state_or_depth_zero_plays_nothing() -> None:
    game = clangames.load("kings_kilt", players=2)
    end, rng, _ = rollout(game.initial_state(), Rng(1))
    assert rollout(end, rng) == (end, rng, 0)
    start = game.initial_state()
    assert rollout(start, Rng(1), 0) == (start, Rng(1), 0)
    assert rollout_seats(end, rng, [Rng(2), Rng(3)]).moves == ()


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_a_bad_depth_is_refused(bad: object) -> None:
    state = clangames.load("kings_kilt", players=2).initial_state()
    with pytest.raises(RolloutError, match="max_steps must be an int >= 0"):
        rollout(state, Rng(1), bad)  # type: ignore[arg-type]
    with pytest.raises(RolloutError, match="max_steps must be an int >= 0"):
        rollout_seats(state, Rng(1), [Rng(1), Rng(2)], bad)  # type: ignore[arg-type]


def test_rollout_seats_needs_one_rng_per_seat() -> None:
    state = clangames.load("kings_kilt", players=3).initial_state()
    with pytest.raises(RolloutError, match=r"one Rng per seat \(3\), got 2"):
        rollout_seats(state, Rng(1), [Rng(1), Rng(2)])


def test_rollouts_are_exported() -> None:
    assert clangames.rollout is rollout
    assert clangames.engine.rollout_seats is rollout_seats
    assert issubclass(RolloutError, clangames.ClanGamesError)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**64 - 1])
def test_a_draw_below_one_is_one_step_of_the_generator(seed: int) -> None:
    # What the fast loops rely on to skip the mix when one player or one action is left.
    assert Rng(seed).below(1) == (0, Rng(seed).next64()[1])
