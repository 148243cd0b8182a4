"""A finished game is loaded again from the final table saved with its last move, not by
replaying its moves (a game stopped at the 20000-move limit took minutes to load): its
views, labels, seat links and record are exactly those the replay gives. A final that cannot
be trusted (not JSON, of other moves, of another version, a state that is not valid or does
not agree with how the game ended, logs of the wrong shape) is not used: the game is
replayed, as one of an older database is (whose ``ended`` table gets the new column on its
first start), and the final worked out then is saved for the next load."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import clangames.web.hub as hub_module
from clangames.bots import registry
from clangames.bots.registry import BotSpec
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State
from clangames.web.final import read_final
from clangames.web.hub import Hub, Room, WebError
from clangames.web.store import Store, StoreError
from web.helpers import koa_request
from web.test_finished_games_free_their_place import replayed_on_start, rows

SPEC = {"game": "koa_kingmaker", "params": {"players": 2}, "seed": 1, "seats": []}


class Broken:
    """A bot that always raises: the server plays a random move for it (an incident)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def act(self, state: State, player: int) -> Action:
        raise RuntimeError("the bot cannot decide")


@pytest.fixture(autouse=True)
def broken_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._BOTS, "broken", BotSpec("broken", "always raises", Broken))


def bots(name: str, players: int, seed: int) -> dict[str, Any]:
    seats = [{"kind": "bot", "bot": "random"}] * players
    return {"game": name, "players": players, "seed": seed, "seats": seats}


def played(hub: Hub, request: dict[str, Any]) -> tuple[Room, dict[int, str]]:
    """A game created on ``hub`` and played until it is no longer played (its human seats
    choose their first option)."""
    room, tokens = hub.create(request)
    while True:
        while (nxt := room.automatic()) is not None:  # as the running server moves
            player, choose = nxt
            try:
                action = choose(room.state)
            except RuntimeError as exc:
                hub.fall_back(room, player, type(exc).__name__, str(exc))
            else:
                hub.commit(room, action, player)
        if room.done:
            return room, tokens
        seat = next(s for s in room.state.to_move if s in tokens)
        v = room.view(seat)
        hub.act(room.id, {"token": tokens[seat], "turn": v["turn"], "action": v["legal"][0]})


def everything(hub: Hub, room: Room) -> dict[str, Any]:
    """All that a room serves, and all it holds that could ever be served."""
    return {
        "views": [room.view(seat) for seat in (None, *range(room.game.num_players))],
        "record": hub.record(room).to_json() if room.ended is not None else None,
        "state": room.state.to_json(),
        "moves": list(room.moves),
        "turns": list(room.turns),
        "logs": [list(lines) for lines in room.logs],
        "public_log": list(room.public_log),
        "options": list(room.options),
        "labels": list(room.labels),
        "halt": room.halt,
        "ended": room.ended,
        "tokens": dict(room.tokens),
        "incidents": list(room.incidents),
    }


def by_replay(hub: Hub, game_id: str) -> Room:
    """The game as the server loaded it before finals were saved: replayed."""
    return hub.load(attrs.evolve(hub.stored(game_id), final=None))


def final_of(db: Path, game_id: str) -> str | None:
    ((final,),) = rows(db, "SELECT final FROM ended WHERE game = ?", (game_id,))
    return None if final is None else str(final)


# -- loaded from the final, the same as replayed ---------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "seed"),
    [("koa_kingmaker", 3, 1), ("kings_kilt", 2, 2), ("kilt_castle", 3, 3), ("clan_feud", 2, 4)],
)
def test_a_finished_game_is_loaded_from_its_final_and_serves_what_its_replay_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, players: int, seed: int
) -> None:
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db), keep_finished=0)
    room, _ = played(hub, bots(name, players, seed))
    assert room.state.is_terminal and hub.finished == {}
    before = everything(hub, room)
    replayed = replayed_on_start(monkeypatch)
    loaded = hub.room(room.id)
    assert replayed == [] and loaded is not room  # not one move replayed
    assert everything(hub, loaded) == before
    assert everything(hub, by_replay(hub, room.id)) == before
    assert replayed == [room.id]


