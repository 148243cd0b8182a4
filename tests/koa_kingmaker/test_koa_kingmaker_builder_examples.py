"""The KOA Kingmaker rulebook's worked cases that test_rulings.py pins (ties, the Seer, the
Marshals, Thief and Gold, Banner and Fanatic, the Jester's value, the nomination card in
court, the inheritance tie-break), each written again with the scenario builder
``game.position(...)`` and asserting the same outcome as the original (named in each
test's docstring). Five players, so every house commits; a part names only the houses that
differ from the start (``courts={2: ["Royal 3"]}``) and each house's hand is every card of
its own that no other part holds.

The sealed-card scenario is in test_koa_position.py.
"""

from __future__ import annotations

import pytest

import clangames
from clangames.engine.position import PositionError
from clangames.koa_kingmaker import KoaState

ROYALS = "[Royal_1,Royal_2,Royal_3]"


def round_of(*cards: str, **parts: object) -> KoaState:
    """The state after houses 0..4 commit ``cards`` (action texts, in house order) in the
    position the parts describe; it stops at the resolution's first decision."""
    state: clangames.State = clangames.load("koa_kingmaker", players=5).position(**parts)
    for house, text in enumerate(cards):
        state = state.apply_text(text, house)
    assert isinstance(state, KoaState)
    return state


def play(state: clangames.State, *moves: tuple[str, int]) -> KoaState:
    for text, house in moves:
        state = state.apply_text(text, house)
    assert isinstance(state, KoaState)
    return state


def part(state: KoaState, name: str) -> str:
    """One field of the state's position text (``courts=[...]``)."""
    return next(p for p in state.to_position().split() if p.startswith(name + "="))


def test_a_tie_hits_every_tied_house() -> None:
    """Twin of test_rulings.py::test_a_tie_hits_three_houses_at_once."""
    s = round_of(
        "nominate house 1", "nominate house 2", "nominate house 0", "play Seer", "play Jester"
    )
    assert s.hits == ((0, -1), (1, -1), (2, -1))
    s = play(s, ("discard Royal 3", 0), ("discard Royal 3", 1), ("discard Royal 3", 2))
    assert part(s, "centre") == "centre=[[Royal_3],[Royal_3],[Royal_3],[],[]]"
    assert s.round == 2


def test_the_seer_passes_the_hit_to_the_next_highest() -> None:
    """Twin of test_rulings.py::test_seer_redirects_the_hit_to_the_next_highest."""
    s = round_of(
        "nominate house 2", "nominate house 2", "play Seer", "nominate house 4", "play Gold"
    )
    assert s.hits == ((4, -1),) and s.to_move == (4,)
    s = play(s, ("discard Royal 1", 4))
    assert part(s, "courts") == f"courts=[{ROYALS},{ROYALS},{ROYALS},{ROYALS},[Royal_2,Royal_3]]"
    assert part(s, "centre") == "centre=[[],[],[],[],[Royal_1]]"


def test_the_marshals_block_and_hit_every_nominator() -> None:
    """Twin of test_rulings.py::test_marshals_block_and_counter_attack_every_nominator."""
    s = round_of("nominate house 2", "nominate house 2", "play Marshals", "play Gold", "play Thief")
    assert s.hits == ((0, 2), (1, 2))
    s = play(s, ("discard Royal 1", 0), ("discard Royal 2", 1))
    assert part(s, "centre") == "centre=[[Royal_1],[Royal_2],[],[],[]]"
    assert s.courts[2] == s.courts[3]  # the Marshals' house kept its court


def test_a_counter_attack_adds_to_a_hit_from_a_tie() -> None:
    """Twin of test_rulings.py::test_counter_attack_adds_to_a_hit_from_a_tie."""
    s = round_of("nominate house 1", "play Marshals", "nominate house 0", "play Gold", "play Thief")
    assert s.hits == ((0, -1), (0, 1))
    s = play(s, ("discard Royal 1", 0), ("discard Royal 2", 0))
    assert part(s, "courts").startswith("courts=[[Royal_3],")
    assert part(s, "centre") == "centre=[[Royal_1,Royal_2],[],[],[],[]]"


def test_a_banner_doubles_its_houses_nominations() -> None:
    """Twin of test_rulings.py::test_banner_joins_court_and_doubles_its_owners_nominations."""
    s = round_of(
        "nominate house 2",
        "nominate house 3",
        "play Gold",
        "play Thief",
        "play Seer",
        courts={0: "[Banner,Royal_1,Royal_2,Royal_3]"},
    )
    assert s.hits == ((2, -1),)  # 2 against 1


def test_the_fanatic_discards_its_own_banner_too() -> None:
    """Twin of test_rulings.py::test_fanatic_discards_its_own_banner_too."""
    s = round_of(
        "play Seer",
        "play Gold",
        "play Thief",
        "play Fanatic",
        "play Jester",
        courts={3: "[Banner,Royal_1,Royal_2,Royal_3]"},
    )
    assert s.courts[3] == s.courts[0]
    assert part(s, "discards").endswith(",[Banner,Fanatic],[]]")


