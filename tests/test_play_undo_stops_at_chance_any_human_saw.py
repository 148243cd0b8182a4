"""``undo`` in a game of several human seats never goes back past a chance outcome that
*any* of them may have seen, not only the seat undoing: here a card drawn face down by
player 1 after player 0's last decision stops player 0's undo (player 1 would otherwise
see the card dealt again, and the game would be replayed around what they know). A
mutation looking only at the first human seat survived every test before."""

from __future__ import annotations

import io

from clangames import load
from clangames.cli.play import PlaySession
from clangames.engine.phases import CHANCE

SEED = 1
SCRIPT = [
    (1, "assign white 2 to feud I"),
    (1, "raise white 1"),
    (0, "assign white 1 to intrigue I"),
    (1, "assign white 3 to feud II"),
    (1, "raise white 2"),
    (0, "assign white 2 to feud I"),
    (1, "assign white 3 to build I"),
    (1, "build intrigue I-right"),
    (0, "assign white 3 to feud II"),
    (1, "option 2"),
    (0, "option 2"),
    (1, "lose infantry"),
    (1, "lose infantry"),
    (1, "pay upkeep"),
    (0, "pass"),
    (0, "territory moray"),
    (0, "lose cavalry"),
    (0, "pay upkeep"),
    (0, "pay 2 feud"),
    (0, "pass"),
    (1, "seat 1"),
    (0, "pass"),
    (1, "assign white 3 to military I"),
    (1, "territory argyll"),
    (1, "territory glasgow"),
    (1, "tokens"),
    (0, "assign white 2 to income I"),
    (1, "assign white 1 to income I"),
    (0, "assign white 2 to feud I"),
    (0, "tokens"),
]
"""Two humans' decisions in a two-player Clan Feud (seed 1), up to player 0 taking feud
tokens, after which player 1 draws an action card and player 0 decides again."""


def _hot_seat_game(out: io.StringIO) -> PlaySession:
    """The scripted game, both seats human, played up to player 0's next decision."""
    session = PlaySession(
        load("clan_feud", players=2), SEED, ["human", "human"], io.StringIO(), out
    )
    for seat, text in SCRIPT:
        session._advance_bots()  # chance only: nobody is a bot
        state = session.match.state
        assert state.to_move == (seat,), (text, state.prompt())
        options = {state.action_text(a): a for a in state.legal_actions(seat)}
        assert text in options, (text, sorted(options))
        session.match.apply(options[text], seat)
        session._record_step(state, options[text], seat)
    session._advance_bots()
    return session


def test_undo_stops_at_a_card_only_the_second_human_saw() -> None:
    out = io.StringIO()
    session = _hot_seat_game(out)
    history = session.match.history
    now = session.match.state
    draw = history[-1]
    # The position this test is about: player 0 decided, then player 1 drew a card that
    # player 0 cannot see (no other card would change player 0's view) and player 1 can.
    assert now.to_move == (0,) and history[-2].player == 0
    assert draw.player == CHANCE and draw.before.action_text(draw.action).startswith("draw ")
    others = [o for o, _ in draw.before.chance_weights() if o != draw.action]
    worlds = [draw.before.apply(other, CHANCE) for other in others]
    assert others and all(w.observation(0) == now.observation(0) for w in worlds)
    assert any(w.observation(1) != now.observation(1) for w in worlds)

    step = len(history)
    assert session.undo_depth(0) == (0, f"the chance outcome at step {step}")
    assert session.undo_depth(1) == (0, f"the chance outcome at step {step}")
    assert not session._undo(0)
    assert (
        f"nothing to undo: the chance outcome at step {step} came after your last decision"
        in out.getvalue()
    )
    assert session.match.history == history and session.match.state is now

    # With player 1 a bot nobody human saw the card, and player 0 may undo across it.
    alone = PlaySession(
        session.game, SEED, ["human", "random"], io.StringIO(), io.StringIO(), match=session.match
    )
    assert alone.undo_depth(0)[0] >= 2  # "tokens" and the assignment before it
