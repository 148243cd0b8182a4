"""Every clangames game through PettingZoo's own tests (the ``pettingzoo`` extra)."""

from __future__ import annotations

from typing import Any

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")
np = pytest.importorskip("numpy")

import clangames  # noqa: E402
from clangames.adapters.pettingzoo import aec_env, parallel_env  # noqa: E402
from clangames.engine.errors import IllegalActionError  # noqa: E402

GAMES = ["clan_feud", "kilt_castle", "kings_kilt", "koa_kingmaker"]
SIMULTANEOUS = ["clan_feud", "koa_kingmaker"]


# PettingZoo warns about every dict observation with an action mask (its classic board
# games get the same two warnings): the mask is the documented way to give legal moves.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name", GAMES)
def test_api_test(name: str) -> None:
    spec = clangames.game_spec(name)
    for players in (spec.min_players, spec.max_players):
        pettingzoo_test.api_test(aec_env(name, players=players), num_cycles=150)


@pytest.mark.parametrize("name", GAMES)
def test_seed_test(name: str) -> None:
    pettingzoo_test.seed_test(lambda: aec_env(name, players=3), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_render_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> Any:
        return aec_env(name, render_mode=render_mode, players=2)

    pettingzoo_test.render_test(make)
    env = make("ansi")
    env.reset(seed=1)
    text = env.render()
    assert clangames.game_spec(name).title.split()[0] in text or "player" in text
    assert env.state_now.prompt() in text


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_parallel_api_and_seed_tests(name: str) -> None:
    pettingzoo_test.parallel_api_test(parallel_env(name, players=3), num_cycles=400)
    pettingzoo_test.parallel_seed_test(lambda: parallel_env(name, players=3), num_cycles=100)


def _random_aec_game(seed: int) -> tuple[list[Any], dict[str, float]]:
    env = aec_env("koa_kingmaker", players=3)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        actions.append(action)
        env.step(action)
    return actions, totals


def test_a_seed_gives_the_same_game_and_win_shares_sum_to_one() -> None:
    first, totals = _random_aec_game(9)
    again, totals_again = _random_aec_game(9)
    assert first == again and totals == totals_again
    assert sum(totals.values()) == pytest.approx(1.0)
    assert set(totals.values()) <= {0.0, 0.5, 1.0 / 3, 1.0}


def test_observations_are_the_declared_tensor_and_mask() -> None:
    env = aec_env("kings_kilt", players=3)
    env.reset(seed=4)
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    obs = env.observe(agent)
    state = env.state_now
    assert obs["observation"].tolist() == state.observation_tensor(seat)
    game = env.game
    legal = [game.interop.decision_index[game.action_id(a)] for a in state.legal_actions(seat)]
    assert np.flatnonzero(obs["action_mask"]).tolist() == legal
    other = env.possible_agents[(seat + 1) % 3]
    assert not env.observe(other)["action_mask"].any()
    assert env.observation_space(agent)["observation"].contains(obs["observation"])
    with pytest.raises(IllegalActionError, match="decision id"):
        env.step(10_000)
    assert env.state_now is state  # refused, nothing changed


def test_parallel_env_forfeits_an_illegal_action() -> None:
    env = parallel_env("koa_kingmaker", players=3)
    observations, _ = env.reset(seed=2)
    illegal = {
        agent: int(np.flatnonzero(obs["action_mask"] == 0)[0])
        for agent, obs in observations.items()
    }
    _, rewards, terminations, _, infos = env.step(illegal)
    assert all(terminations.values()) and env.agents == []
    assert sum(rewards.values()) == pytest.approx(1.0)
    assert all(info["illegal_action"] for info in infos.values())


def test_parallel_env_needs_simultaneous_moves() -> None:
    with pytest.raises(ValueError, match="no simultaneous moves"):
        parallel_env("kings_kilt", players=2)


@pytest.mark.parametrize("name", GAMES)
def test_observations_follow_the_kernel_along_a_game(name: str) -> None:
    # The environment patches one tensor from observation to observation and hands out
    # copies: each observation, the mover's or another seat's, is the kernel's tensor,
    # and stays so after later steps.
    env = aec_env(name, players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    handed_out = []
    for agent in env.agent_iter(max_iter=150):
        obs, _, terminated, truncated, _ = env.last()
        seat = env.possible_agents.index(agent)
        state = env.state_now
        for p, view in [
            (seat, obs),
            ((seat + 1) % 3, env.observe(env.possible_agents[(seat + 1) % 3])),
        ]:
            expected = np.array(state.observation_tensor(p), np.float32)
            assert np.array_equal(view["observation"], expected)
            handed_out.append((view["observation"], expected))
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(handed_out) > 20
    assert all(np.array_equal(given, expected) for given, expected in handed_out)


def test_parallel_observations_are_every_agents_tensor_and_mask() -> None:
    env = parallel_env("clan_feud", players=3)
    observations, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        state = env.state_now
        game = env.game
        for agent, obs in observations.items():
            seat = env.possible_agents.index(agent)
            expected = np.array(state.observation_tensor(seat), np.float32)
            assert np.array_equal(obs["observation"], expected)
            if seat in state.to_move:
                legal = [
                    game.interop.decision_index[game.action_id(a)]
                    for a in state.legal_actions(seat)
                ]
                assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(legal)
            else:
                assert np.flatnonzero(obs["action_mask"]).tolist() == [len(obs["action_mask"]) - 1]
        if not env.agents:
            break
        actions = {
            agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            for agent, obs in observations.items()
        }
        observations, *_ = env.step(actions)
