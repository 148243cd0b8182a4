"""Clan Feud's words around the action texts: a card named by its id is named by its card
name too (options, narration, ``explain``), a roll's narration says whose dice and writes
them face first as the clans table does, ``explain`` says how many feud tokens the Feud
benefit gives and that an assigned die acts at once, and "or stop" is offered only when
``stop`` is an option. The rules summary gives the game's own number of turns."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames.clan_feud.actions import (
    Assign,
    DrawCard,
    DrawEvent,
    PlayAction,
    Rolled,
    Word,
)
from clangames.clan_feud.playing import card_text
from clangames.clan_feud.words import told as narrated
from clangames.rendering.clan_feud import dice_text
from clangames.rendering.explain import explain_action, rules_text
from clangames.rendering.text import renderer_for
from rendering.test_clan_feud_event_options_say_what_they_do import first, walk


@pytest.mark.parametrize(("players", "turns"), [(2, 9), (3, 8), (4, 7), (5, 7)])
def test_the_rules_summary_says_the_games_number_of_turns(players: int, turns: int) -> None:
    state = clangames.load("clan_feud", players=players).initial_state()
    text = rules_text(state)
    assert f"over {turns} turns" in text
    assert "eight" not in text


def test_a_card_play_is_listed_and_explained_by_its_name() -> None:
    def playable(s: Any) -> bool:
        return not s.is_chance and any(
            isinstance(a, PlayAction) for a in s.legal_actions(s.to_move[0])
        )

    state = first(playable)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    texts = renderer_for(state.game).option_texts(state.observation(seat), legal)
    plays = [(a, t) for a, t in zip(legal, texts, strict=True) if isinstance(a, PlayAction)]
    for action, text in plays:
        card = state.game.deck.designs[action.design]
        assert text == f"play {card.id} ({card.name})"
        assert explain_action(state, action, seat).startswith(f"play {card.id}: play {card.name} (")


def test_drawn_cards_and_events_are_narrated_by_name() -> None:
    state = first(lambda s: s.is_chance and isinstance(s.chance_weights()[0][0], DrawEvent))
    action = state.chance_weights()[0][0]
    card = state.game.events.regular[action.event]
    # the card's own step on the England track, and then the track's move it makes
    assert card.england == 1 and state.england == 0
    assert narrated(state, action) == (
        f"the event {card.name} is drawn; it moves the England track 1 step up; each player:"
        f" {card_text(card.each_player)}; next turn's objective: {card_text(card.objective)};"
        " then the England track goes from 0 to 1"
    )
    state = first(lambda s: s.is_chance and isinstance(s.chance_weights()[0][0], DrawCard))
    action = state.chance_weights()[0][0]
    design = state.game.deck.designs[action.design]
    drawer = state.tasks[-1].player
    assert state.describe(action) == f"player {drawer} draws {design.name}"


def test_a_roll_says_whose_dice_face_first_as_the_clans_table() -> None:
    state = first(lambda s: s.is_chance and isinstance(s.chance_weights()[0][0], Rolled))
    task = state.tasks[-1]
    index = next(i for i, n in enumerate(task.data) if n)  # the next dice to roll
    seat, colour = divmod(index, 7)
    for action, _ in state.chance_weights():
        pool = [0] * 21
        pool[3 * colour : 3 * colour + 3] = [action.ones, action.twos, action.threes]
        said = state.describe(action)
        assert said == f"player {seat}'s white dice are rolled: {dice_text(tuple(pool))}"
    # the play-tester's first roll: one 1 and two 2s
    assert state.describe(Rolled(0, 1, 2, 0)) == (
        f"player {seat}'s white dice are rolled: white 1, white 2 x2"
    )


def test_explain_says_how_many_feud_tokens_and_that_a_die_acts_at_once() -> None:
    def tokens_at(level: int) -> Any:
        def find(s: Any) -> bool:
            return bool(
                not s.is_chance
                and s.tasks
                and s.tasks[-1].kind == "feud"
                and s.tasks[-1].a == level
                and Word("tokens") in s.legal_actions(s.to_move[0])
            )

        return find

    for level in (1, 2):
        state = first(tokens_at(level))
        said = explain_action(state, Word("tokens"), state.to_move[0])
        plural = "s" if level > 1 else ""
        assert said.startswith(f"tokens: take {level} feud token{plural} (the Feud benefit).")
        assert "as many tokens as the slot's level" in said

    def feud_assign(s: Any) -> bool:
        return not s.is_chance and any(
            isinstance(a, Assign) and a.column == 0 for a in s.legal_actions(s.to_move[0])
        )

    state = first(feud_assign)
    seat = state.to_move[0]
    action = next(a for a in state.legal_actions(seat) if isinstance(a, Assign) and a.column == 0)
    said = explain_action(state, action, seat)
    assert "when its column runs" not in said
    assert "column's action happens at once (Feud: feud tokens or raising dice;" in said


def test_or_stop_is_offered_only_when_stop_is_an_option() -> None:
    # the move decisions: which army (or stop), and each step (stop only after the first)
    stop = Word("stop")
    seen = {True: 0, False: 0}
    for seed in range(6):
        for state in walk(2, seed):
            if state.is_chance or state.phase.name not in ("step", "move"):
                continue
            legal = stop in state.legal_actions(state.to_move[0])
            assert state.prompt().endswith(", or stop") == legal, state.prompt()
            seen[legal] += 1
    assert seen[True] and seen[False]
