"""Every clangames game as an OpenSpiel Python game (needs the ``openspiel`` extra).

>>> from clangames.adapters.openspiel import register_games
>>> import pyspiel
>>> names = register_games()
>>> game = pyspiel.load_game("clangames_kings_kilt(players=3)")

:func:`register_games` registers each registered clangames game as
``clangames_<name>``; a game with simultaneous moves (KOA Kingmaker, Clan Feud) also as
``clangames_<name>_sequential``, where the sealed commitments are taken one seat after the
other (each seat's observation shows only who has committed). Every clangames parameter is
an OpenSpiel parameter (a parameter whose default is None, a data-file path, is the
empty string for "the bundled data").

The numbering: player actions are the game's decisions numbered contiguously
(``game.interop.decision_ids``), chance outcomes the chance actions numbered contiguously
(``chance_ids``), so ``num_distinct_actions`` counts only what players can do and
``max_chance_outcomes`` only chance outcomes. In the simultaneous game a seat that takes
no part in a simultaneous round (a house that is out) has one legal action, the extra
last id ``(no move)``.

Observers: the default one gives ``state.observation_tensor(p)`` (the game's declared
encoding) and the observation's text; the public one (``private_info=NONE``) the public
observation in the same encoding; the information-state one (``perfect_recall=True``) the
key of :class:`clangames.engine.interop.InformationState` as a string (no tensor: no
game has a bound small enough for a fixed-size history tensor). Returns are the
kernel's win shares (constant-sum 1, terminal only). Cloning shares the immutable
clangames state; serialization is OpenSpiel's own (the history of action ids, replayed).
OpenSpiel's Python ISMCTS resamples through :func:`make_resampler` (``State.resample``);
``resample_from_infostate`` does the same for Python callers (OpenSpiel's C++ ISMCTS cannot
keep a state made in Python, see docs/adapters.md).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from operator import itemgetter
from typing import Any

import numpy as np
import pyspiel

from clangames.engine.encoding import TensorWriter
from clangames.engine.errors import IllegalActionError, InvalidArgumentError, InvalidParameterError
from clangames.engine.game import Game
from clangames.engine.interop import (
    InformationState,
    parameter_text,
    parameter_value,
)
from clangames.engine.phases import CHANCE
from clangames.engine.registry import game_spec, games, load
from clangames.engine.rng import Rng
from clangames.engine.state import State

PREFIX = "clangames_"
"""OpenSpiel names are ``clangames_<game>`` (and ``..._sequential``)."""
SEQUENTIAL_SUFFIX = "_sequential"
NO_MOVE_TEXT = "(no move)"

_REGISTERED: dict[str, tuple[str, bool]] = {}

_weight = itemgetter(1)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


def openspiel_name(name: str, sequential: bool = False) -> str:
    """The OpenSpiel short name of clangames game ``name``."""
    spec = game_spec(name)
    return PREFIX + spec.name + (SEQUENTIAL_SUFFIX if sequential else "")


def _game_type(name: str, sequential: bool) -> pyspiel.GameType:
    spec = game_spec(name)
    facts = spec.facts()
    simultaneous = facts.has_simultaneous_moves and not sequential
    params: dict[str, Any] = {p.name: parameter_text(p, p.default) for p in spec.parameters}
    for p in spec.parameters:
        if p.default is not None and p.kind is int:
            params[p.name] = p.default
    return pyspiel.GameType(
        short_name=openspiel_name(name, sequential),
        long_name=spec.title + (" (sequential commitments)" if sequential else ""),
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if facts.has_chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if facts.has_hidden_information or facts.has_simultaneous_moves
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class _Adapted:
    """What the adapter keeps of one loaded game: the clangames game and the id maps.

    It lives outside the pyspiel game object: a game that OpenSpiel builds from C++ (when
    it deserializes a state, say) can reach Python without the attributes its
    constructor set, so every lookup goes through :func:`_adapted` by the game's string.
    """

    def __init__(self, game: Game, sequential: bool) -> None:
        interop = game.interop
        self.clangames = game
        self.sequential = sequential
        self.simultaneous = game.info.has_simultaneous_moves and not sequential
        self.decision_ids = interop.decision_ids
        self.chance_ids = interop.chance_ids
        self.decision_index = interop.decision_index
        self.chance_index = interop.chance_index
        self.no_move = interop.num_decision_actions  # the extra id, simultaneous game only
        self.table = game.actions
        self.actions = game.actions.actions
        # Each action object straight to its OpenSpiel id (the table's actions are shared
        # objects with cached hashes): one lookup per legal action or chance outcome.
        ids = game.actions.actions
        self.decision_of = {ids[i]: k for k, i in enumerate(interop.decision_ids)}
        self.chance_of = {ids[i]: k for k, i in enumerate(interop.chance_ids)}
        # The tensor that State.observation_tensor hands out from Python, patched from
        # view to view (one at a time: the lock keeps a write and its read together).
        self.tensor = np.zeros(game.observation_spec().size, np.float32)
        self.writer = TensorWriter(game.observation_spec(), self.tensor.data)
        self.tensor_lock = threading.Lock()

    # Shared by every state of the game: OpenSpiel deep-copies a state's attributes.
    def __copy__(self) -> _Adapted:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Adapted:
        return self

    def __reduce__(self) -> tuple[type[_Adapted], tuple[Game, bool]]:
        # Pickled as the game (by name and parameters) and the variant, not its tables.
        return (_Adapted, (self.clangames, self.sequential))


class _Link:
    """One move of a history, linked to the one before (an immutable list that a clone
    shares instead of copying)."""

    __slots__ = ("depth", "kernel_id", "mover", "previous", "state")

    def __init__(self, previous: _Link | None, mover: int, kernel_id: int, state: State) -> None:
        self.previous = previous
        self.mover = mover
        self.kernel_id = kernel_id
        self.state = state
        self.depth: int = 1 if previous is None else previous.depth + 1

    def __copy__(self) -> _Link:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Link:
        return self

    def __reduce__(self) -> tuple[Any, tuple[list[tuple[int, int, State]]]]:
        # Pickled as a flat list: a chain of links would recurse once per move.
        moves = []
        link: _Link | None = self
        while link is not None:
            moves.append((link.mover, link.kernel_id, link.state))
            link = link.previous
        moves.reverse()
        return (_relink, (moves,))


def _relink(moves: list[tuple[int, int, State]]) -> _Link | None:
    link = None
    for mover, kernel_id, state in moves:
        link = _Link(link, mover, kernel_id, state)
    return link


_ADAPTED: dict[str, _Adapted] = {}


def _adapted(game: Any) -> _Adapted:
    found = game.__dict__.get("_adapted") if hasattr(game, "__dict__") else None
    if found is None:
        found = _ADAPTED[str(game)]
    return found


OPENSPIEL_INT_MAX = 2**31 - 1
"""The largest game length OpenSpiel's GameInfo holds (a C++ ``int``)."""


