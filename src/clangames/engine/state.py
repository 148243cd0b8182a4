"""States: immutable game positions with legal moves, transitions and views.

Every game's state subclasses :class:`State` as a frozen, slotted attrs class holding a
``game`` back-reference and a :class:`~clangames.engine.phases.Phase`. The kernel does the
bookkeeping that is the same for every game (who may act, checking an action before it is
applied, chance probabilities, returns, ids, JSON); the game supplies the rules through a
few methods (``_legal``, ``_apply``, ``_chance_weights``, views and scoring).
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.codec import JSON, encode
from clangames.engine.compiled import bind_compiled_rules
from clangames.engine.display import draw
from clangames.engine.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidArgumentError,
    StateDecodeError,
)
from clangames.engine.integers import as_integer
from clangames.engine.phases import CHANCE, Phase
from clangames.engine.rng import Rng

if TYPE_CHECKING:
    from clangames.engine.game import Game

Action = Any
"""A game's action: a small frozen attrs value (each game has its own classes)."""


_WEIGHTS = -2
"""Memo key of the chance weights (players are >= 0, chance is -1)."""


def checked_seat(state: State, player: object, what: str) -> int:
    """``player`` as a seat of ``state``'s game (an int, or an integer such as NumPy's),
    else InvalidArgumentError naming it and the seats there are."""
    n = state.game.num_players
    seat = as_integer(player)
    if seat is not None and 0 <= seat < n:
        return seat
    raise InvalidArgumentError(
        f"{what}: {player!r} is not a seat of {state.game.name} (expected an int from 0 to {n - 1})"
    )


def _player_argument(player: object, what: str) -> int:
    """``player`` of the step-by-step API (``legal_actions``, ``is_legal``, ``apply``) as
    an int: a NumPy integer is taken as its int, anything else that is no integer (a
    float, a bool, a string) is an InvalidArgumentError. A ``0.0`` used to find seat 0's
    memoised actions on one state and reach the rules, which raised TypeError, on a fresh
    one. Only a player that is not a plain int comes here."""
    seat = as_integer(player)
    if seat is None:
        raise InvalidArgumentError(
            f"{what}: {player!r} is not a player (expected an int: a seat, or {CHANCE} for chance)"
        )
    return seat


def _observation_checked(method: Callable[[Any, int], Any]) -> Callable[[Any, int], Any]:
    """A game's ``observation`` refusing what is not a seat before its code runs (a plain
    int seat costs one test)."""

    @functools.wraps(method)
    def observation(self: State, player: int) -> Any:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            player = checked_seat(self, player, "observation")
        return method(self, player)

    observation._checks_seat = True  # type: ignore[attr-defined]
    return observation


def _resample_checked(method: Callable[[Any, int, Rng], Any]) -> Callable[[Any, int, Rng], Any]:
    """A game's ``resample`` refusing what is not a seat or not an ``Rng`` before its code
    runs."""

    @functools.wraps(method)
    def resample(self: State, player: int, rng: Rng) -> Any:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            player = checked_seat(self, player, "resample")
        if not isinstance(rng, Rng):
            raise InvalidArgumentError(
                f"resample: {rng!r} is not a generator (expected a clangames Rng)"
            )
        return method(self, player, rng)

    resample._checks_seat = True  # type: ignore[attr-defined]
    return resample


def _explain_checked(method: Callable[[Any, Any, int], str]) -> Callable[[Any, Any, int], str]:
    """A game's ``explain_illegal`` refusing what is not a seat before its code runs (it
    reads the seat's hand or pieces to say why: seat -1 would describe the last seat's),
    and answering itself for a seat not to move, so that every game says alike whose move
    it is and the game's own reasons are asked only of a seat to move."""

    @functools.wraps(method)
    def explain_illegal(self: State, action: Any, player: int) -> str:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            player = checked_seat(self, player, "explain_illegal")
        if player not in self.phase.to_move:
            why = self._why_not_to_move(player)
            return f"{self.game.action_text(action)!r} is not legal: {why}"
        return method(self, action, player)

    explain_illegal._checks_seat = True  # type: ignore[attr-defined]
    return explain_illegal


