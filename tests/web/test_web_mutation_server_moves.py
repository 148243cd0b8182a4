"""The server's own moves: chance and bots draw from the game's seed and the move's index
(so the same seed plays the same game, and a restart makes the same choices); they stop
while the game is paused; a bot's decision about a table that changed meanwhile is made
again; a failure is told with the right culprit, even when the database fails too."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import clangames.web.hub as hub_module
from clangames.bots import registry
from clangames.bots.registry import BotSpec, make_bot
from clangames.engine.chance import sample_chance
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State
from clangames.web.hub import Halt, Hub
from clangames.web.store import Store, StoreError
from web.helpers import koa_request, replay, token_of
from web.test_server import client, idle, room, view
from web.test_web_mutation_seat_views import settle

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_every_server_move_is_drawn_from_the_seed_and_the_move_index() -> None:
    hub = Hub(Store(":memory:"))
    seed = 77
    game, _ = hub.create(koa_request(["random", "random", "random"], seed))
    settle(hub, game)
    assert game.state.is_terminal
    states = replay(game.game.name, dict(game.game.params), game.moves)
    for i, move in enumerate(game.moves):
        rng = Rng(seed).fork(i + 1)
        if move.player == CHANCE:
            expected = sample_chance(states[i], rng)[0]
        else:
            expected = make_bot("random", rng.fork(move.player + 1)).act(states[i], move.player)
        assert move.action == states[i].action_text(expected), i


def test_a_paused_game_makes_no_move_of_the_servers_until_a_retry() -> None:
    hub = Hub(Store(":memory:"))
    game, tokens = hub.create(koa_request(["human", "random"], 5))
    game.halt = Halt("paused", retry=True)
    assert game.automatic() is None
    hub.retry(game.id, {"token": tokens[0]})
    assert game.automatic() is not None


class FailingIncidents(Store):
    """A store that cannot save an incident."""

    def add_incident(self, game_id: str, incident: Any) -> None:
        raise StoreError("cannot save an incident: disk I/O error")


def test_a_pause_is_shown_even_when_its_incident_cannot_be_saved() -> None:
    hub = Hub(FailingIncidents(":memory:"))
    game, _ = hub.create(koa_request(["human", "ismcts"], 5))
    hub.halt(game, 1, "MemoryError", "Traceback ...")
    paused = (
        "Move 0: player 1's bot (ismcts) failed (MemoryError); the game paused. The server's"
        " log has the details."
    )
    assert game.view(0)["notices"] == [paused]
    assert game.halt is not None and game.halt.message.startswith(paused + " A player may")
    assert game.incidents[0].bot == "ismcts" and game.automatic() is None


GATE = threading.Event()
ASKED = threading.Event()
SEEN: list[State] = []


class Gated:
    """A bot whose first decision waits until the test lets it go; it notes every table
    it is asked about."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def act(self, state: State, player: int) -> Action:
        SEEN.append(state)
        if len(SEEN) == 1:
            ASKED.set()
            GATE.wait(30)
        return state.legal_actions(player)[0]


def test_a_bots_decision_about_a_table_that_changed_is_made_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(registry._BOTS, "gated", BotSpec("gated", "waits", Gated))
    SEEN.clear()
    GATE.clear()
    ASKED.clear()
    try:
        with client() as c:
            r = c.post("/api/games", json=koa_request(["human", "human", "gated"], 3))
            game = r.json()["game"]
            token = token_of(r.json()["seats"]["0"])
            assert ASKED.wait(30)  # the bot is deciding on the table of this moment
            asked = SEEN[0]
            v = view(c, game, token)
            moved = c.post(
                f"/api/games/{game}/act",
                json={"token": token, "turn": v["turn"], "action": v["legal"][0]},
            )
            assert moved.status_code == 200, moved.text
            GATE.set()
            idle(c, game)
            moves = list(room(c, game).moves)
            states = replay("koa_kingmaker", {"players": 3}, moves)
            (by_bot,) = [i for i, m in enumerate(moves) if m.player == 2]
            # asked again, about the table after the human's move, and that answer counts
            assert asked != states[by_bot]  # its first answer was about an older table
            assert len(SEEN) == 2 and SEEN[1] == states[by_bot]
            assert moves[by_bot - 1].player == 0
    finally:
        GATE.set()