def _check_fits(game: Game, decisions: int, chance: int) -> None:
    """InvalidParameterError if the game's length bounds do not fit OpenSpiel's integers
    (a user's data file can allow games that long, e.g. Clan Feud's nested ``repeat``)."""
    for what, bound in (("decisions", decisions), ("chance nodes", chance)):
        if bound > OPENSPIEL_INT_MAX:
            raise InvalidParameterError(
                f"{game.name} with these parameters allows up to {bound} {what} in a game;"
                f" OpenSpiel takes game lengths up to {OPENSPIEL_INT_MAX}"
            )


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A clangames game behind OpenSpiel's Game API (built by ``pyspiel.load_game``)."""

    def __init__(self, params: dict[str, Any] | None, name: str, sequential: bool) -> None:
        spec = game_spec(name)
        given = dict(params or {})
        values: dict[str, Any] = {}
        for p in spec.parameters:
            if p.name in given:
                raw = given[p.name]
                values[p.name] = parameter_value(p, raw) if isinstance(raw, str) else raw
        game = load(spec.name, **values)
        adapted = _Adapted(game, sequential)
        interop = game.interop
        n = game.num_players
        decisions = interop.bounds.decisions
        if game.info.has_simultaneous_moves and sequential:
            decisions *= n  # each commitment of a round is a move of its own here
        _check_fits(game, decisions, interop.bounds.chance)
        info = pyspiel.GameInfo(
            num_distinct_actions=interop.num_decision_actions + (1 if adapted.simultaneous else 0),
            max_chance_outcomes=interop.num_chance_outcomes,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=decisions,
        )
        resolved = {
            p.name: (
                game.params[p.name]
                if isinstance(game.params[p.name], int)
                else parameter_text(p, game.params[p.name])
            )
            for p in spec.parameters
        }
        super().__init__(_game_type(name, sequential), info, resolved)
        self._adapted = adapted
        _ADAPTED[str(self)] = adapted

    @property
    def clangames(self) -> Game:
        """The clangames game behind this one."""
        return _adapted(self).clangames

    def max_chance_nodes_in_history(self) -> int:
        """The game's declared chance-node bound (``game.interop.bounds.chance``)."""
        return int(self.clangames.interop.bounds.chance)

    def new_initial_state(self) -> OpenSpielState:
        """The start of a game."""
        return OpenSpielState(self, self.clangames.initial_state())

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        """An observer for the default, public or information-state view."""
        return Observer(self, iig_obs_type, params)


class OpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A clangames state behind OpenSpiel's State API. ``clangames`` is the kernel state
    (immutable, shared by clones); the trail of moves serves the information states."""

    def __init__(self, game: OpenSpielGame, state: State) -> None:
        super().__init__(game)
        self._adapter = _adapted(game)
        self.clangames = state
        self._player = self._player_of(state)
        self._start = state
        self._trail: _Link | None = None
        self._infos: dict[int, tuple[int, InformationState]] = {}

    # -- flow -------------------------------------------------------------------------------
    def current_player(self) -> int:
        # OpenSpiel asks several times a step (to check a move, to record it, ...): the
        # answer is worked out once per kernel state.
        return self._player

    def _player_of(self, s: State) -> int:
        to_move = s.phase.to_move
        if not to_move:
            return _TERMINAL
        if to_move == (CHANCE,):
            return _CHANCE
        if s.phase.simultaneous and self._adapter.simultaneous:
            return _SIMULTANEOUS
        return to_move[0]

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    # OpenSpiel's own queries reach Python through its C++ half, which asks for the
    # current player several times per query. Called from Python, these answer at once,
    # as the C++ ones would; C++ callers still go through C++.
    def is_chance_node(self) -> bool:
        """Whether chance moves next (as ``pyspiel.State.is_chance_node``)."""
        return self._player == _CHANCE

    def is_simultaneous_node(self) -> bool:
        """Whether the seats move together next (as ``pyspiel.State.is_simultaneous_node``)."""
        return self._player == _SIMULTANEOUS

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (the current player's by default), as
        ``pyspiel.State.observation_tensor``: the default observer's floats, made here
        without the round trip through C++ (which copies them part by part)."""
        if player is None:
            player = self._player
        if not 0 <= player < self._adapter.clangames.num_players:
            return list(pyspiel.State.observation_tensor(self, player))  # its error
        game = self._adapter
        with game.tensor_lock:
            game.writer.write(self.clangames.observation(player))
            floats: list[float] = game.tensor.tolist()
        return floats

    def legal_actions(self, player: int | None = None) -> list[int]:
        """``player``'s legal actions (the current player's by default), as
        ``pyspiel.State.legal_actions``."""
        current = self._player
        if player is None:
            player = current
        if player == current >= 0:  # a decision, asked of its mover
            return self._legal_actions(player)
        return list(pyspiel.State.legal_actions(self, player))

    def returns(self) -> list[float]:
        return list(self.clangames.returns())

    def rewards(self) -> list[float]:
        return list(self.clangames.returns())

    # -- actions ------------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        s = self.clangames
        game = self._adapter
        if player not in s.phase.to_move:
            if game.simultaneous and s.phase.simultaneous and not s.is_terminal:
                return [game.no_move]
            return []
        return list(map(game.decision_of.__getitem__, s.legal_actions(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weights = self.clangames.chance_weights()
        total = sum(map(_weight, weights))
        index = self._adapter.chance_of
        return [(index[a], w / total) for a, w in weights]

    def _apply_action(self, action: int) -> None:
        game = self._adapter
        s = self.clangames
        if self._player == _CHANCE:
            kernel_id = _kernel_id(game.chance_ids, action, "chance outcome", "an outcome id")
            player = CHANCE
        else:
            kernel_id = _kernel_id(game.decision_ids, action, "action", "a decision id")
            player = s.phase.to_move[0]
        # _step inlined: this runs once per move of every playout
        after = s.apply(game.actions[kernel_id], player)
        self._trail = _Link(self._trail, player, kernel_id, after)
        self.clangames = after
        self._player = self._player_of(after)

    def _apply_actions(self, actions: list[int]) -> None:
        game = self._adapter
        table = game.table.actions
        state, trail = self.clangames, self._trail
        if len(actions) != self.num_players():
            # A short list used to fail with an IndexError part way through the round.
            raise InvalidArgumentError(
                f"a joint action holds one action per player ({self.num_players()}),"
                f" got {len(actions)}: {list(actions)!r}"
            )
        for player in state.phase.to_move:
            kernel_id = _kernel_id(game.decision_ids, actions[player], "action", "a decision id")
            state = state.apply(table[kernel_id], player)
            trail = _Link(trail, player, kernel_id, state)
        # The round is kept only once every commitment is taken: a refused one leaves the
        # state before the round, not half-way through it.
        self._trail = trail
        self.clangames = state
        self._player = self._player_of(state)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._adapter
        if player == CHANCE:
            kernel_id = _kernel_id(game.chance_ids, action, "chance outcome", "an outcome id")
            return game.table.text(game.table.actions[kernel_id])
        if game.simultaneous and action == game.no_move:
            return NO_MOVE_TEXT
        kernel_id = _kernel_id(game.decision_ids, action, "action", "a decision id")
        return game.table.text(game.table.actions[kernel_id])

    # -- views --------------------------------------------------------------------------------
    def information_state(self, player: int) -> InformationState:
        """``player``'s information state after this history (built once per position)."""
        cached = self._infos.get(player)
        if cached is None:
            position, info = 0, InformationState.start(self._start, player)
        else:
            position, info = cached
        pending = []
        link = self._trail
        while link is not None and link.depth > position:
            pending.append(link)
            link = link.previous
        for step in reversed(pending):
            info = info.after(step.mover, step.kernel_id, step.state)
        depth = 0 if self._trail is None else self._trail.depth
        self._infos[player] = (depth, info)
        return info

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """A state ``player_id`` cannot tell from this one, its hidden information dealt
        again through ``State.resample`` (the seed drawn from OpenSpiel's sampler). The
        resampled state keeps ``player_id``'s information state; the others' start anew
        from the resampled state (only the acting seat's key is the same in every world)."""
        seed = int(probability_sampler() * 2.0**53)
        return self.resampled(player_id, Rng(seed))

    def resampled(self, player: int, rng: Rng) -> OpenSpielState:
        """A state ``player`` cannot tell from this one (``State.resample`` with ``rng``)."""
        other = self.clangames.resample(player, rng)
        clone = OpenSpielState(self.get_game(), other)
        clone._infos[player] = (0, self.information_state(player))
        return clone

    def __str__(self) -> str:
        s = self.clangames
        return f"{s.prompt()}\n{s.public_observation()!r}"


def _kernel_id(ids: tuple[int, ...], action: int, what: str, expected: str) -> int:
    """The kernel action id of OpenSpiel id ``action``; IllegalActionError for an id
    outside ``ids`` (a negative one would otherwise index from the end)."""
    if not 0 <= action < len(ids):
        raise IllegalActionError(f"{what} {action} is not {expected} 0..{len(ids) - 1}")
    return ids[action]


class Observer:
    """OpenSpiel's PyObserver for a clangames game: default, public or information state.

    ``tensor`` (and the parts in ``dict``, views of it) is read-only: :meth:`set_from`
    rewrites only the floats that changed since the last view it wrote
    (:class:`~clangames.engine.encoding.TensorWriter`), so nothing else may write there.
    """

    def __init__(
        self, game: OpenSpielGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"clangames observers take no parameters, got {params!r}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        self._game = game
        self.perfect_recall = bool(obs_type.perfect_recall)
        self.public_only = obs_type.private_info == pyspiel.PrivateInfoType.NONE
        spec = _adapted(game).clangames.observation_spec()
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        self._writer: TensorWriter | None = None
        if self.perfect_recall:
            self.tensor: np.ndarray[Any, Any] | None = None
        else:
            buffer = np.zeros(spec.size, np.float32)
            self._writer = TensorWriter(spec, buffer.data)
            self.tensor = buffer.view()
            self.tensor.flags.writeable = False
            for part in spec.parts:
                if self.public_only and not part.public:
                    continue
                self.dict[part.name] = self.tensor[part.start : part.start + part.size]

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        if self._writer is None:
            return
        s = state.clangames
        self._writer.write(s.public_observation() if self.public_only else s.observation(player))

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        if self.perfect_recall:
            return state.information_state(player).text
        s = state.clangames
        obs = s.public_observation() if self.public_only else s.observation(player)
        return repr(obs)


def _factory(name: str, sequential: bool) -> type[OpenSpielGame]:
    # A class, not a closure: OpenSpiel's registry keeps the factory until the process
    # ends, after Python has shut down, and dropping the last reference to a closure then
    # aborts the process; a class lives in a reference cycle and is never freed that way.
    def __init__(self: OpenSpielGame, params: dict[str, Any] | None = None) -> None:
        OpenSpielGame.__init__(self, params, name, sequential)

    title = _class_name(openspiel_name(name, sequential))
    cls = type(title, (OpenSpielGame,), {"__init__": __init__, "__module__": __name__})
    globals()[title] = cls  # pickles find the class by name (see ``__getattr__``)
    return cls


def _class_name(short_name: str) -> str:
    return "".join(part.title() for part in short_name.split("_"))


def __getattr__(attribute: str) -> Any:
    # Unpickling a game in a fresh process looks its class up here before anything has
    # registered the games: registering them defines every class.
    if attribute.startswith("Clangames"):
        register_games()
        if attribute in globals():
            return globals()[attribute]
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def make_resampler(seed: int) -> Callable[[OpenSpielState, int], OpenSpielState]:
    """A resampler for OpenSpiel's Python ISMCTS (``bot.set_resampler(...)``): each call
    deals the hidden information again through ``State.resample``, drawing from one
    clangames ``Rng`` stream started at ``seed`` (so a search is reproducible)."""
    stream = [Rng(seed)]

    def resample(state: OpenSpielState, player: int) -> OpenSpielState:
        sub = stream[0].fork(1)
        stream[0] = stream[0].fork(0)
        return state.resampled(player, sub)

    return resample


def register_games() -> list[str]:
    """Register every clangames game with OpenSpiel (once per process); the names."""
    importlib.import_module("clangames")
    names = []
    for spec in games():
        variants = [False, True] if spec.facts().has_simultaneous_moves else [False]
        for sequential in variants:
            short = openspiel_name(spec.name, sequential)
            if short not in _REGISTERED:
                pyspiel.register_game(
                    _game_type(spec.name, sequential), _factory(spec.name, sequential)
                )
                _REGISTERED[short] = (spec.name, sequential)
            names.append(short)
    return names


def load_game(name: str, /, sequential: bool = False, **params: Any) -> OpenSpielGame:
    """``pyspiel.load_game`` of clangames game ``name`` with ``params`` (registering the
    games first)."""
    register_games()
    game: OpenSpielGame = pyspiel.load_game(openspiel_name(name, sequential), params)
    return game
