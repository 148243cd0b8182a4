"""A game serves at most ``MAX_WATCHERS`` open pages: the next one is turned away with a
503 that says so, a closed page frees its place, and pages opening at the same moment
cannot slip in together past the limit."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import clangames.web.app as app_module
from web.helpers import koa_request
from web.test_server import client, create, room

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_page_beyond_the_limit_is_turned_away_and_a_closed_one_frees_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "MAX_WATCHERS", 2)
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"]))
        with c.websocket_connect(f"/ws/{game}") as first:
            assert first.receive_json()["type"] == "view"
            with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as second:
                assert second.receive_json()["type"] == "view"
                with c.websocket_connect(f"/ws/{game}?token={tokens[1]}") as third:
                    assert third.receive_json() == {
                        "type": "error",
                        "status": 503,
                        "error": "this game already has 2 open pages",
                    }
            with c.websocket_connect(f"/ws/{game}?token={tokens[1]}") as again:
                assert again.receive_json()["type"] == "view"


def test_pages_opening_at_the_same_moment_share_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app_module, "MAX_WATCHERS", 1)
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"]))
        lock = c.app.state.server.lock(room(c, game))  # type: ignore[attr-defined]
        c.portal.call(lock.acquire)  # a move under way: both pages wait for it
        try:
            with (
                c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as a,
                c.websocket_connect(f"/ws/{game}?token={tokens[1]}") as b,
            ):
                c.portal.call(lock.release)
                kinds = sorted([a.receive_json()["type"], b.receive_json()["type"]])
                assert kinds == ["error", "view"]
                server = c.app.state.server  # type: ignore[attr-defined]
                assert len(server.watchers[game]) == 1
        finally:
            if lock.locked():
                c.portal.call(lock.release)
