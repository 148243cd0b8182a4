"""Bad arguments to the fast rollouts and to Match's policies are refused with a typed
error naming them, where the loops used to fail deep inside (AttributeError, TypeError)
or a policy under a key that is no seat was never asked and the seat played at random."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from clangames import load
from clangames.bots import RandomBot
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.match import Match
from clangames.engine.rng import Rng
from clangames.engine.rollout import RolloutError, rollout, rollout_moves, rollout_seats

GAME = load("kings_kilt", players=2)
STATE = GAME.initial_state()
RNGS = [Rng(1), Rng(2)]


@pytest.mark.parametrize("play", [rollout, rollout_moves])
def test_a_rollout_refuses_a_start_that_is_no_state_or_no_rng(play: Any) -> None:
    with pytest.raises(RolloutError, match=r"starts from a game's State, got None"):
        play(None, Rng(1))
    with pytest.raises(RolloutError, match=r"draws from an Rng, got 5"):
        play(STATE, 5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat_rngs": [1, 2]}, r"seat_rngs\[0\] must be an Rng, got 1"),
        ({"seat_rngs": "ab"}, r"seat_rngs must be a sequence of Rng, one per seat, got 'ab'"),
        ({"policies": {"0": RandomBot(Rng(3))}}, r"policy for seat '0', but seats are 0..1"),
        ({"policies": {9: RandomBot(Rng(3))}}, r"policy for seat 9, but seats are 0..1"),
        ({"policies": {0: 7}}, r"the policy for seat 0 has no act\(state, player\) method"),
        ({"policies": [RandomBot(Rng(3))]}, r"policies must be a mapping of seat numbers"),
        ({"watch": 3}, r"watch must be a function of the state or None, got 3"),
    ],
)
def test_rollout_seats_refuses_bad_seats_policies_and_watchers(
    kwargs: dict[str, Any], message: str
) -> None:
    args: dict[str, Any] = {"seat_rngs": RNGS, **kwargs}
    with pytest.raises(RolloutError, match=message):
        rollout_seats(STATE, Rng(2), **args)
    with pytest.raises(RolloutError, match=r"starts from a game's State"):
        rollout_seats(GAME, Rng(2), RNGS)  # type: ignore[arg-type]


def test_a_numpy_seat_is_a_seat_and_its_policy_is_asked() -> None:
    asked: list[int] = []

    class Watching(RandomBot):
        def act(self, state: Any, player: int) -> Any:
            asked.append(player)
            return super().act(state, player)

    policies: Any = {np.int64(1): Watching(Rng(4))}
    played = rollout_seats(STATE, Rng(2), RNGS, 40, policies)
    assert asked and set(asked) == {1}
    assert played.steps == 40


def test_match_refuses_policies_under_keys_that_are_no_seats() -> None:
    with pytest.raises(InvalidArgumentError, match=r"policy for seat '1', but seats are 0..1"):
        Match(GAME, 0, {"1": RandomBot(Rng(3))})  # type: ignore[dict-item]
    with pytest.raises(InvalidArgumentError, match=r"the policy for seat 1 has no act"):
        Match(GAME, 0, {1: object()})  # type: ignore[dict-item]
    match = Match(GAME, 0, {np.int64(1): RandomBot(Rng(3))})  # type: ignore[dict-item]
    assert list(match.policies) == [1] and type(next(iter(match.policies))) is int
