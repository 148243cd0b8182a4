"""Games: what a game *is* (as data) and the services every game offers.

A :class:`Game` is a loaded, parameterised game: it declares its facts in a
:class:`GameInfo` (players, chance, hidden information, sizes), owns the table of all its
distinct actions, creates the initial state and reads states back from JSON.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.actions import ActionTable
from clangames.engine.codec import decoder, describe, encode, parse_json
from clangames.engine.errors import InvalidParameterError, StateDecodeError
from clangames.engine.integers import as_integer
from clangames.engine.liveness import check_playable

if TYPE_CHECKING:
    from clangames.engine.encoding import ObservationSpec
    from clangames.engine.interop import GameFacts, LoadedInterop
    from clangames.engine.position import Notation
    from clangames.engine.state import State
    from clangames.engine.statistics import GameStatistics


@attrs.frozen(slots=True)
class Parameter:
    """A game parameter: its name, default, type, allowed values and what it means."""

    name: str
    default: object
    doc: str
    kind: type = int
    choices: tuple[object, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def validate(self, game: str, value: object) -> object:
        """``value`` if it is allowed, else an InvalidParameterError saying what is."""
        if value is None and self.default is None:
            return None
        if self.kind is int:
            number = as_integer(value)  # a NumPy integer, say, becomes an int
            ok_type = number is not None
            value = number if ok_type else value
        else:
            ok_type = isinstance(value, self.kind)
        if not ok_type:
            raise InvalidParameterError(
                f"{game}: parameter {self.name!r} must be {self.kind.__name__}, got {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidParameterError(
                f"{game}: parameter {self.name!r} must be one of {allowed}, got {value!r}"
            )
        if isinstance(value, int) and (
            (self.minimum is not None and value < self.minimum)
            or (self.maximum is not None and value > self.maximum)
        ):
            if self.maximum is None:
                expected = f"at least {self.minimum}"
            elif self.minimum is None:
                expected = f"at most {self.maximum}"
            else:
                expected = f"in {self.minimum}..{self.maximum}"
            raise InvalidParameterError(
                f"{game}: parameter {self.name!r} must be {expected}, got {value!r}"
            )
        return value


@attrs.frozen(slots=True)
class GameInfo:
    """The facts a game declares about itself (OpenSpiel's GameType + sizes)."""

    name: str
    title: str
    num_players: int
    min_players: int
    max_players: int
    has_chance: bool
    has_simultaneous_moves: bool
    has_hidden_information: bool
    max_game_length: int
    num_distinct_actions: int
    winners_follow_scores: bool = True
    """True if no non-winner ever has more points than a winner (the harness checks it)."""


@attrs.frozen(slots=True)
class GameSpec:
    """A registered game: name, title, player range, parameters and its factory."""

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    parameters: tuple[Parameter, ...]
    factory: Callable[[Mapping[str, Any]], Game] = attrs.field(repr=False, eq=False)

    def parameter(self, name: str) -> Parameter:
        """The declared parameter called ``name``."""
        for p in self.parameters:
            if p.name == name:
                return p
        raise InvalidParameterError(
            f"{self.name}: unknown parameter {name!r}; expected one of "
            f"{', '.join(p.name for p in self.parameters)}"
        )

    def facts(self) -> GameFacts:
        """What the game is (chance, simultaneous moves, hidden information, utility),
        known before a game is loaded (declared in ``clangames.engine.interop``)."""
        from clangames.engine.interop import spec_facts

        return spec_facts(self)

    def resolve(self, params: Mapping[str, object]) -> dict[str, object]:
        """Defaults filled in and every value checked."""
        for name in params:
            self.parameter(name)
        return {
            p.name: p.validate(self.name, params.get(p.name, p.default)) for p in self.parameters
        }


def _encoded_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """A game's parameters as JSON data (a dict: the encoder keeps a dict a dict)."""
    data: dict[str, Any] = encode(dict(params))
    return data


def _reload(name: str, params: dict[str, Any]) -> Game:
    """Unpickle a game: the process's loaded game of that name and parameters (the
    registry keeps one per process, so this builds the tables only the first time)."""
    import clangames  # noqa: F401  (registers the built-in games)
    from clangames.engine.registry import load

    return load(name, **params)


class Game(abc.ABC):
    """A loaded game with fixed parameters. Use :func:`clangames.load` to get one."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        self.spec = spec
        self._params: Mapping[str, Any] = MappingProxyType(dict(params))
        self._key = (spec.name, tuple(sorted(self._params.items())))
        players = self._params.get("players")
        self._players: int | None = players if type(players) is int else None
        """The seat count, read by the rules at every step (None: worked out on demand)."""
        self._params_json: dict[str, Any] | None = None
        self._read_state: Callable[[Any, Game], State] | None = None
        """``state_from_json``'s decoder of ``state_type`` (written on first use)."""

    def params_json(self) -> dict[str, Any]:
        """The parameters as plain JSON data (a fresh dict each time, encoded once: every
        state's JSON carries them)."""
        found = self._params_json
        if found is None:
            found = _encoded_params(self._params)
            if any(isinstance(v, (list, dict)) for v in found.values()):
                return found  # nested values: a shallow copy would share them
            self._params_json = found
        return dict(found)

    # -- identity -------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The registry name, e.g. ``"kings_kilt"``."""
        return self.spec.name

    @property
    def params(self) -> Mapping[str, Any]:
        """The effective parameters, defaults included (read-only)."""
        return self._params

    @property
    def num_players(self) -> int:
        """How many seats take part."""
        players = self._players
        return int(self._params["players"]) if players is None else players

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Game) and other._key == self._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"clangames.load({self.name!r}, {args})"

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        # Pickled by name and parameters (for multiprocessing): unpickling reuses the
        # receiving process's loaded game, and the registry finds the game once its
        # package is imported.
        return (_reload, (self.name, dict(self._params)))

    # A loaded game never changes (its memo dicts are caches only), so copies are the game
    # itself: deep-copying a state, an observation or a record never rebuilds tables.
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    # -- what the game is -----------------------------------------------------------------
    @property
    @abc.abstractmethod
    def info(self) -> GameInfo:
        """Players, chance, hidden information and sizes, as data."""

    @property
    @abc.abstractmethod
    def actions(self) -> ActionTable[Any]:
        """Every distinct action of the game, in id order."""

    @property
    @abc.abstractmethod
    def state_type(self) -> type[State]:
        """The class of this game's states (for decoding)."""

    @abc.abstractmethod
    def initial_state(self) -> State:
        """The root of the game tree (often a chance node that deals)."""

    # -- interoperability (clangames.engine.interop) ----------------------------------------
    @property
    def interop(self) -> LoadedInterop:
        """Chance and decision id ranges, length bounds and the observation encoding."""
        from clangames.engine.interop import loaded_interop

        return loaded_interop(self)

    def observation_spec(self) -> ObservationSpec:
        """The declared encoding of observations as a flat float tensor (named parts,
        shapes, bounds, public or private)."""
        return self.interop.observation_spec

    @property
    def num_chance_outcomes(self) -> int:
        """How many distinct chance outcomes the game has (their own id range in
        ``interop.chance_index``)."""
        return self.interop.num_chance_outcomes

    # -- actions: ids and text -------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        """The size of the action id space."""
        return len(self.actions)

    def action_id(self, action: Any) -> int:
        """The stable integer id of an action (InvalidActionError if not one of ours)."""
        return self.actions.id(action)

    def action_from_id(self, action_id: int) -> Any:
        """The action with a given id."""
        return self.actions.get(action_id)

    def action_text(self, action: Any) -> str:
        """The short text form of an action, which :meth:`parse_action` reads back."""
        return self.actions.text(action)

    def parse_action(self, text: str) -> Any:
        """The action whose text form is ``text``."""
        return self.actions.parse(text)

    # -- persistence ------------------------------------------------------------------------
    def state_from_json(self, data: Any) -> State:
        """A state from :meth:`State.to_json` output (a dict or a JSON string).

        Raises StateDecodeError naming the first bad field, for any input whatsoever (text
        goes through :func:`~clangames.engine.codec.parse_json`); the game and parameters
        in the data must be this game's.
        """
        if type(data) is not dict:
            if isinstance(data, (str, bytes)):
                data = parse_json(data, "state")
            if not isinstance(data, dict):
                raise StateDecodeError(f"state: expected an object, got {type(data).__name__}")
        if "game" not in data or "params" not in data or "state" not in data:
            for key in ("game", "params", "state"):
                if key not in data:
                    raise StateDecodeError(f"state: missing field {key!r}")
        name = self.spec.name
        if type(data["game"]) is not str or data["game"] != name:
            raise StateDecodeError(
                f"state.game: this is {name!r}, the data is for {describe(data['game'])}"
            )
        params = self._params_json
        if params is None:
            params = self.params_json()
        if type(data["params"]) is not dict or data["params"] != params:
            raise StateDecodeError(
                f"state.params: the data has {describe(data['params'], 200)}, this game has"
                f" {params!r}"
            )
        read = self._read_state
        if read is None:
            read = self._read_state = decoder(self.state_type, "state", ("game",))
        state = read(data["state"], self)
        state.check_consistency()
        check_playable(state)
        return state

    # -- positions: readable text, names and scenarios (see engine/position.py) ---------------
    def statistics(self) -> GameStatistics | None:
        """The balance statistics this game measures about a finished game
        (:mod:`clangames.engine.statistics`); None when it declares none. Every built-in
        game declares them (the conformance harness checks)."""
        return None

    def make_notation(self) -> Notation:
        """This game's position notation. The default writes every state field generically
        (numbers and lists); games override it to write their parts in their own names."""
        from clangames.engine.position import Notation

        return Notation(self)

    @property
    def names(self) -> Mapping[str, tuple[str, ...]]:
        """The game's vocabulary by kind (``"clan"``, ``"card"``, ``"colour"`` ...): the
        names its positions use, in index order."""
        from clangames.engine.position import notation_of

        return notation_of(self).names

    def state_from_position(self, text: str) -> State:
        """The state written by :meth:`State.to_position`; PositionError (a
        StateDecodeError) naming the bad token and what was expected."""
        from clangames.engine.position import notation_of

        return notation_of(self).read(text)

    def position(self, **parts: object) -> State:
        """A scenario: a state from the parts a test cares about, given in the game's
        names (``phase="turn@0"``, fields as notation text or lists); the rest is filled
        in consistently (cards nobody placed go to the pile or deck)."""
        from clangames.engine.position import notation_of

        return notation_of(self).build(**parts)
