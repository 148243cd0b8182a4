"""Match: the driver that samples chance, asks policies, waits for humans and undoes."""

from __future__ import annotations

import pytest

import clangames
from clangames import CHANCE, IllegalActionError, Match, Rng, State, UndoError
from clangames.engine.match import Step
from testing import toys
from testing.toys import Bid, Stake, ToyState

GAME = toys.toy()


class Highest:
    """A policy that takes the last (highest-id) legal action and remembers its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[State, int]] = []

    def act(self, state: State, player: int) -> object:
        """The highest legal action."""
        self.calls.append((state, player))
        return state.legal_actions(player)[-1]


def waiting(match: Match) -> tuple[int, ...]:
    """The humans the match waits for (a call, so that type checkers do not narrow it)."""
    return match.waiting_for


def in_sync(match: Match) -> None:
    """History, record and state agree."""
    assert len(match.history) == len(match.record.moves)
    assert match.record.final_state() == match.state
    for step, move in zip(match.history, match.record.moves, strict=True):
        assert step.player == move.player
        assert GAME.action_text(step.action) == move.action


def test_run_samples_chance_and_stops_for_a_human() -> None:
    match = Match(GAME, seed=3)
    state = match.run()
    assert state is match.state
    assert state.to_move == (0,) and waiting(match) == (0,)
    assert [s.player for s in match.history] == [CHANCE, CHANCE]
    assert not match.is_over
    assert match.step() is None and match.run() == state  # nothing to do without the human
    in_sync(match)


def test_humans_play_through_apply() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    match.run()
    assert match.state.is_simultaneous and waiting(match) == (0, 1)
    match.apply(Bid(0), 1)
    assert waiting(match) == (0,)
    match.apply(Bid(1), 0)
    assert match.is_over and waiting(match) == ()
    assert match.step() is None
    in_sync(match)
    assert [s.player for s in match.history] == [CHANCE, CHANCE, 0, CHANCE, 1, 0]


def test_errors_leave_the_match_unchanged() -> None:
    match = Match(GAME, seed=3)
    match.run()
    before = (match.state, list(match.history), match.record, match.rng)
    with pytest.raises(IllegalActionError):
        match.apply(Bid(0))
    with pytest.raises(IllegalActionError):
        match.apply(Stake(1), 1)
    assert (match.state, match.history, match.record, match.rng) == before


def test_match_apply_without_player_when_several_are_to_move() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(1))
    match.run()
    with pytest.raises(IllegalActionError, match="say which one"):
        match.apply(Bid(0))


def test_policies_play_whole_games_reproducibly() -> None:
    finals = []
    for seed in (1, 1, 2, 3, 4, 5):
        bots = {0: Highest(), 1: Highest()}
        match = Match(GAME, seed=seed, policies=bots)
        final = match.run()
        assert final.is_terminal and match.is_over
        assert len(match.history) == 6
        in_sync(match)
        assert [p for _, p in bots[0].calls] == [0, 0]  # the stake and a bid
        assert [p for _, p in bots[1].calls] == [1]
        assert isinstance(final, ToyState)
        assert final.stake == 2  # the highest stake
        finals.append(match.record)
    assert finals[0] == finals[1]
    assert len({r.dumps() for r in finals[1:]}) > 1


def test_seed_may_be_an_rng() -> None:
    a = Match(GAME, seed=Rng(9), policies={0: Highest(), 1: Highest()})
    b = Match(GAME, seed=9, policies={0: Highest(), 1: Highest()})
    assert a.run() == b.run()


def test_policy_and_human_together() -> None:
    bot = Highest()
    match = Match(GAME, seed=7, policies={1: bot})
    match.run()
    assert waiting(match) == (0,)  # the human's stake
    match.apply(Stake(1))
    match.run()
    # The bot has committed its bid; the human still owes one.
    assert match.state.to_move == (0,) and waiting(match) == (0,)
    assert [p for _, p in bot.calls] == [1]
    match.apply(match.state.legal_actions(0)[0])
    assert match.is_over
    in_sync(match)


def test_run_with_max_steps() -> None:
    match = Match(GAME, seed=3, policies={0: Highest(), 1: Highest()})
    match.run(max_steps=1)
    assert len(match.history) == 1
    match.run(max_steps=2)
    assert len(match.history) == 3
    match.run()
    assert len(match.history) == 6


def test_policy_seats_must_exist() -> None:
    with pytest.raises(ValueError, match=r"policy for seat 2, but seats are 0..1"):
        Match(GAME, policies={2: Highest()})


def test_step_reports_what_happened() -> None:
    match = Match(GAME, seed=5, policies={0: Highest()})
    rng_before = match.rng
    first = match.step()
    assert isinstance(first, Step)
    assert first.player == CHANCE and first.before == GAME.initial_state()
    assert first.rng == rng_before
    assert match.rng != rng_before
    match.step()
    stake = match.step()
    assert stake is not None and stake.player == 0 and stake.action == Stake(2)
    assert stake is match.history[-1]


def test_chance_step_in_history_keeps_the_rng_before_the_draw() -> None:
    match = Match(GAME, seed=5)
    step = match.step()
    assert step is match.history[-1]
    assert step.rng == Rng(5)
    assert match.rng == clangames.sample_chance(GAME.initial_state(), Rng(5))[1]


# -- undo ------------------------------------------------------------------------------------


def test_undo_goes_back_before_the_players_last_decision() -> None:
    match = Match(GAME, seed=3)
    match.run()
    at_stake, rng_at_stake = match.state, match.rng
    match.apply(Stake(1))
    assert match.can_undo(0)
    assert match.undo(0) == at_stake
    assert match.state == at_stake and match.rng == rng_at_stake
    assert len(match.history) == 2
    in_sync(match)


def test_undo_takes_later_decisions_back_too() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(2))
    match.run()
    at_bid = match.state
    match.apply(Bid(1), 1)
    half = match.state
    match.apply(Bid(0), 0)
    assert match.is_over
    assert match.undo(0) == half  # only seat 0's bid goes
    in_sync(match)
    match.apply(Bid(1), 0)
    assert match.undo(1) == at_bid  # seat 1's bid and seat 0's later one go
    assert waiting(match) == (0, 1)
    assert len(match.history) == 4
    in_sync(match)


def test_undo_refuses_to_cross_a_chance_node() -> None:
    match = Match(GAME, seed=3)
    match.run()
    match.apply(Stake(1))
    match.run()  # the community card is turned up: it may have revealed something
    assert match.history[-1].player == CHANCE
    before = (match.state, list(match.history), match.record)
    assert not match.can_undo(0)
    with pytest.raises(UndoError, match="cannot undo for player 0: a chance outcome came after"):
        match.undo(0)
    assert (match.state, match.history, match.record) == before


def test_undo_without_a_decision() -> None:
    match = Match(GAME, seed=3)
    with pytest.raises(UndoError, match=r"^player 0 has made no decision to undo$"):
        match.undo(0)
    match.run()
    with pytest.raises(UndoError, match="a chance outcome came after"):
        match.undo(1)
    assert not match.can_undo(1)


def test_replaying_after_undo_gives_the_same_chance() -> None:
    match = Match(GAME, seed=11)
    match.run()
    match.apply(Stake(1))
    match.run()
    first_flip = match.state
    other = Match(GAME, seed=11)
    other.run()
    other.apply(Stake(2))
    other.undo(0)
    other.apply(Stake(1))
    other.run()
    assert other.state == first_flip
    assert other.record == match.record
