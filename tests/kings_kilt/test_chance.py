"""Exact chance probabilities at every setup step and for the draw pile."""

from __future__ import annotations

from fractions import Fraction

import clangames
from clangames.kings_kilt import KingsKiltState

from .helpers import counts, do, load, weights

CLANS = ("Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas", "Hamilton", "Stewart")


def _probabilities(state: clangames.State) -> dict[str, Fraction]:
    return {state.action_text(a): p for a, p in state.chance_outcomes()}


def _start(players: int) -> KingsKiltState:
    state = load(players).initial_state()
    assert isinstance(state, KingsKiltState)
    return state


def test_chance_first_family_card_is_uniform_over_the_eight_clans() -> None:
    state = _start(3)
    assert state.phase.name == "deal_family"
    assert _probabilities(state) == {f"draw {c}": Fraction(1, 8) for c in CLANS}


def test_chance_family_deck_holds_one_card_per_clan() -> None:
    state = do(_start(3), "draw Bruce", "draw Douglas")
    assert state.phase.name == "deal_family"
    left = [c for c in CLANS if c not in ("Bruce", "Douglas")]
    assert _probabilities(state) == {f"draw {c}": Fraction(1, 6) for c in left}


def _families_dealt(players: int, order: list[str]) -> KingsKiltState:
    return do(_start(players), *(f"draw {c}" for c in order))


def test_chance_unused_family_deck_returns_to_the_members() -> None:
    state = _families_dealt(3, ["Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"])
    assert state.phase.name == "deal_third"
    assert state.families == (0b1001, 0b10010, 0b100100)  # {Ml, Br} {Mk, Bu} {Mb, Do}
    assert state.members.counts == (5, 5, 5, 5, 5, 5, 6, 6)
    two = _families_dealt(2, ["Macleod", "Mackay", "Macbeth", "Bruce"])
    assert two.members.counts == (5, 5, 5, 5, 6, 6, 6, 6)
    four = _families_dealt(4, list(CLANS))
    assert four.members.counts == (5,) * 8


def test_chance_third_card_excludes_the_players_clans_weighted_by_count() -> None:
    state = _families_dealt(3, ["Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"])
    # seat 0 holds Macleod and Bruce: 42 members, 10 of them of those clans
    assert weights(state) == {
        "draw Mackay": 5,
        "draw Macbeth": 5,
        "draw Buchanan": 5,
        "draw Douglas": 5,
        "draw Hamilton": 6,
        "draw Stewart": 6,
    }
    probs = _probabilities(state)
    assert probs["draw Mackay"] == Fraction(5, 32)
    assert probs["draw Stewart"] == Fraction(3, 16)
    # the physical rule (return a repeat and draw again) gives count / (total - repeats):
    # the geometric series sum_k (10/42)^k * count/42
    for clan, p in probs.items():
        count = state.members.count(CLANS.index(clan.removeprefix("draw ")))
        assert p == Fraction(count, 42 - 10)
    state = do(state, "draw Hamilton")
    assert state.families[0] == 0b1001001
    # seat 1 holds Mackay and Buchanan; one Hamilton has gone
    assert weights(state) == {
        "draw Macleod": 5,
        "draw Macbeth": 5,
        "draw Bruce": 5,
        "draw Douglas": 5,
        "draw Hamilton": 5,
        "draw Stewart": 6,
    }
    assert sum(_probabilities(state).values()) == 1


def test_chance_influence_deal_is_weighted_by_the_remaining_members() -> None:
    state = _families_dealt(3, ["Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"])
    state = do(state, "draw Hamilton", "draw Stewart", "draw Stewart")
    assert state.phase.name == "deal_influence"
    assert state.members.counts == (5, 5, 5, 5, 5, 5, 5, 4)
    assert _probabilities(state) == {
        **{f"draw {c}": Fraction(5, 39) for c in CLANS[:7]},
        "draw Stewart": Fraction(4, 39),
    }
    state = do(state, *["draw Stewart"] * 4)
    assert state.hands[0].counts == (0,) * 7 + (2,)
    assert state.hands[1].counts == (0,) * 7 + (1,)
    assert state.hands[2].counts == (0,) * 7 + (1,)
    assert "draw Stewart" not in weights(state)


def _after_influence(players: int = 3) -> KingsKiltState:
    game = load(players)
    state: clangames.State = game.initial_state()
    rng = clangames.Rng(11)
    while not (isinstance(state, KingsKiltState) and state.phase.name == "build_base"):
        action, rng = clangames.sample_chance(state, rng)
        state = state.apply(action)
    return state


def test_chance_pyramid_base_comes_from_the_leaders() -> None:
    state = _after_influence()
    assert _probabilities(state) == {f"draw {c}": Fraction(1, 8) for c in CLANS}
    state = do(state, "draw Bruce")
    assert state.card_at(1, 0) == "Bruce"
    probs = _probabilities(state)
    assert probs["draw Bruce"] == Fraction(1, 15)
    assert probs["draw Macleod"] == Fraction(2, 15)
    members_before = state.members
    state = do(state, "draw Bruce", "draw Macleod", "draw Macleod", "draw Mackay", "draw Mackay")
    assert [state.card_at(1, i) for i in range(6)] == [
        "Bruce",
        "Bruce",
        "Macleod",
        "Macleod",
        "Mackay",
        "Mackay",
    ]
    assert state.members == members_before  # the member layer is untouched
    # the top card of the pile turns up: still a leader
    assert state.phase.name == "reveal_top"
    left = ("Macbeth", "Buchanan", "Douglas", "Hamilton", "Stewart")
    assert _probabilities(state) == {f"draw {c}": Fraction(1, 5) for c in left}
    state = do(state, "draw Stewart")
    assert state.top == CLANS.index("Stewart")
    assert state.leaders == counts(state.game, {c: 2 for c in left[:4]} | {"Stewart": 1})
    assert state.phase.name == "turn"


def test_chance_outcomes_collapse_identical_cards() -> None:
    game = load(4)
    rng = clangames.Rng(3)
    for _ in range(5):
        state: clangames.State = game.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                assert 1 <= len(outcomes) <= 8
                assert sum(p for _, p in outcomes) == 1
                assert len({a for a, _ in outcomes}) == len(outcomes)
                action, rng = clangames.sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                j, rng = rng.below(len(legal))
                action = legal[j]
            state = state.apply(action)
