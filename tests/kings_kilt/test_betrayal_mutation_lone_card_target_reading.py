"""A betrayal needs a neighbour to betray, under either reading of the top-row rule
(rulings, *Betray*: "pick any card B in the pyramid and one neighbour C of B").

With the default reading the Influence card must match a neighbour's clan, so a card with
no neighbour can never be betrayed there. With ``betrayal_match="target"`` the Influence card
matches the betrayed card itself: a mutation audit found that dropping the neighbour check
for the top three rows then made a lone card betrayable and failed no test.
"""

from __future__ import annotations

import pytest

from clangames import IllegalActionError

from .helpers import load, position, texts

# A Mackay alone in the Noblemen's row, a Bruce alone in row 3: neither touches the other.
LONE_NOBLE = """
.
. .
. . Mk
. Br . .
"""

# A King with nothing left beneath it, and a Bruce alone in row 1.
LONE_KING = """
Mk
. .
. . .
. . . .
. . . . .
Br . . . . .
"""


@pytest.mark.parametrize("reading", ["traitor", "target"])
@pytest.mark.parametrize("picture", [LONE_NOBLE, LONE_KING])
def test_a_card_with_no_neighbour_cannot_be_betrayed(reading: str, picture: str) -> None:
    game = load(3, betrayal_match=reading)
    state = position(game, picture, hands=[["Mk", "Br"], [], []])
    assert texts(state) == ["pass"]
    before = state.to_json()
    for text in ("betray 4.2 with Mackay", "betray 6.0 with Mackay", "betray 3.1 with Bruce"):
        with pytest.raises(IllegalActionError):
            state.apply_text(text)
    assert state.to_json() == before


def test_the_target_reading_betrays_a_top_card_once_it_has_a_neighbour() -> None:
    # the control: the same Noblemen's card with one neighbour is betrayable, matching itself
    game = load(3, betrayal_match="target")
    state = position(
        game,
        """
        .
        . .
        . Do Mk
        . Br . .
        """,
        hands=[["Mk", "Br"], [], []],
    )
    assert [t for t in texts(state) if t.startswith("betray 4.2")] == ["betray 4.2 with Mackay"]
