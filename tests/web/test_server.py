"""``clangames serve`` in process (Starlette's test client): creating games, seats acting
through their secret tokens, every kind of refusal, bots moving on the server,
simultaneous commits from two pages, a restart from the same database, and for every
message a seat receives, a check that it holds exactly what that seat may know."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng
from clangames.web.app import MAX_BODY, MAX_MESSAGE, create_app
from web.helpers import check_payload, koa_request, replay, seat_log, token_of

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def client(db: str = ":memory:", raise_errors: bool = True, **kwargs: Any) -> TestClient:
    return TestClient(create_app(db, **kwargs), raise_server_exceptions=raise_errors)


def idle(c: TestClient, game: str) -> None:
    """Wait until the server's bots and chance have nothing more to do in ``game``."""
    c.portal.call(c.app.state.server.idle, game)  # type: ignore[attr-defined]


def room(c: TestClient, game: str) -> Any:
    """The game's room, whether it is played or over (then perhaps loaded again)."""
    return c.app.state.server.hub.room(game)  # type: ignore[attr-defined]


def create(c: TestClient, request: dict[str, Any]) -> tuple[str, dict[int, str]]:
    r = c.post("/api/games", json=request)
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["spectator"] == f"/watch/{data['game']}"
    tokens = {int(seat): token_of(link) for seat, link in data["seats"].items()}
    for token in tokens.values():
        assert len(token) >= 32  # 24 random bytes: 192 bits
    idle(c, data["game"])
    return data["game"], tokens


def view(c: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    params = {} if token is None else {"token": token}
    r = c.get(f"/api/games/{game}/view", params=params)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


def check(c: TestClient, game: str, payload: dict[str, Any], seat: int | None) -> None:
    r = room(c, game)
    moves = list(r.moves[: payload["moves"]])
    states = replay(r.game.name, dict(r.game.params), moves)
    check_payload(payload, seat, states, moves)


def play_http(c: TestClient, game: str, tokens: dict[int, str], seed: int, limit: int) -> int:
    """Humans pick random legal actions through the HTTP API until the game ends or
    ``limit`` moves were made; every view is checked. Returns the moves made."""
    rng = Rng(seed)
    made = 0
    while made < limit:
        acted = False
        for seat, token in tokens.items():
            v = view(c, game, token)
            check(c, game, v, seat)
            if v["result"] is not None:
                return made
            if not v["legal"]:
                continue
            i, rng = rng.below(len(v["legal"]))
            r = c.post(
                f"/api/games/{game}/act",
                json={"token": token, "turn": v["turn"], "action": v["legal"][i]},
            )
            assert r.status_code == 200, r.text
            check(c, game, r.json(), seat)
            idle(c, game)
            made += 1
            acted = True
        assert acted or view(c, game)["result"] is not None
    return made


def test_create_join_and_play_to_the_end_with_a_record() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=3))
        assert set(tokens) == {0, 1}
        page = c.get(f"/play/{game}/{tokens[0]}")
        assert page.status_code == 200 and "player 0" in page.text
        assert c.get(f"/watch/{game}").status_code == 200
        assert c.get(f"/api/games/{game}/record").status_code == 409
        play_http(c, game, tokens, seed=5, limit=10_000)
        final = view(c, game)
        check(c, game, final, None)
        assert final["result"] is not None
        r = c.get(f"/api/games/{game}/record")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        record = GameRecord.from_json(json.loads(r.text))
        assert record.final_state().scores() == tuple(final["result"]["scores"])
        assert record.headers["seats"][2] == {"kind": "bot", "bot": "random"}


