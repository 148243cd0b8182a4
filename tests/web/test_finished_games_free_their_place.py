"""``--max-games`` limits the games being *played*: a game that is over, stopped at the move
limit or paused for good (its saved moves no longer replay) frees its place, on a running
server and on one started again, so a long-running server never refuses every new game.
Memory stays bounded: only a few finished games' rooms are kept, any other is loaded again
from the database when asked for (its views, seat links and record as they were), a start
does not replay games saved as ended, and nothing stored is ever lost."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import httpx

import clangames.web.hub as hub_module
from clangames.web.app import create_app
from clangames.web.hub import Hub, Room, WebError
from clangames.web.store import Store, StoreError
from web.helpers import koa_request
from web.test_server import check, client, create, idle, play_http, view
from web.test_web_mutation_seat_views import settle

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FULL_1 = (
    "this server is full: it is playing 1 game, its limit; a new game can start when it has ended"
)
FULL_2 = (
    "this server is full: it is playing 2 games, its limit; a new game can start when one of"
    " them has ended"
)


def rows(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def bots(seed: int) -> dict[str, Any]:
    return koa_request(["random", "random"], seed)


def played_out(hub: Hub, seed: int) -> Room:
    """A bot game created on ``hub`` and played to its end."""
    room, _ = hub.create(bots(seed))
    settle(hub, room)
    assert room.state.is_terminal
    return room


def full(hub: Hub, request: dict[str, Any]) -> WebError:
    with pytest.raises(WebError) as caught:
        hub.create(request)
    return caught.value


def views(room: Room) -> list[dict[str, Any]]:
    return [room.view(seat) for seat in (None, *range(room.game.num_players))]


# -- the hub ---------------------------------------------------------------------------------


def test_a_finished_game_frees_its_place_and_a_played_one_does_not() -> None:
    hub = Hub(Store(":memory:"), max_games=2)
    first = played_out(hub, 1)
    waiting, _ = hub.create(koa_request(["human", "human"], 2))
    assert list(hub.rooms) == [waiting.id] and list(hub.finished) == [first.id]
    third, _ = hub.create(koa_request(["human", "human"], 3))  # the finished one's place
    refused = full(hub, koa_request(["human", "human"], 4))
    assert (refused.status, str(refused)) == (503, FULL_2)
    assert set(hub.rooms) == {waiting.id, third.id}
    assert hub.room(first.id) is first  # still served


def test_the_full_server_counts_its_games_in_words() -> None:
    for limit, text in ((1, "1 game"), (3, "3 games")):
        hub = Hub(Store(":memory:"), max_games=limit)
        for seed in range(limit):
            hub.create(koa_request(["human", "human"], seed))
        with pytest.raises(WebError) as caught:
            hub.create(koa_request(["human", "human"], 9))
        assert str(caught.value).startswith(
            f"this server is full: it is playing {text}, its limit;"
        )


def test_memory_holds_the_played_games_and_only_a_few_finished_ones(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db), max_games=1, keep_finished=2)
    finished = [played_out(hub, seed) for seed in range(6)]
    kept = {room.id: (views(room), hub.record(room.id)) for room in finished}
    assert hub.rooms == {} and list(hub.finished) == [r.id for r in finished[-2:]]
    # an evicted game is loaded again from the store: the same views and record
    for room in finished[:2]:
        again = hub.room(room.id)
        assert again is not room
        assert (views(again), hub.record(room.id)) == kept[room.id]
    assert len(hub.finished) == 2 and hub.rooms == {}
    # nothing stored was lost, and each game is saved as ended
    assert [g.id for g in hub.store.games()] == [r.id for r in finished]
    for room in finished:
        saved = rows(db, "SELECT player, action FROM moves WHERE game = ? ORDER BY idx", (room.id,))
        assert [(m.player, m.action) for m in room.moves] == saved
    assert sorted(rows(db, "SELECT game, moves, how FROM ended")) == sorted(
        (r.id, len(r.moves), "over") for r in finished
    )


def test_seat_links_of_an_evicted_game_still_hold_their_seats_and_only_them() -> None:
    hub = Hub(Store(":memory:"), keep_finished=0)
    room, tokens = hub.create(koa_request(["human", "random"], 5))
    other, other_tokens = hub.create(koa_request(["human", "random"], 6))
    while not room.state.is_terminal:
        settle(hub, room)
        if room.state.is_terminal:
            break
        v = room.view(0)
        hub.act(room.id, {"token": tokens[0], "turn": v["turn"], "action": v["legal"][0]})
    assert room.id not in hub.rooms and room.id not in hub.finished
    assert hub.seat_of(room.id, tokens[0]) == 0
    for wrong in (other_tokens[0], "x" * 32, None):
        with pytest.raises(WebError, match="does not hold a seat in this game"):
            hub.seat_of(room.id, wrong)
    with pytest.raises(WebError) as caught:
        hub.act(room.id, {"token": tokens[0], "turn": 0, "action": "x"})
    assert (caught.value.status, str(caught.value)) == (409, "the game is over")
    assert list(hub.rooms) == [other.id]


def test_an_unknown_game_is_still_a_404(tmp_path: Path) -> None:
    hub = Hub(Store(tmp_path / "games.sqlite3"), keep_finished=0)
    for game_id in ("nope", "", None, 7):
        with pytest.raises(WebError) as caught:
            hub.room(game_id)
        assert caught.value.status == 404 and "on this server" in str(caught.value)


# -- a server started again ------------------------------------------------------------------


def replayed_on_start(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the games the hub replays from now on."""
    seen: list[str] = []
    real = Hub._replay

    def spy(room: Room, moves: tuple[tuple[int, str], ...]) -> None:
        seen.append(room.id)
        real(room, moves)

    monkeypatch.setattr(Hub, "_replay", staticmethod(spy))
    return seen


