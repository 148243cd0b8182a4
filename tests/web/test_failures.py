"""The server's own moves never fail silently and nothing is lost (``clangames serve``,
through the real app and a real SQLite file): a bot that raises or hangs is replaced by a
random legal move that every page is told about; a failure the server cannot work round
(chance, the database) pauses the game with a message and a Retry; a move that fails half
way, or a database write that fails, changes nothing; a game that no longer replays is
paused for good while the others play on."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import clangames.web.hub as hub_module
from clangames.bots import registry
from clangames.bots.registry import BotSpec
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State
from clangames.web.hub import FALLBACK_STREAM
from clangames.web.store import Store, StoreError
from web.helpers import koa_request, replay
from web.test_server import check, client, create, idle, play_http, room, view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SECRET = "SECRET-DETAIL-42"
"""In every exception the tests raise: it must reach the log and the database, never a
page."""


class Broken:
    """A bot that always raises, quoting something a page must not see."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def act(self, state: State, player: int) -> Action:
        raise RuntimeError(f"{SECRET}: the bot cannot decide")


RELEASE = threading.Event()


class Hanging:
    """A bot that does not answer until the test lets it go."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def act(self, state: State, player: int) -> Action:
        RELEASE.wait(30)
        return state.legal_actions(player)[0]


@pytest.fixture(autouse=True)
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The failing bots, registered for one test only."""
    monkeypatch.setitem(registry._BOTS, "broken", BotSpec("broken", "always raises", Broken))
    monkeypatch.setitem(registry._BOTS, "hanging", BotSpec("hanging", "never answers", Hanging))


