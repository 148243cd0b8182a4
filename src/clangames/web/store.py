"""SQLite persistence of the server's games (standard library ``sqlite3``).

One row per game (its name, parameters, seed and seats), one row per seat token (only its
SHA-256 digest: a copy of the database gives nobody a seat), one row per move. Every move is
committed before the server tells anyone about it, so a server killed at any moment and
started again on the same file resumes every game with nothing lost.
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
"""


class StoreError(ClanGamesError):
    """The database cannot be opened or written (its path and the reason)."""


def digest(token: str) -> str:
    """The SHA-256 of a seat token, as stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/clangames/serve.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "clangames" / "serve.sqlite3"


@attrs.frozen(slots=True)
class StoredGame:
    """A game as the database holds it: its spec (JSON), seat token digests, moves."""

    id: str
    created: float
    spec: dict[str, Any]
    tokens: tuple[tuple[str, int], ...]
    moves: tuple[tuple[int, str], ...]


class Store:
    """The server's database file; ``":memory:"`` for a throwaway one."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the database {self.path!r}: {exc}") from exc

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

    def add_move(self, game_id: str, index: int, player: int, action: str) -> None:
        """Save (and commit) one move; the caller broadcasts it only after this returns."""
        try:
            with self._transaction():
                self.db.execute(
                    "INSERT INTO moves (game, idx, player, action) VALUES (?, ?, ?, ?)",
                    (game_id, index, player, action),
                )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot save move {index} of game {game_id}: {exc}") from exc

    def games(self) -> Iterator[StoredGame]:
        """Every saved game, oldest first, with its tokens and moves in order."""
        rows = self.db.execute("SELECT id, created, spec FROM games ORDER BY created, id")
        for game_id, created, spec in rows.fetchall():
            tokens = self.db.execute(
                "SELECT digest, seat FROM tokens WHERE game = ? ORDER BY seat", (game_id,)
            ).fetchall()
            moves = self.db.execute(
                "SELECT player, action FROM moves WHERE game = ? ORDER BY idx", (game_id,)
            ).fetchall()
            yield StoredGame(
                game_id,
                created,
                json.loads(spec),
                tuple((d, int(s)) for d, s in tokens),
                tuple((int(p), str(a)) for p, a in moves),
            )

    class _Tx:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self) -> None:
            self.db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind: object, value: object, tb: object) -> None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")

    def _transaction(self) -> Store._Tx:
        return Store._Tx(self.db)
