"""The seat view's "Your hand: ..." line folds only between card names at 80 columns, so a
name of several words ("Forty Days' Service (3)") never breaks across two lines (rich
alone breaks at any space)."""

from __future__ import annotations

from typing import Any

import attrs

import clangames
from clangames.clan_feud.playing import combat_text
from clangames.rendering.plain import render_observation, text_of
from clangames.rendering.text import GenericRenderer, seat_view, secret_lines


def _clan_feud_hand_of_every_card() -> tuple[Any, list[str]]:
    game: Any = clangames.load("clan_feud", players=2)
    obs = game.initial_state().observation(0)
    designs = game.deck.designs
    hand = tuple(1 for _ in designs)
    names = [f"{d.name} (in battle {combat_text(d.combat)})" for d in designs]
    return attrs.evolve(obs, hand=hand), names


def _hand_lines(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Your hand: "))
    end = start + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    return lines[start:end]


def test_a_long_clan_feud_hand_breaks_only_between_cards() -> None:
    obs, names = _clan_feud_hand_of_every_card()
    game = clangames.load("clan_feud", players=2)
    lines = _hand_lines(render_observation(game, obs, width=80))
    assert len(lines) > 5
    assert all(len(line) <= 80 for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])  # going on two spaces in
    # every name on one line, in order, each but the last followed by a comma
    pieces = " ".join(line.strip() for line in lines).removeprefix("Your hand: ")
    assert pieces == ", ".join(names)
    for name in names:
        assert any(name in line for line in lines), name


class _LongHand(GenericRenderer):
    """Any game's table, with a hand of long names and a sentence of a secret."""

    def secrets(self, obs: Any) -> list[str]:
        cards = [f"Card Number {k} Of The Long Deck" for k in range(12)]
        return [f"hand: {', '.join(cards)}", "inheritance: 4"]


def test_the_shared_seat_view_folds_any_games_hand_alike() -> None:
    game = clangames.load("kilt_castle", players=2)
    state = game.initial_state()
    view = text_of(seat_view(_LongHand(game), state, 0), 80)
    lines = _hand_lines(view)
    assert all(len(line) <= 80 for line in lines)
    for k in range(12):
        assert any(f"Card Number {k} Of The Long Deck" in line for line in lines), k
    assert view.splitlines()[-1] == "Your inheritance: 4"


def test_a_short_hand_and_a_line_without_a_list_stay_as_they_are() -> None:
    items = secret_lines(["hand: Gold, Seer", "card went to player 1, then back"])
    assert text_of(items, 80).splitlines() == [
        "Your hand: Gold, Seer",
        "Your card went to player 1, then back",
    ]


def test_a_label_and_first_item_wider_than_the_line_fold_between_the_two() -> None:
    # rich folded such a piece at any space and flush left, cutting the card's name
    card = "Card " + "x" * 70
    items = secret_lines([f"hand: {card}, Gold"])
    assert text_of(items, 80).splitlines() == ["Your hand:", f"  {card},", "  Gold"]
    # an item wider than a line on its own is folded at its spaces, going on two in
    words = " ".join(f"word{k}" for k in range(20))
    lines = text_of(secret_lines([f"hand: {words}"]), 40).splitlines()
    assert lines[0] == "Your hand:"
    assert all(line.startswith("  word") and len(line) <= 40 for line in lines[1:])
    assert " ".join(line.strip() for line in lines[1:]) == words
