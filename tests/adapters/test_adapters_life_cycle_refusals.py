"""The adapters' life cycle with hostile calls: a PettingZoo step (or ``last``) before the
first reset or after every agent is done, an agent name that is no agent, an OpenSpiel
joint action of the wrong length and an action string asked for an id outside the
numbering are each refused with a library error saying what was wrong, and change
nothing; a PettingZoo environment survives ``copy.deepcopy`` and pickling.

Found by the fuzz4 sweep: these were a KeyError ('player_0'), an AttributeError
('agent_selection'), an IndexError in the middle of a step or of a joint action, and a
TypeError (``cannot pickle memoryview``).
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from clangames import IllegalActionError, InvalidArgumentError  # noqa: E402
from clangames.adapters.pettingzoo import aec_env, parallel_env  # noqa: E402

NO_GAME = r"no game is being played .*reset\(\) starts one"


def _finish(env: Any) -> None:
    """Play ``env`` (AEC) to its end with the first legal id, every agent stepping out."""
    for _ in range(10_000):
        if not env.agents:
            return
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    raise AssertionError("the game did not end")


def test_an_aec_step_or_last_before_the_first_reset_is_refused() -> None:
    env = aec_env("kings_kilt", players=3)
    with pytest.raises(IllegalActionError, match=NO_GAME):
        env.step(0)
    with pytest.raises(IllegalActionError, match=NO_GAME):
        env.last()
    env.reset(seed=1)  # and the environment is still usable
    assert env.agents == ["player_0", "player_1", "player_2"]


def test_an_aec_step_or_last_after_every_agent_is_done_is_refused() -> None:
    env = aec_env("koa_kingmaker", players=3)
    env.reset(seed=2)
    _finish(env)
    final = env.state_now
    for call in (lambda: env.step(0), lambda: env.step(None), env.last):
        with pytest.raises(IllegalActionError, match=NO_GAME):
            call()
    assert env.state_now is final and env.agents == []
    env.reset(seed=2)
    assert env.agents and not env.state_now.is_terminal


@pytest.mark.parametrize("agent", ["player_3", "player_-1", "x", None, 0])
def test_observing_an_agent_that_does_not_exist_names_the_agents(agent: Any) -> None:
    env = aec_env("kings_kilt", players=3)
    env.reset(seed=1)
    with pytest.raises(
        InvalidArgumentError,
        match=rf"{agent!r} is not an agent .*expected one of player_0, player_1, player_2",
    ):
        env.observe(agent)
    for space in (env.observation_space, env.action_space):
        with pytest.raises(InvalidArgumentError, match=r"is not an agent .*expected one of"):
            space(agent)


def test_a_parallel_step_after_the_end_or_a_forfeit_is_refused_and_changes_nothing() -> None:
    env = parallel_env("koa_kingmaker", players=3)
    env.reset(seed=1)
    env.step({"player_0": 0})  # the others' actions are missing: they forfeit
    assert env.agents == []
    after = env.state_now
    with pytest.raises(IllegalActionError, match=NO_GAME):
        env.step({"player_0": 0, "player_1": 0, "player_2": 0})
    assert env.state_now is after
    fresh = parallel_env("koa_kingmaker", players=3)
    with pytest.raises(IllegalActionError, match=NO_GAME):
        fresh.step({})


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_environment_plays_on_exactly_as_the_original(how: str) -> None:
    env = aec_env("koa_kingmaker", players=3)
    env.reset(seed=3)
    for _ in range(7):
        observation = env.last()[0]
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    other = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))

    def play(e: Any) -> list[Any]:
        seen = []
        for _ in range(10_000):
            if not e.agents:
                return seen
            observation, reward, terminated, truncated, _ = e.last()
            seen.append((e.agent_selection, observation["observation"].tolist(), reward))
            if terminated or truncated:
                e.step(None)
            else:
                e.step(int(np.flatnonzero(observation["action_mask"])[-1]))
        raise AssertionError("the game did not end")

    assert play(other) == play(env)


def test_an_openspiel_joint_action_of_the_wrong_length_is_refused_and_changes_nothing() -> None:
    pytest.importorskip("pyspiel")
    from clangames.adapters.openspiel import load_game

    game = load_game("koa_kingmaker", players=3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_simultaneous_node()
    kernel, history = state.clangames, state.history()
    for joint in ([0], [0, 0], [0, 0, 0, 0]):
        with pytest.raises(
            InvalidArgumentError, match=rf"one action per player \(3\), got {len(joint)}"
        ):
            state.apply_actions(joint)
        assert state.clangames is kernel and state.history() == history
    state.apply_actions([state.legal_actions(p)[0] for p in range(3)])  # still playable


@pytest.mark.parametrize("action", [-1, 10_000])
def test_an_openspiel_action_string_for_an_id_outside_the_numbering_is_refused(
    action: int,
) -> None:
    pytest.importorskip("pyspiel")
    from clangames.adapters.openspiel import load_game
    from clangames.engine.phases import CHANCE

    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError, match=rf"chance outcome {action} is not an outcome"):
        state.action_to_string(CHANCE, action)
    with pytest.raises(IllegalActionError, match=rf"action {action} is not a decision id"):
        state.action_to_string(0, action)
