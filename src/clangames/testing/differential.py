"""Differential testing: compare another implementation of a game with this library.

Someone writing their own engine for one of these games (in any language, behind a thin
Python wrapper) implements the small :class:`Implementation` protocol: start a game, list
the legal actions of a player as text, apply an action given as text, and optionally
report scores and a player's observation as JSON. :func:`compare` plays seeded random
games with both side by side: the library samples every chance outcome and both sides
apply it, decisions are drawn uniformly from the library's legal actions, and at every
state the two must agree on who is to move, on each mover's legal actions (as sets of
texts), and on scores and observations where the implementation reports them. The first
disagreement stops the run and is returned as a :class:`Divergence` with the game's record
up to it and the library's position there, ready for a scenario test.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from clangames.engine.chance import sample_chance
from clangames.engine.codec import JSON, encode
from clangames.engine.errors import ClanGamesError, InvalidArgumentError
from clangames.engine.game import Game
from clangames.engine.integers import as_integer, count_argument
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord, Move
from clangames.engine.rng import Rng
from clangames.engine.state import State

_LAST_SEED = 2**64 - 1


@runtime_checkable
class Implementation(Protocol):
    """Another implementation of a game, driven by text. ``scores`` and ``observation``
    may return None when the implementation does not offer them (they are not compared)."""

    def start(self, game: Game) -> None:
        """Begin a new game with ``game``'s parameters (its initial state, before any
        chance outcome)."""

    def to_move(self) -> Sequence[int]:
        """The seats owing a decision now (empty at a chance node and at the end)."""

    def legal_actions(self, player: int) -> Sequence[str]:
        """``player``'s legal actions as the library's action texts."""

    def apply(self, action: str, player: int) -> None:
        """Apply an action (a chance outcome has ``player`` -1), given as its text."""

    def scores(self) -> Sequence[int] | None:
        """The scores per seat, or None if not offered."""

    def observation(self, player: int) -> JSON | None:
        """``player``'s observation as the library's JSON (``encode``), or None."""


@attrs.frozen(slots=True)
class Divergence:
    """The first disagreement: in game ``game_index`` (seed ``seed``) after ``move``
    moves, ``what`` differed (``expected`` is the library's, ``got`` the other's)."""

    game_index: int
    seed: int
    move: int
    what: str
    expected: Any
    got: Any
    record: GameRecord
    position: str

    def __str__(self) -> str:
        moves = [f"{m.player}:{m.action}" for m in self.record.moves]
        shown = moves if len(moves) <= 12 else ["...", *moves[-12:]]
        return (
            f"divergence in game {self.game_index} (seed {self.seed}) at move {self.move}:"
            f" {self.what}\n"
            f"  library: {_short(self.expected)}\n"
            f"  other:   {_short(self.got)}\n"
            f"  last moves: {shown}\n"
            f"  position: {self.position}"
        )


@attrs.frozen(slots=True)
class DifferentialReport:
    """What :func:`compare` did: games and moves compared, and the first divergence
    (None if the implementations agreed everywhere)."""

    game: str
    games: int
    moves: int
    divergence: Divergence | None

    @property
    def agreed(self) -> bool:
        """True when no divergence was found."""
        return self.divergence is None

    def __str__(self) -> str:
        games = f"{self.games} game" + ("" if self.games == 1 else "s")
        head = f"{self.game}: {games}, {self.moves} moves compared"
        if self.divergence is None:
            return f"{head}: the implementations agree"
        return f"{head}\n{self.divergence}"


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 400 else text[:397] + "..."


class _Stop(Exception):
    def __init__(self, divergence: Divergence) -> None:
        self.divergence = divergence


def compare(
    implementation: Implementation,
    game: Game,
    *,
    games: int = 20,
    seed: int = 0,
    observations: bool = True,
) -> DifferentialReport:
    """Play ``games`` seeded random games of ``game`` with the library and
    ``implementation`` side by side; stop at the first divergence. Game ``i`` uses seed
    ``seed + i``, so a divergence replays with ``games=1, seed=divergence.seed``.

    InvalidArgumentError, before any game, for a ``game`` that is not a loaded game, a
    count that is not a whole number from 0 up, or seeds that leave 0..2**64-1."""
    # Checked here, not left to fail part way: a count of 1.5 or a seed of "x" raised a
    # bare TypeError, a count of -1 gave a report of -1 games, and a seed near the top
    # of the range failed only at the game that passed it.
    if not isinstance(game, Game):
        raise InvalidArgumentError(
            f"compare needs a loaded Game (clangames.load(...)), got {game!r:.80}"
        )
    count, first = count_argument("compare", "games", games), as_integer(seed)
    if first is None or first < 0 or first + max(count, 1) - 1 > _LAST_SEED:
        raise InvalidArgumentError(
            f"compare: the seeds seed..seed+games-1 must lie in 0..2**64-1, got seed"
            f" {seed!r:.80} for {count} games"
        )
    games, seed = count, first
    total = 0
    for index in range(games):
        try:
            total += _one_game(implementation, game, index, seed + index, observations)
        except _Stop as stop:
            total += stop.divergence.move
            return DifferentialReport(game.name, index + 1, total, stop.divergence)
    return DifferentialReport(game.name, games, total, None)


def _one_game(impl: Implementation, game: Game, index: int, seed: int, observations: bool) -> int:
    rng = Rng(seed)
    state = game.initial_state()
    moves: list[Move] = []

    def diverge(what: str, expected: Any, got: Any) -> _Stop:
        record = GameRecord(game.name, game.params, tuple(moves))
        return _Stop(
            Divergence(index, seed, len(moves), what, expected, got, record, state.to_position())
        )

    def call(what: str, method: Callable[[], Any]) -> Any:
        try:
            return method()
        except Exception as exc:  # the other implementation failing is a divergence
            raise diverge(f"{what} raised", None, f"{type(exc).__name__}: {exc}") from exc

    call("start", lambda: impl.start(game))
    while True:
        _compare_state(impl, state, diverge, call, observations)
        if state.is_terminal:
            return len(moves)
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            player = CHANCE
        else:
            k, rng = rng.below(len(state.to_move))
            player = state.to_move[k]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            action = legal[j]
        text = game.action_text(action)
        moves.append(Move(player, text))
        call(f"apply({text!r}, {player})", lambda: impl.apply(text, player))  # noqa: B023
        state = state.apply(action, None if player == CHANCE else player)


def _compare_state(
    impl: Implementation,
    state: State,
    diverge: Callable[[str, Any, Any], _Stop],
    call: Callable[[str, Callable[[], Any]], Any],
    observations: bool,
) -> None:
    game = state.game
    expected_movers = [] if state.is_chance else list(state.to_move)
    movers = call("to_move", impl.to_move)
    if sorted(movers) != expected_movers:
        raise diverge("players to move", expected_movers, list(movers))
    for p in expected_movers:
        expected = sorted(game.action_text(a) for a in state.legal_actions(p))
        got = sorted(call(f"legal_actions({p})", functools.partial(impl.legal_actions, p)))
        if got != expected:
            missing = sorted(set(expected) - set(got))
            extra = sorted(set(got) - set(expected))
            raise diverge(
                f"legal actions of player {p} (missing {missing}, extra {extra})", expected, got
            )
    scores = call("scores", impl.scores)
    if scores is not None and list(scores) != list(state.scores()):
        raise diverge("scores", list(state.scores()), list(scores))
    if observations:
        for p in range(game.num_players):
            seen = call(f"observation({p})", functools.partial(impl.observation, p))
            if seen is not None:
                expected_obs = encode(state.observation(p))
                if seen != expected_obs:
                    raise diverge(f"observation of player {p}", expected_obs, seen)


class LibraryImplementation:
    """This library behind the :class:`Implementation` protocol: the reference side of a
    comparison, and a base for wrappers that change one rule to see what a test finds."""

    def __init__(self) -> None:
        self.state: State | None = None

    def _state(self) -> State:
        if self.state is None:
            raise ClanGamesError("LibraryImplementation: start() a game first")
        return self.state

    def start(self, game: Game) -> None:
        """Begin at ``game``'s initial state."""
        self.state = game.initial_state()

    def to_move(self) -> Sequence[int]:
        """The deciding seats (none at chance nodes)."""
        state = self._state()
        return [] if state.is_chance else list(state.to_move)

    def legal_actions(self, player: int) -> Sequence[str]:
        """The legal actions' texts."""
        state = self._state()
        return [state.game.action_text(a) for a in state.legal_actions(player)]

    def apply(self, action: str, player: int) -> None:
        """Apply by text."""
        state = self._state()
        self.state = state.apply_text(action, None if player == CHANCE else player)

    def scores(self) -> Sequence[int] | None:
        """The scores."""
        return list(self._state().scores())

    def observation(self, player: int) -> JSON | None:
        """The observation's JSON."""
        return encode(self._state().observation(player))
