"""The State base class, exercised through the toy game: flow, legality, errors that
change nothing, chance, results, views and JSON."""

from __future__ import annotations

import copy
import json
import pickle
from fractions import Fraction
from typing import Any
from unittest import mock

import pytest

import clangames
from clangames import CHANCE, IllegalActionError, InvalidActionError, Rng, StateDecodeError
from testing import toys
from testing.toys import Bid, Draw, Stake, ToyGame, ToyState

GAME: ToyGame = toys.toy()


def play(*moves: tuple[int | None, str]) -> ToyState:
    """The toy state after ``(player, action text)`` moves from the start."""
    state: Any = GAME.initial_state()
    for player, text in moves:
        state = state.apply_text(text, player)
    assert isinstance(state, ToyState)
    return state


DEAL = ((None, "draw high"), (None, "draw low"))
AT_STAKE = DEAL
AT_BID = (*DEAL, (0, "stake 2"), (None, "draw mid"))
HALF = (*AT_BID, (1, "bid 1"))
OVER = (*HALF, (0, "bid 2"))


def unchanged(state: ToyState) -> tuple[ToyState, str]:
    """A copy of the state's identity to compare against after a failed apply."""
    return state, json.dumps(state.to_json(), sort_keys=True)


def assert_same(before: tuple[ToyState, str], state: ToyState) -> None:
    """The state is still equal to, and serialises like, ``before``."""
    assert state == before[0]
    assert json.dumps(state.to_json(), sort_keys=True) == before[1]


# -- flow ------------------------------------------------------------------------------------


def test_initial_state_is_a_chance_node() -> None:
    state = GAME.initial_state()
    assert state.to_move == (CHANCE,)
    assert state.is_chance and not state.is_terminal and not state.is_simultaneous
    assert state.current_player == CHANCE
    assert state.legal_actions() == (Draw(0), Draw(1), Draw(2))
    assert state.legal_actions(CHANCE) == state.legal_actions()
    assert state.legal_actions(0) == () and state.legal_actions(1) == ()
    assert state.prompt() == "a card is dealt face down"


def test_chance_outcomes_are_exact_fractions() -> None:
    outcomes = GAME.initial_state().chance_outcomes()
    assert outcomes == (
        (Draw(0), Fraction(2, 5)),
        (Draw(1), Fraction(2, 5)),
        (Draw(2), Fraction(1, 5)),
    )
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert GAME.initial_state().chance_weights() == ((Draw(0), 2), (Draw(1), 2), (Draw(2), 1))


def test_identical_cards_collapse_and_drawn_kinds_disappear() -> None:
    state = play((None, "draw high"))
    # The only high card is gone: two outcomes left, 2/4 each.
    assert state.chance_outcomes() == ((Draw(0), Fraction(1, 2)), (Draw(1), Fraction(1, 2)))


def test_no_chance_outcomes_off_chance_nodes() -> None:
    for moves in (AT_STAKE, AT_BID, OVER):
        assert play(*moves).chance_outcomes() == ()
        assert play(*moves).chance_weights() == ()
    with pytest.raises(ValueError, match="not a chance node"):
        clangames.sample_chance(play(*AT_STAKE), Rng(1))


def test_kernel_guards_chance_outcomes_at_decision_nodes() -> None:
    # A game whose _chance_weights() ignores the phase still has no chance outcomes at a
    # decision node: the kernel only asks for them at chance nodes.
    game = toys.faulty("chance_everywhere")
    state = game.initial_state().apply(Draw(2)).apply(Draw(0))
    assert state.to_move == (0,)
    assert state.chance_weights() == ()
    assert state.chance_outcomes() == ()
    with pytest.raises(ValueError, match="not a chance node"):
        clangames.sample_chance(state, Rng(1))
    assert state.legal_actions(CHANCE) == ()


def test_resolve_and_play_chance_stop_at_a_decision() -> None:
    state = clangames.resolve_chance(GAME.initial_state(), Rng(4))
    assert state.to_move == (0,)
    again, rng = clangames.play_chance(GAME.initial_state(), Rng(4))
    assert again == state and rng != Rng(4)
    # The two draws consumed exactly two weighted picks.
    first, r = clangames.sample_chance(GAME.initial_state(), Rng(4))
    _, r = clangames.sample_chance(GAME.initial_state().apply(first), r)
    assert rng == r
    assert clangames.play_chance(state, Rng(4)) == (state, Rng(4))  # nothing to sample


