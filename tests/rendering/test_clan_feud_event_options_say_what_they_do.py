"""Clan Feud's event and objective choices say what they do: an OR's options are listed with
each option's effect in words, the prompt names the card and reads its text, ``explain N``
says what the option does, and the table's status line shows the objective's condition, not
only its name (the play-tester saw "resolve the card" over "option 1" / "option 2")."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import clangames
from clangames.clan_feud.actions import Option
from clangames.clan_feud.effects import Or
from clangames.clan_feud.playing import card_text
from clangames.engine.state import State
from clangames.rendering.explain import explain_action
from clangames.rendering.plain import text_of
from clangames.rendering.text import renderer_for


def walk(players: int, seed: int) -> Iterator[State]:
    """Every state of a random Clan Feud game (uniform chance and decisions)."""
    rnd = random.Random(seed)
    state: State = clangames.load("clan_feud", players=players).initial_state()
    while not state.is_terminal:
        yield state
        player = state.to_move[0]
        if state.is_chance:
            options = [a for a, _ in state.chance_weights()]
        else:
            options = list(state.legal_actions(player))
        state = state.apply(rnd.choice(options), player)


def first(find: Callable[[Any], bool], players: int = 2) -> Any:
    """The first state of a seeded random game that ``find`` accepts."""
    for seed in range(40):
        for state in walk(players, seed):
            if find(state):
                return state
    raise AssertionError("no such state in 40 games")


def at_event_or(state: Any) -> bool:
    return bool(
        not state.is_chance
        and state.tasks
        and state.tasks[-1].kind == "prog"
        and any(isinstance(a, Option) for a in state.legal_actions(state.to_move[0]))
    )


def test_an_event_or_lists_each_option_with_its_effect() -> None:
    state = first(at_event_or)
    seat = state.to_move[0]
    game = state.game
    task = state.tasks[-1]
    node = game.nodes[task.data[-2]]
    assert isinstance(node, Or)
    legal = state.legal_actions(seat)
    texts = renderer_for(game).option_texts(state.observation(seat), legal)
    for action, text in zip(legal, texts, strict=True):
        assert isinstance(action, Option)
        assert text == f"option {action.k} ({card_text(node.options[action.k - 1])})"
    event = game.events.regular[state.events[-1]]
    # the prompt names the card and reads the choice; explain says what the option does
    assert state.prompt() == f"player {seat}: resolve the event {event.name}: {card_text(node)}"
    said = explain_action(state, legal[0], seat)
    k = legal[0].k
    assert said.startswith(
        f"option {k}: {card_text(node.options[k - 1])} (option {k} of the event {event.name})"
    )


def test_the_event_of_the_reproduction_reads_pay_or_move_the_track() -> None:
    # the play-tester's card: Pacification of Perth, "pay_feud(2) OR england_track(+1)"
    state = first(lambda s: at_event_or(s) and s.game.events.regular[s.events[-1]].id == "EV10")
    seat = state.to_move[0]
    texts = renderer_for(state.game).option_texts(
        state.observation(seat), state.legal_actions(seat)
    )
    assert texts == [
        "option 1 (return 2 feud tokens)",
        "option 2 (move the England track 1 step up)",
    ]
    assert state.prompt() == (
        f"player {seat}: resolve the event Pacification of Perth: return 2 feud tokens or"
        " move the England track 1 step up"
    )


def test_the_status_line_shows_the_objective_and_its_condition() -> None:
    state = first(lambda s: bool(s.events) and not s.is_chance)
    seat = state.to_move[0]
    card = state.game.events.regular[state.events[-1]]
    drawn = text_of(renderer_for(state.game).board(state.observation(seat)), 1000)
    assert f"objective: {card.name} ({card_text(card.objective)}) |" in drawn.splitlines()[0]


def test_the_reproductions_objective_reads_its_condition() -> None:
    state = first(lambda s: bool(s.events) and s.game.events.regular[s.events[-1]].id == "EV10")
    drawn = text_of(renderer_for(state.game).summary(state.public_observation()), 1000)
    assert "objective: Pacification of Perth (if you hold at most 1 feud token, score 3 VP) |" in (
        drawn
    )
