"""Saved states that break a relocation limit or the roof step are refused when read back
(KC-6, KC-11; pinned by the mutation audit, docs/games/kilt-castle.md "Mutation audit"):
the decoder's checks are the only guard for a state that did not come from play."""

from __future__ import annotations

from typing import Any

import pytest

from clangames import StateDecodeError
from clangames.kilt_castle import Build

from .kc_helpers import DARK, FOUR_ROWS, LIGHT, floor, move, table


def test_a_saved_state_with_six_card_rows_is_refused() -> None:
    s = table(rows=FOUR_ROWS)
    data: Any = s.to_json()
    assert s.game.state_from_json(data) == s
    data["state"]["positions"][4] = 5  # red/orange alone at 5: rows at 0, 1, 2, 3, 5
    assert s.game.state_from_json(data).card_row(5) == ("red/orange",)  # 5 rows: fine
    data["state"]["positions"][7] = 7  # and another card alone at 7: a sixth row
    with pytest.raises(StateDecodeError, match="more than 5 card rows"):
        s.game.state_from_json(data)


def test_a_saved_state_with_five_cards_in_a_row_is_refused() -> None:
    s = table(rows=FOUR_ROWS)
    data: Any = s.to_json()
    data["state"]["positions"][4] = 0  # red/orange joins the four single cards
    with pytest.raises(StateDecodeError, match="a card row holds more than 4 cards"):
        s.game.state_from_json(data)


def test_a_saved_roof_step_onto_a_roofed_tower_is_refused() -> None:
    towers = {(4, 1): [floor(DARK)], (3, 3): [floor(LIGHT)]}
    s = table(rows=FOUR_ROWS, inner={"red/orange": "red"}, towers=towers, roofs=[(4, 1), (3, 3)])
    s = move(s, "red/orange", 2)
    s = s.apply(Build(0, 2, 0), 1).apply(Build(0, 2, 0), 0)
    assert s.phase.name == "roof" and s.first_space == s.game.board.space(0, 2)
    data: Any = s.to_json()
    assert s.game.state_from_json(data) == s
    board = s.game.board
    # Both roofs placed, but one already on the tower that is to get the moved roof.
    data["state"]["roofed"] = 1 << board.space(0, 2) | 1 << board.space(3, 3)
    with pytest.raises(StateDecodeError, match="onto an unroofed tower"):
        s.game.state_from_json(data)