def test_a_bots_move_the_database_cannot_save_names_the_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with client() as c:
        store = c.app.state.server.hub.store  # type: ignore[attr-defined]
        real = store.add_move

        def no_bot_moves(game_id: str, index: int, player: int, *rest: Any) -> None:
            if player == 2:
                raise StoreError("disk I/O error")
            real(game_id, index, player, *rest)

        monkeypatch.setattr(store, "add_move", no_bot_moves)
        r = c.post("/api/games", json=koa_request(["human", "human", "random"], 3))
        game = r.json()["game"]
        idle(c, game)
        v = view(c, game)
        assert v["halted"] is not None
        assert v["halted"]["message"].startswith(
            f"Move {v['moves']}: player 2's bot (random) failed (StoreError); the game paused."
        )


def test_a_game_that_ends_on_the_move_limit_is_over_not_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = Hub(Store(":memory:"))
    game, _ = first.create(koa_request(["random", "random"], 12))
    settle(first, game)
    monkeypatch.setattr(hub_module, "MAX_MOVES", len(game.moves))
    again = Hub(Store(":memory:"))
    same, _ = again.create(koa_request(["random", "random"], 12))
    settle(again, same)
    assert same.moves == game.moves and same.state.is_terminal
    assert same.halt is None and same.view(None)["halted"] is None
    assert same.view(None)["result"] is not None


def test_a_chance_move_that_hangs_pauses_the_game_after_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stuck = threading.Event()

    def hanging(state: State, rng: Rng) -> Any:
        stuck.wait(30)
        raise RuntimeError("released")

    monkeypatch.setattr(hub_module, "sample_chance", hanging)
    try:
        with client(bot_deadline=0.2) as c:
            r = c.post("/api/games", json=koa_request(["human", "random"], 3))
            game = r.json()["game"]
            idle(c, game)
            v = view(c, game)
            assert v["moves"] == 0 and v["halted"] is not None and v["halted"]["retry"]
            assert v["halted"]["message"].startswith(
                "Move 0: the server's chance move failed (TimeoutError); the game paused."
            )
    finally:
        stuck.set()


def test_every_open_page_hears_that_the_game_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = hub_module.sample_chance
    monkeypatch.setattr(hub_module, "sample_chance", lambda s, r: 1 // 0)
    with client() as c:
        r = c.post("/api/games", json=koa_request(["human", "human"], 3))
        game = r.json()["game"]
        token = token_of(r.json()["seats"]["0"])
        idle(c, game)
        with c.websocket_connect(f"/ws/{game}?token={token}") as page:
            assert page.receive_json()["halted"] is not None
            # the cause is fixed but the database now fails the server's moves: the retry
            # is heard (no pause), then the new pause must be too
            monkeypatch.setattr(hub_module, "sample_chance", real)
            store = c.app.state.server.hub.store  # type: ignore[attr-defined]

            def no_chance_moves(*args: Any) -> None:
                raise StoreError("disk I/O error")

            monkeypatch.setattr(store, "add_move", no_chance_moves)
            page.send_json({"type": "retry"})
            assert page.receive_json()["halted"] is None  # the retry, told to the page
            deadline = time.monotonic() + 30
            while room(c, game).halt is None and time.monotonic() < deadline:
                time.sleep(0.01)
            idle(c, game)  # the task that paused the game again has told every page
            page.send_text("not json")  # a sure answer, so reading below cannot hang
            heard = []
            while (m := page.receive_json())["type"] == "view":
                heard.append(m["halted"])
            assert m["status"] == 400
            assert heard and heard[-1] is not None
            assert "(StoreError); the game paused" in heard[-1]["message"]