def test_every_refusal_is_a_clear_message_and_changes_nothing() -> None:
    with client(max_games=3) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"]))
        _other, other_tokens = create(c, koa_request(["human", "random"]))
        v = view(c, game, tokens[0])
        base = {"token": tokens[0], "turn": v["turn"], "action": v["legal"][0]}
        url = f"/api/games/{game}/act"
        cases = [
            ({**base, "token": "x" * 32}, 403, "does not hold a seat"),
            ({**base, "token": other_tokens[0]}, 403, "does not hold a seat"),
            ({**base, "seat": 1}, 403, "holds seat 0, not seat 1"),
            ({**base, "action": "play the Moon"}, 422, "not a legal action for seat 0"),
            ({**base, "turn": v["turn"] - 1}, 409, "stale move"),
            ({**base, "turn": True}, 400, "'turn': expected the decision number"),
            ({**base, "turn": None}, 400, "'turn': expected the decision number"),
            ({**base, "action": "a" * 1000}, 400, "at most"),
            ([1, 2], 400, "expected a JSON object"),
        ]
        for body, status, words in cases:
            r = c.post(url, json=body)
            assert r.status_code == status and words in r.json()["error"], (body, r.text)
            assert "Traceback" not in r.text
        assert view(c, game, tokens[0]) == v
        big = c.post(url, content=b"{" + b" " * MAX_BODY + b"}")
        assert big.status_code == 413 and "exceeds" in big.json()["error"]
        assert c.post(url, content=b"{nope").status_code == 400
        assert c.get("/api/games/nope/view").status_code == 404
        assert c.get(f"/play/{game}/{other_tokens[0]}").status_code == 403
        assert c.get("/no/such/page").json() == {"error": "Not Found"}
        # Accepted once; the same message again is a replay, refused as stale.
        assert c.post(url, json=base).status_code == 200
        replayed = c.post(url, json=base)
        assert replayed.status_code == 409 and "stale move" in replayed.json()["error"]
        assert len(room(c, game).moves) == v["moves"] + 1
        bad_creates = [
            ({"game": "chess", "seats": []}, "chess"),
            ({**koa_request(["human"] * 2), "players": 9}, "'players'"),
            ({**koa_request(["human"] * 2), "seats": [{"kind": "human"}]}, "list of 2 seats"),
            (
                {
                    **koa_request(["human"] * 2),
                    "seats": [
                        {"kind": "bot", "bot": "ismcts", "iterations": 10**9},
                        {"kind": "human"},
                    ],
                },
                "iterations",
            ),
            (
                {**koa_request(["human"] * 2), "seats": [{"kind": "god"}, {"kind": "human"}]},
                "'human' or 'bot'",
            ),
            ({**koa_request(["human"] * 2), "params": {"cards": "/etc/passwd"}}, "not offered"),
            ({**koa_request(["human"] * 2), "extra": 1}, "unknown keys"),
            ({**koa_request(["human"] * 2), "params": {"colour": "red"}}, "not a parameter"),
            (
                {
                    "game": "kilt_castle",
                    "players": 2,
                    "seats": [{"kind": "human"}] * 2,
                    "params": {"board": "x.toml"},
                },
                "not offered",
            ),
        ]
        for body, words in bad_creates:
            r = c.post("/api/games", json=body)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
        assert c.post("/api/games", json=koa_request(["human", "human"])).status_code == 201
        full = c.post("/api/games", json=koa_request(["human", "human"]))
        assert full.status_code == 503 and "limit" in full.json()["error"]


def test_internal_errors_never_show_a_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    with client(raise_errors=False) as c:
        game, _tokens = create(c, koa_request(["human", "random"]))

        def broken(self: Any, seat: int | None) -> None:
            raise RuntimeError("secret detail")

        monkeypatch.setattr(type(room(c, game)), "view", broken)
        r = c.get(f"/api/games/{game}/view")
        assert r.status_code == 500 and r.json() == {"error": "internal error"}
        assert "secret detail" not in r.text and "Traceback" not in r.text


