"""``undo`` never takes a player back to a decision made while other seats' cards lay face
down once those cards have been turned up: KOA Kingmaker's houses commit a card each in
secret, the bots first, and the last commitment turns them all up. Undoing it would leave
the others' cards as they were and let the player choose again knowing them."""

from __future__ import annotations

import io

import clangames
from clangames.cli.play import PlaySession
from clangames.engine.phases import CHANCE


def _session(players: int, seed: int, names: list[str], typed: str) -> tuple[PlaySession, str]:
    game = clangames.load("koa_kingmaker", players=players)
    out = io.StringIO()
    session = PlaySession(game, seed, names, io.StringIO(typed), out)
    assert session.run() == 0
    return session, out.getvalue()


def test_undo_after_the_round_is_turned_up_is_refused() -> None:
    # seed 2: the four bots put their cards face down, then player 0 nominates house 1 and
    # the round is turned up; the bots' round-2 cards are down again at player 0's prompt
    session, out = _session(5, 2, ["human"] + ["random"] * 4, "nominate house 1\nundo\nquit\n")
    assert "Revealed in round 1: house 0: nominates house 1, house 1: Gold" in out
    assert (
        "nothing to undo: step 9 (player 4's move) was hidden from you when you decided at"
        " step 10, and the moves since have shown it: undoing that decision would let you"
        " decide again knowing it"
    ) in out
    assert "undone:" not in out
    # the decision stands: the bots' round-1 cards are not for player 0 to choose against
    mine = [step for step in session.match.history if step.player == 0]
    assert len(mine) == 1
    assert session.undo_depth(0) == (
        0,
        "step 9, hidden from you at your decision at step 10 and shown since",
    )


def test_undo_goes_back_to_a_decision_made_after_the_reveal_but_no_further() -> None:
    # seed 0: player 0 plays the Jester, is hit and gives up the Jester; that decision came
    # after the reveal, so it can be taken back, but the Jester's cannot
    session, out = _session(
        5, 0, ["human"] + ["random"] * 4, "play jester\ndiscard jester\nundo\nundo\nquit\n"
    )
    assert (
        "undone: back to your decision at step 11; this is as far back as undo goes (your"
        " decision at step 10 stays: step 9 was hidden from you then and has been shown since)"
    ) in out
    assert "nothing to undo: step 9 (player 4's move) was hidden from you when you decided" in out
    assert "player 0: you are hit; give up a Royal or your Jester" in out.split("undone:")[1]
    state = session.match.state
    assert state.action_text(state.legal_actions(0)[0]) == "discard Jester"


def test_automated_households_cards_turned_up_stop_undo_too() -> None:
    # two players: houses 2 and 3 are automated, their cards put down by chance before
    # player 0 decides; once turned up they stop undo like a bot's
    session, out = _session(2, 0, ["human", "random"], "play jester\nundo\nquit\n")
    assert "nothing to undo: step " in out
    assert "was hidden from you when you decided at step 8" in out
    assert "undone:" not in out
    history = session.match.history
    assert sum(1 for step in history[:8] if step.player == CHANCE) >= 6  # deals, households


def test_a_game_without_secrets_still_undoes_freely() -> None:
    # Kilt Castle hides nothing: three decisions back, as before
    game = clangames.load("kilt_castle", players=2)
    out = io.StringIO()
    typed = io.StringIO("1\n1\n1\nundo\nundo\nundo\nquit\n")
    session = PlaySession(game, 5, ["human", "random"], typed, out)
    assert session.run() == 0
    assert out.getvalue().count("undone: back to your decision") == 3
