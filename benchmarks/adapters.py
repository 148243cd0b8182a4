"""The adapters' cost per step, as ratios to OpenSpiel's ``python_tic_tac_toe`` through the
same API in the same run (needs the ``openspiel`` and ``pettingzoo`` extras).

    python benchmarks/adapters.py [--games N] [--game NAME] [--players P] [--repeat R]

Columns, per game and player count:

- ``os / os-pyttt``: a random playout through ``pyspiel`` (``legal_actions``,
  ``apply_action``, ``chance_outcomes``; the sequential variant of a game with
  simultaneous moves), per step, over the same loop on ``python_tic_tac_toe``;
- ``os+obs / os-pyttt+obs``: the same loops also reading the mover's observation tensor
  (``observation_tensor()``) at every decision;
- ``pz / pz-pyttt``: a random-agent loop through PettingZoo's AEC API (``agent_iter``,
  ``last``, ``step``; observations with action masks) over the same loop on
  ``python_tic_tac_toe`` behind a minimal AEC environment of the same shape;
- ``tensor / step``: one ``state.observation_tensor(p)`` call over one step-by-step step
  of the kernel API (the cost a learner adds per observation);
- ``pz obs / step``: one observation of the PettingZoo environment (``env.observe``: the
  tensor as a NumPy array and the action mask) over the same kernel step.

The goal (issue 16) is no slower than that simplest Python game: ratios of at most 1.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _measure
import numpy as np
import pyspiel
from gymnasium import spaces
from open_spiel.python.games import tic_tac_toe  # noqa: F401 - registers python_tic_tac_toe
from pettingzoo import AECEnv

import clangames
from clangames.adapters.openspiel import openspiel_name, register_games
from clangames.adapters.pettingzoo import aec_env


def openspiel_loop(game: Any, games: int, seed: int, observe: bool) -> int:
    """Random playouts through pyspiel; the steps taken (chance included)."""
    gen = random.Random(seed)
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x = gen.random()
                action = outcomes[-1][0]
                for candidate, probability in outcomes:
                    x -= probability
                    if x < 0:
                        action = candidate
                        break
                state.apply_action(action)
            else:
                if observe:
                    state.observation_tensor()
                legal = state.legal_actions()
                state.apply_action(legal[gen.randrange(len(legal))])
            steps += 1
    return steps


class SpielAEC(AECEnv):  # type: ignore[misc]
    """A pyspiel game behind the AEC API, shaped like the clangames environment (an
    observation dict with the tensor and an action mask), for the reference."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "spiel_aec"}

    def __init__(self, game: Any) -> None:
        super().__init__()
        self.game = game
        n = game.num_players()
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.n_actions = game.num_distinct_actions()
        self.gen = random.Random(0)

    def reset(self, seed: int | None = None, options: Any = None) -> None:
        if seed is not None:
            self.gen = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.state = self.game.new_initial_state()
        self._settle()

    def _settle(self) -> None:
        state = self.state
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(self.gen.choices(actions, probs)[0])
        player = state.current_player()
        self.agent_selection = self.agents[player if player >= 0 else 0]

    def observe(self, agent: str) -> dict[str, Any]:
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.n_actions, np.int8)
        if not self.state.is_terminal() and self.state.current_player() == p:
            mask[self.state.legal_actions()] = 1
        return {
            "observation": np.array(self.state.observation_tensor(p), np.float32),
            "action_mask": mask,
        }

    def observation_space(self, agent: str) -> Any:
        return spaces.Box(0, 1, (self.game.observation_tensor_size(),), np.float32)

    def action_space(self, agent: str) -> Any:
        return spaces.Discrete(self.n_actions)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            for p, a in enumerate(self.agents):
                self.rewards[a] = float(self.state.returns()[p])
                self.terminations[a] = True
        else:
            self._settle()
        self._accumulate_rewards()


