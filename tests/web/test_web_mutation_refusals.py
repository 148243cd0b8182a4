"""Every bad request to ``clangames serve`` is a clear 4xx refusal that changes nothing,
however odd the input: JSON nested beyond the parser, lone surrogates (JSON's ``\\ud800``)
in a token or a key, a binary WebSocket frame, a database file of another program."""

from __future__ import annotations

import json
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from clangames.bots.ismcts import ISMCTSBot
from clangames.cli.main import main
from clangames.engine.rng import Rng
from clangames.rendering.text import LEGAL_SHOWN
from clangames.web.hub import (
    MAX_BOT_SECONDS,
    Hub,
    Room,
    SeatSpec,
    WebError,
    make_policy,
    parse_seat,
)
from clangames.web.store import Store, StoreError
from web.helpers import koa_request
from web.test_server import client, create, room, view
from web.test_web_mutation_seat_views import settle

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


# -- creating a game: every field checked, with the offending value in the refusal ----------


def refusal(hub: Hub, request: dict[str, Any]) -> WebError:
    """The refusal of ``request`` by ``hub``, which must keep no game of it."""
    before = dict(hub.rooms)
    with pytest.raises(WebError) as caught:
        hub.create(request)
    assert hub.rooms == before and [g.id for g in hub.store.games()] == list(before)
    return caught.value


def with_seats(*seats: dict[str, Any]) -> dict[str, Any]:
    return {**koa_request(["human"] * len(seats)), "seats": list(seats)}


HUMAN = {"kind": "human"}


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (
            with_seats({"kind": "human", "bot": "random"}, HUMAN),
            "seats[0]: a human seat takes only",
        ),
        (with_seats(HUMAN, {"kind": "bot", "budget": 9}), "seats[1]: unknown keys ['budget']"),
        (with_seats(HUMAN, {"kind": "bot", "bot": "god"}), "seats[1].bot: expected one of"),
        (with_seats(HUMAN, {"kind": "bot", "bot": None}), "got None"),
        (
            with_seats({"kind": "bot", "iterations": 0}, HUMAN),
            "expected an integer in 1..2000, got 0",
        ),
        (with_seats({"kind": "bot", "iterations": 2001}, HUMAN), "in 1..2000, got 2001"),
        (with_seats({"kind": "bot", "iterations": True}, HUMAN), "iterations: expected an integer"),
        (
            with_seats({"kind": "bot", "seconds": 0}, HUMAN),
            "seconds: expected a number in (0, 5.0]",
        ),
        (with_seats({"kind": "bot", "seconds": 5.01}, HUMAN), "seconds: expected a number"),
        (with_seats({"kind": "bot", "seconds": True}, HUMAN), "seconds: expected a number"),
        (with_seats({"kind": "bot", "seconds": "1"}, HUMAN), "seconds: expected a number"),
        (with_seats("human", HUMAN), "seats[0]: expected an object like"),
        (
            {**koa_request(["human"] * 2), "seed": True},
            "'seed': expected an integer in 0..9223372036854775807, got True",
        ),
        ({**koa_request(["human"] * 2), "seed": -1}, "'seed': expected an integer in 0.."),
        ({**koa_request(["human"] * 2), "seed": 1 << 63}, "'seed': expected an integer"),
        ({**koa_request(["human"] * 2), "players": True}, "'players': expected an integer in 2..5"),
        (
            {**koa_request(["human"] * 2), "players": 1},
            "'players': expected an integer in 2..5, got 1",
        ),
        ({**koa_request(["human"] * 2), "game": 7}, "'game': expected a game name"),
        ({**koa_request(["human"] * 2), "game": "k" * 300}, "'game': expected a game name"),
        ({**koa_request(["human"] * 2), "params": []}, "'params': expected an object"),
        (
            {**koa_request(["human"] * 2), "params": {"players": 2}},
            "params.players: not a parameter of koa_kingmaker (players go in 'players')",
        ),
        (
            {
                **koa_request(["human"] * 2),
                "game": "kilt_castle",
                "params": {"relocation_neighbour": ["either"]},
            },
            "params.relocation_neighbour: expected a short string or a number",
        ),
        (
            {
                **koa_request(["human"] * 2),
                "game": "kilt_castle",
                "params": {"relocation_neighbour": "e" * 300},
            },
            "expected a short string or a number",
        ),
        (
            {
                **koa_request(["human"] * 2),
                "game": "kilt_castle",
                "params": {"relocation_neighbour": "nowhere"},
            },
            "must be one of 'behind', 'either', got 'nowhere'",
        ),
        (
            {**koa_request(["human"] * 2), "game": "kilt_castle", "params": {"stall_rounds": 0}},
            "'stall_rounds' must be in 1..1000, got 0",
        ),
        (
            {**koa_request(["human"] * 2), "params": {"cards": "x.toml"}},
            "params.cards: files of the server are not offered",
        ),
        ("koa", "expected a JSON object with 'game' and 'seats'"),
    ],
)
def test_a_bad_create_request_is_refused_with_what_was_wrong(request_: Any, words: str) -> None:
    hub = Hub(Store(":memory:"))
    error = refusal(hub, request_)
    assert error.status == 400 and words in str(error), str(error)


