"""A game the server stopped at its move limit offers its record, as its players are told:
``GET /api/games/ID/record`` answers it (with the header ``stopped``: "move limit" and a
null ``result``, since it did not end), the view carries the record's link and the page
shows it. A game paused for good because its saved moves no longer replay offers none: its
record would stop at the move that failed, short of what the database holds."""

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

import clangames.web.hub as hub_module
from clangames.engine.record import GameRecord, Move
from clangames.web.page import game_page
from web.helpers import koa_request
from web.test_server import check, client, create, play_http, room, view
from web.test_web_mutation_page_script import NODE, TOKEN, a_view, run

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LIMIT = 5


def stopped_game(c: TestClient) -> tuple[str, dict[int, str]]:
    """A KOA game of a human and two bots, played to the (lowered) move limit."""
    game, tokens = create(c, koa_request(["human", "random", "random"], seed=2))
    v = view(c, game, tokens[0])
    if v["moves"] < LIMIT:  # the human's turn came first: play up to the limit
        play_http(c, game, tokens, seed=1, limit=LIMIT - v["moves"])
    return game, tokens


def test_the_record_of_a_game_stopped_at_the_limit_is_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "MAX_MOVES", LIMIT)
    db = tmp_path / "games.sqlite3"
    with client(str(db)) as c:
        game, tokens = stopped_game(c)
        moves = list(room(c, game).moves)
        assert len(moves) == LIMIT and not room(c, game).state.is_terminal
        link = f"/api/games/{game}/record"
        for token in (None, tokens[0]):
            v = view(c, game, token)
            check(c, game, v, None if token is None else 0)
            assert v["halted"] is not None and not v["halted"]["retry"]
            assert "its record can be downloaded" in v["halted"]["message"]
            assert (v["result"], v["record"]) == (None, link)
        r = c.get(link)
        assert r.status_code == 200, r.text
        assert r.headers["content-disposition"] == (
            'attachment; filename="koa_kingmaker-game.json"'
        )
        record = GameRecord.from_json(json.loads(r.text))
        assert record.moves == tuple(moves)
        assert record.headers["stopped"] == "move limit"
        assert record.headers["result"] is None
        assert record.headers["seed"] == 2 and "incidents" not in record.headers
        states = list(record.replay())  # the record replays, and does not end
        assert len(states) == LIMIT + 1 and not states[-1].is_terminal
    conn = sqlite3.connect(db)
    saved = conn.execute("SELECT player, action FROM moves WHERE game = ? ORDER BY idx", (game,))
    assert [Move(p, a) for p, a in saved.fetchall()] == moves
    conn.close()
    # a restarted server offers the same record
    with client(str(db)) as c:
        again = c.get(link)
        assert again.status_code == 200 and again.text == r.text
        assert view(c, game)["record"] == link


def test_a_game_that_is_played_or_over_offers_its_record_only_at_the_end() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=3))
        assert view(c, game, tokens[0])["record"] is None
        r = c.get(f"/api/games/{game}/record")
        assert (r.status_code, r.json()) == (
            409,
            {"error": "the record is offered once the game is over"},
        )
        play_http(c, game, tokens, seed=5, limit=10_000)
        final = view(c, game, tokens[1])
        assert final["result"] is not None and final["record"] == f"/api/games/{game}/record"
        record = GameRecord.from_json(c.get(final["record"]).json())
        assert "stopped" not in record.headers and record.headers["result"] == final["result"]


def test_a_game_whose_moves_no_longer_replay_offers_no_truncated_record(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    with client(str(db)) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=2))
        play_http(c, game, tokens, seed=1, limit=4)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE moves SET action = 'nonsense' WHERE game = ? AND idx = 3", (game,))
    with client(str(db)) as c:
        v = view(c, game, tokens[0])
        assert v["halted"] is not None and not v["halted"]["retry"] and v["record"] is None
        r = c.get(f"/api/games/{game}/record")
        assert (r.status_code, r.json()) == (409, {"error": v["halted"]["message"]})


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run the page's script")
@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        # stopped at the limit: no result, paused for good, a record
        (
            {
                "result": None,
                "halted": {"message": "stopped at the limit", "retry": False},
                "record": "/api/games/g1/record",
            },
            "inline",
        ),
        (
            {"result": {"scores": [1, 0], "winners": [0]}, "record": "/api/games/g1/record"},
            "inline",
        ),
        ({"result": None, "record": None}, "none"),
        ({"halted": {"message": "cannot replay", "retry": False}, "record": None}, "none"),
    ],
)
def test_the_page_shows_the_record_link_whenever_the_view_offers_one(
    fields: dict[str, object], shown: str
) -> None:
    hidden = {"record": {"style": {"display": "none"}}}  # as the page's HTML starts it
    for seat, token in ((0, TOKEN), (None, None)):
        page = game_page("g1", "KOA Kingmaker", seat, token)
        out = run(page, [{"message": a_view(**fields)}], elements=hidden)
        assert out["shown"]["record"]["display"] == shown