def rows(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def shows_no_secret(c: TestClient, game: str, tokens: dict[int, str]) -> None:
    for token in (None, *tokens.values()):
        params = {} if token is None else {"token": token}
        assert SECRET not in c.get(f"/api/games/{game}/view", params=params).text


FALLBACK = (
    "player 2's bot (broken) failed (RuntimeError); the server played a random legal move instead."
)


def test_a_bot_that_raises_is_replaced_by_a_random_move_everyone_sees(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite3"
    caplog.set_level(logging.ERROR, logger="clangames.web")
    with client(str(db)) as c:
        game, tokens = create(c, koa_request(["human", "human", "broken"], seed=3))
        r = room(c, game)
        (first,) = [i for i, m in enumerate(r.moves) if m.player == 2]
        for seat in (None, 0, 1):
            v = view(c, game, tokens.get(seat) if seat is not None else None)
            check(c, game, v, seat)
            assert v["notices"] == [f"Move {first}: {FALLBACK}"]
            assert v["halted"] is None
        shows_no_secret(c, game, tokens)
        # the server's log has the traceback, the database the incident with it
        assert SECRET in caplog.text and "Traceback" in caplog.text
        ((idx, player, kind, bot, error, detail),) = rows(
            db, "SELECT idx, player, kind, bot, error, detail FROM incidents"
        )
        assert (idx, player, kind, bot, error) == (first, 2, "fallback", "broken", "RuntimeError")
        assert SECRET in detail and "Traceback" in detail
        # the stand-in is a legal move drawn from the game's seed, saved like any other
        states = replay(r.game.name, dict(r.game.params), list(r.moves))
        legal = states[first].legal_actions(2)
        k = Rng(3).fork(first + 1).fork(FALLBACK_STREAM).below(len(legal))[0]
        assert r.moves[first].action == states[first].action_text(legal[k])
        assert rows(db, f"SELECT player, action FROM moves WHERE idx = {first}") == [
            (2, r.moves[first].action)
        ]
        # the game never hangs: it plays to its end, every bot decision replaced
        play_http(c, game, tokens, seed=4, limit=10_000)
        final = view(c, game)
        assert final["result"] is not None
        by_bot = [i for i, m in enumerate(r.moves) if m.player == 2]
        assert final["notices"] == [f"Move {i}: {FALLBACK}" for i in by_bot]
        record = c.get(f"/api/games/{game}/record").text
        assert SECRET not in record
        headers = GameRecord.from_json(json.loads(record)).headers
        assert [i["move"] for i in headers["incidents"]] == by_bot
        assert headers["incidents"][0] == {
            "move": first,
            "seat": 2,
            "kind": "fallback",
            "bot": "broken",
            "error": "RuntimeError",
        }
        pages = {seat: view(c, game, t) for seat, t in tokens.items()}
        moves = list(r.moves)
    assert len(rows(db, "SELECT * FROM incidents")) == len(by_bot)
    with client(str(db)) as c:  # nothing is lost: the same game, notices and record
        assert list(room(c, game).moves) == moves
        assert {seat: view(c, game, t) for seat, t in tokens.items()} == pages
        assert c.get(f"/api/games/{game}/record").text == record


def test_a_bot_that_hangs_is_replaced_after_the_deadline() -> None:
    RELEASE.clear()
    try:
        c = client(bot_deadline=0.2)
        with c:
            game, tokens = create(c, koa_request(["human", "human", "hanging"], seed=3))
            v = view(c, game, tokens[0])
            (first,) = [i for i, m in enumerate(room(c, game).moves) if m.player == 2]
            assert v["notices"] == [
                f"Move {first}: player 2's bot (hanging) failed (no decision within 0.2"
                " seconds); the server played a random legal move instead."
            ]
            assert v["legal"]  # the humans can play on
            stopping = time.monotonic()
        # and the thread still stuck in the bot does not hold up the server's shutdown
        assert time.monotonic() - stopping < 10 and not RELEASE.is_set()
    finally:
        RELEASE.set()


def test_a_failing_chance_move_pauses_the_game_until_a_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite3"
    real = hub_module.sample_chance

    def failing(state: State, rng: Rng) -> Any:
        raise ValueError(f"{SECRET}: no outcome")

    monkeypatch.setattr(hub_module, "sample_chance", failing)
    paused = (
        "Move 0: the server's chance move failed (ValueError); the game paused. The server's"
        " log has the details. A player may ask the server to try again (Retry); a restarted"
        " server tries again too."
    )
    with client(str(db)) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=5))
        assert room(c, game).state.is_chance
        v = view(c, game, tokens[0])
        assert v["halted"] == {"message": paused, "retry": True}
        assert v["notices"] == [paused.split(" A player")[0]]
        assert v["moves"] == 0 and v["legal"] == []
        shows_no_secret(c, game, tokens)
        assert SECRET in caplog.text
        assert rows(db, "SELECT idx, player, kind, bot, error FROM incidents") == [
            (0, CHANCE, "halt", None, "ValueError")
        ]
        url = f"/api/games/{game}/retry"
        # only a seat may ask; a retry that fails again is not recorded twice
        assert c.post(url, json={"token": "x" * 32}).status_code == 403
        with c.websocket_connect(f"/ws/{game}") as watcher:
            assert watcher.receive_json()["halted"] is not None
            watcher.send_json({"type": "retry"})
            assert "spectator cannot act" in watcher.receive_json()["error"]
        again = c.post(url, json={"token": tokens[1]})
        assert again.status_code == 200
        idle(c, game)
        assert view(c, game, tokens[0])["halted"] == {"message": paused, "retry": True}
        assert len(rows(db, "SELECT * FROM incidents")) == 1
        # the cause fixed, a retry from a seat's page resumes the game
        monkeypatch.setattr(hub_module, "sample_chance", real)
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            assert page.receive_json()["halted"] is not None
            page.send_json({"type": "retry"})
            while (m := page.receive_json())["halted"] is not None:
                pass
            idle(c, game)
            assert m["type"] == "view" and m["notices"] == [paused.split(" A player")[0]]
        v = view(c, game, tokens[0])
        check(c, game, v, 0)
        assert v["halted"] is None and v["moves"] > 0 and v["legal"]
        refused = c.post(url, json={"token": tokens[0]})
        assert refused.status_code == 409 and "not paused" in refused.json()["error"]


def test_a_paused_game_resumes_when_the_server_starts_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    real = hub_module.sample_chance
    monkeypatch.setattr(hub_module, "sample_chance", lambda s, r: 1 // 0)
    with client(str(db)) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=5))
        assert view(c, game)["halted"] is not None
    monkeypatch.setattr(hub_module, "sample_chance", real)
    with client(str(db)) as c:
        idle(c, game)
        v = view(c, game, tokens[0])
        assert v["halted"] is None and v["moves"] > 0 and v["legal"]
        assert len(v["notices"]) == 1 and "ZeroDivisionError" in v["notices"][0]


