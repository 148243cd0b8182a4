"""``rollout_seats`` plays as ``Match`` does: a bot's action is checked like any action
from outside (an illegal one raises and plays nothing), and it needs exactly one generator
per seat.

Found by the kernel's mutation audit: a ``rollout_seats`` applying a bot's action through
the rules unchecked, or accepting more generators than seats, passed every test before.
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import IllegalActionError, Rng, State
from clangames.engine.rollout import RolloutError, rollout_seats


class Cheat:
    """A bot that plays an action the rules do not allow it (or any action not legal)."""

    def act(self, state: State, player: int) -> Any:
        legal = set(state.legal_actions(player))
        return next(a for a in state.game.actions.actions if a not in legal)


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"])
def test_a_bots_illegal_action_is_refused(name: str) -> None:
    game = clangames.load(name, players=2)
    start = clangames.resolve_chance(game.initial_state(), Rng(4))
    seat = start.to_move[0]
    with pytest.raises(IllegalActionError):
        rollout_seats(start, Rng(1), [Rng(2), Rng(3)], policies={seat: Cheat()})


def test_the_match_refuses_the_same_bot() -> None:
    game = clangames.load("kings_kilt", players=2)
    match = clangames.Match(game, 4, {0: Cheat(), 1: Cheat()})
    with pytest.raises(IllegalActionError):
        match.run()


@pytest.mark.parametrize("count", [2, 4])
def test_one_generator_per_seat_no_more_no_fewer(count: int) -> None:
    state = clangames.load("kings_kilt", players=3).initial_state()
    rngs = [Rng(k) for k in range(count)]
    with pytest.raises(RolloutError, match=rf"one Rng per seat \(3\), got {count}"):
        rollout_seats(state, Rng(1), rngs)


@pytest.mark.parametrize("name", ["kings_kilt", "clan_feud"])
def test_watch_sees_the_start_and_every_state_after_a_move(name: str) -> None:
    # The watcher (a statistics Follower) must read a state at once: the next move may
    # build on it in place. So each state is written down as JSON when shown.
    game = clangames.load(name, players=2)
    start = game.initial_state()
    shown: list[dict[str, Any]] = []
    played = rollout_seats(
        start, Rng(6), [Rng(7), Rng(8)], 30, watch=lambda s: shown.append(s.to_json())
    )
    expected = [start.to_json()]
    state = start
    for player, action in played.moves:
        state = state.apply(action, player)
        expected.append(state.to_json())
    assert len(played.moves) == 30
    assert shown == expected
