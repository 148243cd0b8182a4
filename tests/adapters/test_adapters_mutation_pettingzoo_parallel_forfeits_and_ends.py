"""The PettingZoo Parallel environment: an agent whose action is missing or outside its
mask forfeits (0 to the offenders, the others share the win, only the offenders flagged),
a game played to the end pays each agent its own win share and nothing before, and a
finished game masks every action (the ``pettingzoo`` extra).

Found by the adapters' mutation audit: a forfeit sharing the win among everyone, flagging
every agent as an offender, a missing action taken as id 0, -1 accepted as the no-move
id, every agent paid seat 0's share, a reward before the end, a finished game still
offering the no-move id, and "human" rendering skipped after a step all passed every
test before.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from clangames.adapters.pettingzoo import parallel_env  # noqa: E402
from clangames.engine.errors import InvalidArgumentError  # noqa: E402


def _first_legal(observations: dict[str, Any]) -> dict[str, int]:
    return {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}


@pytest.mark.parametrize("offence", ["unmasked", "missing", "negative"])
def test_one_offender_forfeits_and_the_others_share_the_win(offence: str) -> None:
    env = parallel_env("clan_feud", players=3)
    observations, _ = env.reset(seed=1)
    assert env.state_now.to_move == (0,)  # player_1 and player_2 owe "no move"
    actions: dict[str, Any] = _first_legal(observations)
    if offence == "unmasked":
        actions["player_1"] = int(np.flatnonzero(observations["player_1"]["action_mask"] == 0)[0])
    elif offence == "missing":
        del actions["player_1"]
    else:
        actions["player_1"] = -1  # not the no-move id, however Python indexes
    _, rewards, terminations, _, infos = env.step(actions)
    assert rewards == {"player_0": 0.5, "player_1": 0.0, "player_2": 0.5}
    assert infos == {
        "player_0": {"illegal_action": False},
        "player_1": {"illegal_action": True},
        "player_2": {"illegal_action": False},
    }
    assert all(terminations.values()) and env.agents == []


def test_a_game_to_the_end_pays_each_agent_its_own_share_and_nothing_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = parallel_env("koa_kingmaker", render_mode="human", players=3)
    observations, _ = env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(500):
        capsys.readouterr()
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()
        }
        observations, rewards, terminations, _, _ = env.step(actions)
        assert env.state_now.prompt() in capsys.readouterr().out  # each step is drawn
        if not env.agents:
            break
        assert set(rewards.values()) == {0.0} and not any(terminations.values())
    returns = env.state_now.returns()
    assert env.state_now.is_terminal and all(terminations.values())
    assert rewards == {f"player_{p}": returns[p] for p in range(3)}
    assert len(set(returns)) > 1  # seat 0's share paid to everyone would not pass
    for obs in observations.values():  # a finished game offers nothing, not even "no move"
        assert not obs["action_mask"].any()


def test_a_missing_action_forfeits_even_where_id_0_would_be_legal() -> None:
    env = parallel_env("koa_kingmaker", players=3)
    observations, _ = env.reset(seed=2)
    actions: dict[str, Any] = _first_legal(observations)
    absent = next(a for a, o in observations.items() if o["action_mask"][0])
    del actions[absent]
    _, rewards, _, _, infos = env.step(actions)
    assert rewards[absent] == 0.0 and infos[absent] == {"illegal_action": True}
    assert sum(rewards.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("actions", [[0, 1, 2], None, 3])
def test_a_step_that_is_not_a_dict_is_refused_and_changes_nothing(actions: Any) -> None:
    # Found while auditing: a list (or None) of actions was an AttributeError on ``.get``.
    env = parallel_env("koa_kingmaker", players=3)
    env.reset(seed=2)
    state = env.state_now
    with pytest.raises(InvalidArgumentError, match=r"takes a dict of agent name -> action id, got"):
        env.step(actions)
    assert env.state_now is state and env.agents == env.possible_agents
