"""A second entry into the Guardians' row: no reveal and no crown (rulings, *Reminder cards*
and *After the King is crowned*).

The reveal comes with the first card ever to enter row 5; the crown with a card in row 6.
A mutation audit found that revealing on every entry into row 5, or crowning on an entry
into row 5 once the Guardians had been triggered, was caught only by the length-bound
tests (by chance, through the play they happen to run); these pin both on a position.
"""

from __future__ import annotations

from clangames import Phase
from clangames.kings_kilt import KingsKiltState

from .helpers import do, load, position, texts

# Row 5 is empty again (its first card was betrayed earlier), row 4 can climb into it.
GUARDIANS_AGAIN = """
. .
Bu Ml .
Do Ha St .
Mk Mb Br Bu .
Ml Mk Mb Br Bu Do
"""


def _second_entry(players: int) -> KingsKiltState:
    game = load(players)
    state = position(
        game,
        GUARDIANS_AGAIN,
        player=players - 1,
        guardians_triggered=True,
        rest="removed",
        top="St",
    )
    assert state.nobles_triggered and state.guardians_triggered and not state.crowned
    after = do(state, "advance 4.1 up-left", "fill from 3.2", "fill from 2.3", "fill from 1.4")
    return after


def test_a_second_entry_into_the_guardians_row_reveals_nothing() -> None:
    for players in (2, 3, 4):
        after = _second_entry(players)
        assert after.card_at(5, 0) == "Macleod"
        assert after.reveal_queue == ()
        assert after.revealed == (0,) * players
        assert after.phase == Phase.turn("turn", 0)


def test_a_card_entering_row_five_does_not_crown_a_king() -> None:
    after = _second_entry(3)
    assert not after.crowned
    legal = texts(after)
    assert "pass" not in legal
    assert [t for t in legal if t.startswith("advance")] == [
        "advance 1.4 up-right",
        "advance 1.5 up-left",
    ]
