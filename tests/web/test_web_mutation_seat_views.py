"""Each seat is sent only its own view, and its decision counter (``turn``) pins exactly the
decision it answers: the counter moves when the seat acts, even if its options stay the
same, and when another move changes its options, so a message for an older decision is
refused as stale. Spectators are told a move only when no world they cannot rule out
makes it ambiguous; a game paused for good offers nothing that would be refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import clangames
import clangames.web.hub as hub_module
from clangames.engine.chance import sample_chance
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.state import Action
from clangames.web.hub import Hub, Room, SeatSpec, WebError
from clangames.web.store import Store
from web.helpers import koa_request


def settle(hub: Hub, room: Room) -> None:
    """Make the server's own moves (chance, bots) as the running server would."""
    while (nxt := room.automatic()) is not None:
        player, choose = nxt
        hub.commit(room, choose(room.state), player)


def humans(players: int, seed: int = 1) -> tuple[Hub, Room, dict[int, str]]:
    hub = Hub(Store(":memory:"))
    room, tokens = hub.create(koa_request(["human"] * players, seed))
    return hub, room, tokens


def act(hub: Hub, room: Room, seat: int, token: str, turn: int | None = None) -> None:
    view = room.view(seat)
    hub.act(
        room.id,
        {
            "token": token,
            "turn": view["turn"] if turn is None else turn,
            "action": view["legal"][0],
        },
    )


def test_a_decision_counter_moves_when_the_seats_options_change() -> None:
    hub, room, tokens = humans(2)
    before = room.view(0)
    assert before["turn"] == 0 and before["legal"] == []  # the cards are not dealt yet
    settle(hub, room)
    dealt = room.view(0)
    assert dealt["legal"] and dealt["turn"] == 1
    # an answer to the decision before the deal is stale, and changes nothing
    with pytest.raises(WebError, match="stale move: it answers decision 0 but seat 0 is now"):
        act(hub, room, 0, tokens[0], turn=0)
    assert room.view(0) == dealt


def test_a_decision_counter_moves_when_the_seat_acts_even_if_its_options_stay() -> None:
    game = clangames.load("koa_kingmaker", players=2)
    room = Room("g", game, 0, (SeatSpec("human"), SeatSpec("human")), 0.0)
    rng = Rng(0)
    for _ in range(200):
        state = room.state
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            player = CHANCE
        else:
            player = min(state.to_move)
            legal = state.legal_actions(player)
            k, rng = rng.below(len(legal))
            action = legal[k]
        if player == CHANCE:
            room.apply(action, player)
            continue
        options, turn = room.options[player], room.turns[player]
        room.apply(action, player)
        if room.options[player] == options:
            assert room.turns[player] == turn + 1  # so a replay of the move is stale
            return
    pytest.fail("no move left its seat with the same options")


def test_the_table_never_lists_chance_among_the_players_to_move() -> None:
    _hub, room, _tokens = humans(2)
    assert room.state.is_chance
    assert room.view(None)["to_move"] == room.view(0)["to_move"] == []


def test_spectators_are_not_told_a_deal_that_only_the_dealt_cards_single_out() -> None:
    hub, room, _tokens = humans(3)
    settle(hub, room)
    # the fifth inheritance card is the only one left in the deck: the one true world
    # singles it out, but spectators cannot tell which four went before
    last = 4
    assert room.moves[last].player == CHANCE
    assert room.moves[last].action.startswith("inheritance")
    line = room.public_log[last]
    assert "(here" not in line and room.moves[last].action.split()[-1] not in line, line
    assert line == room.logs[0][last]  # no seat is told more about a face-down card


def test_a_game_stopped_for_good_offers_no_action(monkeypatch: pytest.MonkeyPatch) -> None:
    hub, room, tokens = humans(2)
    settle(hub, room)
    assert room.view(0)["legal"] and room.view(1)["legal"]  # both commit at once
    monkeypatch.setattr(hub_module, "MAX_MOVES", len(room.moves) + 1)
    act(hub, room, 0, tokens[0])
    waiting = room.view(1)
    assert waiting["halted"] is not None and not waiting["halted"]["retry"]
    assert waiting["legal"] == [] and waiting["prompt"] == ""
    assert room.options[1]  # the rules still would: the server does not
    legal = room.state.action_text(room.options[1][0])
    with pytest.raises(WebError, match="limit of") as refused:
        hub.act(room.id, {"token": tokens[1], "turn": waiting["turn"], "action": legal})
    assert refused.value.status == 409


def test_a_decision_counter_moves_when_the_seats_labels_change() -> None:
    """An option that keeps its action but now means something else (its label changed) is
    a new decision: a click on the page that showed the old words is stale."""
    hub, room, tokens = humans(2)
    settle(hub, room)
    before = room.view(1)
    assert before["legal"] and room.view(0)["legal"]  # both commit at once
    # seat 0 commits: seat 1's options stay, and so (KOA's words are its texts) its turn
    act(hub, room, 0, tokens[0])
    assert room.view(1)["legal"] == before["legal"] and room.view(1)["turn"] == before["turn"]

    class Wordier(type(room.renderer)):  # type: ignore[misc]
        def option_texts(self, obs: Any, actions: Sequence[Action]) -> list[str]:
            return [f"{text} (now)" for text in super().option_texts(obs, actions)]

    hub, room, tokens = humans(2)
    settle(hub, room)
    before = room.view(1)
    room.renderer = Wordier(room.game)
    act(hub, room, 0, tokens[0])
    after = room.view(1)
    assert after["legal"] == before["legal"] and after["labels"] == [
        f"{text} (now)" for text in before["legal"]
    ]
    assert after["turn"] == before["turn"] + 1
    with pytest.raises(WebError, match="stale move"):
        hub.act(room.id, {"token": tokens[1], "turn": before["turn"], "action": before["legal"][0]})


def test_spectators_are_told_the_cards_a_round_turns_face_up() -> None:
    # The step putting down the round's last card turns every card up: the spectators'
    # line says what (all public now), as each seat's own line does.
    game = clangames.load("koa_kingmaker", players=2)
    room = Room("g", game, 0, (SeatSpec("human"), SeatSpec("human")), 0.0)
    rng = Rng(3)
    while room.state.round < 2:
        state = room.state
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            room.apply(action, CHANCE)
        else:
            player = min(state.to_move)
            legal = state.legal_actions(player)
            k, rng = rng.below(len(legal))
            room.apply(legal[k], player)
    (line,) = [text for text in room.public_log if "all cards turn face up" in text]
    (seats_line,) = [text for text in room.logs[0] if "all cards turn face up" in text]
    shown = line.split("all cards turn face up: ", 1)[1]
    assert shown == seats_line.split("all cards turn face up: ", 1)[1]
    assert shown.startswith("house 0: ") and ", house 1: " in shown
