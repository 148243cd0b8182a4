"""The reveal goes round every player owed, past one who has nothing to choose (rulings,
*Reminder cards*: "A player with nothing face down skips").

A seat with no face-down card is skipped and a seat with exactly one turns it up without
being asked; either way the seats after it in the queue still reveal. A mutation audit found
that ending the whole round at such a seat failed no test (the four-player ruling test puts
the skipped and automatic seats last). With the bundled box every player still holds two
face-down cards when the Guardians trigger, but positions, saved states and a components
file with families of two reach these seats.
"""

from __future__ import annotations

import pytest

from clangames import Phase

from .helpers import do, load, mask, position, texts

GUARDIANS = """
. .
Bu Ml .
Do Ha St .
Mk Mb Br Bu .
Ml Mk Mb Br Bu Do
"""


@pytest.mark.parametrize("face_up", [["Mk", "Mb"], ["Mk", "Mb", "Br"]])
def test_the_round_goes_on_past_a_trigger_with_one_or_no_card_face_down(
    face_up: list[str],
) -> None:
    game = load(3)
    fams = [["Ml", "Mk", "Mb"], ["Mk", "Mb", "Br"], ["Mb", "Br", "Bu"]]
    state = position(
        game,
        GUARDIANS,
        player=1,
        families=fams,
        revealed=[[], face_up, []],
        rest="removed",
        top="St",
    )
    s = do(state, "advance 4.1 up-left", "fill from 3.2", "fill from 2.3", "fill from 1.4")
    assert s.guardians_triggered
    # seat 1 (the trigger) turns its last card up or has none; seat 0 plays just before it
    assert s.revealed == (0, mask(game, fams[1]), 0)
    assert s.phase == Phase.turn("reveal", 2)
    assert texts(s) == ["reveal Macbeth", "reveal Bruce", "reveal Buchanan"]
    s = do(s, "reveal Bruce")
    assert s.revealed == (0, mask(game, fams[1]), mask(game, ["Br"]))
    assert s.phase == Phase.turn("turn", 2)
