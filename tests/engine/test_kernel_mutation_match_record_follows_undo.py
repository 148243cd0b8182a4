"""``Match.record`` is the game as played after an undo, even when the moves played since
bring it back to the length it had when last read.

Found by the kernel's mutation audit: an ``undo`` that kept the last record built passed
every test before; the match then handed out the record of the moves it had taken back.
"""

from __future__ import annotations

from clangames import Match
from testing import toys
from testing.toys import Bid, Stake

GAME = toys.toy()


def test_a_record_read_before_an_undo_is_not_handed_out_after_it() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    match.run()
    match.apply(Bid(1), 1)
    before = match.record
    assert before.moves[-1].action == "bid 1"
    match.undo(1)
    match.apply(Bid(0), 1)  # as many moves as before the undo, the last one different
    after = match.record
    assert len(after.moves) == len(before.moves)
    assert after.moves[-1].action == "bid 0"
    assert after.final_state() == match.state


def test_undoing_a_whole_turn_and_replaying_it_differently() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    assert match.record.moves[-1].action == "stake 2"
    match.undo(0)
    match.apply(Stake(1))
    assert match.record.moves[-1].action == "stake 1"
    assert match.record.final_state() == match.state