def test_a_seat_defaults_and_bounds_are_kept() -> None:
    hub = Hub(Store(":memory:"))
    # players defaults to the game's least; a bot to the random one; budgets at their limits
    room, tokens = hub.create(
        {
            "game": "koa_kingmaker",
            "seed": 0,
            "seats": [
                {"kind": "bot"},
                {"kind": "bot", "bot": "ismcts", "iterations": 2000, "seconds": 5},
            ],
        }
    )
    assert room.game.num_players == 2 and tokens == {} and room.seed == 0
    assert room.seats == (
        SeatSpec("bot", "random"),
        SeatSpec("bot", "ismcts", 2000, 5.0),
    )
    low = parse_seat({"kind": "bot", "bot": "ismcts", "iterations": 1, "seconds": 0.001}, 0)
    assert (low.iterations, low.seconds) == (1, 0.001)


def test_an_ismcts_seat_without_a_budget_gets_the_default_one() -> None:
    bot = make_policy(SeatSpec("bot", "ismcts"), Rng(1))
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.time_limit) == (200, MAX_BOT_SECONDS)
    held = make_policy(SeatSpec("bot", "ismcts", 7, 0.5), Rng(1))
    assert (held.iterations, held.time_limit) == (7, 0.5)  # type: ignore[attr-defined]
    assert not isinstance(make_policy(SeatSpec("bot", "random"), Rng(1)), ISMCTSBot)


def test_the_game_limit_refuses_only_beyond_it() -> None:
    hub = Hub(Store(":memory:"), max_games=2)
    for seed in (1, 2):
        hub.create(koa_request(["human", "human"], seed))
    error = refusal(hub, koa_request(["human", "human"], 3))
    assert error.status == 503 and str(error) == (
        "this server is full: it is playing 2 games, its limit; a new game can start when one"
        " of them has ended"
    )


# -- a move: refused with the reason, and nothing changes ------------------------------------


def test_a_move_is_refused_with_its_reason_and_changes_nothing() -> None:
    hub = Hub(Store(":memory:"))
    game, tokens = hub.create(koa_request(["human", "human"], 2))
    settle(hub, game)
    v = game.view(0)
    # A text that is no action of the game at all: nothing to explain but the options.
    wrong = hub_refusal(
        hub, game, {"token": tokens[0], "turn": v["turn"], "action": "play the Moon"}
    )
    assert (wrong.status, str(wrong)) == (
        422,
        f"'play the Moon' is not a legal action for seat 0; legal: {', '.join(v['legal'])}",
    )
    hub.act(game.id, {"token": tokens[0], "turn": v["turn"], "action": v["legal"][0]})
    waiting = game.view(0)
    assert waiting["legal"] == [] and waiting["turn"] == v["turn"] + 1
    idle_seat = hub_refusal(
        hub, game, {"token": tokens[0], "turn": waiting["turn"], "action": v["legal"][0]}
    )
    assert (idle_seat.status, str(idle_seat)) == (409, "seat 0 has nothing to decide now")
    with pytest.raises(WebError, match="expected a JSON object with 'token'"):
        hub.retry(game.id, ["token"])


def test_an_action_of_the_game_not_legal_now_is_refused_with_the_seats_reason() -> None:
    hub = Hub(Store(":memory:"))
    game, tokens = hub.create(koa_request(["human", "human"], 2))
    settle(hub, game)
    first = [game.view(seat) for seat in (0, 1)]
    hub.act(game.id, {"token": tokens[0], "turn": first[0]["turn"], "action": "play Seer"})
    hub.act(game.id, {"token": tokens[1], "turn": first[1]["turn"], "action": first[1]["legal"][0]})
    settle(hub, game)
    v = game.view(0)
    assert v["legal"] and "play Seer" not in v["legal"]
    legal = ", ".join(v["legal"])
    for text, reason in (
        ("play Seer", "the Seer is not in your hand"),
        ("nominate house 0", "a house holds no nomination of itself"),
    ):
        refused = hub_refusal(hub, game, {"token": tokens[0], "turn": v["turn"], "action": text})
        assert (refused.status, str(refused)) == (
            422,
            f"{text!r} is not legal for player 0: {reason}; legal: {legal}",
        )
    # what the seat is told is the game's own explanation, the same in every re-deal of
    # what the seat cannot see (the harness's explain-private check, on this very state)
    seer = game.state.parse_action("play Seer")
    told = game.state.explain_illegal(seer, 0)
    assert all(game.state.resample(0, Rng(k)).explain_illegal(seer, 0) == told for k in range(20))


