"""What a play-tester read at 80x24 in King's Kilt, Kilt Castle and KOA Kingmaker: Kilt
Castle's colours table cut "player 0" and "to move, you" over three lines, its summary left
"." and "~" unexplained and read "left R red 16 [to move, you]"; its narration read
"[3] player 0: (red) moves red from position 3 to 5"; King's Kilt's summary read
"(face up: -), 5 Influence [to move, you]"."""

from __future__ import annotations

from typing import Any

import clangames
from clangames.rendering.plain import text_of
from clangames.rendering.text import renderer_for, seat_view, step_line


def _started(name: str, players: int) -> Any:
    state = clangames.load(name, players=players).initial_state()
    while state.is_chance:
        state = state.apply(state.chance_weights()[0][0])
    return state


def test_kilt_castles_colours_table_keeps_each_row_whole_at_80_columns() -> None:
    for players in (2, 3, 4):
        state = _started("kilt_castle", players)
        seat = state.to_move[0]
        lines = text_of(seat_view(renderer_for(state.game), state, seat), 80).splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("colour"))
        assert lines[start].split() == [
            "colour", "seat", "ducats", "built", "towers", "plain", "1", "crest", "2", "crests"
        ]  # fmt: skip
        rows = lines[start + 1 : start + 1 + len(state.game.board.colours[:4])]
        mine = [row for row in rows if f"player {seat} " in row]
        assert mine and mine[0].rstrip().endswith(" 2 to move, you"), rows
        assert all(len(line) <= 80 for line in lines)
        assert not any(line.strip() in ("player", "to", "move,", "you") for line in lines)


def test_kilt_castles_summary_explains_its_marks_and_what_is_left() -> None:
    state = _started("kilt_castle", 3)
    seat = state.to_move[0]
    text = text_of(renderer_for(state.game).summary(state.observation(seat)), 80)
    assert text.startswith("Kilt Castle (spaces: top floor/height; ^ roof, ~ water, . empty)")
    assert f"player {seat} (you, to move): 10 ducats; floors left: " in text
    assert "[" not in text


def test_narration_keeps_a_seats_bracketed_words_with_its_name() -> None:
    said = "player 0 (red) moves the orange card from position 0 to 2"
    assert step_line(3, 0, said) == "[3] player 0 (red): moves the orange card from position 0 to 2"
    assert step_line(4, 1, "player 1 puts a card face down") == (
        "[4] player 1: puts a card face down"
    )
    # another seat's brackets stay in the sentence
    assert step_line(5, 0, "player 1 (orange) is paid") == "[5] player 0: player 1 (orange) is paid"


def test_kings_kilts_summary_says_marks_and_counts_in_words() -> None:
    state = _started("kings_kilt", 3)
    seat = state.to_move[0]
    text = text_of(renderer_for(state.game).summary(state.observation(seat)), 80)
    assert f"player {seat} (you, to move): 3 family cards (none face up), 5 Influence cards" in (
        text
    )
    assert "(face up: -)" not in text and "[" not in text
