"""Game records: a game, its parameters and every action (chance outcomes included).

A record is enough to rebuild every state of a game, so it is the save-file format, the
replay format and the shrinkable counterexample format of the tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from clangames.engine.codec import describe, encode, parse_json
from clangames.engine.errors import ClanGamesError, InvalidArgumentError, StateDecodeError
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.registry import load
from clangames.engine.state import Action, State


def _params_dict(params: Mapping[str, Any]) -> dict[str, Any]:
    """A plain dict copy of a record's parameters."""
    return dict(params)


_HEADER_DEPTH = 32
"""How deeply a header value may nest lists and objects (real headers nest 3 deep)."""


def _check_headers(headers: Any, where: str = "record.headers") -> dict[str, Any]:
    """``headers`` as a plain dict if it is a JSON object of JSON values (StateDecodeError
    naming the first offending entry if not). Walked without recursion, so no nesting or
    size can make the check itself fail."""
    if not isinstance(headers, dict):
        raise StateDecodeError(f"{where}: expected an object, got {type(headers).__name__}")
    stack: list[tuple[str, Any, int]] = [(where, headers, 0)]
    while stack:
        where, value, depth = stack.pop()
        if depth > _HEADER_DEPTH:
            raise StateDecodeError(f"{where}: nested more than {_HEADER_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise StateDecodeError(f"{where}: keys must be strings, got {key!r:.60}")
                stack.append((f"{where}.{key:.60}", item, depth + 1))
        elif isinstance(value, (list, tuple)):  # a tuple only in a record built by hand
            stack.extend((f"{where}[{i}]", item, depth + 1) for i, item in enumerate(value))
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise StateDecodeError(f"{where}: expected a finite number, got {value!r}")
        elif value is not None and not isinstance(value, (str, int)):
            raise StateDecodeError(
                f"{where}: expected a JSON value (text, number, true/false, null, list or"
                f" object), got {type(value).__name__}"
            )
    return dict(headers)


@attrs.frozen(slots=True)
class Move:
    """One step of a record: who acted (CHANCE for chance) and the action's text form."""

    player: int
    action: str


@attrs.frozen(slots=True)
class GameRecord:
    """A whole game as data: ``GameRecord(game, params, moves, headers)``.

    ``headers`` (like PGN's tag pairs) say who played and how: the clangames version, the
    seed, each seat's kind and bot settings, the date, the result once over. They are
    JSON values under string keys; the kernel keeps them as given, drivers (the
    ``clangames`` command) fill them in. A record without headers writes and reads
    exactly as records did before headers existed.
    """

    game: str
    params: Mapping[str, Any] = attrs.field(converter=_params_dict)
    moves: tuple[Move, ...] = ()
    headers: Mapping[str, Any] = attrs.field(factory=dict, converter=_params_dict)

    @classmethod
    def start(cls, game: Game) -> GameRecord:
        """An empty record for a loaded game."""
        return cls(game.name, dict(game.params), ())

    def with_move(self, state: State, action: Action, player: int) -> GameRecord:
        """A copy with one more move, taken in ``state``."""
        return attrs.evolve(self, moves=(*self.moves, Move(player, state.game.action_text(action))))

    def load_game(self) -> Game:
        """The game this record was played with (the process's loaded game, shared)."""
        return load(self.game, **self.params)

    def replay(self) -> Iterator[State]:
        """Every state of the game, from the initial one to the last; a move that does not
        apply raises StateDecodeError naming its index. The game is the one ``load`` keeps,
        so replaying many records of one game builds its tables once."""
        game = self.load_game()
        state = game.initial_state()
        yield state
        for i, move in enumerate(self.moves):
            try:
                action = game.parse_action(move.action)
                player = None if move.player == CHANCE and state.is_chance else move.player
                state = state.apply(action, player)
            except ClanGamesError as exc:
                raise StateDecodeError(f"record.moves[{i}] ({move.action!r}): {exc}") from None
            yield state

    def final_state(self) -> State:
        """The state after the last move."""
        last: State | None = None
        for last in self.replay():  # noqa: B007 - we want the last one
            pass
        if last is None:  # pragma: no cover - replay always yields the initial state
            raise StateDecodeError("record: nothing to replay")
        return last

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (``headers`` first, and only when there are any).

        A record built by hand may hold what JSON cannot (a NaN, a set, a non-string key):
        that raises InvalidArgumentError naming the entry rather than writing a file that
        no JSON reader, this one included, would load."""
        try:
            params = _check_headers(encode(dict(self.params)), "record.params")
            headers = _check_headers(dict(self.headers)) if self.headers else None
        except (StateDecodeError, TypeError) as exc:
            raise InvalidArgumentError(f"cannot write the record: {exc}") from None
        data = {
            "game": self.game,
            "params": params,
            "moves": [[m.player, m.action] for m in self.moves],
        }
        if headers is not None:
            data = {"headers": headers, **data}
        return data

    def dumps(self) -> str:
        """The record as a JSON string."""
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from :meth:`to_json` output or a JSON string; errors name the field."""
        data = parse_json(data, "record")
        if not isinstance(data, dict):
            raise StateDecodeError(f"record: expected an object, got {type(data).__name__}")
        for key in ("game", "params", "moves"):
            if key not in data:
                raise StateDecodeError(f"record: missing field {key!r}")
        if not isinstance(data["game"], str):
            raise StateDecodeError(f"record.game: expected a string, got {describe(data['game'])}")
        if not isinstance(data["params"], dict):
            raise StateDecodeError(
                f"record.params: expected an object, got {describe(data['params'])}"
            )
        if not isinstance(data["moves"], list):
            raise StateDecodeError(f"record.moves: expected a list, got {describe(data['moves'])}")
        moves = []
        for i, item in enumerate(data["moves"]):
            ok = (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and not isinstance(item[0], bool)
                and isinstance(item[1], str)
            )
            if not ok:
                raise StateDecodeError(
                    f"record.moves[{i}]: expected [player, action text], got {describe(item)}"
                )
            moves.append(Move(item[0], item[1]))
        headers = _check_headers(data["headers"]) if "headers" in data else {}
        return cls(data["game"], data["params"], tuple(moves), headers)
