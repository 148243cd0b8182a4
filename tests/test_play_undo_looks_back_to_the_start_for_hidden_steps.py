"""``undo`` looks for a step hidden from a human at the decision undone, and shown since,
anywhere before that decision, not only since the seat's previous one: in Clan Feud a card
drawn face down by the other clan several of your decisions ago, and played after your
last one, is such a step. Undoing would let you decide again knowing that card."""

from __future__ import annotations

import io

import clangames
from clangames.cli.play import PlaySession
from clangames.engine.phases import CHANCE


def _session(decisions: int, then: str) -> tuple[PlaySession, str]:
    # seed 0, two clans: player 1 draws a card at step 62; player 0 decides at steps 63, 65,
    # 68, 70 and 71 (its 21st decision); player 1 plays the card at step 72
    game = clangames.load("clan_feud", players=2)
    out = io.StringIO()
    typed = io.StringIO("1\n" * decisions + then + "quit\n")
    session = PlaySession(game, 0, ["human", "random"], typed, out)
    assert session.run() == 0
    return session, out.getvalue()


def test_a_card_drawn_before_the_previous_decision_and_played_since_stops_undo() -> None:
    session, out = _session(21, "undo\n")
    history = session.match.history
    drawn, played = history[61], history[71]  # steps 62 and 72
    assert drawn.player == CHANCE and drawn.before.action_text(drawn.action) == "draw AC29"
    assert played.player == 1 and played.before.action_text(played.action) == "play AC29"
    mine = [i + 1 for i, step in enumerate(history) if step.player == 0]
    assert mine[-2:] == [70, 71]  # the draw came before player 0's previous decision
    assert (
        "nothing to undo: step 62 (a chance outcome) was hidden from you when you decided at"
        " step 71, and the moves since have shown it: undoing that decision would let you"
        " decide again knowing it"
    ) in out
    assert "undone:" not in out
    assert len(history) == 73  # the decision at step 71 stands
    assert session.undo_depth(0) == (
        0,
        "step 62, hidden from you at your decision at step 71 and shown since",
    )


def test_before_the_card_is_played_undo_goes_back_as_before() -> None:
    # one decision earlier the card is still face down: nothing has shown it yet
    session, out = _session(20, "undo\n")
    assert "undone: back to your decision at step 70; you can undo 1 more decision" in out
    assert len(session.match.history) == 69
