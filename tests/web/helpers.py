"""Shared by the server tests: an in-process client, and an independent check of what a
seat's payload may hold."""

from __future__ import annotations

from typing import Any

import clangames
from clangames.engine.phases import CHANCE
from clangames.engine.record import Move
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.rendering.svg import state_picture
from clangames.rendering.text import narrate, renderer_for, step_line

VIEW_KEYS = {
    "type",
    "game",
    "title",
    "seat",
    "moves",
    "turn",
    "to_move",
    "svg",
    "prompt",
    "legal",
    "labels",
    "log",
    "result",
    "notices",
    "halted",
    "record",
}


def koa_request(seats: list[str], seed: int = 1) -> dict[str, Any]:
    """A create request for KOA Kingmaker with ``human`` or bot names per seat."""
    return {
        "game": "koa_kingmaker",
        "players": len(seats),
        "seed": seed,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
    }


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def replay(name: str, params: dict[str, Any], moves: list[Move]) -> list[State]:
    """Every state of a game rebuilt from its moves, without the server's code."""
    game = clangames.load(name, **params)
    states = [game.initial_state()]
    for move in moves:
        state = states[-1]
        if move.player == CHANCE:
            options = [a for a, _ in state.chance_weights()]
        else:
            options = list(state.legal_actions(move.player))
        (action,) = [a for a in options if state.action_text(a) == move.action]
        states.append(state.apply(action, move.player))
    return states


def seat_log(states: list[State], moves: list[Move], seat: int) -> list[str]:
    """The whole game told to ``seat``, line by line, as the narration layer tells it."""
    renderer = renderer_for(states[0].game)
    return [
        step_line(
            i,
            m.player,
            narrate(renderer, states[i], _action(states[i], m), m.player, states[i + 1], seat),
        )
        for i, m in enumerate(moves)
    ]


def check_payload(
    payload: dict[str, Any],
    seat: int | None,
    states: list[State],
    moves: list[Move],
    log: list[str] | None = None,
) -> None:
    """``payload`` holds exactly what ``seat`` may know after ``payload['moves']`` moves:
    its picture (the same for every re-deal of what it cannot see), its legal actions and
    their labels (the terminal's option texts, the same for every re-deal), its own
    narration; nothing else."""
    assert set(payload) == VIEW_KEYS
    k = payload["moves"]
    state = states[k]
    assert payload["seat"] == seat
    assert payload["svg"] == state_picture(state, seat)
    if seat is not None:
        other = state.resample(seat, Rng(k))
        assert state_picture(other, seat) == payload["svg"]
        to_move = seat in state.to_move and not state.is_terminal
        legal = [state.action_text(a) for a in state.legal_actions(seat)] if to_move else []
        assert payload["legal"] == legal
        # Each option's label: the action's text first, then words drawn from the seat's
        # own observation only, so they read the same in every world it cannot rule out.
        renderer = renderer_for(state.game)
        labels = (
            renderer.option_texts(state.observation(seat), state.legal_actions(seat))
            if to_move
            else []
        )
        assert payload["labels"] == labels
        assert len(payload["labels"]) == len(legal)
        assert all(
            label.startswith(text) for label, text in zip(payload["labels"], legal, strict=True)
        )
        if to_move:
            assert [other.action_text(a) for a in other.legal_actions(seat)] == legal
            again = renderer.option_texts(other.observation(seat), other.legal_actions(seat))
            assert again == payload["labels"]
        # The prompt is drawn from the state: it must read the same in every world the seat
        # cannot rule out.
        assert payload["prompt"] == (state.prompt() if legal else "")
        assert payload["prompt"] == (other.prompt() if legal else "")
        if log is None:
            log = seat_log(states[: k + 1], moves[:k], seat)
        assert payload["log"] == log[:k]
    else:
        assert payload["legal"] == payload["labels"] == [] and payload["turn"] is None
    result = None
    if state.is_terminal:
        result = {"scores": list(state.scores()), "winners": list(state.winners())}
    assert payload["result"] == result
    # the record is offered once the game is over (or stopped for good at the move limit)
    if state.is_terminal:
        assert payload["record"] == f"/api/games/{payload['game']}/record"
    elif payload["halted"] is None:
        assert payload["record"] is None
    # the server's own failures: public, and never an exception's message
    assert all(isinstance(n, str) and n.startswith("Move ") for n in payload["notices"])
    assert payload["halted"] is None or set(payload["halted"]) == {"message", "retry"}


def _action(state: State, move: Move) -> Any:
    if move.player == CHANCE:
        options = [a for a, _ in state.chance_weights()]
    else:
        options = list(state.legal_actions(move.player))
    return next(a for a in options if state.action_text(a) == move.action)