def test_websocket_pages_simultaneous_commits_and_spectators() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=8))
        with (
            c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as a,
            c.websocket_connect(f"/ws/{game}?token={tokens[1]}") as b,
            c.websocket_connect(f"/ws/{game}") as watcher,
        ):
            va, vb, vw = a.receive_json(), b.receive_json(), watcher.receive_json()
            for payload, seat in ((va, 0), (vb, 1), (vw, None)):
                check(c, game, payload, seat)
            assert {0, 1} <= set(va["to_move"])  # both commit at once
            a.send_text(json.dumps({"type": "act", "turn": va["turn"], "action": va["legal"][0]}))
            b.send_text(json.dumps({"type": "act", "turn": vb["turn"], "action": vb["legal"][-1]}))
            watcher.send_text(json.dumps({"type": "act", "turn": 0, "action": "x"}))
            while (error := watcher.receive_json())["type"] == "view":
                check(c, game, error, None)
            assert "spectator cannot act" in error["error"]
            a.send_text("x" * (MAX_MESSAGE + 1))
            seen_a = []
            while True:
                m = a.receive_json()
                if m["type"] == "error":
                    assert "at most" in m["error"]
                    break
                seen_a.append(m)
            idle(c, game)
            moves = room(c, game).moves
            committed = {m.player for m in moves[va["moves"] :]}
            assert {0, 1} <= committed  # both pages' commits were accepted
            for m in seen_a:
                check(c, game, m, 0)
        bad = c.websocket_connect(f"/ws/{game}?token={'y' * 32}")
        with bad:
            m = bad.receive_json()
            assert m["type"] == "error" and m["status"] == 403


def test_restart_from_the_same_database_loses_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    with client(db) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=11))
        play_http(c, game, tokens, seed=2, limit=6)
        before = {seat: view(c, game, t) for seat, t in tokens.items()}
        public = view(c, game)
        moves = list(room(c, game).moves)
    with client(db) as c:
        assert list(room(c, game).moves) == moves
        for seat, t in tokens.items():
            assert view(c, game, t) == before[seat]  # same picture, log, options and turn
        assert view(c, game) == public
        play_http(c, game, tokens, seed=3, limit=10_000)
        assert view(c, game)["result"] is not None
        finished = list(room(c, game).moves)
    with client(db) as c:
        assert list(room(c, game).moves) == finished
        assert c.get(f"/api/games/{game}/record").status_code == 200


def test_choice_parameters_are_offered() -> None:
    with client() as c:
        game, _ = create(
            c,
            {
                "game": "kilt_castle",
                "players": 2,
                "seed": 1,
                "params": {"relocation_neighbour": "either"},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            },
        )
        assert room(c, game).game.params["relocation_neighbour"] == "either"


def test_bot_only_seats_play_on_the_server() -> None:
    with client() as c:
        game, tokens = create(
            c,
            {
                "game": "kings_kilt",
                "players": 2,
                "seed": 4,
                "seats": [
                    {"kind": "bot", "bot": "random"},
                    {"kind": "bot", "bot": "ismcts", "iterations": 3},
                ],
            },
        )
        assert tokens == {}
        final = view(c, game)
        assert final["result"] is not None
        check(c, game, final, None)


