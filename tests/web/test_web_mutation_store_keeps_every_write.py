"""The server's SQLite store keeps every game, token, move and incident exactly as written,
in order, across a reopen; a write that fails is a StoreError naming what could not be
saved and leaves no part of itself behind (the next write works); tokens are kept only as
digests; the file is opened for durability (WAL, full sync)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from clangames.engine.phases import CHANCE
from clangames.web.hub import Hub, SeatSpec
from clangames.web.store import Incident, Store, StoreError, default_db_path, digest
from web.helpers import koa_request
from web.test_web_mutation_seat_views import settle

SPEC = {"game": "koa_kingmaker", "params": {"players": 2}, "seed": 1, "seats": []}


def fallback(move: int) -> Incident:
    return Incident(move, 1, "fallback", "ismcts", "RuntimeError", f"Traceback {move}", 12.5)


def test_everything_written_reads_back_the_same_after_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    store.add_game("b", 2.0, {**SPEC, "seed": 2}, {"tb0": 0})
    store.add_game("a", 1.0, SPEC, {"ta1": 1, "ta0": 0})
    store.add_game("c", 2.0, SPEC, {})
    store.add_move("a", 0, CHANCE, "inheritance 3")
    store.add_move("a", 1, 1, "play Seer", fallback(1))
    store.add_move("b", 0, 0, "play Jester")
    halt = Incident(2, CHANCE, "halt", None, "ValueError", "Traceback: chance", 13.25)
    store.add_incident("a", halt)
    store.add_move("a", 2, 0, "play Moon")
    store.close()
    a, b, c = Store(path).games()  # oldest first; the same moment in id order
    assert [a.id, b.id, c.id] == ["a", "b", "c"]
    assert (a.created, a.spec, b.spec["seed"]) == (1.0, SPEC, 2)
    assert a.tokens == ((digest("ta0"), 0), (digest("ta1"), 1))
    assert b.tokens == ((digest("tb0"), 0),) and c.tokens == ()
    assert a.moves == ((CHANCE, "inheritance 3"), (1, "play Seer"), (0, "play Moon"))
    assert b.moves == ((0, "play Jester"),) and c.moves == ()
    assert a.incidents == (fallback(1), halt)
    assert a.incidents[1].bot is None and a.incidents[0].detail == "Traceback 1"
    assert a.incidents[0].created == 12.5 and b.incidents == ()


def test_a_write_that_fails_names_it_keeps_what_was_there_and_the_next_works(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "games.sqlite3")
    store.add_game("g", 1.0, SPEC, {"t": 0})
    store.add_move("g", 0, 0, "play Seer")
    with pytest.raises(StoreError, match=r"cannot save game g in .*games\.sqlite3.*UNIQUE"):
        store.add_game("g", 2.0, {**SPEC, "seed": 9}, {"u": 1})
    with pytest.raises(StoreError, match="cannot save move 0 of game g: UNIQUE"):
        store.add_move("g", 0, 1, "play Moon")
    broken = Incident(1, 0, "halt", None, None, "d", 1.0)  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="cannot save an incident of game g: NOT NULL"):
        store.add_incident("g", broken)
    # a move and its incident are saved both or neither
    with pytest.raises(StoreError, match="cannot save move 1 of game g"):
        store.add_move("g", 1, 1, "play Moon", broken)
    assert not store.db.in_transaction
    store.add_move("g", 1, 1, "play Jester", fallback(1))
    (saved,) = store.games()
    assert saved.spec == SPEC and saved.tokens == ((digest("t"), 0),)
    assert saved.moves == ((0, "play Seer"), (1, "play Jester"))
    assert saved.incidents == (fallback(1),)


def test_tokens_are_kept_only_as_their_sha256(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    token = "secret-token-of-seat-zero-0123456789"
    store = Store(path)
    store.add_game("g", 1.0, SPEC, {token: 0})
    store.close()
    assert digest(token) == hashlib.sha256(token.encode()).hexdigest()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT digest, game, seat FROM tokens").fetchall() == [
            (digest(token), "g", 0)
        ]
    for file in tmp_path.iterdir():
        assert token.encode() not in file.read_bytes()


def test_the_file_is_opened_for_durability(tmp_path: Path) -> None:
    store = Store(tmp_path / "deep" / "er" / "games.sqlite3")  # its folders are made
    assert store.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert store.db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    store.close()


def test_a_path_that_cannot_be_a_database_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match=r"cannot open the database '.*file/games.sqlite3'"):
        Store(tmp_path / "file" / "games.sqlite3")


def test_the_default_file_is_in_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "clangames" / "serve.sqlite3"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for unset in (True, False):
        if unset:
            monkeypatch.delenv("XDG_DATA_HOME")
        else:
            monkeypatch.setenv("XDG_DATA_HOME", "")  # empty counts as unset
        assert default_db_path() == tmp_path / "home" / ".local/share/clangames/serve.sqlite3"


def test_a_restarted_hub_has_every_seat_budget_and_parameter_and_the_record_its_result(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.sqlite3"
    hub = Hub(Store(path))
    seats = [
        {"kind": "bot", "bot": "ismcts", "iterations": 3, "seconds": 0.5},
        {"kind": "bot", "bot": "ismcts", "iterations": 2},
        {"kind": "human"},
    ]
    game, _ = hub.create(
        {
            "game": "kilt_castle",
            "players": 3,
            "seed": 8,
            "params": {"relocation_neighbour": "either"},
            "seats": seats,
        }
    )
    hub.store.close()
    again = Hub(Store(path)).room(game.id)
    assert (
        again.seats
        == game.seats
        == (
            SeatSpec("bot", "ismcts", 3, 0.5),
            SeatSpec("bot", "ismcts", 2, None),
            SeatSpec("human"),
        )
    )
    assert again.game.params == game.game.params and again.seed == 8
    assert again.game.params["relocation_neighbour"] == "either"
    finished = Hub(Store(":memory:"))
    over, _ = finished.create(koa_request(["random", "random"], 6))
    settle(finished, over)
    record = finished.record(over.id)
    assert record.headers["result"] == over.result() is not None
    assert record.headers["seed"] == 6 and record.final_state().scores() == over.state.scores()


class CommitFailsAfterClosing:
    """A connection whose next COMMIT ends the transaction and then reports a failure (as
    SQLite may on an I/O error); everything else is the real connection's."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.fail = True

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        cursor = self.db.execute(sql, *args)
        if sql == "COMMIT" and self.fail:
            self.fail = False
            raise sqlite3.OperationalError("disk I/O error")
        return cursor

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def test_a_failed_commit_that_closed_its_transaction_is_told_with_its_own_reason(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "games.sqlite3")
    store.add_game("g", 1.0, SPEC, {})
    store.db = CommitFailsAfterClosing(store.db)  # type: ignore[assignment]
    with pytest.raises(StoreError, match=r"cannot save move 0 of game g: disk I/O error$"):
        store.add_move("g", 0, 1, "play Seer")
    store.add_move("g", 1, 1, "play Moon")
