"""Kilt Castle's length bounds (kilt_castle/bounds.py): the derived values, the harness's
check with them, a policy that stalls the game as long as the safeguard lets it, and random
games' means."""

from __future__ import annotations

from typing import Any

import pytest

from bounds_helpers import observe, random_policy
from clangames.engine.interop import LengthBounds, LengthCount
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.kilt_castle.actions import Relocate
from clangames.kilt_castle.bounds import builds_before_the_end
from clangames.testing import check_game

from .kc_helpers import FOUR_ROWS, LIGHT, RED, floor, invariant, load, table

EXPECTED = {
    2: LengthBounds(decisions=1283, chance=6),
    3: LengthBounds(decisions=1428, chance=3),
    4: LengthBounds(decisions=2503, chance=6),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bounds_follow_the_derivation(players: int) -> None:
    game = load(players)
    bounds = game.interop.bounds
    assert bounds == EXPECTED[players]
    assert builds_before_the_end(game) == {2: 60, 3: 45, 4: 60}[players]
    assert bounds.decisions + bounds.chance <= game.info.max_game_length


def test_the_bound_scales_with_the_safeguard() -> None:
    short = load(3, stall_rounds=1).interop.bounds
    assert short == LengthBounds(decisions=46 * 4 + 2, chance=3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_harness_keeps_every_game_within_the_bounds(players: int) -> None:
    game = load(players)
    report = check_game(game, playouts=10, seed=16_200 + players, invariant=invariant)
    assert report.playouts == 10


def _split(state: State, player: int) -> tuple[list[Any], list[Any]]:
    """The relocations that build nothing (the idle count rises) and the others."""
    s: Any = state
    idle: list[Any] = []
    busy: list[Any] = []
    for action in state.legal_actions(player):
        after: Any = state.apply(action, player)
        (idle if after.idle > s.idle else busy).append(action)
    return idle, busy


def _ends(state: Any) -> bool:
    """True if the game is over or its end is triggered, whatever the builders choose."""
    if state.is_terminal or state.ending:
        return True
    if state.phase.name != "build":
        return False
    player = state.to_move[0]
    return all(state.apply(a, player).ending for a in state.legal_actions(player))


def stall(state: State, player: int, rng: Rng) -> tuple[object, Rng]:
    """Make the game last: relocate so that nothing is built, as long as the safeguard
    allows one more idle turn and the next player can still build after it; else build
    without using a colour's last floor when that can be helped. Roofs at random."""
    legal = state.legal_actions(player)
    s: Any = state
    if not isinstance(legal[0], Relocate):
        keep = [a for a in legal if not _ends(state.apply(a, player))]
        return rng.choice(keep or list(legal))
    idle, busy = _split(state, player)
    if s.idle + 2 < s.game.stall_turns:
        order, rng = rng.shuffled(idle)
        for action in order:
            after = state.apply(action, player)
            if not after.is_terminal and _split(after, after.to_move[0])[1]:
                return action, rng
    keep = [a for a in busy if not _ends(state.apply(a, player))]
    return rng.choice(keep or busy or idle)


def test_a_stalling_policy_spends_the_safeguard_on_every_floor() -> None:
    """The bound's S turns per floor are really there: on a crowded board where nobody
    has money (red and light grey can still build on their own towers, orange and dark
    grey cannot build at all), the stalling policy passes S - 1 turns without a floor
    before each of the 9 floors left, 351 turns against the 9 x 40 = 360 that step 2
    allows from here (0.975)."""
    game = load(4)
    spaces = list(game.board.spaces)
    kinds = [floor(RED)] * 11 + [floor(RED, 1)] * 3 + [floor(LIGHT)] * 8
    towers = {divmod(sp, 5): [k] for sp, k in zip(spaces, kinds, strict=True)}
    state: Any = table(game=game, rows=FOUR_ROWS, towers=towers, money=(0, 0, 0, 0))
    left = sum(state.supply.counts)
    count = LengthCount()
    rng = Rng(3)
    while not state.is_terminal:
        count = count.step(state)
        player = state.to_move[0]
        action, rng = stall(state, player, rng)
        state = state.apply(action, player)
    floors = left - sum(state.supply.counts)
    s = game.stall_turns
    assert floors == 9 and state.ending  # red's spare floor and light grey's last eight
    turns = state.turns  # the table starts at turn 1, played from here
    assert turns == floors * (s - 1)
    assert turns / (floors * s) > 0.97
    assert count.decisions == turns + floors  # each floor asked (three kinds of floor)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_stalled_games_against_the_bounds(players: int) -> None:
    game = load(players)
    randomly = observe(game, random_policy, range(10))
    stalled = observe(game, stall, range(2))
    # Measured: random games' mean 0.03-0.07 of the decision bound (2-4 players), whole
    # games under the stalling policy about the same: from the start, every line has an
    # empty space or a tower of the mover's colour, so every turn builds, and the game
    # ends by its last floor long before a board crowded enough to stall.
    assert randomly.max_decisions < stalled.bounds.decisions
    assert randomly.chance_ratio == stalled.chance_ratio == 1.0