def test_a_game_stopped_at_the_limit_with_an_incident_and_seats_loads_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "MAX_MOVES", 9)
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db), keep_finished=0)
    room, tokens = played(hub, koa_request(["human", "broken", "random"], seed=2))
    assert room.ended == "move limit" and len(room.moves) == 9 and room.incidents
    before = everything(hub, room)
    replayed = replayed_on_start(monkeypatch)
    loaded = hub.room(room.id)
    assert replayed == [] and everything(hub, loaded) == before
    assert everything(hub, by_replay(hub, room.id)) == before
    assert hub.seat_of(room.id, tokens[0]) == 0
    record = hub.record(room.id)
    assert record.headers["stopped"] == "move limit" and record.headers["incidents"]
    with pytest.raises(WebError, match="limit of 9 moves"):
        hub.act(room.id, {"token": tokens[0], "turn": loaded.turns[0], "action": "x"})


def test_the_final_saved_is_trusted_only_as_read_back(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db))
    room, _ = played(hub, bots("koa_kingmaker", 2, 5))
    text = final_of(db, room.id)
    assert text is not None
    moves = tuple((m.player, m.action) for m in room.moves)
    final = read_final(text, room.game, moves, over=True)
    assert final.state.to_json() == room.state.to_json()
    assert final.public_log == tuple(room.public_log)


# -- the store: saved with the last move, and older databases ------------------------------


def test_a_final_is_saved_with_the_last_move_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    store.add_game("a", 1.0, SPEC, {})
    store.add_move("a", 0, 0, "play Seer")
    with pytest.raises(StoreError, match="UNIQUE"):
        store.add_move("a", 0, 1, "play Moon", ended="over", final="F")
    assert rows(path, "SELECT * FROM ended") == []
    store.add_move("a", 1, 1, "play Moon", ended="over", final="F")
    found = store.game("a")
    assert found is not None and (found.ended, found.final) == ("over", "F")
    store.save_final("a", "G")  # worked out again from the moves: replaced
    assert rows(path, "SELECT game, moves, how, final FROM ended") == [("a", 2, "over", "G")]
    store.close()


def test_an_older_database_gets_the_column_and_each_final_once_its_game_is_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db))
    room, _ = played(first, bots("koa_kingmaker", 3, 6))
    before = everything(first, room)
    first.store.close()
    with sqlite3.connect(db) as conn:  # the ended table as the version before finals made it
        conn.executescript(
            """
            CREATE TABLE old (
                game TEXT PRIMARY KEY REFERENCES games(id),
                moves INTEGER NOT NULL,
                how TEXT NOT NULL
            );
            INSERT INTO old SELECT game, moves, how FROM ended;
            DROP TABLE ended;
            ALTER TABLE old RENAME TO ended;
            """
        )
    conn.close()
    replayed = replayed_on_start(monkeypatch)
    hub = Hub(Store(db), keep_finished=0)
    assert [r[1] for r in rows(db, "PRAGMA table_info(ended)")] == ["game", "moves", "how", "final"]
    assert rows(db, "SELECT game, moves, how, final FROM ended") == [
        (room.id, len(room.moves), "over", None)
    ]
    assert everything(hub, hub.room(room.id)) == before
    assert replayed == [room.id]  # no final to load from: replayed, once
    assert final_of(db, room.id) is not None
    hub.store.close()
    again = Hub(Store(db), keep_finished=0)
    assert everything(again, again.room(room.id)) == before
    assert replayed == [room.id]


