"""SQLite persistence of the server's games (standard library ``sqlite3``).

One row per game (its name, parameters, seed and seats), one row per seat token (only its
SHA-256 digest: a copy of the database gives nobody a seat), one row per move, one row
per incident (a server's own move that failed: a bot that raised, and what was done about
it, with the traceback), and one row per game that has ended (over, or stopped at the move
limit), saved with its last move and with its final table (see :mod:`clangames.web.final`),
so a server starting again need not replay finished games to tell them from those still
played, nor to show one again. Every move is committed before the server tells anyone
about it, so a server killed at any moment and started again on the same file resumes
every game with nothing lost; a write that fails leaves no part of itself behind. Nothing
is ever deleted (a final table, worked out from the moves, may be worked out and saved
again).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from clangames.engine.errors import ClanGamesError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    player INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, idx)
);
CREATE TABLE IF NOT EXISTS incidents (
    game TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    player INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    error TEXT NOT NULL,
    detail TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ended (
    game TEXT PRIMARY KEY REFERENCES games(id),
    moves INTEGER NOT NULL,
    how TEXT NOT NULL,
    final TEXT
);
"""

MIGRATIONS = (("ended", ("game", "moves", "how"), "ALTER TABLE ended ADD COLUMN final TEXT"),)
"""Columns added since their table was first made: (table, its columns before, how to add
the new one), for a database an older version wrote (its rows are kept; the new column is
null in them). A table with other columns is not ours and is left alone."""


class StoreError(ClanGamesError):
    """The database cannot be opened or written (its path and the reason)."""


def digest(token: str) -> str:
    """The SHA-256 of a seat token, as stored. Any string has one: a token from a request
    may hold lone surrogates (JSON's ``\\ud800``), which no real token does."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/clangames/serve.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "clangames" / "serve.sqlite3"


@attrs.frozen(slots=True)
class Incident:
    """A move the server had to make for a seat or chance that failed: at move ``move``,
    ``player``'s bot ``bot`` (None for chance) raised ``error`` (the exception's class, or
    what went wrong, safe to show) and the server either played a random legal move for it
    (``kind`` "fallback") or paused the game ("halt"). ``detail`` (the message and the
    traceback) stays in the database and the server's log: it may quote hidden state."""

    move: int
    player: int
    kind: str
    bot: str | None
    error: str
    detail: str = attrs.field(default="", repr=False)
    created: float = 0.0


@attrs.frozen(slots=True)
class StoredGame:
    """A game as the database holds it: its spec (JSON), seat token digests, moves,
    incidents, how it ended (None while it is played) and its final table (None while it
    is played, or if it ended before the server saved them)."""

    id: str
    created: float
    spec_json: str
    """The spec as saved; :attr:`spec` reads it (a ValueError if it is not JSON, so one
    unreadable row does not stop the others from loading)."""
    tokens: tuple[tuple[str, int], ...]
    moves: tuple[tuple[int, str], ...]
    incidents: tuple[Incident, ...] = ()
    ended: str | None = None
    final: str | None = attrs.field(default=None, repr=False)

    @property
    def spec(self) -> dict[str, Any]:
        """The game's name, parameters, seed and seats."""
        spec: dict[str, Any] = json.loads(self.spec_json)
        return spec


EMPTY_PATH = (
    "cannot open the database '': an empty name is SQLite's temporary database, deleted when"
    " it closes, so every game would be lost; expected a file name (or ':memory:' for a"
    " database meant to be thrown away)"
)
"""The refusal of an empty database name."""


