"""The saved final table of a finished game, so that loading it again costs one read
instead of a replay of every move (a game stopped at the move limit took minutes).

When a game ends, the server saves, with its last move and in the same transaction, what
the replay of its moves would give: the final state (the kernel's JSON), each seat's
decision counter, each seat's log and the spectators' log. Nothing in it is taken on
trust: :func:`read_final` refuses a text that is not of this version of clangames, not of
exactly the moves the database holds (their count and SHA-256), not a valid state of the
game (``Game.state_from_json`` checks it), not of the right shape, or whose state does not
agree with how the game ended; the server then replays the moves, as before it saved
finals.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import attrs

from clangames import __version__
from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.state import State

FORMAT = 1
"""The layout of the saved text; a text of another layout is refused (replayed instead)."""


class FinalError(ClanGamesError, ValueError):
    """A saved final that cannot be trusted (the message says what is wrong with it)."""


@attrs.frozen(slots=True)
class Final:
    """What a finished game's room holds once its moves are played: its state, each seat's
    decision counter and log, and the spectators' log."""

    state: State
    turns: tuple[int, ...]
    logs: tuple[tuple[str, ...], ...]
    public_log: tuple[str, ...]


def moves_digest(moves: Sequence[tuple[int, str]]) -> str:
    """The SHA-256 of a game's moves as (player, action text) pairs, in order: ties a
    final to exactly the moves it was worked out from."""
    text = json.dumps([[player, action] for player, action in moves], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def write_final(
    final: Final,
    moves: Sequence[tuple[int, str]],
) -> str:
    """The JSON text saved for a game that ended after ``moves`` in ``final``."""
    return json.dumps(
        {
            "format": FORMAT,
            "version": __version__,
            "moves": len(moves),
            "moves_sha256": moves_digest(moves),
            "state": final.state.to_json(),
            "turns": list(final.turns),
            "logs": [list(lines) for lines in final.logs],
            "public_log": list(final.public_log),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def read_final(text: str, game: Game, moves: Sequence[tuple[int, str]], over: bool) -> Final:
    """The final saved as ``text`` for ``game`` played with ``moves``, which ended over
    (``over``) or stopped unfinished; FinalError saying why if it cannot be trusted."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise FinalError(f"not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise FinalError("expected a JSON object")
    if data.get("format") != FORMAT:
        raise FinalError(f"format {_short(data.get('format'))}, expected {FORMAT}")
    if data.get("version") != __version__:
        raise FinalError(
            f"written by clangames {_short(data.get('version'))}, this is {__version__}"
        )
    count = len(moves)
    if data.get("moves") != count or data.get("moves_sha256") != moves_digest(moves):
        raise FinalError(f"worked out from other moves than the {count} saved")
    try:
        state = game.state_from_json(data.get("state"))
    except ClanGamesError as exc:
        raise FinalError(str(exc)) from None
    if state.is_terminal != over:
        raise FinalError("its state is over" if state.is_terminal else "its state is not over")
    n = game.num_players
    turns = data.get("turns")
    if not (
        isinstance(turns, list)
        and len(turns) == n
        and all(type(t) is int and 0 <= t <= count for t in turns)
    ):
        raise FinalError(f"'turns': expected {n} decision counters of at most {count}")
    logs = data.get("logs")
    public_log = _lines(data.get("public_log"), count)
    if public_log is None:
        raise FinalError(f"'public_log': expected {count} lines")
    seats = [_lines(lines, count) for lines in logs] if isinstance(logs, list) else []
    if len(seats) != n or None in seats:
        raise FinalError(f"'logs': expected {n} logs of {count} lines")
    return Final(state, tuple(turns), tuple(x for x in seats if x is not None), public_log)


def _lines(value: Any, count: int) -> tuple[str, ...] | None:
    """``value`` as ``count`` lines of text, or None if it is not that."""
    if not isinstance(value, list) or len(value) != count:
        return None
    if not all(isinstance(line, str) for line in value):
        return None
    return tuple(value)


def _short(value: Any) -> str:
    return f"{value!r:.40}"