def test_sample_chance_follows_the_probabilities() -> None:
    state = GAME.initial_state()
    rng = Rng(12)
    counts = {Draw(0): 0, Draw(1): 0, Draw(2): 0}
    for _ in range(5000):
        action, rng = clangames.sample_chance(state, rng)
        counts[action] += 1
    assert abs(counts[Draw(0)] - 2000) < 150
    assert abs(counts[Draw(1)] - 2000) < 150
    assert abs(counts[Draw(2)] - 1000) < 120


def test_game_level_action_errors() -> None:
    with pytest.raises(InvalidActionError, match=r"Stake\(amount=3\) is not an action"):
        GAME.action_id(Stake(3))
    with pytest.raises(InvalidActionError, match=r"action id 8 is out of range; expected 0\.\.7"):
        GAME.action_from_id(8)
    with pytest.raises(InvalidActionError, match="'fold' is not an action of this game"):
        GAME.parse_action("fold")


def test_sequential_then_simultaneous_then_over() -> None:
    state = play(*AT_STAKE)
    assert state.to_move == (0,) and state.current_player == 0
    assert state.legal_actions() == (Stake(1), Stake(2))
    state = play(*AT_BID)
    assert state.to_move == (0, 1) and state.is_simultaneous
    assert state.legal_actions() == ()  # no single player to move
    assert state.legal_actions(0) == (Bid(0), Bid(1), Bid(2))  # high card: cap 2
    assert state.legal_actions(1) == (Bid(0), Bid(1))  # low card: cap 1
    with pytest.raises(ValueError, match=r"no single player to move: to_move is \(0, 1\)"):
        _ = state.current_player
    state = play(*HALF)
    assert state.to_move == (0,) and state.is_simultaneous
    assert state.legal_actions(1) == ()
    state = play(*OVER)
    assert state.is_terminal and state.to_move == ()
    assert all(state.legal_actions(p) == () for p in (CHANCE, 0, 1))
    with pytest.raises(ValueError, match="no single player to move"):
        _ = state.current_player


def test_legal_actions_are_the_tables_shared_objects() -> None:
    state = play(*AT_BID)
    for action in state.legal_actions(0):
        assert action is GAME.actions.intern(action)
    assert state.legal_actions(0) is state.legal_actions(0)  # memoised per state


# -- apply errors change nothing -------------------------------------------------------------


def test_wrong_player() -> None:
    state = play(*AT_STAKE)
    before = unchanged(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Stake(1), player=1)
    assert str(info.value) == (
        "player 1 is not to move (it is player 0's turn); got Stake(amount=1)"
    )
    with pytest.raises(IllegalActionError, match="player -1 is not to move"):
        state.apply(Stake(1), player=CHANCE)
    assert_same(before, state)


def test_player_at_a_chance_node() -> None:
    state = GAME.initial_state()
    with pytest.raises(
        IllegalActionError, match=r"player 0 is not to move \(it is chance's turn\)"
    ):
        state.apply(Draw(0), player=0)
    assert state.apply(Draw(0), player=CHANCE) == state.apply(Draw(0))