def test_a_move_the_database_cannot_save_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    with client(str(db)) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=7))
        store = c.app.state.server.hub.store  # type: ignore[attr-defined]
        real = store.add_move

        def full(*args: Any, **kwargs: Any) -> None:
            raise StoreError("cannot save: disk I/O error")

        monkeypatch.setattr(store, "add_move", full)
        before = view(c, game, tokens[0])
        move = {"token": tokens[0], "turn": before["turn"], "action": before["legal"][0]}
        r = c.post(f"/api/games/{game}/act", json=move)
        assert r.status_code == 503
        assert r.json() == {
            "error": "the server could not save this move (its database failed); nothing"
            " changed: try again"
        }
        assert view(c, game, tokens[0]) == before
        assert len(rows(db, "SELECT * FROM moves")) == before["moves"]
        # the same move, once the database works again
        monkeypatch.setattr(store, "add_move", real)
        assert c.post(f"/api/games/{game}/act", json=move).status_code == 200

        # a move of the server's own (a bot's, chance's) the database cannot save pauses
        # the game; a retry resumes it
        def full_for_the_server(game_id: str, index: int, player: int, *rest: Any) -> None:
            if player in tokens:
                real(game_id, index, player, *rest)
            else:
                full()

        monkeypatch.setattr(store, "add_move", full_for_the_server)
        second = view(c, game, tokens[1])
        c.post(
            f"/api/games/{game}/act",
            json={"token": tokens[1], "turn": second["turn"], "action": second["legal"][0]},
        )
        idle(c, game)
        v = view(c, game, tokens[0])
        assert v["halted"] is not None and "(StoreError); the game paused" in v["halted"]["message"]
        assert len(rows(db, "SELECT * FROM moves")) == v["moves"]
        monkeypatch.setattr(store, "add_move", real)
        assert c.post(f"/api/games/{game}/retry", json={"token": tokens[0]}).status_code == 200
        idle(c, game)
        v = view(c, game, tokens[0])
        assert v["halted"] is None
        assert len(rows(db, "SELECT * FROM moves")) == v["moves"]
        check(c, game, v, 0)


def test_a_move_that_fails_half_way_leaves_no_half_written_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    with client(str(db), raise_errors=False) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=9))
        r = room(c, game)
        before = view(c, game, tokens[0])
        logs = [list(log) for log in r.logs]
        saved = rows(db, "SELECT * FROM moves")
        real = hub_module.narrate
        calls = []

        def narrate(*args: Any) -> str:
            # the third seat's line fails: the first two were already worked out
            calls.append(args)
            if len(calls) == 3:
                raise RuntimeError(SECRET)
            return real(*args)

        monkeypatch.setattr(hub_module, "narrate", narrate)
        move = {"token": tokens[0], "turn": before["turn"], "action": before["legal"][0]}
        failed = c.post(f"/api/games/{game}/act", json=move)
        assert failed.status_code == 500 and failed.json() == {"error": "internal error"}
        assert rows(db, "SELECT * FROM moves") == saved
        assert [list(log) for log in r.logs] == logs
        assert view(c, game, tokens[0]) == before
        monkeypatch.setattr(hub_module, "narrate", real)
        done = c.post(f"/api/games/{game}/act", json=move)
        assert done.status_code == 200
        check(c, game, done.json(), 0)


def test_creating_a_game_that_cannot_be_set_up_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"

    def no_renderer(game: Any) -> Any:
        raise RuntimeError(SECRET)

    with client(str(db), raise_errors=False) as c:
        monkeypatch.setattr(hub_module, "renderer_for", no_renderer)
        r = c.post("/api/games", json=koa_request(["human", "random"]))
        assert r.status_code == 500 and SECRET not in r.text
        assert c.app.state.server.hub.rooms == {}  # type: ignore[attr-defined]
    assert rows(db, "SELECT * FROM games") == rows(db, "SELECT * FROM tokens") == []


