"""A seat's view labels each of its options as the terminal lists it (``labels``, parallel
to ``legal``): in Clan Feud a card named by its id is named by its card name too, and an
event's option says what it does. The labels are the terminal's own option texts for the
same state and seat, drawn from the seat's observation only (the payload check compares
them with every re-deal of what the seat cannot see); a move is still sent as the action's
text, and spectators get neither."""

from __future__ import annotations

import io
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from clangames.clan_feud.actions import Option, PlayAction
from clangames.cli.play import PlaySession
from clangames.engine.rng import Rng
from clangames.engine.state import State
from web.helpers import check_payload, replay
from web.test_server import client, create, idle, room, view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MAX_MOVES = 400


def terminal_texts(state: State, seat: int) -> list[str]:
    """How ``clangames play`` lists ``seat``'s options in ``state``."""
    game = state.game
    session = PlaySession(
        game, 0, ["human"] * game.num_players, io.StringIO(), io.StringIO(), width=100
    )
    session.match.state = state  # the listing reads the match's state only
    return session._texts(seat)


def check_labels(c: TestClient, game: str, v: dict[str, Any], seat: int | None) -> State:
    """``v`` is what ``seat`` may know (labels included), and its labels are the terminal's
    option texts for the same state; returns that state."""
    r = room(c, game)
    moves = list(r.moves[: v["moves"]])
    states = replay(r.game.name, dict(r.game.params), moves)
    check_payload(v, seat, states, moves)
    state = states[v["moves"]]
    if seat is not None and v["legal"]:
        assert v["labels"] == terminal_texts(state, seat)
    return state


def test_a_clan_feud_seat_sees_its_options_in_words_and_acts_by_their_texts() -> None:
    with client() as c:
        request = {
            "game": "clan_feud",
            "players": 2,
            "seed": 5,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
        game, tokens = create(c, request)
        rng = Rng(11)
        checked: set[str] = set()  # the kinds of worded options whose views were checked
        for _ in range(MAX_MOVES):
            if checked == {"play", "option"}:
                break
            seat, token, v = next(
                (s, t, w) for s, t in tokens.items() if (w := view(c, game, t))["legal"]
            )
            assert len(v["labels"]) == len(v["legal"])
            r = room(c, game)
            designs = r.game.deck.designs
            kinds = set()
            for action, text, label in zip(
                r.state.legal_actions(seat), v["legal"], v["labels"], strict=True
            ):
                if isinstance(action, PlayAction):
                    card = designs[action.design]
                    assert label == f"play {card.id} ({card.name})" == f"{text} ({card.name})"
                    kinds.add("play")
                elif isinstance(action, Option) and label != text:
                    assert label.startswith(f"option {action.k} (")
                    kinds.add("option")
                else:
                    assert label.startswith(text)
            if kinds - checked:
                # a decision in words: the whole view checked against a replay, and the
                # other seat's and the spectators' views at the same moment
                check_labels(c, game, v, seat)
                check_labels(c, game, view(c, game, tokens[1 - seat]), 1 - seat)
                check_labels(c, game, view(c, game), None)
                checked |= kinds
            i, rng = rng.below(len(v["legal"]))
            sent = {"token": token, "turn": v["turn"], "action": v["legal"][i]}
            answer = c.post(f"/api/games/{game}/act", json=sent)
            assert answer.status_code == 200, answer.text
            idle(c, game)
        assert checked == {"play", "option"}


def test_a_label_is_not_an_action() -> None:
    """The server takes the action's text, never its label (the label is only words)."""
    with client() as c:
        request = {
            "game": "clan_feud",
            "players": 2,
            "seed": 5,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
        game, tokens = create(c, request)
        rng = Rng(3)
        for _ in range(MAX_MOVES):
            token, v = next((t, w) for t in tokens.values() if (w := view(c, game, t))["legal"])
            worded = [(t, w) for t, w in zip(v["legal"], v["labels"], strict=True) if w != t]
            if worded:
                text, label = worded[0]
                sent = {"token": token, "turn": v["turn"], "action": label}
                assert c.post(f"/api/games/{game}/act", json=sent).status_code == 422
                assert view(c, game, token) == v  # nothing changed
                sent["action"] = text
                answer = c.post(f"/api/games/{game}/act", json=sent)
                assert answer.status_code == 200, answer.text
                return
            i, rng = rng.below(len(v["legal"]))
            sent = {"token": token, "turn": v["turn"], "action": v["legal"][i]}
            assert c.post(f"/api/games/{game}/act", json=sent).status_code == 200
            idle(c, game)
        pytest.fail("no option was labelled in words")
