"""Every clangames game as a PettingZoo environment (needs the ``pettingzoo`` extra).

>>> from clangames.adapters.pettingzoo import aec_env
>>> env = aec_env("kings_kilt", players=3)
>>> env.reset(seed=42)

:func:`aec_env` gives an AEC environment for any game: agents ``player_0`` ...; each
observation is a dict of ``observation`` (the game's declared tensor,
``state.observation_tensor(seat)``, float32 within the declared bounds) and
``action_mask`` (int8 over the game's decisions, numbered contiguously as in
``game.interop.decision_ids``; all zero when it is not the agent's turn). An action is a
decision id, a Python or NumPy integer (not a bool, a float or a string); one that is not,
or is outside the mask, raises IllegalActionError and changes nothing. Chance is
resolved inside the environment by a clangames :class:`~clangames.engine.rng.Rng`, so
``reset(seed=s)`` always gives the same game for the same actions. At a simultaneous node
the seats still to commit act one after the other (the lowest first), each seeing only
who has committed, as the kernel's observations show it. Rewards are the kernel's win
shares (1/k to each of the k winners, 0 to the rest), given at the end only.

:func:`parallel_env` gives a Parallel environment for games with simultaneous moves
(KOA Kingmaker, Clan Feud): each step takes one action from every live agent; the
agents not to move have one legal action, the extra last id ("no move"), and a
simultaneous round is taken whole in one step. An agent whose action is missing, not a
decision id or outside its mask forfeits: the game ends, the offenders get 0, the others
share the win and the offenders' infos say ``illegal_action``.

``render_mode="ansi"`` returns the public table as drawn by
:mod:`clangames.rendering.text`; ``"human"`` prints it.
"""

from __future__ import annotations

import io
import secrets
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from rich.console import Console

from clangames.engine.chance import sample_chance
from clangames.engine.encoding import TensorWriter
from clangames.engine.errors import IllegalActionError, InvalidArgumentError
from clangames.engine.game import Game
from clangames.engine.registry import load
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.rendering.text import renderer_for, seat_view

RENDER_MODES = ["ansi", "human"]


def is_action_id(action: Any) -> bool:
    """Whether ``action`` can be a decision id: a Python or NumPy integer. Not a float
    (``1.5`` is no id, and ``2.0`` is a computation gone wrong somewhere), not a string,
    and not a bool: ``True`` equals 1, but an agent that sends one most likely meant a
    mask entry, not the id of the second action. Gymnasium's ``Discrete.sample()`` gives a
    NumPy integer, which is taken."""
    if isinstance(action, (bool, np.bool_)):
        return False
    return isinstance(action, (int, np.integer))