class Store:
    """The server's database file; ``":memory:"`` for a throwaway one (tests). An empty
    name is refused (StoreError): SQLite would silently use a temporary database."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path == "":
            raise StoreError(EMPTY_PATH)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
            self._migrate()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the database {self.path!r}: {exc}") from exc

    def _migrate(self) -> None:
        """Add the columns an older version's database lacks (once: on its first start;
        a database that needs nothing is not written to)."""
        for table, before, sql in MIGRATIONS:
            if self._columns(table) == before:
                with self._transaction():
                    if self._columns(table) == before:  # not done meanwhile by another
                        self.db.execute(sql)

    def _columns(self, table: str) -> tuple[str, ...]:
        return tuple(str(row[1]) for row in self.db.execute(f"PRAGMA table_info({table})"))

    def close(self) -> None:
        """Close the file (the server's shutdown)."""
        self.db.close()

    def add_game(
        self, game_id: str, created: float, spec: dict[str, Any], tokens: dict[str, int]
    ) -> None:
        """Save a new game and its seat tokens in one transaction."""
        try:
            with self._transaction():
                self.db.execute(
                    "INSERT INTO games (id, created, spec) VALUES (?, ?, ?)",
                    (game_id, created, json.dumps(spec, sort_keys=True)),
                )
                self.db.executemany(
                    "INSERT INTO tokens (digest, game, seat) VALUES (?, ?, ?)",
                    [(digest(token), game_id, seat) for token, seat in tokens.items()],
                )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save game {game_id} in {self.path!r}: {exc}") from exc

    def add_move(
        self,
        game_id: str,
        index: int,
        player: int,
        action: str,
        incident: Incident | None = None,
        ended: str | None = None,
        final: str | None = None,
    ) -> None:
        """Save (and commit) one move, with the incident that led to it if any (a bot's
        failure the move stands in for) and, if the move ends the game, how (``ended``)
        and its final table (``final``): all or none are saved. The caller broadcasts the
        move only after this returns."""
        try:
            with self._transaction():
                self.db.execute(
                    "INSERT INTO moves (game, idx, player, action) VALUES (?, ?, ?, ?)",
                    (game_id, index, player, action),
                )
                if incident is not None:
                    self._insert_incident(game_id, incident)
                if ended is not None:
                    self._insert_ended(game_id, index + 1, ended, final)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save move {index} of game {game_id}: {exc}") from exc

    def mark_ended(self, game_id: str, moves: int, how: str, final: str | None = None) -> None:
        """Save that a game ended after ``moves`` moves, and its final table (a game saved
        before this table existed, found over when replayed); a game marked already is
        left as it is."""
        try:
            with self._transaction():
                self._insert_ended(game_id, moves, how, final)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save that game {game_id} ended: {exc}") from exc

    def _insert_ended(self, game_id: str, moves: int, how: str, final: str | None) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO ended (game, moves, how, final) VALUES (?, ?, ?, ?)",
            (game_id, moves, how, final),
        )

    def save_final(self, game_id: str, final: str) -> None:
        """Save the final table of a game saved as ended without a usable one (written by
        an older version, or refused when read), worked out again by replaying its moves.
        The final is only ever derived from the moves: replacing it loses nothing."""
        try:
            with self._transaction():
                self.db.execute("UPDATE ended SET final = ? WHERE game = ?", (final, game_id))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save the final table of game {game_id}: {exc}") from exc

    def add_incident(self, game_id: str, incident: Incident) -> None:
        """Save (and commit) an incident that no move came of (the game was paused)."""
        try:
            with self._transaction():
                self._insert_incident(game_id, incident)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save an incident of game {game_id}: {exc}") from exc

    def _insert_incident(self, game_id: str, i: Incident) -> None:
        self.db.execute(
            "INSERT INTO incidents (game, idx, player, kind, bot, error, detail, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, i.move, i.player, i.kind, i.bot, i.error, i.detail, i.created),
        )

    def games(self, playing: bool = False) -> Iterator[StoredGame]:
        """Every saved game (only those not ended if ``playing``), oldest first, with its
        tokens and moves in order (a StoreError if the file is not a server's database:
        another program's tables, say)."""
        where = "WHERE id NOT IN (SELECT game FROM ended)" if playing else ""
        try:
            yield from self._games(where, ())
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot read the games in {self.path!r}: {exc} (expected a database of"
                " clangames serve)"
            ) from exc

    def game(self, game_id: str) -> StoredGame | None:
        """The saved game ``game_id`` (None if there is none)."""
        try:
            return next(self._games("WHERE id = ?", (game_id,)), None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read game {game_id} in {self.path!r}: {exc}") from exc

    def _games(self, where: str, params: tuple[str, ...]) -> Iterator[StoredGame]:
        rows = self.db.execute(
            f"SELECT id, created, spec FROM games {where} ORDER BY created, id", params
        )
        for game_id, created, spec in rows.fetchall():
            tokens = self.db.execute(
                "SELECT digest, seat FROM tokens WHERE game = ? ORDER BY seat", (game_id,)
            ).fetchall()
            moves = self.db.execute(
                "SELECT player, action FROM moves WHERE game = ? ORDER BY idx", (game_id,)
            ).fetchall()
            incidents = self.db.execute(
                "SELECT idx, player, kind, bot, error, detail, created FROM incidents"
                " WHERE game = ? ORDER BY rowid",
                (game_id,),
            ).fetchall()
            ended = self.db.execute(
                "SELECT how, final FROM ended WHERE game = ?", (game_id,)
            ).fetchone()
            yield StoredGame(
                game_id,
                created,
                str(spec),
                tuple((d, int(s)) for d, s in tokens),
                tuple((int(p), str(a)) for p, a in moves),
                tuple(
                    Incident(int(i), int(p), str(k), b, str(e), str(d), float(c))
                    for i, p, k, b, e, d, c in incidents
                ),
                None if ended is None else str(ended[0]),
                None if ended is None or ended[1] is None else str(ended[1]),
            )

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind: object, value: object, tb: object) -> None:
            if kind is not None:
                self.db.execute("ROLLBACK")
                return
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error:
                # A failed COMMIT (disk full, I/O error) can leave the transaction open:
                # roll it back, or the half-written rows would go out with the next one
                # and every later BEGIN would fail.
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self.db)
