"""What learning frameworks need from every game, declared once per game as data.

Each game package declares an :class:`Interop` (its module ``<game>/encoding.py`` calls
:func:`declare` when imported): the facts known before a game is loaded
(:class:`GameFacts`, read from the registered spec with ``spec.facts()``), which action
classes are chance outcomes, its observation encoding and its two length bounds. The
kernel derives the rest, the same way for every game (:class:`LoadedInterop`, cached on
the loaded game): chance outcomes and decisions each numbered contiguously in their own
range (the game's action ids and texts stay as they are), the tensor encoder, and the
information state (:class:`InformationState`).

The utility convention is the kernel's, for every game: at the end each of the k winners
gets 1/k and everyone else 0, so returns are constant-sum with sum 1, minimum 0 and
maximum 1, and there are no rewards before the end (see :data:`UTILITY`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.encoding import ObservationSpec
from clangames.engine.errors import ClanGamesError, InvalidParameterError

if TYPE_CHECKING:
    from clangames.engine.game import Game, GameSpec, Parameter
    from clangames.engine.state import State


class InteropError(ClanGamesError):
    """A game lacks (or breaks) its interoperability declaration."""


@attrs.frozen(slots=True)
class Utility:
    """How returns are scored, for frameworks that ask (OpenSpiel's utility type)."""

    kind: str
    """``"constant_sum"``: the returns of every finished game add up to ``total``."""
    total: float
    minimum: float
    maximum: float
    terminal_only: bool
    """True if every reward comes at the end (no intermediate rewards)."""


UTILITY = Utility(kind="constant_sum", total=1.0, minimum=0.0, maximum=1.0, terminal_only=True)
"""Every clangames game's convention: a win share. The k winners get 1/k each, the rest 0
(``State.returns``). Constant-sum with total 1 rather than zero-sum because a game of three
or more seats has no natural loss value, and shares compare across player counts."""


@attrs.frozen(slots=True)
class GameFacts:
    """What a game is, known from its registered spec before any game is loaded."""

    has_chance: bool
    has_simultaneous_moves: bool
    has_hidden_information: bool
    utility: Utility = UTILITY


@attrs.frozen(slots=True)
class LengthBounds:
    """Two bounds on every game's history: ``decisions`` counts the nodes where players
    decide (a simultaneous round, whatever the number of commitments, counts once) and
    ``chance`` the chance nodes. The conformance harness checks both along every game."""

    decisions: int
    chance: int


@attrs.frozen(slots=True)
class Interop:
    """A game's declaration: its facts, its chance action classes, and how to build its
    observation encoding and its length bounds for a loaded game."""

    facts: GameFacts
    chance_actions: tuple[type, ...]
    observation_spec: Callable[[Any], ObservationSpec] = attrs.field(eq=False)
    length_bounds: Callable[[Any], LengthBounds] = attrs.field(eq=False)


_DECLARED: dict[str, Interop] = {}


def declare(name: str, interop: Interop) -> Interop:
    """Record game ``name``'s declaration (its package does this when imported)."""
    from clangames.engine.registry import canonical_name

    _DECLARED[canonical_name(name)] = interop
    return interop


def declared(name: str) -> Interop:
    """Game ``name``'s declaration; InteropError if it has none."""
    from clangames.engine.registry import canonical_name

    try:
        return _DECLARED[canonical_name(name)]
    except KeyError:
        raise InteropError(
            f"game {name!r} declares no observation encoding, chance actions or length bounds"
            " (call clangames.engine.interop.declare in its package)"
        ) from None


def is_declared(name: str) -> bool:
    """True if game ``name`` has a declaration."""
    from clangames.engine.registry import canonical_name

    return canonical_name(name) in _DECLARED


def spec_facts(spec: GameSpec) -> GameFacts:
    """The facts a registered game declares, without loading it."""
    return declared(spec.name).facts


class LoadedInterop:
    """A loaded game's interoperability data, built once per game (``game.interop``)."""

    def __init__(self, game: Game) -> None:
        declaration = declared(game.name)
        self.facts = declaration.facts
        self.observation_spec = declaration.observation_spec(game)
        self.bounds = declaration.length_bounds(game)
        chance_types = declaration.chance_actions
        actions = game.actions.actions
        chance = [i for i, a in enumerate(actions) if isinstance(a, chance_types)]
        decisions = [i for i, a in enumerate(actions) if not isinstance(a, chance_types)]
        self.chance_ids: tuple[int, ...] = tuple(chance)
        """The game's ids of its chance outcomes, rising."""
        self.decision_ids: tuple[int, ...] = tuple(decisions)
        """The game's ids of the actions players take, rising."""
        chance_index = [-1] * len(actions)
        decision_index = [-1] * len(actions)
        for k, i in enumerate(chance):
            chance_index[i] = k
        for k, i in enumerate(decisions):
            decision_index[i] = k
        self.chance_index: tuple[int, ...] = tuple(chance_index)
        """Per game id: its place among the chance outcomes (0..num_chance_outcomes-1), or -1."""
        self.decision_index: tuple[int, ...] = tuple(decision_index)
        """Per game id: its place among the decisions (0..num_decision_actions-1), or -1."""

    @property
    def num_chance_outcomes(self) -> int:
        """How many distinct chance outcomes the game has."""
        return len(self.chance_ids)

    @property
    def num_decision_actions(self) -> int:
        """How many distinct actions players can take."""
        return len(self.decision_ids)


def loaded_interop(game: Game) -> LoadedInterop:
    """``game``'s interoperability data (built on first use, then kept on the game)."""
    found: LoadedInterop | None = game.__dict__.get("_interop")
    if found is None:
        found = LoadedInterop(game)
        game.__dict__["_interop"] = found
    return found


# -- counting a history against the length bounds -------------------------------------------
Round = tuple[str, tuple[int, ...]] | None
"""The simultaneous node a move was last made at (phase name, players to move), or None."""


def count_step(state: State, previous: Round) -> tuple[int, int, Round]:
    """What a move from ``state`` adds to the decision and chance counts, and the round
    to pass to the next call (see :class:`LengthCount`)."""
    phase = state.phase
    to_move = phase.to_move
    if to_move == (-1,):  # CHANCE
        return 0, 1, None
    if not phase.simultaneous:
        return 1, 0, None
    same_round = (
        previous is not None
        and previous[0] == phase.name
        and len(to_move) < len(previous[1])
        and set(to_move) <= set(previous[1])
    )
    return (0 if same_round else 1), 0, (phase.name, to_move)


@attrs.frozen(slots=True)
class LengthCount:
    """Decision and chance nodes met so far along a history (see :class:`LengthBounds`).

    :meth:`step` is called with each state a move is made from: a chance node counts one
    chance node; a turn counts one decision; a simultaneous node counts one decision when
    its round starts, that is unless the previous move was a commitment at a simultaneous
    node of the same phase that left a strict subset of its players still to move.
    """

    decisions: int = 0
    chance: int = 0
    previous: Round = None

    def step(self, state: State) -> LengthCount:
        """The count after a move from ``state``."""
        decision, chance, previous = count_step(state, self.previous)
        return LengthCount(self.decisions + decision, self.chance + chance, previous)

    def exceeds(self, bounds: LengthBounds) -> str | None:
        """Which bound this count is past, in words, or None."""
        if self.decisions > bounds.decisions:
            return f"{self.decisions} decisions, above the declared bound {bounds.decisions}"
        if self.chance > bounds.chance:
            return f"{self.chance} chance nodes, above the declared bound {bounds.chance}"
        return None


# -- information states --------------------------------------------------------------------
def _observation_bytes(state: State, player: int) -> bytes:
    # An observation is a frozen attrs value of ints, bools, strings and tuples, so its
    # repr is canonical and cheaper than any encoding of it.
    return repr(state.observation(player)).encode()


@attrs.frozen(slots=True)
class InformationState:
    """What seat ``player`` knows of a history: the sequence of its distinct successive
    observations and its own actions, kept as a running BLAKE2b digest (``key``, 16
    bytes). Two histories that ``player`` cannot tell apart give equal keys; if it saw or
    did something different, the keys differ (but for a digest collision).

    Start with :meth:`start` at the first state, then :meth:`after` for each move. An
    observation repeated unchanged (a move ``player`` cannot perceive) adds nothing.
    """

    player: int
    key: bytes
    last: bytes = attrs.field(repr=False)
    entries: int = 0
    """How many observations and own actions the key holds."""

    # Immutable, so a copy is the value itself (frameworks deep-copy what states hold).
    def __copy__(self) -> InformationState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> InformationState:
        return self

    @classmethod
    def start(cls, state: State, player: int) -> InformationState:
        """``player``'s information state at ``state``, the start of a history."""
        seen = _observation_bytes(state, player)
        return cls(player, _chain(b"", b"o", seen), seen, 1)

    def after(self, mover: int, action_id: int, state: State) -> InformationState:
        """The information state once ``mover`` took the action of id ``action_id`` and
        the game reached ``state``."""
        key, entries = self.key, self.entries
        if mover == self.player:
            key = _chain(key, b"a", action_id.to_bytes(4, "big"))
            entries += 1
        seen = _observation_bytes(state, self.player)
        if seen == self.last:
            return InformationState(self.player, key, seen, entries)
        return InformationState(self.player, _chain(key, b"o", seen), seen, entries + 1)

    @property
    def text(self) -> str:
        """The key as text (hex digits), e.g. for OpenSpiel's information-state string."""
        return self.key.hex()


def _chain(key: bytes, tag: bytes, payload: bytes) -> bytes:
    h = hashlib.blake2b(key, digest_size=16)
    h.update(tag)
    h.update(len(payload).to_bytes(4, "big"))
    h.update(payload)
    return h.digest()


def information_states(
    states: Sequence[State], moves: Sequence[tuple[int, int]], player: int
) -> InformationState:
    """``player``'s information state after a whole history: ``states[0]`` the start,
    ``moves[i]`` (mover, action id) leading from ``states[i]`` to ``states[i + 1]``."""
    if len(states) != len(moves) + 1:
        raise InteropError(f"a history of {len(moves)} moves has {len(moves) + 1} states")
    info = InformationState.start(states[0], player)
    for (mover, action_id), state in zip(moves, states[1:], strict=True):
        info = info.after(mover, action_id, state)
    return info


# -- parameters as text -------------------------------------------------------------------
def parameter_text(param: Parameter, value: object) -> str:
    """A parameter value as text: ``""`` for None (a parameter whose default is None,
    such as a data-file path, means "the built-in data"), else ``str(value)``."""
    return "" if value is None else str(value)


def parameter_value(param: Parameter, text: str) -> object:
    """The parameter value that :func:`parameter_text` wrote as ``text`` (checked)."""
    if text == "" and param.default is None:
        return None
    if param.kind is int:
        try:
            value: object = int(text)
        except ValueError:
            raise InvalidParameterError(
                f"parameter {param.name!r} must be an integer, got {text!r}"
            ) from None
    elif param.kind is bool:
        if text.lower() not in ("true", "false", "1", "0"):
            raise InvalidParameterError(
                f"parameter {param.name!r} must be true/false, got {text!r}"
            )
        value = text.lower() in ("true", "1")
    else:
        value = text
    return value


__all__ = [
    "UTILITY",
    "GameFacts",
    "InformationState",
    "Interop",
    "InteropError",
    "LengthBounds",
    "LengthCount",
    "LoadedInterop",
    "Utility",
    "count_step",
    "declare",
    "declared",
    "information_states",
    "is_declared",
    "loaded_interop",
    "parameter_text",
    "parameter_value",
    "spec_facts",
]