class _Table:
    """What both environments share: the game, the spaces and the chance stream."""

    def __init__(self, name: str, params: dict[str, Any], no_move: bool) -> None:
        self.game: Game = load(name, **params)
        game = self.game
        interop = game.interop
        self.decision_ids = interop.decision_ids
        self.actions = game.actions.actions
        # Each action object straight to its decision id (shared objects, cached hashes).
        self.decision_of = {self.actions[i]: k for k, i in enumerate(interop.decision_ids)}
        self.no_move = interop.num_decision_actions if no_move else -1
        n_actions = interop.num_decision_actions + (1 if no_move else 0)
        spec = game.observation_spec()
        # The last observation's tensor, patched where the next one differs: a whole
        # tensor converted to NumPy costs several times its encoding (Clan Feud's holds
        # thousands of floats). Each observation hands out a copy.
        self.tensor = np.zeros(spec.size, np.float32)
        self.writer = TensorWriter(spec, self.tensor.data)
        self.agents = [f"player_{p}" for p in range(game.num_players)]
        self.seat = {agent: p for p, agent in enumerate(self.agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=np.array(spec.low, np.float32),
                        high=np.array(spec.high, np.float32),
                        dtype=np.float32,
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
                }
            )
            for agent in self.agents
        }
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.agents}
        self.n_actions = n_actions
        self.rng = Rng(secrets.randbits(64))
        self.renderer = renderer_for(game)

    def __getstate__(self) -> dict[str, Any]:
        # The writer holds a memoryview of the tensor, which cannot be pickled: a copy
        # (copy.deepcopy, pickle) takes the tensor alone and starts a writer of its own.
        state = dict(self.__dict__)
        del state["writer"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.writer = TensorWriter(self.game.observation_spec(), self.tensor.data)

    def reset_rng(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = Rng(seed)

    def settle(self, state: State) -> State:
        """Resolve chance nodes from the environment's stream until someone decides."""
        rng = self.rng
        while state.is_chance:
            action, rng = sample_chance(state, rng)
            state = state.apply(action)
        self.rng = rng
        return state

    def observe(self, state: State, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        """``seat``'s observation tensor (``state.observation_tensor(seat)``) and mask."""
        self.writer.write(state.observation(seat))
        return {"observation": self.tensor.copy(), "action_mask": self.mask(state, seat)}

    def mask(self, state: State, seat: int) -> np.ndarray[Any, Any]:
        """1 for each decision id ``seat`` may take now (the no-move id for a seat that
        has nothing to commit in a simultaneous round)."""
        mask = bytearray(self.n_actions)  # set byte by byte: cheaper than NumPy indexing
        if seat in state.to_move:
            index = self.decision_of
            for action in state.legal_actions(seat):
                mask[index[action]] = 1
        elif self.no_move >= 0 and not state.is_terminal:
            mask[self.no_move] = 1
        return np.frombuffer(mask, np.int8)

    def apply(self, state: State, seat: int, action: Any) -> State:
        if not is_action_id(action):
            raise IllegalActionError(f"an action is an integer id, got {action!r}")
        a = int(action)
        if not 0 <= a < len(self.decision_ids):
            raise IllegalActionError(
                f"action {a} is not a decision id 0..{len(self.decision_ids) - 1}"
            )
        return state.apply(self.actions[self.decision_ids[a]], seat)

    def render_text(self, state: State) -> str:
        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, record=False)
        console.print(seat_view(self.renderer, state, None))
        console.print(state.prompt())
        return out.getvalue()


class _TableEnv:
    """What both environments share: the game's table, spaces, metadata and render mode."""

    metadata: ClassVar[dict[str, Any]]

    def _set_up(
        self, name: str, render_mode: str | None, params: dict[str, Any], no_move: bool
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self._table = _Table(name, params, no_move=no_move)
        self.metadata = {**type(self).metadata, "name": f"clangames_{self._table.game.name}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = list(self._table.agents)
        self.observation_spaces = self._table.observation_spaces
        self.action_spaces = self._table.action_spaces
        self.state_now: State = self._table.game.initial_state()

    @property
    def game(self) -> Game:
        """The clangames game."""
        return self._table.game

    def _seat_of(self, agent: Any) -> int:
        """``agent``'s seat; InvalidArgumentError naming the agents for any other name (a
        bare KeyError said only the name)."""
        seat = self._table.seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            agents = self.possible_agents
            raise InvalidArgumentError(
                f"{agent!r} is not an agent of this environment (expected one of"
                f" {', '.join(agents)})"
            )
        return seat

    def _no_game(self) -> IllegalActionError:
        """The refusal of a step (or ``last``) when no game is being played: before the
        first ``reset`` or once every agent is done (it used to be a KeyError or an
        IndexError from inside the environment)."""
        return IllegalActionError(
            "no game is being played (reset() has not been called, or every agent is"
            " done): reset() starts one"
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_of(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_of(agent)
        return self.action_spaces[agent]

    def render(self) -> str | None:
        text = self._table.render_text(self.state_now)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class ClanGamesAECEnv(_TableEnv, AECEnv):  # type: ignore[misc]
    """A clangames game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(self, name: str, /, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        self._set_up(name, render_mode, params, no_move=False)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        table = self._table
        table.reset_rng(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.state_now = table.settle(table.game.initial_state())
        self._select()

    def _select(self) -> None:
        to_move = self.state_now.to_move
        if to_move:
            self.agent_selection = self.agents[to_move[0]]
        else:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        return self._table.observe(self.state_now, self._seat_of(agent))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.agents:
            raise self._no_game()
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if not self.agents:
            raise self._no_game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table
        state = table.apply(self.state_now, table.seat[agent], action)
        self.state_now = state = table.settle(state)
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal:
            returns = state.returns()
            for seat, name in enumerate(self.agents):
                self.rewards[name] = float(returns[seat])
                self.terminations[name] = True
            self._accumulate_rewards()
        # Before the end every reward is 0 (win shares come at the end only), so there is
        # nothing to accumulate.
        self._select()
        if self.render_mode == "human":
            self.render()


class ClanGamesParallelEnv(_TableEnv, ParallelEnv):  # type: ignore[misc]
    """A clangames game with simultaneous moves as a PettingZoo Parallel environment."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES}

    def __init__(self, name: str, /, render_mode: str | None = None, **params: Any) -> None:
        self._set_up(name, render_mode, params, no_move=True)
        if not self._table.game.info.has_simultaneous_moves:
            raise ValueError(f"{name} has no simultaneous moves: use aec_env (the AEC environment)")
        self.agents: list[str] = []

    def _observations(self) -> dict[str, dict[str, np.ndarray[Any, Any]]]:
        table = self._table
        return {agent: table.observe(self.state_now, table.seat[agent]) for agent in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        table = self._table
        table.reset_rng(seed)
        self.agents = list(self.possible_agents)
        self.state_now = table.settle(table.game.initial_state())
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        if not isinstance(actions, Mapping):
            raise InvalidArgumentError(
                f"a Parallel step takes a dict of agent name -> action id, got {actions!r}"
            )
        if not self.agents:
            raise self._no_game()
        table = self._table
        state = self.state_now
        offenders = [
            agent
            for agent in self.agents
            if actions.get(agent) is None or not self._legal(agent, actions[agent])
        ]
        if offenders:
            return self._forfeit(offenders)
        for seat in state.to_move:
            state = table.apply(state, seat, actions[self.agents[seat]])
        self.state_now = state = table.settle(state)
        done = state.is_terminal
        agents = self.agents
        if done:
            returns = state.returns()
            rewards = {a: float(returns[table.seat[a]]) for a in agents}
        else:
            rewards = dict.fromkeys(agents, 0.0)
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, False)
        observations = self._observations()
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _legal(self, agent: str, action: Any) -> bool:
        # Checked as the AEC environment checks an action: 1.5, "3" or True used to pass
        # here through int() and then raise in the middle of the step instead of
        # forfeiting, and an agent with no move could send "7" for the no-move id.
        if not is_action_id(action):
            return False
        mask = self._table.mask(self.state_now, self._table.seat[agent])
        return 0 <= action < len(mask) and bool(mask[action])

    def _forfeit(self, offenders: list[str]) -> tuple[Any, Any, Any, Any, Any]:
        # An action outside an agent's mask (or none) ends the game: the offenders get 0
        # and the others share the win, so returns still sum to 1 (PettingZoo's classic
        # convention for illegal moves, which its Parallel seed test relies on: it sends
        # unmasked samples).
        agents = self.agents
        fair = [a for a in agents if a not in offenders]
        share = 1.0 / len(fair) if fair else 1.0 / len(agents)
        rewards = {a: (share if a in fair or not fair else 0.0) for a in agents}
        observations = self._observations()
        infos = {a: {"illegal_action": a in offenders} for a in agents}
        terminations = dict.fromkeys(agents, True)
        truncations = dict.fromkeys(agents, False)
        self.agents = []
        return observations, rewards, terminations, truncations, infos


def aec_env(name: str, /, render_mode: str | None = None, **params: Any) -> ClanGamesAECEnv:
    """An AEC environment for clangames game ``name`` with ``params``."""
    return ClanGamesAECEnv(name, render_mode=render_mode, **params)


def parallel_env(
    name: str, /, render_mode: str | None = None, **params: Any
) -> ClanGamesParallelEnv:
    """A Parallel environment for a clangames game with simultaneous moves."""
    return ClanGamesParallelEnv(name, render_mode=render_mode, **params)
