"""The PettingZoo AEC environment: its chance stream carries on from reset to reset (a
seed repeats a game, no seed deals a new one), the seats of a simultaneous round commit
lowest first, an action that is not a decision id is refused by name and changes
nothing, every agent's last word is its win share, and its name, render modes and infos
are the documented ones (the ``pettingzoo`` extra).

Found by the adapters' mutation audit: an observation space wider than the declared
bounds, a chance stream that did not advance (every
unseeded reset dealt the seeded game again), every environment dealing with seed 0, the
highest seat committing first, ``True`` taken as action 1, an id one past the last
reaching the table as an IndexError, a render mode outside the list accepted, a generic
environment name, the agents sharing one infos dict, and "human" rendering skipped after
a step all passed every test before.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from clangames.adapters.pettingzoo import aec_env  # noqa: E402
from clangames.engine.errors import IllegalActionError  # noqa: E402


def _deal(env: Any) -> str:
    return repr(env.state_now.public_observation()) + repr(env.state_now.observation(0))


def test_an_unseeded_reset_carries_the_stream_on_and_a_seed_repeats_the_deal() -> None:
    env = aec_env("kings_kilt", players=3)
    env.reset(seed=1)
    seeded = _deal(env)
    env.reset()
    assert _deal(env) != seeded  # the stream carried on from the first deal
    env.reset(seed=1)
    assert _deal(env) == seeded
    fresh = []
    for _ in range(3):  # unseeded environments start from their own streams
        other = aec_env("kings_kilt", players=3)
        other.reset()
        fresh.append(_deal(other))
    assert len(set(fresh)) > 1


def test_the_seats_of_a_simultaneous_round_commit_lowest_first() -> None:
    env = aec_env("koa_kingmaker", players=3)
    env.reset(seed=1)
    assert env.state_now.is_simultaneous and env.state_now.to_move == (0, 1, 2)
    order = []
    for _ in range(3):
        order.append(env.agent_selection)
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert order == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (True, r"an action is an integer id, got True"),
        (np.bool_(True), r"an action is an integer id, got (np\.)?True"),
        (2.0, r"an action is an integer id, got 2\.0"),
        (-1, r"action -1 is not a decision id 0\.\.236"),
        (237, r"action 237 is not a decision id 0\.\.236"),
    ],
)
def test_an_action_that_is_not_a_decision_id_is_refused(action: Any, message: str) -> None:
    env = aec_env("kings_kilt", players=3)
    env.reset(seed=4)
    state, agent = env.state_now, env.agent_selection
    assert env.action_space(agent).n == 237
    spec = env.game.observation_spec()
    box = env.observation_space(agent)["observation"]
    assert box.low.tolist() == list(spec.low) and box.high.tolist() == list(spec.high)
    assert env.observation_space(agent)["action_mask"].shape == (237,)
    with pytest.raises(IllegalActionError, match=message):
        env.step(action)
    assert env.state_now is state and env.agent_selection == agent


def test_after_the_end_every_agent_is_told_its_win_share_from_player_0_on() -> None:
    env = aec_env("kilt_castle", players=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    told: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            told[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    returns = env.state_now.returns()
    assert list(told) == ["player_0", "player_1", "player_2"]
    assert told == {f"player_{p}": returns[p] for p in range(3)}


def test_the_name_render_modes_and_infos_are_the_documented_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(ValueError, match=r"render_mode must be one of \['ansi', 'human'\]"):
        aec_env("kings_kilt", render_mode="rgb_array", players=3)
    env = aec_env("kings_kilt", render_mode="human", players=3)
    assert env.metadata["name"] == "clangames_kings_kilt_v0"
    assert env.metadata["render_modes"] == ["ansi", "human"]
    env.reset(seed=3)
    assert env.infos == {f"player_{p}": {} for p in range(3)}
    env.infos["player_0"]["note"] = 1  # each agent has its own dict
    assert env.infos["player_1"] == {}
    capsys.readouterr()
    assert env.render() is None  # "human" prints instead of returning the text
    printed = capsys.readouterr().out
    assert env.state_now.prompt() in printed
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.state_now.prompt() in capsys.readouterr().out  # each step is drawn