def test_gold_buys_a_jester_back_to_the_hand() -> None:
    """Twin of test_rulings.py::test_gold_buys_back_a_jester_to_the_hand."""
    s = round_of(
        "play Gold",
        "play Seer",
        "play Marshals",
        "play Banner",
        "play Fanatic",
        discards={0: "Jester"},
    )
    assert s.phase.name == "return" and s.to_move == (0,)
    assert [s.action_text(a) for a in s.legal_actions(0)] == ["recover Jester", "recover nothing"]
    s = play(s, ("recover Jester", 0))
    assert "Jester" in part(s, "hands").split("],[")[0]
    assert part(s, "courts").startswith(f"courts=[{ROYALS},")
    assert part(s, "discards").startswith("discards=[[Gold],")


def test_one_thief_steals_two_golds_and_takes_one_card_back() -> None:
    """Twin of test_rulings.py::test_thief_with_two_golds_steals_both_and_returns_one_card."""
    s = round_of(
        "play Gold",
        "play Gold",
        "play Thief",
        "nominate house 4",
        "play Banner",
        discards={0: "Marshals", 1: "Seer", 2: "[Seer,Jester]"},
    )
    assert s.recovering == (2,) and s.to_move == (2,)
    assert part(s, "discards").startswith("discards=[[Marshals,Gold],[Seer,Gold],")
    texts = [s.action_text(a) for a in s.legal_actions(2)]
    assert texts == ["recover Jester", "recover Seer", "recover nothing"]
    s = play(s, ("recover Seer", 2), ("discard Royal 1", 4))
    assert part(s, "discards").startswith("discards=[[Marshals,Gold],[Seer,Gold],[Jester,Thief],")


def test_one_gold_feeds_two_thieves() -> None:
    """Twin of test_rulings.py::test_one_gold_feeds_two_thieves."""
    s = round_of(
        "play Gold",
        "play Thief",
        "play Thief",
        "play Jester",
        "play Banner",
        discards={1: "Seer", 2: "Fanatic"},
    )
    assert s.recovering == (1, 2)
    s = play(s, ("recover Seer", 1), ("recover Fanatic", 2))
    assert part(s, "discards").startswith("discards=[[Gold],[Thief],[Thief],")


def test_the_jester_scores_two_in_court() -> None:
    """Twin of test_rulings.py::test_jester_joins_court_and_scores_court_value."""
    s = round_of("play Jester", "play Seer", "play Gold", "play Thief", "play Fanatic")
    assert part(s, "courts").startswith("courts=[[Jester,Royal_1,Royal_2,Royal_3],")
    # court 3+4+5+2, hand Seer 3 + Marshals 3 + Gold 2 + Thief 2 + Banner 3 + Fanatic 2
    assert s.scores()[0] == 14 + 15


def test_the_last_hit_puts_the_nomination_card_in_court() -> None:
    """Twin of test_rulings.py::test_elimination_places_the_nominators_cards_in_court."""
    s = round_of(
        "nominate house 2",
        "nominate house 2",
        "play Gold",
        "play Thief",
        "nominate house 0",
        courts={2: "Royal 3"},
        centre={2: "[Royal_1,Royal_2]"},
    )
    assert not s.is_in(2) and s.out_round[2] == 1
    assert part(s, "courts").startswith(
        "courts=[[Nomination_2,Royal_1,Royal_2,Royal_3],[Nomination_2,Royal_1,Royal_2,Royal_3],[],"
    )
    assert s.scores()[0] == 12 + 3 + 21
    assert s.to_move == (0, 1, 3, 4)


def test_a_points_tie_goes_to_the_lower_inheritance_number() -> None:
    """Twin of test_rulings.py::test_tie_broken_by_the_lower_inheritance_number."""
    s = round_of(
        "nominate house 2",
        "play Gold",
        "play Thief",
        "nominate house 0",
        "nominate house 1",
        inheritance=[1, 2, 3, 5, 4],
        courts={0: "Royal 3", 1: "Royal 3", 2: "Royal 3"},
        centre={0: "[Royal_1,Royal_2]", 1: "[Royal_1,Royal_2]", 2: "[Royal_1,Royal_2]"},
    )
    assert s.is_terminal
    assert s.scores()[3:] == (36, 36)
    assert s.winners() == (4,)


def test_the_builder_names_only_the_houses_that_differ() -> None:
    """Builder rule: ``{house: cards}`` parts, and hands holding every card of the house's
    own that no other part does; a bad house or card is refused naming it."""
    game = clangames.load("koa_kingmaker", players=5)
    state = game.position(courts={2: ["Royal 3", "Jester"]}, centre={2: ["Royal 1", "Royal 2"]})
    assert part(state, "courts") == f"courts=[{ROYALS},{ROYALS},[Jester,Royal_3],{ROYALS},{ROYALS}]"
    assert "Jester" not in part(state, "hands").split("],[")[2]
    assert state == game.state_from_position(state.to_position())
    with pytest.raises(PositionError, match=r"courts\[7\]: expected a house 0\.\.4"):
        game.position(courts={7: "Royal 1"})
    with pytest.raises(PositionError, match="token 'Royal_9'"):
        game.position(courts={0: "Royal 9"})


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_builder_without_parts_is_the_dealt_start(players: int) -> None:
    """The hands fill gives back exactly the dealt hands (automated houses' sealed cards and
    missing nominations included)."""
    game = clangames.load("koa_kingmaker", players=players)
    dealt, _ = clangames.play_chance(game.initial_state(), clangames.Rng(0))
    assert game.position() == dealt
    assert game.position(courts={}, discards={}) == dealt