def test_a_restart_counts_only_the_games_being_played_and_replays_no_ended_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db), max_games=1)
    ended = [played_out(first, seed).id for seed in (1, 2, 3)]
    live, _ = first.create(koa_request(["human", "human"], 4))
    first.store.close()
    replayed = replayed_on_start(monkeypatch)
    hub = Hub(Store(db), max_games=2)
    assert replayed == [live.id] and list(hub.rooms) == [live.id]
    hub.create(koa_request(["human", "human"], 5))
    assert str(full(hub, koa_request(["human", "human"], 6))) == FULL_2
    assert hub.room(ended[0]).state.is_terminal  # loaded when asked for


def test_finished_games_of_an_older_database_are_found_once_and_saved_as_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db), max_games=1)
    ended = [played_out(first, seed).id for seed in (1, 2)]
    first.store.close()
    with sqlite3.connect(db) as conn:  # as a version without the table wrote it
        conn.execute("DROP TABLE ended")
    conn.close()
    hub = Hub(Store(db), max_games=1)
    assert hub.rooms == {} and set(hub.finished) == set(ended)
    assert sorted(rows(db, "SELECT game, how FROM ended")) == sorted((g, "over") for g in ended)
    hub.create(koa_request(["human", "human"], 3))
    hub.store.close()
    replayed = replayed_on_start(monkeypatch)
    Hub(Store(db), max_games=1)
    assert set(replayed).isdisjoint(ended)


def test_more_played_games_than_the_limit_all_resume_and_new_ones_wait(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db), max_games=3)
    games = [first.create(bots(seed))[0].id for seed in (1, 2, 3)]
    first.store.close()
    hub = Hub(Store(db), max_games=2)
    assert list(hub.rooms) == games  # nothing lost: every game resumes
    assert "3 games are being played, more than the limit of 2" in caplog.text
    # the refusal counts the games being played (3), not only the limit (it said "2 games")
    assert str(full(hub, bots(4))) == (
        "this server is full: it is playing 3 games, more than its limit of 2 (it resumed"
        " them all when it started); a new game can start when 2 of them have ended"
    )
    settle(hub, hub.rooms[games[0]])
    assert str(full(hub, bots(4))) == FULL_2  # 2 played: still at the limit
    settle(hub, hub.rooms[games[1]])
    hub.create(bots(4))


def test_a_game_paused_for_good_takes_no_place(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db), max_games=1)
    stuck, tokens = first.create(koa_request(["human", "human"], 2))
    settle(first, stuck)
    for seat in (0, 1):
        v = stuck.view(seat)
        first.act(stuck.id, {"token": tokens[seat], "turn": v["turn"], "action": v["legal"][0]})
    first.store.close()
    last = len(stuck.moves) - 1
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE moves SET action = 'nonsense' WHERE game = ? AND idx = ?", (stuck.id, last)
        )
    conn.close()
    hub = Hub(Store(db), max_games=1, keep_finished=0)
    assert hub.rooms == {}
    again = hub.room(stuck.id)  # served, paused for good, and not saved as ended
    assert again.halt is not None and not again.halt.retry and len(again.moves) == last
    assert rows(db, "SELECT * FROM ended") == []
    hub.create(koa_request(["human", "human"], 3))  # its place was free


def test_a_game_stopped_at_the_move_limit_frees_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "MAX_MOVES", 5)
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db), max_games=1)
    room, _ = hub.create(bots(1))
    settle(hub, room)
    assert len(room.moves) == 5 and not room.state.is_terminal
    assert hub.rooms == {} and rows(db, "SELECT moves, how FROM ended") == [(5, "move limit")]
    hub.create(bots(2))
    # and a server whose limit has since been raised still shows it stopped, record and all
    monkeypatch.setattr(hub_module, "MAX_MOVES", 50)
    hub.store.close()
    restarted = Hub(Store(db), max_games=1, keep_finished=0)
    again = restarted.room(room.id)
    assert (len(again.moves), again.ended) == (5, "move limit")
    assert restarted.record(room.id).headers["stopped"] == "move limit"


# -- the running server ----------------------------------------------------------------------