def pettingzoo_loop(env: Any, games: int, seed: int) -> int:
    """Random-agent AEC loops; the actions taken."""
    gen = np.random.default_rng(seed)
    steps = 0
    for i in range(games):
        env.reset(seed=seed + i)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(gen.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps


def random_states(game: clangames.Game, seed: int) -> list[clangames.State]:
    """The states of one random game, its end left out."""
    states = []
    rng = clangames.Rng(seed)
    state = game.initial_state()
    while not state.is_terminal:
        states.append(state)
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            state = state.apply(action)
        else:
            legal = state.legal_actions(state.to_move[0])
            index, rng = rng.below(len(legal))
            state = state.apply(legal[index], state.to_move[0])
    return states


def tensor_calls(states: list[clangames.State], players: int) -> int:
    """``observation_tensor`` for every seat of every state."""
    for state in states:
        for p in range(players):
            state.observation_tensor(p)
    return len(states) * players


def pettingzoo_observations(env: Any, states: list[clangames.State]) -> int:
    """The environment's observation of every seat at every state (the seats take turns,
    as after each step of a game)."""
    for state in states:
        env.state_now = state
        for agent in env.possible_agents:
            env.observe(agent)
    return len(states) * len(env.possible_agents)


def _runs(
    spiel: Any, ttt: Any, env: Any, ttt_env: Any, game: Any, games: int, ref: int, seed: int
) -> list[Any]:
    """The nine timed loops of one row, in the order the ratios pair them."""
    states = random_states(game, seed)
    observed = aec_env(game.name, players=game.num_players)
    observed.reset(seed=seed)
    return [
        lambda: openspiel_loop(spiel, games, seed, False),
        lambda: openspiel_loop(ttt, ref, seed, False),
        lambda: openspiel_loop(spiel, games, seed, True),
        lambda: openspiel_loop(ttt, ref, seed, True),
        lambda: pettingzoo_loop(env, games, seed),
        lambda: pettingzoo_loop(ttt_env, ref, seed),
        lambda: tensor_calls(states, game.num_players),
        lambda: _measure.random_playouts(game, games, seed),
        lambda: pettingzoo_observations(observed, states),
    ]


def run(args: argparse.Namespace) -> dict[str, Any]:
    register_games()
    ttt = pyspiel.load_game("python_tic_tac_toe")
    ttt_env = SpielAEC(ttt)
    rows = []
    ref_games = args.games * 20
    for name, players in _measure.configurations("adapters.py", args.game, args.players):
        game = clangames.load(name, players=players)
        sequential = game.info.has_simultaneous_moves
        spiel = pyspiel.load_game(f"{openspiel_name(name, sequential)}(players={players})")
        env = aec_env(name, players=players)
        runs = _runs(spiel, ttt, env, ttt_env, game, args.games, ref_games, args.seed)
        timed = _measure.best_of(runs, args.repeat)
        per = [seconds / count for count, seconds in timed]
        rows.append(
            {
                "game": name,
                "players": players,
                "openspiel_vs_pyttt": per[0] / per[1],
                "openspiel_observed_vs_pyttt": per[2] / per[3],
                "pettingzoo_vs_pyttt": per[4] / per[5],
                "tensor_vs_step": per[6] / per[7],
                "pettingzoo_observation_vs_step": per[8] / per[7],
            }
        )
    return {**_measure.report_head(args), "rows": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    _measure.add_common_options(parser, games=5, unit="games")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    _measure.check_common_options(parser, args)
    report = run(args)
    print(f"adapters: cost per step as ratios, {_measure.machine()}")
    print(
        f"{'game':<16}{'players':>8}{'os/pyttt':>10}{'os+obs':>9}{'pz/pyttt':>10}{'tensor':>9}"
        f"{'pz obs':>9}"
    )
    for r in report["rows"]:
        print(
            f"{r['game']:<16}{r['players']:>8}{r['openspiel_vs_pyttt']:>10.2f}"
            f"{r['openspiel_observed_vs_pyttt']:>9.2f}{r['pettingzoo_vs_pyttt']:>10.2f}"
            f"{r['tensor_vs_step']:>9.2f}{r['pettingzoo_observation_vs_step']:>9.2f}"
        )
    _measure.write_json(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
