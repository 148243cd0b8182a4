"""Action ids, text forms, reprs, descriptions, prompts and the declared game facts."""

from __future__ import annotations

import pytest

from clangames.kings_kilt import Advance, Betray, Draw, Fill, Pass, Reveal

from .helpers import FULL_BASE, do, load, position


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Advance(2, 3, "left"), "advance 2.3 up-left"),
        (Advance(1, 0, "right"), "advance 1.0 up-right"),
        (Fill(1, 2), "fill from 1.2"),
        (Betray(3, 4, 1), "betray 4.1 with Bruce"),
        (Betray(0, 6, 0), "betray 6.0 with Macleod"),
        (Reveal(3), "reveal Bruce"),
        (Pass(), "pass"),
        (Draw(3), "draw Bruce"),
    ],
)
def test_action_text_forms(action: object, text: str) -> None:
    game = load(3)
    assert game.action_text(action) == text
    assert game.parse_action(text) == action
    assert game.parse_action(text.upper().replace(" ", "  ")) == action
    assert eval(repr(action)) == action
    assert game.action_from_id(game.action_id(action)) == action


def test_action_ids_cover_every_distinct_action_in_order() -> None:
    game = load(4)
    # 8 draws, 2 advances and a fill for each of the 20 spaces below the top,
    # a betrayal per space and clan (21 x 8), 8 reveals and the pass
    assert game.num_distinct_actions == 8 + 40 + 20 + 168 + 8 + 1 == 245
    assert game.action_id(Draw(0)) == 0
    assert game.action_id(Advance(1, 0, "left")) == 8
    assert game.action_id(Fill(1, 0)) == 48
    assert game.action_id(Betray(0, 1, 0)) == 68
    assert game.action_id(Betray(7, 6, 0)) == 235
    assert game.action_id(Reveal(0)) == 236
    assert game.action_id(Pass()) == 244


def test_action_descriptions_and_prompts() -> None:
    state = position(load(3), FULL_BASE, hands=[["Do"], [], []], top="St", rest="removed")
    assert state.prompt() == "player 0: advance a card or betray one"
    assert state.describe(Advance(1, 1, "right")) == (
        "player 0 advances the Mackay at 1.1 up-right to 2.1"
    )
    assert state.describe(Betray(5, 1, 2)) == (
        "player 0 plays a Douglas Influence card: the Macbeth at 1.2 is betrayed by a"
        " neighbour and leaves the game"
    )
    picture = ["Bu Ha . . .", FULL_BASE.strip()]
    mid = do(position(load(3), picture, top="St", rest="removed"), "advance 2.1 up-left")
    assert mid.prompt() == "player 0: choose the card beneath that fills 2.1"
    assert mid.describe(Fill(1, 2)) == "the Macbeth at 1.2 moves up to fill 2.1"
    start = load(3).initial_state()
    assert start.prompt() == "chance: deal family"
    assert start.describe(Draw(3)) == "a Bruce Clan Family card is dealt to player 0"


@pytest.mark.parametrize(("players", "bound"), [(2, 1059), (3, 1361), (4, 1435)])
def test_max_game_length_bound(players: int, bound: int) -> None:
    game = load(players)
    hand = {2: 5, 3: 5, 4: 4}[players]
    heights = sum(r * (7 - r) for r in range(1, 7))  # 56: every space filled
    turns = heights + 7 * hand * players + players
    setup = 3 * players + hand * players + 6 + 1
    assert heights == 56
    assert game.info.max_game_length == setup + 8 * turns + 6 * players == bound
    info = game.info
    assert (info.has_chance, info.has_hidden_information, info.has_simultaneous_moves) == (
        True,
        True,
        False,
    )
    assert (info.min_players, info.max_players, info.num_players) == (2, 4, players)
