"""An action that is not an integer id (a float, a string, a bool, a NumPy float) is an
illegal action in both PettingZoo environments, handled as their contract says for one
outside the mask: the Parallel environment ends the game with the offender forfeiting,
the AEC environment raises IllegalActionError and changes nothing. NumPy integers are ids.

Found by review: the Parallel environment's mask check took ``int(action)``, so ``1.5``,
``"3"`` or ``True`` passed it and then raised IllegalActionError from the middle of the
step instead of forfeiting (and a seat owing "no move" could send the id as a string).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from clangames.adapters.pettingzoo import aec_env, parallel_env  # noqa: E402
from clangames.engine.errors import IllegalActionError  # noqa: E402


def _first_legal(observations: dict[str, Any]) -> dict[str, Any]:
    return {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}


NOT_IDS = ["1.5", "float", "str", "np.float64", "bool"]


def _not_id(kind: str, legal: int) -> Any:
    """A value of ``kind`` that looks like the legal id ``legal`` (or near it) but is no
    id: ``int()`` of each but the first is ``legal`` (the bool's, 1)."""
    return {
        "1.5": legal + 0.5,
        "float": float(legal),
        "str": str(legal),
        "np.float64": np.float64(legal),
        "bool": True,
    }[kind]


@pytest.mark.parametrize(
    ("game", "offender"),
    [("koa_kingmaker", "player_1"), ("clan_feud", "player_1")],
    ids=["a seat to move", "a seat owing no move"],
)
@pytest.mark.parametrize("kind", NOT_IDS)
def test_a_parallel_action_that_is_not_an_id_forfeits(game: str, offender: str, kind: str) -> None:
    env = parallel_env(game, players=3)
    observations, _ = env.reset(seed=1)
    seat = env.possible_agents.index(offender)
    mask = observations[offender]["action_mask"]
    if game == "koa_kingmaker":  # a simultaneous round: id 1 (True's int) is legal
        assert seat in env.state_now.to_move and mask[1]
        legal = 1
    else:  # player_0 alone moves; the offender owes the no-move id, the last one
        assert seat not in env.state_now.to_move and np.flatnonzero(mask).tolist() == [564]
        legal = 564
    actions = _first_legal(observations)
    actions[offender] = _not_id(kind, legal)
    before = env.state_now
    _, rewards, terminations, truncations, infos = env.step(actions)
    assert rewards == {a: (0.0 if a == offender else 0.5) for a in env.possible_agents}
    assert infos == {a: {"illegal_action": a == offender} for a in env.possible_agents}
    assert all(terminations.values()) and not any(truncations.values())
    assert env.agents == [] and env.state_now is before  # nothing of the step was applied


@pytest.mark.parametrize("integer", [int, np.int64, np.int8, np.uint32])
def test_a_parallel_action_that_is_any_integer_type_is_taken(integer: Any) -> None:
    env = parallel_env("koa_kingmaker", players=3)
    observations, _ = env.reset(seed=2)
    actions = {a: integer(i) for a, i in _first_legal(observations).items()}
    _, _, terminations, _, infos = env.step(actions)
    assert not any(terminations.values())
    assert all(info == {} for info in infos.values())
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("kind", NOT_IDS)
def test_an_aec_action_that_is_not_an_id_is_refused_and_changes_nothing(kind: str) -> None:
    env = aec_env("koa_kingmaker", players=3)
    env.reset(seed=1)
    agent, state = env.agent_selection, env.state_now
    assert env.observe(agent)["action_mask"][1]  # id 1 (True's int) is legal
    with pytest.raises(IllegalActionError, match="an action is an integer id, got"):
        env.step(_not_id(kind, 1))
    assert env.state_now is state and env.agent_selection == agent
    env.step(np.int64(1))  # a NumPy integer is an id
    assert env.state_now is not state
