"""The HTTP and WebSocket API at its edges: sizes exactly at the limits are accepted, an
empty body or an unknown message is refused with what was expected, a page acts only
with its own token, an internal failure of a page's move is told to that page (which
stays open), unknown routes and methods keep their status, and each seat's link opens
its own page."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import clangames.web.hub as hub_module
from clangames.web.app import MAX_BODY, MAX_MESSAGE
from web.helpers import koa_request
from web.test_server import client, create, room, view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def padded(message: dict[str, Any], size: int) -> str:
    """``message`` as JSON text of exactly ``size`` characters."""
    text = json.dumps(message)
    return text[:-1] + " " * (size - len(text)) + "}"


def test_a_body_and_a_message_exactly_at_their_limits_are_read() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=2))
        v = view(c, game, tokens[0])
        body = padded({"token": tokens[0], "turn": v["turn"], "action": v["legal"][0]}, MAX_BODY)
        r = c.post(f"/api/games/{game}/act", content=body.encode())
        assert r.status_code == 200, r.text
        w = view(c, game, tokens[1])
        with c.websocket_connect(f"/ws/{game}?token={tokens[1]}") as page:
            page.receive_json()
            text = padded({"type": "act", "turn": w["turn"], "action": w["legal"][0]}, MAX_MESSAGE)
            page.send_text(text)
            m = page.receive_json()
            assert m["type"] == "view" and m["moves"] == v["moves"] + 2, m


def test_an_empty_body_is_refused_with_what_was_expected() -> None:
    with client() as c:
        game, _tokens = create(c, koa_request(["human", "human"]))
        for url, words in (
            (f"/api/games/{game}/act", "expected a JSON object with 'token', 'turn' and 'action'"),
            (f"/api/games/{game}/retry", "expected a JSON object with 'token'"),
            ("/api/games", "expected a JSON object with 'game' and 'seats'"),
        ):
            r = c.post(url, content=b"")
            assert (r.status_code, r.json()) == (400, {"error": words}), url


def test_a_page_may_not_act_with_another_seats_token_or_send_an_unknown_message() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=3))
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            first = page.receive_json()
            move = {"type": "act", "turn": first["turn"], "action": first["legal"][0]}
            page.send_json({**move, "token": tokens[1]})
            assert page.receive_json() == {
                "type": "error",
                "status": 403,
                "error": "a page acts only with its own seat's token",
            }
            page.send_json({**move, "type": "dance"})
            m = page.receive_json()
            assert (m["type"], m["status"]) == ("error", 400)
            assert m["error"].startswith('expected {"type": "act", "turn": N, "action": "..."}')
            assert len(room(c, game).moves) == first["moves"]
            assert view(c, game, tokens[1])["moves"] == first["moves"]


def test_a_pages_move_that_fails_inside_is_told_to_it_and_the_page_stays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=5))
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            first = page.receive_json()
            real = hub_module.narrate

            def failing(*args: Any) -> str:
                raise RuntimeError("a secret card")

            monkeypatch.setattr(hub_module, "narrate", failing)
            move = {"type": "act", "turn": first["turn"], "action": first["legal"][0]}
            page.send_json(move)
            assert page.receive_json() == {
                "type": "error",
                "status": 500,
                "error": "internal error",
            }
            assert len(room(c, game).moves) == first["moves"]
            monkeypatch.setattr(hub_module, "narrate", real)
            page.send_json(move)
            m = page.receive_json()
            assert m["type"] == "view" and m["moves"] == first["moves"] + 1


def test_unknown_routes_and_methods_keep_their_status() -> None:
    with client() as c:
        missing = c.get("/no/such/page")
        assert (missing.status_code, missing.json()) == (404, {"error": "Not Found"})
        wrong = c.get("/api/games")
        assert (wrong.status_code, wrong.json()) == (405, {"error": "Method Not Allowed"})


def test_each_seats_link_opens_its_own_page() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"]))
        for seat, token in tokens.items():
            page = c.get(f"/play/{game}/{token}").text
            assert f"(player {seat})" in page and json.dumps(token) in page
        assert "(spectator)" in c.get(f"/watch/{game}").text
