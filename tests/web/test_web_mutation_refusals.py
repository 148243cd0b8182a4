"""Every bad request to ``clangames serve`` is a clear 4xx refusal that changes nothing,
however odd the input: JSON nested beyond the parser, lone surrogates (JSON's ``\\ud800``)
in a token or a key, a binary WebSocket frame, a database file of another program."""

from __future__ import annotations

import json
import sqlite3
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from clangames.cli.main import main
from clangames.web.hub import Hub
from clangames.web.store import Store, StoreError
from web.helpers import koa_request
from web.test_server import client, create, room, view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DEEP = "[" * 5000 + "]" * 5000
"""Small enough for any limit, nested beyond what the JSON parser recurses into."""


def post_raw(c: TestClient, url: str, body: str) -> tuple[int, dict[str, str]]:
    r = c.post(url, content=body.encode("utf-8", "surrogatepass"))
    return r.status_code, r.json()


def test_json_nested_too_deeply_is_refused_not_an_internal_error() -> None:
    with client(raise_errors=False) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"]))
        before = view(c, game, tokens[0])
        for url in (f"/api/games/{game}/act", f"/api/games/{game}/retry", "/api/games"):
            status, body = post_raw(c, url, DEEP)
            assert status == 400, (url, body)
            assert body == {
                "error": "the JSON nests too deeply to be read: expected a JSON"
                " object of plain values"
            }
        assert list(c.app.state.server.hub.rooms) == [game]  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            page.receive_json()
            page.send_text(DEEP[:2000] + DEEP[-2000:])
            m = page.receive_json()
            assert (m["type"], m["status"]) == ("error", 400) and "nests too deeply" in m["error"]
        assert view(c, game, tokens[0]) == before


def test_lone_surrogates_in_a_token_or_a_key_are_refused_clearly() -> None:
    with client(raise_errors=False) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"]))
        before = view(c, game, tokens[0])
        act = {"token": "\ud800", "turn": before["turn"], "action": before["legal"][0]}
        for url, body in (("act", act), ("retry", {"token": "\ud800"})):
            status, answer = post_raw(c, f"/api/games/{game}/{url}", json.dumps(body))
            assert status == 403, answer
            assert answer == {"error": "this link's token does not hold a seat in this game"}
        request = {**koa_request(["human", "human"]), "params": {"\ud800x": 1}}
        status, answer = post_raw(c, "/api/games", json.dumps(request))
        assert status == 400, answer
        assert answer["error"].startswith("params.\\ud800x: not a parameter of koa_kingmaker")
        assert list(c.app.state.server.hub.rooms) == [game]  # type: ignore[attr-defined]
        assert view(c, game, tokens[0]) == before


def test_a_binary_frame_is_refused_and_the_page_stays_open() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=4))
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as page:
            first = page.receive_json()
            page.send_bytes(b'{"type": "retry"}')
            assert page.receive_json() == {
                "type": "error",
                "status": 400,
                "error": "expected a text message (JSON), not binary data",
            }
            assert len(room(c, game).moves) == first["moves"]
            # the same page still plays
            page.send_json({"type": "act", "turn": first["turn"], "action": first["legal"][0]})
            m = page.receive_json()
            assert m["type"] == "view" and m["moves"] == first["moves"] + 1


def foreign_database(tmp_path: Path) -> Path:
    """An SQLite file of another program, with a ``games`` table of its own."""
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id TEXT, score INTEGER)")
        conn.execute("INSERT INTO games VALUES ('chess', 3)")
    return path


def test_a_database_of_another_program_is_a_clear_error(tmp_path: Path) -> None:
    path = foreign_database(tmp_path)
    store = Store(path)
    with pytest.raises(
        StoreError, match=r"cannot read the games in .*other\.sqlite3.*no such column"
    ):
        Hub(store)
    store.close()
    with sqlite3.connect(path) as conn:  # and the file is left as it was
        assert conn.execute("SELECT * FROM games").fetchall() == [("chess", 3)]


def test_serving_a_database_of_another_program_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvicorn")
    path = foreign_database(tmp_path)
    code = main(["serve", "--db", str(path), "--port", "1"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1
    assert err.startswith("clangames: error: cannot read the games in") and "internal" not in err