class FailingCommit:
    """A connection whose next COMMIT fails (as on a full disk), leaving the transaction
    open; everything else is the real connection's."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.fail = True

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT" and self.fail:
            self.fail = False
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_a_failed_commit_is_rolled_back_and_the_next_write_works(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    store.add_game("g", 1.0, {"game": "koa_kingmaker"}, {})
    real = store.db
    store.db = FailingCommit(real)  # type: ignore[assignment]
    with pytest.raises(StoreError, match="cannot save move 0 of game g: disk I/O error"):
        store.add_move("g", 0, 1, "play Seer")
    assert not real.in_transaction
    store.add_move("g", 0, 2, "play Jester")
    (saved,) = store.games()
    assert saved.moves == ((2, "play Jester"),)
    store.close()


def test_a_game_that_no_longer_replays_is_paused_for_good_and_the_others_play_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite3"
    with client(str(db)) as c:
        broken, tokens = create(c, koa_request(["human", "human", "random"], seed=2))
        play_http(c, broken, tokens, seed=1, limit=4)
        fine, fine_tokens = create(c, koa_request(["human", "random"], seed=3))
        gone, _ = create(c, koa_request(["human", "random"], seed=4))
    index = 3
    with sqlite3.connect(db) as conn:
        conn.execute(
            f"UPDATE moves SET action = 'nonsense' WHERE game = ? AND idx = {index}", (broken,)
        )
        conn.execute("UPDATE games SET spec = '{' WHERE id = ?", (gone,))
    saved = rows(db, "SELECT * FROM moves ORDER BY game, idx")
    with client(str(db)) as c:
        v = view(c, broken, tokens[0])
        assert v["moves"] == index and v["legal"] == []
        assert v["halted"] == {
            "message": f"This game cannot go on: its saved move {index} does not replay with"
            " this version of clangames. Its record is kept in the server's database; a"
            " server that can replay it resumes it.",
            "retry": False,
        }
        turn = {"token": tokens[0], "turn": v["turn"], "action": "x"}
        for url, body in (("act", turn), ("retry", {"token": tokens[0]})):
            r = c.post(f"/api/games/{broken}/{url}", json=body)
            assert r.status_code == 409 and "cannot go on" in r.json()["error"]
        assert c.get(f"/api/games/{gone}/view").status_code == 404
        assert f"game {gone} cannot be set up again" in caplog.text
        play_http(c, fine, fine_tokens, seed=1, limit=10_000)
        assert view(c, fine)["result"] is not None
    # nothing of the paused games was touched
    after = rows(db, "SELECT * FROM moves WHERE game != ? ORDER BY game, idx", (fine,))
    assert after == [m for m in saved if m[0] != fine]
    assert rows(db, "SELECT spec FROM games WHERE id = ?", (gone,)) == [("{",)]


def test_a_seat_page_shows_the_pause_and_the_notices() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "broken"], seed=1))
        page = c.get(f"/play/{game}/{tokens[0]}").text
        for part in ('id="halted"', 'id="retry"', 'id="notices"', "{type: 'retry'}"):
            assert part in page


def test_a_view_that_cannot_be_drawn_is_told_to_the_page_not_swallowed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=6))
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            first = page.receive_json()
            r = room(c, game)
            real = type(r).view

            def broken(self: Any, seat: int | None) -> Any:
                if seat == 0:
                    raise RuntimeError(SECRET)
                return real(self, seat)

            monkeypatch.setattr(type(r), "view", broken)
            other = view(c, game, tokens[1])
            c.post(
                f"/api/games/{game}/act",
                json={"token": tokens[1], "turn": other["turn"], "action": other["legal"][0]},
            )
            assert page.receive_json() == {
                "type": "error",
                "status": 500,
                "error": "internal error",
            }
            assert SECRET in caplog.text
            # the page was kept: once views draw again it is sent the next one
            monkeypatch.setattr(type(r), "view", real)
            idle(c, game)
            page.send_json({"type": "act", "turn": first["turn"], "action": first["legal"][0]})
            m = page.receive_json()
            assert m["type"] == "view" and m["moves"] > first["moves"]


def test_a_game_at_the_move_limit_says_so_instead_of_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub_module, "MAX_MOVES", 5)
    with client() as c:
        game, tokens = create(c, koa_request(["human", "random", "random"], seed=2))
        v = view(c, game, tokens[0])
        assert v["moves"] <= 5 and v["result"] is None
        if v["moves"] < 5:  # the human's turn came first: play up to the limit
            play_http(c, game, tokens, seed=1, limit=5 - v["moves"])
            v = view(c, game, tokens[0])
        assert v["moves"] == 5
        assert v["halted"] == {
            "message": "This game stopped at the server's limit of 5 moves without ending;"
            " its record can be downloaded, and is kept in the server's database.",
            "retry": False,
        }
        assert v["legal"] == []  # nothing is offered that would be refused
        r = c.post(
            f"/api/games/{game}/act",
            json={"token": tokens[0], "turn": v["turn"], "action": "play Seer"},
        )
        assert r.status_code == 409 and "limit of 5 moves" in r.json()["error"]
