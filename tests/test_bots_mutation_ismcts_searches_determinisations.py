"""ISMCTSBot searches determinisations, never the true state: each iteration plays a new
``state.resample`` of the searching seat's view drawn from the bot's advancing Rng; the
budget is exactly the iterations asked (or the time given); ties go to the lowest action
id; a single legal action is returned without a search; cut-off rollouts are valued by the
current score leaders; and the registered bot is the documented one.

Found by the bots' mutation audit: searching the true state, a Rng that never advanced
(every iteration the same world), one iteration too many, a time limit that stopped after
one iteration, ties going to the highest id, a stale ``last_iterations``, cut-off rollouts
valued for the trailing seats, and a registered bot with another budget all passed every
test before.
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import Rng
from clangames.bots import ISMCTSBot, RandomBot, make_bot
from clangames.bots.ismcts import _value
from test_bots import first_decision


def test_every_iteration_searches_a_fresh_resample_never_the_true_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = first_decision(seed=5)
    me = state.to_move[0]
    dealt: list[tuple[int, Rng, clangames.State]] = []
    searched: list[clangames.State] = []
    resample = type(state).resample
    iterate = ISMCTSBot._iterate

    def spy_resample(self: Any, player: int, rng: Rng) -> Any:
        world = resample(self, player, rng)
        dealt.append((player, rng, world))
        return world

    def spy_iterate(self: ISMCTSBot, root: Any, det: Any, player: int, rng: Rng) -> Rng:
        searched.append(det)
        return iterate(self, root, det, player, rng)

    monkeypatch.setattr(type(state), "resample", spy_resample)
    monkeypatch.setattr(ISMCTSBot, "_iterate", spy_iterate)
    bot = ISMCTSBot(3, iterations=12, rollout_limit=5)
    bot.act(state, me)
    assert len(searched) == len(dealt) == 12
    assert all(det is world for det, (_, _, world) in zip(searched, dealt, strict=True))
    assert all(player == me for player, _, _ in dealt)
    assert all(det is not state for det in searched)
    assert len({rng for _, rng, _ in dealt}) == 12  # each from its own stream
    # the hidden hands differ from world to world; the searching seat's view never does
    others = {repr(det.observation((me + 1) % 3)) for det in searched}
    assert len(others) > 1
    assert {repr(det.observation(me)) for det in searched} == {repr(state.observation(me))}


def test_the_budget_is_the_iterations_asked_and_a_generous_time_limit_keeps_it() -> None:
    state = first_decision(seed=2)
    me = state.to_move[0]
    bot = ISMCTSBot(1, iterations=7, rollout_limit=3)
    bot.act(state, me)
    assert bot.last_iterations == 7
    timed = ISMCTSBot(1, iterations=9, time_limit=60.0, rollout_limit=3)
    timed.act(state, me)
    assert timed.last_iterations == 9
    clock = ISMCTSBot(1, iterations=None, time_limit=0.05, rollout_limit=3)
    clock.act(state, me)
    assert clock.last_iterations > 1


def test_a_single_legal_action_is_returned_without_a_search() -> None:
    game = clangames.load("kings_kilt", players=3)
    state = first_decision(seed=2)
    bot = ISMCTSBot(4, iterations=5, rollout_limit=3)
    bot.act(state, state.to_move[0])
    assert bot.last_iterations == 5
    only = _a_state_with_one_legal_action(game)
    player = next(p for p in only.to_move if len(only.legal_actions(p)) == 1)
    before = bot.rng
    assert bot.act(only, player) == only.legal_actions(player)[0]
    assert bot.last_iterations == 0  # not the last search's count
    assert bot.rng == before  # nothing drawn


def _a_state_with_one_legal_action(game: clangames.Game) -> clangames.State:
    state = game.initial_state()
    rng = Rng(1)
    while True:
        state, rng = clangames.play_chance(state, rng)
        assert not state.is_terminal, "a King's Kilt game of seed 1 has a forced move"
        if any(len(state.legal_actions(p)) == 1 for p in state.to_move):
            return state
        for p in state.to_move:
            i, rng = rng.below(len(state.legal_actions(p)))
            state = state.apply(state.legal_actions(p)[i], p)


def test_ties_go_to_the_lowest_action_id() -> None:
    # As many iterations as legal actions: each is tried once, all tie on one visit.
    state = first_decision(seed=7)
    me = state.to_move[0]
    legal = state.legal_actions(me)
    game = state.game
    ids = [game.action_id(a) for a in legal]
    bot = ISMCTSBot(2, iterations=len(legal), rollout_limit=2)
    assert game.action_id(bot.act(state, me)) == min(ids)


def test_an_int_seed_is_the_bot_s_rng() -> None:
    assert ISMCTSBot(9).rng == Rng(9)
    state = first_decision(seed=4)
    me = state.to_move[0]
    picks = {repr(ISMCTSBot(s, iterations=30, rollout_limit=4).act(state, me)) for s in range(8)}
    assert len(picks) > 1  # the seed steers the search


def test_a_cut_off_rollout_is_a_win_shared_by_the_current_leaders() -> None:
    game = clangames.load("kilt_castle", players=3)
    state, rng = clangames.play_chance(game.initial_state(), Rng(3))
    for _ in range(60):  # play until the scores differ
        if len(set(state.scores())) > 1:
            break
        p = state.to_move[0]
        i, rng = rng.below(len(state.legal_actions(p)))
        state, rng = clangames.play_chance(state.apply(state.legal_actions(p)[i], p), rng)
    scores = state.scores()
    assert not state.is_terminal and len(set(scores)) > 1
    leaders = [p for p, s in enumerate(scores) if s == max(scores)]
    assert _value(state) == tuple(1.0 / len(leaders) if p in leaders else 0.0 for p in range(3))
    finished = clangames.Match(game, 1, {p: RandomBot(p) for p in range(3)})
    finished.run()
    assert _value(finished.state) == finished.state.returns()


def test_the_registered_ismcts_is_the_documented_budget() -> None:
    bot = make_bot("ismcts", 4)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.rollout_limit, bot.time_limit) == (200, 40, None)
    assert bot.rng == Rng(4)