def _players(seats: tuple[int, ...]) -> str:
    """``"players 0 and 2"``, ``"players 0, 2 and 3"``."""
    *rest, last = seats
    return f"players {', '.join(map(str, rest))} and {last}"


def _decision(prompt: str, mover: int) -> str:
    """``prompt`` without a leading ``"player 3 (dark grey): "`` naming ``mover``, whose
    turn the sentence already names."""
    head, sep, rest = prompt.partition(": ")
    if sep and (head == f"player {mover}" or head.startswith(f"player {mover} (")):
        return rest
    return prompt


_SEAT_CHECKS: dict[str, Callable[[Any], Any]] = {
    "observation": _observation_checked,
    "resample": _resample_checked,
    "explain_illegal": _explain_checked,
}
"""The methods of a game's state that take a seat, with the check each gets
(``State.__init_subclass__`` applies them to every game's state class)."""


_Layout = tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]
_LAYOUTS: dict[type, _Layout] = {}
"""Per state class: the fields a pickle carries, and the cache slots it resets."""


def _layout(cls: type[State]) -> _Layout:
    """The names of ``cls``'s data fields (in declaration order) and each cache slot with
    the value it starts with: computed once per class."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        kept: list[str] = []
        reset: list[tuple[str, Any]] = []
        for field in attrs.fields(cls):
            if field.metadata.get("cache"):
                if not isinstance(field.default, (type(None), bool, int)):  # as drafts need
                    raise TypeError(
                        f"{cls.__name__}.{field.name}: a cache field needs a constant default"
                        f" (None, a bool or an int), not {field.default!r}"
                    )
                reset.append((field.name, field.default))
            else:
                kept.append(field.name)
        slots = {name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())}
        if "_attrs_cached_hash" in slots:  # attrs' cache_hash=True: worked out again
            reset.append(("_attrs_cached_hash", None))
        layout = _LAYOUTS[cls] = (tuple(kept), tuple(reset))
    return layout


def _restore(cls: type[State], values: tuple[Any, ...]) -> State:
    """Unpickle a state: its data fields set directly (a state was valid when pickled),
    its caches empty."""
    kept, reset = _layout(cls)
    if len(values) != len(kept):
        raise StateDecodeError(
            f"pickled {cls.__name__}: {len(values)} fields, this version has {len(kept)}"
            " (pickles are for processes of one clangames version; save states with to_json)"
        )
    state = object.__new__(cls)
    for name, value in zip(kept, values, strict=True):
        object.__setattr__(state, name, value)
    for name, value in reset:
        object.__setattr__(state, name, value)
    return state


@attrs.frozen(slots=True)
class State(abc.ABC):
    """Base of every game state. Immutable: :meth:`apply` returns a new state."""

    _memo: dict[int, tuple[Any, ...]] | None = attrs.field(
        init=False,
        default=None,
        eq=False,
        repr=False,
        hash=False,
        metadata={"json": False, "cache": True},
    )

    # Subclasses declare these two as attrs fields.
    game: Game = attrs.field(init=False, eq=False, repr=False, metadata={"json": False})
    phase: Phase = attrs.field(init=False, eq=False, repr=False, metadata={"json": False})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The optional compiled build's rules are C functions, which a class body's
        # ``_legal = turn.legal_actions`` does not bind: give them Python methods (a no-op
        # for the pure-Python install; see engine/compiled.py).
        super().__init_subclass__(**kwargs)
        bind_compiled_rules(cls)
        # Every game's seat-taking methods refuse a seat that is not a player once, here,
        # so no game can index its tables with -1 (the last seat's secrets) or 7.
        for name, check in _SEAT_CHECKS.items():
            method = vars(cls).get(name)
            if method is not None and not getattr(method, "_checks_seat", False):
                setattr(cls, name, check(method))

    # -- copies ------------------------------------------------------------------------------
    # A state never changes (its caches only fill in, with the same values for equal
    # states), so a copy, shallow or deep, is the state itself: it keeps its game, its
    # memo and the identity of its legal actions, and costs nothing. Frameworks that
    # clone states (OpenSpiel's Clone deep-copies) get this for free.
    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self

    def __reduce__(self) -> tuple[Any, tuple[type[State], tuple[Any, ...]]]:
        # The data fields only: cache fields (``metadata={"cache": True}``, such as the
        # legal-action memo) would carry copies of the table's actions, which the identity
        # checks of ``apply`` no longer recognise. The game pickles by name and parameters
        # and unpickles as the process's loaded game (see ``Game.__reduce__``).
        kept, _ = _layout(type(self))
        return (_restore, (type(self), tuple([getattr(self, name) for name in kept])))

    # -- flow ------------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        """Players who owe a decision now; ``(CHANCE,)`` at a chance node; ``()`` when over."""
        return self.phase.to_move

    @property
    def is_chance(self) -> bool:
        """True at a chance node."""
        return self.phase.to_move == (CHANCE,)

    @property
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return not self.phase.to_move

    @property
    def is_simultaneous(self) -> bool:
        """True at a node where several players commit in any order."""
        return self.phase.simultaneous

    @property
    def current_player(self) -> int:
        """The one player (or CHANCE) to move; ValueError at simultaneous or terminal nodes."""
        to_move = self.phase.to_move
        if len(to_move) != 1:
            raise ValueError(f"no single player to move: to_move is {to_move!r}")
        return to_move[0]

    # -- legal actions ---------------------------------------------------------------------
    def _legal_memo(self, player: int) -> tuple[Action, ...] | None:
        """The legal actions of a player to move, computed once per state (None for a
        player who is not to move). The memo lives in a slot outside equality and JSON."""
        memo = self._memo
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        actions = memo.get(player)
        if actions is None:
            if player not in self.phase.to_move:
                return None
            if player == CHANCE:
                weights = memo[_WEIGHTS] = self._chance_weights()
                actions = tuple([a for a, _ in weights])
            else:
                actions = self._legal(player)
            memo[player] = actions
        return actions

    def legal_actions(self, player: int | None = None) -> tuple[Action, ...]:
        """The legal actions of ``player`` (default: the one player to move), sorted by id;
        empty for a player who is not to move. At a chance node, the outcomes."""
        if player is None:
            to_move = self.phase.to_move
            if len(to_move) != 1:
                return ()
            player = to_move[0]
        elif type(player) is not int:
            player = _player_argument(player, "legal_actions")
        actions = self._legal_memo(player)
        return () if actions is None else actions

    def legal_mask(self, player: int | None = None) -> tuple[bool, ...]:
        """A boolean vector over all action ids, true for the legal ones."""
        return self.game.actions.mask(self.legal_actions(player))

    def is_legal(self, action: Action, player: int | None = None) -> bool:
        """True if ``player`` may apply ``action`` now."""
        try:
            self._check(action, player)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def _check(self, action: Action, player: int | None) -> int:
        if player is not None and type(player) is not int:
            player = _player_argument(player, "is_legal")  # apply's player is an int here
        to_move = self.phase.to_move
        entry = None
        if player is None and len(to_move) == 1:
            player = to_move[0]
        if player is not None:
            entry = self._legal_memo(player)
        if entry is not None:
            # Legal actions are the table's shared objects, so an identity scan (in C)
            # almost always finds the action; an equal but separately built action falls
            # back to comparison by value.
            actions = entry
            if any(map(is_, actions, repeat(action))):
                return player  # type: ignore[return-value]
            # An equal action built separately: find the table's shared instance by hash.
            try:
                shared = self.game.actions.intern(action)
            except InvalidActionError:
                shared = None
            if shared is not None and any(map(is_, actions, repeat(shared))):
                return player  # type: ignore[return-value]
        try:
            self.game.actions.id(action)
        except InvalidActionError:
            raise InvalidActionError(
                f"{action!r} is not an action of {self.game.name}"
                f" (expected e.g. {self.game.actions.actions[0]!r})"
            ) from None
        if not to_move:
            raise IllegalActionError(f"the game is over; {action!r} cannot be applied")
        if player is None:
            raise IllegalActionError(
                f"{_players(to_move)} are to move; say which one applies {action!r}"
            )
        if entry is None:
            if len(to_move) == 1:
                whose = "chance's" if to_move == (CHANCE,) else f"player {to_move[0]}'s"
                now = f"it is {whose} turn"
            else:
                now = f"{_players(to_move)} are to move"
            raise IllegalActionError(f"player {player} is not to move ({now}); got {action!r}")
        if player == CHANCE:  # explain_illegal takes seats (it reads their hands)
            raise IllegalActionError(
                f"{self.game.action_text(action)!r} is not an outcome of this chance node"
                f" ({self.prompt()}); {len(entry)} outcomes are possible"
            )
        raise IllegalActionError(self.explain_illegal(action, player))

    def apply(self, action: Action, player: int | None = None) -> State:
        """The state after ``player`` (default: the one to move) takes ``action``.

        Raises InvalidActionError for something that is not an action of this game and
        IllegalActionError (with the reason) for one the rules forbid here; either way
        this state is unchanged.
        """
        if player is not None and type(player) is not int:
            # A NumPy seat, say (the compiled rules take an int); a float or a bool is refused.
            player = _player_argument(player, "apply")
        # Fast path: the legal actions are memoised and the action is one of their shared
        # objects. Anything else takes the full check, which explains a refusal.
        memo = self._memo
        if memo is not None:
            if player is None:
                to_move = self.phase.to_move
                if len(to_move) == 1:
                    player = to_move[0]
            actions = memo.get(player) if player is not None else None
            if actions is not None and any(map(is_, actions, repeat(action))):
                return self._apply(action, player)  # type: ignore[arg-type]
        player = self._check(action, player)
        return self._apply(action, player)

    def apply_text(self, text: str, player: int | None = None) -> State:
        """:meth:`apply` for an action given in its text form."""
        return self.apply(self.game.parse_action(text), player)

    @_explain_checked
    def explain_illegal(self, action: Action, player: int) -> str:
        """Why ``action`` is not legal for ``player`` here: for a seat not to move, whose
        move it is (:meth:`_why_not_to_move`); for the seat to move, the decision and how
        many actions are legal (games refine this with the rule that stops the action)."""
        return (
            f"{self.game.action_text(action)!r} is not legal for player {player} now"
            f" ({self.prompt()}); {len(self.legal_actions(player))} actions are legal"
        )

    def _why_not_to_move(self, player: int) -> str:
        """Why ``player``, a seat not to move now, cannot act: the game is over, chance
        decides, or whose turn it is and what they decide. A game may say something more
        specific of a seat it waits for nothing from (Clan Feud: the seat has already
        committed its card to the battle round), and fall back on this."""
        to_move = self.phase.to_move
        if not to_move:
            return "the game is over"
        if to_move == (CHANCE,):
            return f"chance decides next ({self.prompt()}), not player {player}"
        if len(to_move) == 1:
            mover = to_move[0]
            decision = _decision(self.prompt(), mover)
            return f"it is player {mover}'s turn ({decision}), not player {player}'s"
        return f"{_players(to_move)} are to move now ({self.prompt()}), not player {player}"

    # -- chance -------------------------------------------------------------------------------
    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """Each outcome of this chance node with its exact probability (sums to 1)."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return tuple((a, Fraction(w, total)) for a, w in weights)

    def chance_weights(self) -> tuple[tuple[Action, int], ...]:
        """Each outcome with a positive integer weight (probability = weight / total)."""
        if self._legal_memo(CHANCE) is None or self._memo is None:
            return ()
        return self._memo[_WEIGHTS]

    # -- results ------------------------------------------------------------------------------
    def returns(self) -> tuple[float, ...]:
        """1/k for each of the k winners, 0 for everyone else; all 0 before the end."""
        n = self.game.num_players
        if not self.is_terminal:
            return (0.0,) * n
        return winner_shares(self.winners(), n)

    # -- tensors (clangames.engine.encoding) ---------------------------------------------------
    def observation_tensor(self, player: int) -> list[float]:
        """``observation(player)`` as the flat float vector the game declares
        (``game.observation_spec()``): exactly that observation, nothing more."""
        return self.game.observation_spec().encode(self.observation(player))

    def public_observation_tensor(self) -> list[float]:
        """``public_observation()`` in the same encoding."""
        return self.game.observation_spec().encode(self.public_observation())

    # -- text and persistence -----------------------------------------------------------------
    def render(self, seat: int | None = None, width: int | None = None) -> str:
        """The table as plain text: as ``seat`` sees it (None: what everyone sees), at most
        ``width`` columns wide (None: 80). Drawn by the rendering layer from the seat's
        observation, so it never shows what that seat may not know."""
        return draw(self, seat, width)

    def __str__(self) -> str:
        return draw(self, None, None)

    def svg(self, seat: int | None = None) -> str:
        """The table as an SVG picture, as ``seat`` sees it (None: the public view); drawn
        from the seat's observation by the rendering layer, like :meth:`render`."""
        from clangames.engine.pictures import draw_svg

        return draw_svg(self, seat)

    def _repr_svg_(self) -> str | None:
        """The public picture, so a state shows as a board in Jupyter (None for a game
        without SVG pictures: Jupyter then shows the text form)."""
        from clangames.engine.errors import ClanGamesError

        try:
            return self.svg(None)
        except ClanGamesError:
            return None

    def action_text(self, action: Action) -> str:
        """The short text form of an action (as the game parses it back)."""
        return self.game.action_text(action)

    def parse_action(self, text: str) -> Action:
        """The action whose text form is ``text``."""
        return self.game.parse_action(text)

    def to_json(self) -> dict[str, JSON]:
        """The whole state as plain JSON data; ``game.state_from_json`` reads it back."""
        game = self.game
        return {"game": game.spec.name, "params": game.params_json(), "state": encode(self)}

    def to_position(self) -> str:
        """The state as readable position text in the game's names, hidden parts included;
        ``game.state_from_position`` reads it back to an equal state."""
        from clangames.engine.position import notation_of

        return notation_of(self.game).show(self)

    def check_consistency(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Raise StateDecodeError if the state breaks a rule of the game's components
        (called on states read from JSON). Games override this."""

    # -- what each game supplies -----------------------------------------------------------------
    @abc.abstractmethod
    def _legal(self, player: int) -> tuple[Action, ...]:
        """Legal actions of a player who is to move, sorted by action id."""

    @abc.abstractmethod
    def _apply(self, action: Action, player: int) -> State:
        """The successor for a legal action (already checked)."""

    def _chance_weights(self) -> tuple[tuple[Action, int], ...]:
        """Outcomes and positive integer weights at a chance node, sorted by action id."""
        return ()

    @abc.abstractmethod
    def observation(self, player: int) -> Any:
        """What ``player`` may know: a frozen attrs value, JSON-able with ``encode``."""

    @abc.abstractmethod
    def public_observation(self) -> Any:
        """What everyone may know."""

    @abc.abstractmethod
    def resample(self, player: int, rng: Rng) -> State:
        """A full state consistent with ``player``'s observation: hidden information
        dealt anew at random (the same state for a perfect-information game)."""

    @abc.abstractmethod
    def scores(self) -> tuple[int, ...]:
        """The game's own points per seat (final at the end, provisional before)."""

    @abc.abstractmethod
    def winners(self) -> tuple[int, ...]:
        """The winning seats after tie-breaks (empty before the end)."""

    @abc.abstractmethod
    def describe(self, action: Action) -> str:
        """A sentence for people about what ``action`` does here."""

    @abc.abstractmethod
    def prompt(self) -> str:
        """What is being decided now, in words."""


def winner_shares(winners: Sequence[int], players: int) -> tuple[float, ...]:
    """The returns of a finished game won by ``winners`` (:meth:`State.returns`): 1/k for
    each of the k winners, 0 for everyone else. Shared with ``clangames simulate``, which
    has the winners already and would otherwise score the game twice."""
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if p in winners else 0.0 for p in range(players))