def test_over_http_a_finished_game_frees_its_place_and_is_still_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded_in: list[tuple[str, bool]] = []
    real_load = Hub.load

    def load(self: Hub, stored: Any) -> Room:
        try:
            asyncio.get_running_loop()
            on_the_loop = True
        except RuntimeError:
            on_the_loop = False
        loaded_in.append((threading.current_thread().name, on_the_loop))
        return real_load(self, stored)

    monkeypatch.setattr(Hub, "load", load)
    db = tmp_path / "games.sqlite3"
    with client(str(db), max_games=1) as c:
        server = c.app.state.server  # type: ignore[attr-defined]
        server.hub.keep_finished = 0  # every finished game is loaded again when asked for
        game, tokens = create(c, koa_request(["human", "random"], seed=3))
        busy = c.post("/api/games", json=koa_request(["human", "random"], seed=4))
        assert (busy.status_code, busy.json()) == (503, {"error": FULL_1})
        play_http(c, game, tokens, seed=1, limit=10_000)
        final = view(c, game, tokens[0])
        public = view(c, game)
        assert final["result"] is not None and server.hub.rooms == {}
        # the server replays an old game in a thread of its own, never on its event loop
        assert ("clangames-work", False) in loaded_in
        assert not any(on_the_loop for _, on_the_loop in loaded_in)
        check(c, game, final, 0)
        record = c.get(f"/api/games/{game}/record")
        assert record.status_code == 200 and '"koa_kingmaker"' in record.text
        nxt, _ = create(c, koa_request(["human", "random"], seed=4))
        assert list(server.hub.rooms) == [nxt]
        # the finished game's pages, views and socket, each loaded from the database
        assert c.get(f"/play/{game}/{tokens[0]}").status_code == 200
        assert c.get(f"/watch/{game}").status_code == 200
        assert view(c, game, tokens[0]) == final and view(c, game) == public
        assert c.get(f"/api/games/{game}/record").text == record.text
        wrong = c.get(f"/api/games/{game}/view", params={"token": "x" * 32})
        assert wrong.status_code == 403
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            assert page.receive_json() == final
            page.send_json({"type": "act", "turn": final["turn"], "action": "x"})
            assert page.receive_json() == {
                "type": "error",
                "status": 409,
                "error": "the game is over",
            }
        missing = c.get("/api/games/0123456789abcdef/view")
        assert missing.status_code == 404
        idle(c, nxt)
        gc.collect()
        # nothing of the finished game is left in the server's own tables
        assert game not in server.tasks and game not in server.watchers
        assert game not in server.locks


def test_creates_at_the_same_moment_never_pass_the_limit() -> None:
    app = create_app(":memory:", max_games=3)

    async def many() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            requests = [
                http.post("/api/games", json=koa_request(["human", "human"], seed))
                for seed in range(10)
            ]
            return [r.status_code for r in await asyncio.gather(*requests)]

    statuses = asyncio.run(many())
    assert sorted(statuses) == [201] * 3 + [503] * 7
    assert len(app.state.server.hub.rooms) == 3


def test_the_server_starts_without_replaying_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    with client(str(db), max_games=1) as c:
        done = [create(c, bots(seed))[0] for seed in (1, 2)]
        assert all(view(c, g)["result"] is not None for g in done)
    replayed = replayed_on_start(monkeypatch)
    with client(str(db), max_games=1) as c:
        hub = c.app.state.server.hub  # type: ignore[attr-defined]
        assert replayed == [] and hub.finished == {}
        game, _ = create(c, koa_request(["human", "random"], seed=9))
        assert view(c, done[0])["result"] is not None
        # loaded when asked for, not before, and from its saved final table: not replayed
        assert list(hub.finished) == [done[0]] and replayed == []
        assert list(hub.rooms) == [game]


# -- the store -------------------------------------------------------------------------------


def test_a_game_s_end_is_saved_with_its_last_move_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    spec = {"game": "koa_kingmaker", "params": {"players": 2}, "seed": 1, "seats": []}
    for game_id in ("a", "b"):
        store.add_game(game_id, 1.0, spec, {})
    store.add_move("a", 0, 0, "play Seer")
    with pytest.raises(StoreError, match="cannot save move 0 of game a: UNIQUE"):
        store.add_move("a", 0, 1, "play Moon", ended="over")  # the move fails: no end either
    assert rows(path, "SELECT * FROM ended") == []
    store.add_move("a", 1, 1, "play Moon", ended="over")
    store.mark_ended("a", 7, "move limit")  # an end saved already stays as it is
    store.close()
    again = Store(path)
    assert rows(path, "SELECT * FROM ended") == [("a", 2, "over", None)]
    assert [(g.id, g.ended) for g in again.games()] == [("a", "over"), ("b", None)]
    assert [g.id for g in again.games(playing=True)] == ["b"]
    found = again.game("a")
    assert found is not None and found.moves == ((0, "play Seer"), (1, "play Moon"))
    assert again.game("nope") is None
