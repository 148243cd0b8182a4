"""A saved game the server cannot set up again (its game or a parameter gone, a row it
cannot read) is refused with one clear message, saying so, on every request for it: it is
tried, and its error logged, once per server process (on start, or on the first request),
not again on every page, view, seat link or record asked for."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import clangames.web.hub as hub_module
from clangames.web.hub import Hub, Room, WebError
from clangames.web.store import Store
from web.helpers import koa_request
from web.test_finished_games_free_their_place import played_out
from web.test_server import client

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def unreadable(db: Path, *games: str) -> None:
    """Make the saved spec of ``games`` unreadable (as a version that cannot load them)."""
    with sqlite3.connect(db) as conn:
        conn.executemany("UPDATE games SET spec = '{' WHERE id = ?", [(g,) for g in games])
    conn.close()


def test_a_game_that_cannot_be_set_up_is_tried_and_logged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db))
    ended = played_out(first, 10)
    playing, _ = first.create(koa_request(["human", "human"], 11))
    first.store.close()
    unreadable(db, ended.id, playing.id)
    tried: list[str] = []
    real = Hub.restore

    def restore(self: Hub, stored: Any) -> Room:
        tried.append(stored.id)
        return real(self, stored)

    monkeypatch.setattr(Hub, "restore", restore)
    hub = Hub(Store(db), keep_finished=0)
    assert tried == [playing.id]  # on start
    for game_id in (ended.id, playing.id):
        answers = []
        for _ in range(3):
            with pytest.raises(WebError) as caught:
                hub.room(game_id)
            answers.append((caught.value.status, str(caught.value)))
        assert (
            answers
            == [
                (
                    404,
                    f"game {game_id!r} is saved on this server but cannot be set up again by this"
                    " version of clangames, so it is not served (the server's log says why; its"
                    " moves are kept)",
                )
            ]
            * 3
        )
        assert caplog.text.count(f"game {game_id} cannot be set up again") == 1
    assert tried == [playing.id, ended.id]  # each tried once, not per request


def test_over_http_a_game_that_cannot_be_set_up_is_tried_and_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db))
    ended = played_out(first, 12)
    first.store.close()
    unreadable(db, ended.id)
    with client(str(db)) as c:
        answers = [c.get(f"/api/games/{ended.id}/view") for _ in range(2)]
        answers.append(c.get(f"/watch/{ended.id}"))
        answers.append(c.get(f"/api/games/{ended.id}/record"))
        assert {r.status_code for r in answers} == {404}
        assert len({r.json()["error"] for r in answers}) == 1
        assert "cannot be set up again" in answers[0].json()["error"]
        with c.websocket_connect(f"/ws/{ended.id}") as page:
            assert page.receive_json() == {"type": "error", **answers[0].json(), "status": 404}
    assert caplog.text.count(f"game {ended.id} cannot be set up again") == 1


def test_the_games_refused_are_remembered_up_to_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "KEEP_REFUSED", 2)
    hub = Hub(Store(":memory:"))
    for game_id in ("a", "b", "c"):
        hub.refuse(game_id, WebError(404, f"no {game_id}"))
    assert list(hub.refused) == ["b", "c"]
    with pytest.raises(WebError, match="no b"):
        hub.room("b")
    assert list(hub.refused) == ["c", "b"]