def test_another_program_s_ended_table_is_not_altered(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE ended (x TEXT, y INTEGER)")
    conn.close()
    Store(db).close()
    assert [r[1] for r in rows(db, "PRAGMA table_info(ended)")] == ["x", "y"]


def test_finals_of_an_older_database_s_games_found_over_on_start_are_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite3"
    first = Hub(Store(db))
    room, _ = played(first, bots("koa_kingmaker", 2, 7))
    first.store.close()
    with sqlite3.connect(db) as conn:  # a database from before the ended table
        conn.execute("DROP TABLE ended")
    conn.close()
    Hub(Store(db)).store.close()  # replays it, finds it over, saves its end and its final
    assert final_of(db, room.id) is not None
    replayed = replayed_on_start(monkeypatch)
    hub = Hub(Store(db), keep_finished=0)
    hub.room(room.id)
    assert replayed == []


# -- a final that cannot be trusted ------------------------------------------------------------

Change = Callable[[dict[str, Any], Room], Any]


def _set(key: str, value: Any) -> Change:
    def change(data: dict[str, Any], room: Room) -> Any:
        data[key] = value
        return data

    return change


def _state(change: Callable[[dict[str, Any]], None]) -> Change:
    def changed(data: dict[str, Any], room: Room) -> Any:
        change(data["state"])
        return data

    return changed


def _log_short(data: dict[str, Any], room: Room) -> Any:
    data["logs"][0] = data["logs"][0][:-1]
    return data


def _not_over(data: dict[str, Any], room: Room) -> Any:
    data["state"] = room.game.initial_state().to_json()
    return data


UNTRUSTED: dict[str, tuple[Change, str]] = {
    "not JSON": (lambda data, room: "{", "not JSON"),
    "not an object": (lambda data, room: [], "expected a JSON object"),
    "another format": (_set("format", 2), "format 2, expected 1"),
    "another version": (_set("version", "0.0.1"), "written by clangames '0.0.1'"),
    "fewer moves": (_set("moves", 3), "worked out from other moves"),
    "other moves": (_set("moves_sha256", "0" * 64), "worked out from other moves"),
    "another game's state": (_state(lambda s: s.update(game="kings_kilt")), "state.game"),
    "a corrupt state": (_state(lambda s: s.update(state=7)), "state"),
    "a state not over": (_not_over, "its state is not over"),
    "bad turns": (_set("turns", [-1, 0]), "'turns': expected 2 decision counters"),
    "turns of booleans": (_set("turns", [True, False]), "'turns'"),
    "a log short": (_log_short, "'logs': expected 2 logs"),
    "no public log": (_set("public_log", None), "'public_log'"),
}


@pytest.mark.parametrize("case", sorted(UNTRUSTED))
def test_a_final_that_cannot_be_trusted_is_replaced_by_the_replay(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    case: str,
) -> None:
    change, reason = UNTRUSTED[case]
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db), keep_finished=0)
    room, _ = played(hub, bots("koa_kingmaker", 2, 8))
    before = everything(hub, room)
    good = final_of(db, room.id)
    assert good is not None
    changed = change(json.loads(good), room)
    bad = changed if isinstance(changed, str) else json.dumps(changed)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE ended SET final = ? WHERE game = ?", (bad, room.id))
    conn.close()
    replayed = replayed_on_start(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="clangames.web"):
        loaded = hub.room(room.id)
    assert everything(hub, loaded) == before and replayed == [room.id]
    assert f"game {room.id}: its saved final table is not used" in caplog.text
    assert reason in caplog.text
    # the replay's final took its place: the next load replays nothing
    saved = final_of(db, room.id)
    assert saved is not None and json.loads(saved) == json.loads(good)
    assert everything(hub, hub.room(room.id)) == before and replayed == [room.id]


def test_a_final_is_not_taken_for_moves_changed_since(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    hub = Hub(Store(db), keep_finished=0)
    room, _ = played(hub, bots("koa_kingmaker", 2, 9))
    good = final_of(db, room.id)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE moves SET action = 'nonsense' WHERE game = ? AND idx = 2", (room.id,))
    conn.close()
    again = hub.room(room.id)  # as its replay says: paused for good at the move changed
    assert again.halt is not None and not again.halt.retry and len(again.moves) == 2
    with pytest.raises(WebError, match="cannot go on"):
        hub.record(room.id)
    assert final_of(db, room.id) == good  # nothing worked out, nothing replaced