def test_an_action_of_the_wrong_kind_is_refused_with_the_legal_list_once() -> None:
    # The game's reason says only why; the server adds the seat's legal actions, once.
    hub = Hub(Store(":memory:"))
    game, tokens = hub.create(koa_request(["human", "human"], 2))
    settle(hub, game)
    v = game.view(0)
    refused = hub_refusal(
        hub, game, {"token": tokens[0], "turn": v["turn"], "action": "discard Royal 1"}
    )
    assert (refused.status, str(refused)) == (
        422,
        "'discard Royal 1' is not legal for player 0: that is not a move of this step"
        f" (round 1: players 0, 1 put one card face down each); legal: {', '.join(v['legal'])}",
    )


def test_a_legal_action_spelt_otherwise_is_refused_with_how_it_is_written() -> None:
    hub = Hub(Store(":memory:"))
    game, tokens = hub.create(koa_request(["human", "human"], 2))
    settle(hub, game)
    v = game.view(0)
    refused = hub_refusal(
        hub, game, {"token": tokens[0], "turn": v["turn"], "action": "  PLAY   jester "}
    )
    assert (refused.status, str(refused)) == (
        422,
        "'  PLAY   jester ' is not written as listed: send 'play Jester';"
        f" legal: {', '.join(v['legal'])}",
    )


def test_a_move_after_the_end_is_refused_as_such() -> None:
    hub = Hub(Store(":memory:"))
    game, tokens = hub.create(koa_request(["human", "random"], 4))
    while not game.state.is_terminal:
        settle(hub, game)
        v = game.view(0)
        if v["legal"]:
            hub.act(game.id, {"token": tokens[0], "turn": v["turn"], "action": v["legal"][-1]})
    last = game.view(0)
    over = hub_refusal(hub, game, {"token": tokens[0], "turn": last["turn"], "action": "x"})
    assert (over.status, str(over)) == (409, "the game is over")


def hub_refusal(hub: Hub, game: Room, message: dict[str, Any]) -> WebError:
    """The refusal of ``message`` as a move: the room and its saved moves are unchanged."""
    views = [game.view(seat) for seat in (None, *range(game.game.num_players))]
    with pytest.raises(WebError) as caught:
        hub.act(game.id, message)
    assert [game.view(seat) for seat in (None, *range(game.game.num_players))] == views
    (saved,) = [g for g in hub.store.games() if g.id == game.id]
    assert len(saved.moves) == len(game.moves)
    return caught.value


class FailingGames(Store):
    """A store whose next new game cannot be saved (a full disk, say)."""

    fail = True

    def add_game(self, *args: Any) -> None:
        if self.fail:
            self.fail = False
            raise StoreError("cannot save game: disk I/O error")
        super().add_game(*args)


def test_a_game_the_database_cannot_save_is_refused_and_not_served() -> None:
    hub = Hub(FailingGames(":memory:"))
    error = refusal(hub, koa_request(["human", "human"]))
    assert (error.status, str(error)) == (
        503,
        "the server could not save the new game (its database failed): try again",
    )
    game, tokens = hub.create(koa_request(["human", "human"]))
    assert list(hub.rooms) == [game.id] and len(game.tokens) == len(tokens) == 2
    assert {hub.seat_of(game.id, token) for token in tokens.values()} == {0, 1}


def test_a_refusal_among_many_options_says_how_many_there_are() -> None:
    # Play and the web server list a refused move's options alike: the first twelve, then
    # how many in all (a Clan Feud step offers more than a message should carry).
    hub = Hub(Store(":memory:"))
    request = {**koa_request(["human", "human"], 3), "game": "clan_feud"}
    game, tokens = hub.create(request)
    settle(hub, game)
    (seat,) = game.state.to_move
    v = game.view(seat)
    assert len(v["legal"]) > LEGAL_SHOWN
    wrong = hub_refusal(hub, game, {"token": tokens[seat], "turn": v["turn"], "action": "x"})
    shown = ", ".join(v["legal"][:LEGAL_SHOWN])
    assert str(wrong) == (
        f"'x' is not a legal action for seat {seat}; legal: {shown}, ... ({len(v['legal'])} in all)"
    )