def test_game_over() -> None:
    state = play(*OVER)
    before = unchanged(state)
    with pytest.raises(IllegalActionError, match=r"^the game is over; Bid\(amount=0\) cannot"):
        state.apply(Bid(0), player=0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(Bid(0))
    assert_same(before, state)


@pytest.mark.parametrize("bad", ["stake 1", None, 3, Bid(9), ["list"], Stake])
def test_malformed_actions(bad: object) -> None:
    state = play(*AT_STAKE)
    before = unchanged(state)
    with pytest.raises(InvalidActionError) as info:
        state.apply(bad, player=0)
    assert str(info.value) == f"{bad!r} is not an action of toy_duel (expected e.g. Draw(kind=0))"
    assert not state.is_legal(bad, 0)
    assert_same(before, state)


def test_object_equal_to_everything_is_malformed() -> None:
    state = play(*AT_STAKE)
    with pytest.raises(InvalidActionError):
        state.apply(mock.ANY, player=0)


def test_several_players_to_move_need_player() -> None:
    state = play(*AT_BID)
    before = unchanged(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Bid(0))
    assert str(info.value) == ("players 0 and 1 are to move; say which one applies Bid(amount=0)")
    assert_same(before, state)


def test_rule_breaking_action_is_explained() -> None:
    state = play(*AT_BID)
    before = unchanged(state)
    with pytest.raises(IllegalActionError, match=r"^player 1 may bid at most 1, not 2$"):
        state.apply(Bid(2), player=1)
    with pytest.raises(IllegalActionError, match="'stake 1' is not allowed now"):
        state.apply(Stake(1), player=0)
    assert_same(before, state)


def test_committed_player_cannot_commit_again() -> None:
    state = play(*HALF)
    with pytest.raises(IllegalActionError, match=r"player 1 is not to move"):
        state.apply(Bid(0), player=1)


def test_a_seat_not_to_move_is_told_who_is_in_plain_words() -> None:
    # the seats to move are named as a sentence would, not as a Python tuple
    half = play(*HALF)
    with pytest.raises(IllegalActionError) as info:
        half.apply(Bid(0), player=1)
    assert str(info.value) == "player 1 is not to move (it is player 0's turn); got Bid(amount=0)"
    koa = clangames.load("koa-kingmaker", players=5).initial_state()
    while koa.is_chance:
        koa = koa.apply(koa.legal_actions()[0])
    card = koa.legal_actions(1)[0]
    koa = koa.apply(card, 1)
    with pytest.raises(IllegalActionError) as info:
        koa.apply(card, 1)
    assert str(info.value) == (
        f"player 1 is not to move (players 0, 2, 3 and 4 are to move); got {card!r}"
    )


def test_default_explanation_of_the_base_class() -> None:
    state = play(*AT_STAKE)
    text = clangames.State.explain_illegal(state, Bid(1), 0)
    assert (
        text
        == "'bid 1' is not legal for player 0 now (seat 0 chooses the stake); 2 actions are legal"
    )


# -- legality helpers ------------------------------------------------------------------------


def test_legal_mask() -> None:
    state = play(*AT_BID)
    # ids: draw low/mid/high 0-2, stake 1/2 3-4, bid 0/1/2 5-7
    assert state.legal_mask(0) == (False,) * 5 + (True, True, True)
    assert state.legal_mask(1) == (False,) * 5 + (True, True, False)
    assert play(*AT_STAKE).legal_mask() == (False, False, False, True, True, False, False, False)
    assert play(*AT_STAKE).legal_mask(1) == (False,) * 8
    assert len(GAME.initial_state().legal_mask()) == GAME.num_distinct_actions == 8


def test_is_legal() -> None:
    state = play(*AT_BID)
    assert state.is_legal(Bid(2), 0)
    assert not state.is_legal(Bid(2), 1)
    assert not state.is_legal(Bid(0))  # several to move, no player named
    assert not state.is_legal(Stake(1), 0)
    assert not state.is_legal("bid 0", 0)
    assert play(*AT_STAKE).is_legal(Stake(2))


def test_apply_text() -> None:
    state = play(*AT_STAKE)
    assert state.apply_text("STAKE  2") == state.apply(Stake(2), 0)
    with pytest.raises(InvalidActionError, match="'stake 3' is not an action of this game"):
        state.apply_text("stake 3")
    with pytest.raises(IllegalActionError):
        state.apply_text("bid 0", 0)


def test_action_ids_and_texts_round_trip() -> None:
    for i, action in enumerate(GAME.actions.actions):
        assert GAME.action_id(action) == i
        assert GAME.action_from_id(i) == action
        assert GAME.parse_action(GAME.action_text(action)) == action
    state = GAME.initial_state()
    assert state.action_text(Draw(2)) == "draw high"
    assert state.parse_action("Draw High") == Draw(2)


# -- results ---------------------------------------------------------------------------------


def test_returns_before_and_after_the_end() -> None:
    for moves in (AT_STAKE, AT_BID, HALF):
        state = play(*moves)
        assert state.returns() == (0.0, 0.0)
        assert state.winners() == ()
    state = play(*OVER)
    # Seat 0: high (3) doubled by the stake for out-bidding, minus its bid 2 = 4.
    # Seat 1: low (1), minus its bid 1 = 0.
    assert state.scores() == (4, 0)
    assert state.winners() == (0,)
    assert state.returns() == (1.0, 0.0)


def test_tied_winners_share() -> None:
    state = play(
        (None, "draw mid"),
        (None, "draw mid"),
        (0, "stake 1"),
        (None, "draw low"),
        (0, "bid 1"),
        (1, "bid 1"),
    )
    assert state.scores() == (1, 1)
    assert state.winners() == (0, 1)
    assert state.returns() == (0.5, 0.5)


def test_community_card_bonus() -> None:
    state = play(
        (None, "draw low"),
        (None, "draw mid"),
        (0, "stake 1"),
        (None, "draw low"),
        (0, "bid 0"),
        (1, "bid 0"),
    )
    assert state.scores() == (3, 2)  # low matches the community card: 1 + 2
    assert state.returns() == (1.0, 0.0)


# -- equality, views, JSON --------------------------------------------------------------------


def test_equal_paths_give_equal_states() -> None:
    a, b = play(*HALF), play(*HALF)
    a.legal_actions(0)  # the legal-action memo is not part of the value
    assert a == b and hash(a) == hash(b)
    assert a != play(*AT_BID)
    assert play(*AT_BID).apply(Bid(0), 0) != play(*AT_BID).apply(Bid(0), 1)


def test_sealed_bids_stay_hidden_until_both_are_in() -> None:
    state = play(*HALF)
    assert state.observation(1).bids == (-1, GAME.action_id(Bid(1)))
    assert state.observation(0).bids == (-1, -1)
    assert state.observation(0).committed == (False, True)
    assert state.public_observation().bids == (-1, -1)
    assert state.observation(0).opponent_card == -1
    over = play(*OVER)
    ids = (GAME.action_id(Bid(2)), GAME.action_id(Bid(1)))
    assert over.observation(0).bids == over.observation(1).bids == ids
    assert over.observation(0).opponent_card == 0 and over.observation(1).opponent_card == 2


def test_resample_keeps_the_players_view() -> None:
    state = play(*HALF)
    rng = Rng(1)
    others = set()
    for _ in range(50):
        sub, rng = rng.next64()
        for p in (0, 1):
            other = state.resample(p, Rng(sub))
            assert other.observation(p) == state.observation(p)
            assert other.legal_actions(p) == state.legal_actions(p)
            other.check_consistency()
            if p == 0:
                others.add((other.cards, other.commitments))
    # Seat 0 holds the high card; seat 1 may hold low or mid, and its sealed bid varies.
    assert {cards for cards, _ in others} == {(2, 0), (2, 1)}
    assert len(others) >= 3
    assert play(*OVER).resample(0, Rng(3)) == play(*OVER)


def test_json_round_trip() -> None:
    for moves in ((), AT_STAKE, AT_BID, HALF, OVER):
        state = play(*moves)
        data = state.to_json()
        assert data["game"] == "toy_duel"
        assert data["params"] == {"players": 2, "max_bid": 2, "scoring": "standard"}
        back = GAME.state_from_json(json.dumps(data))
        assert back == state and back.to_json() == data
        assert back.to_move == state.to_move and back.game is GAME


def test_state_from_json_errors() -> None:
    data = play(*HALF).to_json()
    cases: list[tuple[Any, str]] = [
        ("{not json", "state: not valid JSON"),
        ([1, 2], "state: expected an object, got list"),
        ({k: v for k, v in data.items() if k != "state"}, "state: missing field 'state'"),
        ({**data, "game": "kings_kilt"}, "state.game: this is 'toy_duel', the data is for"),
        ({**data, "params": {"players": 2}}, "state.params: the data has"),
        (
            {**data, "state": {**data["state"], "cards": [2, "x"]}},
            "state.cards[1]: expected an integer, got 'x'",
        ),
        (
            {**data, "state": {**data["state"], "cards": [2]}},
            "state.cards: expected a list of 2 items, got 1 items",
        ),
        (
            {**data, "state": {**data["state"], "phase": {"name": "bid", "to_move": [0]}}},
            "state.phase: missing field(s) 'simultaneous'",
        ),
        (
            {**data, "state": {**data["state"], "stake": 5}},
            "state.stake: expected 0, 1 or 2, got 5",
        ),
        (
            {**data, "state": {**data["state"], "cards": [2, 2]}},
            "state.cards: more cards than the deck holds",
        ),
        (
            {**data, "state": {**data["state"], "deck": {"counts": [2, 2, 0]}}},
            "state.deck: expected Multiset((1, 1, 0)), got Multiset((2, 2, 0))",
        ),
    ]
    for bad, message in cases:
        with pytest.raises(StateDecodeError) as info:
            GAME.state_from_json(bad)
        assert str(info.value).startswith(message), (message, str(info.value))


def test_states_copy_shallowly() -> None:
    state = play(*HALF)
    assert copy.copy(state) == state


def test_states_and_games_pickle() -> None:
    state = play(*HALF)
    assert pickle.loads(pickle.dumps(GAME)) == GAME
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