def test_every_message_of_a_whole_game_over_websockets_is_exactly_the_seats() -> None:
    with client() as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=21))
        received: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], None: []}
        with (
            c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as a,
            c.websocket_connect(f"/ws/{game}?token={tokens[1]}") as b,
            c.websocket_connect(f"/ws/{game}") as w,
        ):
            pages = {0: a, 1: b, None: w}

            def drain() -> None:
                # Every accepted move is broadcast to every page, so each page's last
                # message is the view after the last move.
                target = len(room(c, game).moves)
                for seat, ws in pages.items():
                    while not received[seat] or received[seat][-1]["moves"] < target:
                        message = ws.receive_json()
                        assert message["type"] == "view", message
                        received[seat].append(message)

            drain()
            rng = Rng(9)
            while received[None][-1]["result"] is None:
                for seat in (0, 1):
                    latest = received[seat][-1]
                    if latest["legal"]:
                        i, rng = rng.below(len(latest["legal"]))
                        pages[seat].send_json(
                            {"type": "act", "turn": latest["turn"], "action": latest["legal"][i]}
                        )
                        # The move's own broadcast tells this page it was taken.
                        message = pages[seat].receive_json()
                        assert message["type"] == "view", message
                        received[seat].append(message)
                idle(c, game)
                drain()
        r = room(c, game)
        moves = list(r.moves)
        states = replay(r.game.name, dict(r.game.params), moves)
        first = received[None][0]["moves"]  # the moves made before the pages opened
        assert [m["moves"] for m in received[None]] == list(range(first, len(moves) + 1))
        for seat, messages in received.items():
            log = None if seat is None else seat_log(states, moves, seat)
            for message in messages:
                check_payload(message, seat, states, moves, log)
        assert received[0][-1]["result"] == received[None][-1]["result"] is not None
        # Spectators are told a commit that leaves the card face down only as a commit.
        spectator_log = received[None][-1]["log"]
        sealed = [  # moves after which the mover's card still lies face down
            i
            for i, m in enumerate(moves)
            if m.player >= 0
            and states[i + 1].phase.name == "commit"
            and states[i + 1].round == states[i].round  # type: ignore[attr-defined]
        ]
        assert sealed
        for i in sealed:
            if len(states[i].legal_actions(moves[i].player)) > 1:  # else everyone knows it
                assert "commit the" not in spectator_log[i], spectator_log[i]
        public = [line for line in spectator_log if "gives up its" in line]
        assert public, "\n".join(spectator_log)  # and public steps are told in full


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def test_fuzzed_messages_are_refused_clearly_and_change_nothing() -> None:
    """Random JSON bodies for the move and create endpoints and random WebSocket text:
    always a clear refusal (never a 500), and the game stays as it was."""
    with client(max_games=4) as c:
        game, tokens = create(c, koa_request(["human", "human", "random"], seed=2))
        v = view(c, game, tokens[0])
        keys = st.sampled_from(["token", "turn", "action", "seat", "type"])
        near_valid = st.fixed_dictionaries(
            {"token": st.sampled_from([tokens[0], tokens[1], "", "x" * 40])},
            optional={
                "turn": st.one_of(st.integers(-2, 50), JSON),
                "action": st.one_of(st.sampled_from(v["legal"]).map(lambda t: t + " "), JSON),
                "seat": st.one_of(st.integers(-1, 5), JSON),
            },
        )

        @settings(max_examples=60, deadline=None, derandomize=True)
        @given(body=st.one_of(JSON, near_valid, st.dictionaries(keys, JSON, max_size=4)))
        def act_body(body: Any) -> None:
            r = c.post(f"/api/games/{game}/act", json=body)
            assert r.status_code in (400, 403, 409, 413, 422), (body, r.text)
            assert set(r.json()) == {"error"} and r.json()["error"]
            assert len(room(c, game).moves) == v["moves"]

        @settings(max_examples=40, deadline=None, derandomize=True)
        @given(body=JSON)
        def create_body(body: Any) -> None:
            r = c.post("/api/games", json=body)
            assert r.status_code == 400, (body, r.text)
            assert set(r.json()) == {"error"}

        act_body()
        create_body()
        with c.websocket_connect(f"/ws/{game}?token={tokens[0]}") as ws:
            ws.receive_json()

            @settings(max_examples=40, deadline=None, derandomize=True)
            @given(text=st.text(max_size=200) | JSON.map(json.dumps))
            def socket_text(text: str) -> None:
                ws.send_text(text)
                m = ws.receive_json()
                assert m["type"] == "error" and m["status"] in (400, 403, 409, 422), (text, m)

            socket_text()
        assert view(c, game, tokens[0]) == v
