"""One test (or more) per ruling of rulings-kings-kilt.md, each written so that it would fail
under the other reading of the rulebook. Positions are drawn as pictures (see helpers)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import pytest

import clangames
from clangames import IllegalActionError, Phase
from clangames.kings_kilt import KingsKiltGame, KingsKiltState, Pass, clan_points, family_score

from .helpers import (
    FULL,
    FULL_BASE,
    counts,
    do,
    finish_with_passes,
    load,
    mask,
    picture_of,
    pos,
    position,
    texts,
    weights,
)

# -- components ------------------------------------------------------------------------------


def test_components_eight_clans_of_six_members_and_two_leaders() -> None:
    game = load(3)
    assert game.clans == (
        "Macleod",
        "Mackay",
        "Macbeth",
        "Bruce",
        "Buchanan",
        "Douglas",
        "Hamilton",
        "Stewart",
    )
    comps = game.components
    assert (comps.members_per_clan, comps.leaders_per_clan) == (6, 2)
    assert game.total_cards == 64
    start = game.initial_state()
    assert isinstance(start, KingsKiltState)
    assert start.leaders.counts == (2,) * 8
    # one member of each clan is set aside as the family deck
    assert start.members.counts == (5,) * 8
    assert start.family_deck == 0xFF


@pytest.mark.parametrize("players", [2, 3, 4])
def test_components_two_to_four_players(players: int) -> None:
    assert load(players).num_players == players


# -- geometry --------------------------------------------------------------------------------


def test_geometry_rows_and_spaces() -> None:
    geo = load(3).geo
    assert geo.size == 21
    assert [len(geo.row_positions(r)) for r in range(1, 7)] == [6, 5, 4, 3, 2, 1]
    assert sorted(geo.at) == sorted((r, i) for r in range(1, 7) for i in range(7 - r))
    assert (geo.nobleman_row, geo.guardian_row, geo.king_row) == (4, 5, 6)


def test_geometry_each_card_rests_on_the_two_below() -> None:
    game = load(3)
    geo = game.geo
    for (r, i), p in geo.at.items():
        if r == 1:
            assert geo.beneath[p] == (-1, -1)
        else:
            assert geo.beneath[p] == (pos(game, r - 1, i), pos(game, r - 1, i + 1))


def _labels(game: KingsKiltGame, positions: tuple[int, ...]) -> set[str]:
    return {game.geo.label(p) for p in positions}


def test_geometry_six_neighbours() -> None:
    game = load(3)
    nb = game.geo.neighbours
    # left, right, up-left, up-right, down-left, down-right
    assert _labels(game, nb[pos(game, 3, 1)]) == {"3.0", "3.2", "4.0", "4.1", "2.1", "2.2"}
    assert _labels(game, nb[pos(game, 1, 0)]) == {"1.1", "2.0"}
    assert _labels(game, nb[pos(game, 2, 0)]) == {"2.1", "3.0", "1.0", "1.1"}
    assert _labels(game, nb[pos(game, 6, 0)]) == {"5.0", "5.1"}
    assert _labels(game, nb[pos(game, 1, 5)]) == {"1.4", "2.4"}


def _lone_pair(game: KingsKiltGame, other: tuple[int, int]) -> list[str]:
    """A picture with a Bruce at 3.1 and a Mackay at ``other``, nothing else."""
    rows = [["."] * (7 - r) for r in range(1, 7)]
    rows[2][1] = "Br"
    rows[other[0] - 1][other[1]] = "Mk"
    return [" ".join(cells) for cells in reversed(rows)]


def test_geometry_betrayal_reaches_exactly_the_six_neighbours() -> None:
    game = load(3)
    six = {(3, 0), (3, 2), (4, 0), (4, 1), (2, 1), (2, 2)}
    for space in game.geo.at:
        if space == (3, 1):
            continue
        state = position(game, _lone_pair(game, space), hands=[["Do"], [], []])
        legal = texts(state)
        assert ("betray 3.1 with Douglas" in legal) == (space in six), space


# -- setup -------------------------------------------------------------------------------------


def _setup_states(players: int, seed: int) -> list[KingsKiltState]:
    game = load(players)
    state: clangames.State = game.initial_state()
    rng = clangames.Rng(seed)
    out = []
    while state.is_chance:
        assert isinstance(state, KingsKiltState)
        out.append(state)
        action, rng = clangames.sample_chance(state, rng)
        state = state.apply(action)
    assert isinstance(state, KingsKiltState)
    out.append(state)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_family_deck_gives_two_distinct_cards_each(players: int) -> None:
    for seed in range(20):
        states = _setup_states(players, seed)
        after = next(s for s in states if s.phase.name == "deal_third")
        fams = after.families
        assert [f.bit_count() for f in fams] == [2] * players
        union = 0
        for f in fams:
            assert union & f == 0  # the one-per-clan deck: no clan twice round the table
            union |= f
        # the unused part of the deck went back to the members
        assert after.family_deck == 0
        assert after.members.counts == tuple(5 + (not union >> c & 1) for c in range(8))


@pytest.mark.parametrize(("players", "hand"), [(2, 5), (3, 5), (4, 4)])
def test_setup_third_card_distinct_and_hand_sizes(players: int, hand: int) -> None:
    for seed in range(20):
        state = _setup_states(players, seed)[-1]
        assert [f.bit_count() for f in state.families] == [3] * players
        assert [len(h) for h in state.hands] == [hand] * players
        assert state.revealed == (0,) * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_leaders_on_top_form_row_one(players: int) -> None:
    game = load(players)
    for seed in range(20):
        states = _setup_states(players, seed)
        state = states[-1]
        base = [state.pyramid[p] for p in game.geo.row_positions(1)]
        assert all(c >= 0 for c in base)
        assert all(state.pyramid[p] < 0 for p in range(6, 21))
        # six leaders in row 1 and one turned up as the top card: nine still in the pile
        assert len(state.leaders) == 9
        assert state.top >= 0
        used = state.leaders.add(state.top)
        for c in base:
            used = used.add(c)
        assert used.counts == (2,) * 8
        hand = game.hand_size
        assert len(state.members) == 48 - 3 * players - hand * players
        assert state.draw_pile_size == 16 - 6 + 48 - 3 * players - hand * players
        # every card of row 1 came from a build_base draw of a leader
        builds = [s for s in states if s.phase.name == "build_base"]
        assert len(builds) == 6
        assert all(
            s.chance_weights()
            == tuple((game.draw_action[c], n) for c, n in s.leaders.draw_weights())
            for s in builds
        )


def test_setup_top_card_is_public_and_order_is_not_stored() -> None:
    state = _setup_states(3, 5)[-1]
    assert state.public_observation().top == state.top
    assert state.public_observation().leaders_in_pile == state.leaders.counts
    # the members layer is public only as a size
    assert state.public_observation().pile_size == state.draw_pile_size
    # the hidden member layer is stored as counts per clan: there is no order to leak
    assert set(state.to_json()["state"]["members"]) == {"counts"}


@pytest.mark.parametrize(("players", "first"), [(2, 1), (3, 2), (4, 3), (3, 0)])
def test_setup_first_player_parameter(players: int, first: int) -> None:
    game = load(players, first_player=first)
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(1))
    assert state.to_move == (first,)
    assert isinstance(state, KingsKiltState)
    assert state.actor == first
    assert state.turns == 1


def test_setup_play_goes_clockwise() -> None:
    game = load(4, first_player=2)
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(3))
    seen: list[tuple[int, int]] = []
    rng = clangames.Rng(9)
    while len(seen) < 9:
        assert isinstance(state, KingsKiltState)
        if state.phase.name == "turn" and (not seen or seen[-1][1] != state.turns):
            seen.append((state.actor, state.turns))
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            state = state.apply(action)
        else:
            legal = [a for a in state.legal_actions() if not isinstance(a, Pass)]
            state = state.apply(legal[0])
    assert [a for a, _ in seen] == [2, 3, 0, 1, 2, 3, 0, 1, 2]


# -- advancing ---------------------------------------------------------------------------------


def test_advance_opening_moves() -> None:
    state = position(load(3), FULL_BASE)
    assert texts(state) == [
        "advance 1.0 up-right",
        "advance 1.1 up-left",
        "advance 1.1 up-right",
        "advance 1.2 up-left",
        "advance 1.2 up-right",
        "advance 1.3 up-left",
        "advance 1.3 up-right",
        "advance 1.4 up-left",
        "advance 1.4 up-right",
        "advance 1.5 up-left",
    ]


def test_advance_needs_support_on_its_own_side() -> None:
    # 1.1 is empty (the pile ran out): nothing may climb up-left from 1.2 or up-right
    # from 1.0; up-right from 1.2 leans on 1.3 and is fine.
    state = position(load(3), "Ml . Mb Br Bu Do")
    assert texts(state) == [
        "advance 1.2 up-right",
        "advance 1.3 up-left",
        "advance 1.3 up-right",
        "advance 1.4 up-left",
        "advance 1.4 up-right",
        "advance 1.5 up-left",
    ]


def test_advance_needs_an_empty_target() -> None:
    state = position(load(3), [". Mk . . .", FULL_BASE.strip()])
    assert texts(state) == [
        "advance 1.0 up-right",
        "advance 1.1 up-left",
        "advance 1.2 up-right",
        "advance 1.3 up-left",
        "advance 1.3 up-right",
        "advance 1.4 up-left",
        "advance 1.4 up-right",
        "advance 1.5 up-left",
    ]


def test_advance_moves_the_card_up_diagonally() -> None:
    state = position(load(3), FULL_BASE, top="St", rest="removed")
    after = do(state, "advance 1.1 up-right")
    assert picture_of(after)[-2:] == [". Mk . . .", "Ml St Mb Br Bu Do"]
    assert after.phase == Phase.turn("turn", 1)
    assert after.top == -1
    left = do(state, "advance 1.1 up-left")
    assert picture_of(left)[-2:] == ["Mk . . . .", "Ml St Mb Br Bu Do"]


# -- vacancies -----------------------------------------------------------------------------------


def test_vacancy_two_cards_beneath_asks_the_actor() -> None:
    state = position(load(3), ["Bu Ha . . .", FULL_BASE.strip()], top="St", rest="removed")
    mid = do(state, "advance 2.1 up-left")
    assert mid.phase == Phase.turn("fill", 0)
    assert mid.vacancy == pos(mid.game, 2, 1)
    assert texts(mid) == ["fill from 1.1", "fill from 1.2"]
    assert mid.legal_actions(1) == ()
    after = do(mid, "fill from 1.2")
    assert picture_of(after)[-3:] == ["Ha . . .", "Bu Mb . . .", "Ml Mk St Br Bu Do"]
    assert after.phase == Phase.turn("turn", 1)


def test_vacancy_one_card_beneath_fills_without_asking() -> None:
    state = position(load(3), ["Bu Ha . . .", "Ml Mk . Br Bu Do"], top=None, rest="removed")
    after = do(state, "advance 2.1 up-left")
    assert picture_of(after)[-3:] == ["Ha . . .", "Bu Mk . . .", "Ml . . Br Bu Do"]
    assert after.phase == Phase.turn("turn", 1)


def test_vacancy_no_card_beneath_stays_empty_and_pile_untouched() -> None:
    state = position(load(3), ["Bu Ha . . .", "Ml . . Br Bu Do"])
    after = do(state, "advance 2.1 up-left")
    assert picture_of(after)[-3:] == ["Ha . . .", "Bu . . . .", "Ml . . Br Bu Do"]
    assert (after.top, after.members) == (state.top, state.members)
    assert after.phase == Phase.turn("turn", 1)


def test_vacancy_row_one_takes_the_top_card_then_a_new_top_shows() -> None:
    game = load(3)
    state = position(game, FULL_BASE, top="St", leaders={"Br": 2, "Do": 1})
    mid = do(state, "advance 1.1 up-right")
    assert mid.card_at(1, 1) == "Stewart"
    assert mid.is_chance and mid.phase.name == "reveal_top"
    assert mid.top == -1
    assert weights(mid) == {"draw Bruce": 2, "draw Douglas": 1}
    assert [p for _, p in mid.chance_outcomes()] == [Fraction(2, 3), Fraction(1, 3)]
    after = do(mid, "draw Bruce")
    assert after.top == game.clans.index("Bruce")
    assert after.leaders == counts(game, {"Br": 1, "Do": 1})
    assert after.phase == Phase.turn("turn", 1)


def test_vacancy_members_come_up_once_the_leaders_are_gone() -> None:
    game = load(3)
    state = position(game, FULL_BASE, top="St", members={"Ha": 3, "Ml": 1}, rest="removed")
    mid = do(state, "advance 1.1 up-right")
    assert weights(mid) == {"draw Macleod": 1, "draw Hamilton": 3}


def test_pile_empty_discards_reshuffled_when_a_card_is_needed() -> None:
    game = load(3)
    state = position(game, FULL_BASE, top=None, discards={"Br": 2, "Do": 1}, rest="removed")
    mid = do(state, "advance 1.1 up-right")
    assert mid.phase.name == "reveal_top"
    assert mid.vacancy == pos(game, 1, 1)
    assert mid.discards == counts(game, ())
    assert mid.reshuffled == counts(game, {"Br": 2, "Do": 1})
    assert weights(mid) == {"draw Bruce": 2, "draw Douglas": 1}
    mid2 = do(mid, "draw Douglas")
    assert mid2.card_at(1, 1) == "Douglas"
    assert weights(mid2) == {"draw Bruce": 2}  # the rest of the new pile turns up its top
    after = do(mid2, "draw Bruce")
    assert after.top == game.clans.index("Bruce")
    assert after.reshuffled == counts(game, ["Br"])
    assert after.draw_pile_size == 2
    assert after.phase == Phase.turn("turn", 1)


def test_pile_empty_discards_stay_put_when_no_card_is_needed() -> None:
    game = load(3)
    state = position(
        game, ["Bu Ha . . .", "Ml . . Br Bu Do"], top=None, discards={"Br": 2}, rest="removed"
    )
    after = do(state, "advance 2.1 up-left")
    assert after.discards == counts(game, {"Br": 2})
    assert after.reshuffled == counts(game, ())
    assert after.draw_pile_size == 0
    assert after.phase == Phase.turn("turn", 1)


def test_pile_empty_the_influence_card_just_spent_comes_straight_back() -> None:
    game = load(3)
    state = position(game, FULL_BASE, top=None, hands=[["Do"], [], []], rest="removed")
    mid = do(state, "betray 1.0 with Douglas")
    assert weights(mid) == {"draw Douglas": 1}
    after = do(mid, "draw Douglas")
    assert after.card_at(1, 0) == "Douglas"
    assert after.discards == counts(game, ())
    assert after.draw_pile_size == 0


def test_pile_and_discards_empty_space_stays_empty_and_support_is_lost() -> None:
    state = position(load(3), FULL_BASE, top=None, rest="removed")
    after = do(state, "advance 1.1 up-right")
    assert picture_of(after)[-2:] == [". Mk . . .", "Ml . Mb Br Bu Do"]
    assert after.phase == Phase.turn("turn", 1)
    assert texts(after) == [
        "advance 1.2 up-right",
        "advance 1.3 up-left",
        "advance 1.3 up-right",
        "advance 1.4 up-left",
        "advance 1.4 up-right",
        "advance 1.5 up-left",
    ]


# -- betrayal ----------------------------------------------------------------------------------

BETRAY = """
.
. .
Bu . .
Mk Mb . .
Ml Br Do . .
Ml Mk Mb Br Bu Do
"""


def _betrayals_of(state: KingsKiltState, label: str) -> list[str]:
    return [t for t in texts(state) if t.startswith(f"betray {label} ")]


def test_betrayal_rows_one_to_three_take_any_influence_card() -> None:
    state = position(load(3), BETRAY, hands=[["Ha", "St"], [], []])
    # Hamilton and Stewart match nothing in the pyramid
    assert _betrayals_of(state, "3.1") == ["betray 3.1 with Hamilton", "betray 3.1 with Stewart"]
    assert _betrayals_of(state, "1.5") == ["betray 1.5 with Hamilton", "betray 1.5 with Stewart"]
    assert _betrayals_of(state, "4.0") == []


def test_betrayal_top_rows_match_the_traitor_by_default() -> None:
    state = position(load(3), BETRAY, hands=[["Mk", "Bu", "Ha"], [], []])
    # 4.0 (a Buchanan) has neighbours Mackay (3.0) and Macbeth (3.1): the traitors
    assert _betrayals_of(state, "4.0") == ["betray 4.0 with Mackay"]
    with pytest.raises(IllegalActionError, match="betraying neighbour's clan"):
        state.apply_text("betray 4.0 with Buchanan")


def test_betrayal_top_rows_match_the_target_with_parameter() -> None:
    state = position(load(3, betrayal_match="target"), BETRAY, hands=[["Mk", "Bu", "Ha"], [], []])
    assert _betrayals_of(state, "4.0") == ["betray 4.0 with Buchanan"]
    with pytest.raises(IllegalActionError, match="its own clan"):
        state.apply_text("betray 4.0 with Mackay")


def test_betrayal_card_leaves_the_game_influence_goes_to_discards() -> None:
    game = load(3)
    state = position(game, BETRAY, hands=[["Mk", "Bu"], [], []], rest="removed", top="St")
    mid = do(state, "betray 4.0 with Mackay")
    assert mid.hands[0] == counts(game, ["Bu"])
    assert mid.discards == counts(game, ["Mk"])
    assert mid.removed.count(game.clans.index("Buchanan")) == (
        state.removed.count(game.clans.index("Buchanan")) + 1
    )
    assert mid.phase == Phase.turn("fill", 0)
    assert texts(mid) == ["fill from 3.0", "fill from 3.1"]
    after = do(mid, "fill from 3.1", "fill from 2.2", "fill from 1.2")
    assert picture_of(after) == [
        ".",
        ". .",
        "Mb . .",
        "Mk Do . .",
        "Ml Br Mb . .",
        "Ml Mk St Br Bu Do",
    ]
    assert after.phase == Phase.turn("turn", 1)


def test_betrayal_needs_a_neighbouring_card() -> None:
    # two cards far apart: neither can betray the other; nothing can advance either
    state = position(load(3), _lone_pair(load(3), (4, 2)), hands=[["Do"], [], []])
    assert texts(state) == ["pass"]


def test_betrayal_of_the_king_refills_from_beneath() -> None:
    game = load(3)
    state = position(game, FULL, hands=[["Mk", "Bu", "Ha"], [], []], rest="removed", top="St")
    assert state.crowned
    assert _betrayals_of(state, "6.0") == ["betray 6.0 with Mackay", "betray 6.0 with Buchanan"]
    mid = do(state, "betray 6.0 with Buchanan")
    assert texts(mid) == ["fill from 5.0", "fill from 5.1"]
    after = do(mid, "fill from 5.1", "fill from 4.2", "fill from 3.3", "fill from 2.4")
    assert after.phase == Phase.turn("fill", 0)
    after = do(after, "fill from 1.5")
    assert after.card_at(6, 0) == "Buchanan"
    assert picture_of(after) == [
        "Bu",
        "Mk Br",
        "Ml Mb Ml",
        "Do Ha St Do",
        "Mk Mb Br Bu Do",
        "Ml Mk Mb Br Bu St",
    ]
    assert after.crowned
    assert after.phase == Phase.turn("turn", 1)
    assert texts(after)[-1] == "pass"
    assert not any(t.startswith("advance") for t in texts(after))


def test_betrayal_of_own_clan_is_allowed() -> None:
    # the King is a Mackay and so is the Guardian at 5.0 that betrays it
    state = position(load(3), FULL, hands=[["Mk"], [], []])
    assert "betray 6.0 with Mackay" in texts(state)
    assert "betray 5.0 with Mackay" in texts(state)  # 5.0's neighbour 6.0 is a Mackay


# -- reveals -----------------------------------------------------------------------------------

NOBLES = """
.
. .
. . .
Do Ha . .
Mk Mb Br . .
Ml Mk Mb Br Bu Do
"""


def test_reveal_noblemen_first_entry_after_the_cascade_three_players() -> None:
    game = load(3)
    state = position(game, NOBLES, player=1, top="St")
    assert not state.nobles_triggered
    s = do(state, "advance 3.1 up-left")
    # the vacancies are filled first, the reveals wait
    assert s.phase == Phase.turn("fill", 1)
    assert s.nobles_triggered and s.reveal_queue == (1, 2)
    s = do(s, "fill from 2.2")
    assert s.phase == Phase.turn("fill", 1)
    s = do(s, "fill from 1.3")
    assert s.phase.name == "reveal_top"  # the pile's new top card shows first
    assert s.revealed == (0, 0, 0)
    s = do(s, s.action_text(s.legal_actions()[0]))
    # then the trigger reveals, then clockwise; seat 0 plays just before seat 1: skipped
    assert s.phase == Phase.turn("reveal", 1)
    assert texts(s) == ["reveal Mackay", "reveal Macbeth", "reveal Bruce"]
    s = do(s, "reveal Bruce")
    assert s.phase == Phase.turn("reveal", 2)
    assert texts(s) == ["reveal Macbeth", "reveal Bruce", "reveal Buchanan"]
    s = do(s, "reveal Buchanan")
    assert s.revealed == (0, mask(game, ["Br"]), mask(game, ["Bu"]))
    assert s.phase == Phase.turn("turn", 2)
    assert s.reveal_queue == ()


def test_reveal_noblemen_only_the_first_time() -> None:
    state = position(load(3), NOBLES, player=1, top="St", nobles_triggered=True, rest="removed")
    s = do(state, "advance 3.1 up-left", "fill from 2.2", "fill from 1.3")
    assert s.phase == Phase.turn("turn", 2)
    assert s.revealed == (0, 0, 0)


GUARDIANS = """
. .
Bu Ml .
Do Ha St .
Mk Mb Br Bu .
Ml Mk Mb Br Bu Do
"""


def test_reveal_guardians_four_players_order_skip_and_automatic() -> None:
    game = load(4)
    fams = [["Ml", "Mk", "Mb"], ["Mk", "Mb", "Br"], ["Mb", "Br", "Bu"], ["Br", "Bu", "Do"]]
    state = position(
        game,
        GUARDIANS,
        player=3,
        families=fams,
        revealed=[["Ml", "Mk"], fams[1], [], []],
        rest="removed",
        top="St",
    )
    assert state.nobles_triggered and not state.guardians_triggered
    s = do(state, "advance 4.1 up-left", "fill from 3.2", "fill from 2.3", "fill from 1.4")
    assert s.guardians_triggered
    assert s.reveal_queue == (3, 0, 1)  # seat 2 plays just before seat 3
    assert s.phase == Phase.turn("reveal", 3)
    assert texts(s) == ["reveal Bruce", "reveal Buchanan", "reveal Douglas"]
    s = do(s, "reveal Douglas")
    # seat 0 had one face-down card: turned up without a question; seat 1 had none
    assert s.revealed == (
        mask(game, fams[0]),
        mask(game, fams[1]),
        0,
        mask(game, ["Do"]),
    )
    assert s.phase == Phase.turn("turn", 0)


def test_reveal_two_players_noblemen_one_card() -> None:
    game = load(2)
    state = position(game, NOBLES, player=0, top="St", rest="removed")
    s = do(state, "advance 3.1 up-left", "fill from 2.2", "fill from 1.3")
    assert s.reveal_queue == (0,)
    assert texts(s) == ["reveal Macleod", "reveal Mackay", "reveal Macbeth"]
    s = do(s, "reveal Macleod")
    assert s.revealed == (mask(game, ["Ml"]), 0)
    assert s.phase == Phase.turn("turn", 1)


@pytest.mark.parametrize("already", [0, 1, 2])
def test_reveal_two_players_guardians_until_one_face_down(already: int) -> None:
    game = load(2)
    fams = [["Ml", "Mk", "Mb"], ["Mk", "Mb", "Br"]]
    state = position(
        game,
        GUARDIANS,
        player=1,
        families=fams,
        revealed=[[], fams[1][:already]],
        rest="removed",
        top="St",
    )
    s = do(state, "advance 4.1 up-left", "fill from 3.2", "fill from 2.3", "fill from 1.4")
    assert s.reveal_queue == (1,) * (2 - already)
    for _ in range(2 - already):
        assert s.phase == Phase.turn("reveal", 1)
        s = do(s, s.action_text(s.legal_actions()[0]))
    assert s.revealed[1].bit_count() == 2
    assert s.revealed[0] == 0
    assert s.phase == Phase.turn("turn", 0)


# -- after the King ------------------------------------------------------------------------------

CROWNING = """
.
Mk Bu
Ml Mb Br
Do Ha St Ml
Mk Mb Br Bu Do
Ml Mk Mb Br Bu Do
"""


def test_king_crowned_stops_advancing_and_allows_passing() -> None:
    state = position(load(3), CROWNING, hands=[[], ["Ha"], []], rest="removed", top="St")
    assert not state.crowned
    before = texts(state)
    assert "advance 5.0 up-right" in before and "advance 5.1 up-left" in before
    assert "pass" not in before
    s = do(state, "advance 5.1 up-left", "fill from 4.2", "fill from 3.3", "fill from 2.4")
    s = do(s, "fill from 1.5")
    assert s.crowned and s.card_at(6, 0) == "Buchanan"
    assert s.phase == Phase.turn("turn", 1)
    legal = texts(s)
    assert legal[-1] == "pass"
    assert not any(t.startswith("advance") for t in legal)
    assert all(t.startswith("betray") for t in legal[:-1]) and len(legal) > 1


def test_king_no_advancing_even_with_the_top_space_empty() -> None:
    # the King was betrayed and nothing could replace it; the crown stays won
    state = position(load(3), CROWNING, crowned=True)
    assert texts(state) == ["pass"]


def test_pass_not_legal_before_the_king() -> None:
    state = position(load(3), CROWNING, hands=[["Ha"], [], []])
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="only once a King is crowned"):
        state.apply(Pass())
    assert state.to_json() == before


def test_pass_is_final_and_the_game_ends_when_all_passed() -> None:
    game = load(3)
    state = position(game, FULL, hands=[["Ha"], ["Ha"], ["Ha", "Ha"]], rest="removed")
    s = do(state, "pass")
    assert s.passed == 0b001 and s.phase == Phase.turn("turn", 1)
    s = do(s, "pass")
    assert s.phase == Phase.turn("turn", 2)
    s = do(s, "betray 1.0 with Hamilton")
    # seats 0 and 1 are out: seat 2 plays again
    assert s.phase == Phase.turn("turn", 2)
    s = do(s, "pass")
    assert s.is_terminal and s.to_move == () and s.legal_actions(0) == ()
    assert s.passed == 0b111


def test_pass_only_option_without_influence_after_the_king() -> None:
    state = position(load(3), FULL)
    assert texts(state) == ["pass"]
    state = position(load(3), FULL, hands=[["Ha"], [], []])
    assert texts(state)[-1] == "pass" and len(texts(state)) > 1


def test_pass_before_king_when_nothing_else_is_possible_is_asked() -> None:
    game = load(3)
    state = position(game, _lone_pair(game, (4, 2)))
    assert state.to_move == (0,)
    assert texts(state) == ["pass"]
    s = do(state, "pass")
    assert s.passed == 1 and not s.crowned
    assert s.phase == Phase.turn("turn", 1)


# -- scoring and winner -----------------------------------------------------------------------

EXAMPLE = """
Ml
Mk Mk
Mk Mb Br
Do Ha St Do
Ha St Do Ha St
Do Ha St Do Ha St
"""


def test_scoring_rulebook_example() -> None:
    game = load(2)
    state = position(game, EXAMPLE, families=[["Bu", "Mk", "Mb"], ["Ml", "Mb", "Br"]])
    pyr = state.pyramid
    points = {name: clan_points(game, pyr, c) for c, name in enumerate(game.clans)}
    assert points == {
        "Macleod": 3,
        "Mackay": 5,
        "Macbeth": 1,
        "Bruce": 1,
        "Buchanan": 0,
        "Douglas": 0,
        "Hamilton": 0,
        "Stewart": 0,
    }
    assert state.scores() == (6, 5)
    end = finish_with_passes(state)
    assert end.winners() == (0,)
    assert end.returns() == (1.0, 0.0)


def test_scoring_counts_face_down_and_revealed_cards_alike() -> None:
    game = load(2)
    fams = [["Bu", "Mk", "Mb"], ["Ml", "Mb", "Br"]]
    state = position(game, EXAMPLE, families=fams, revealed=[["Mk"], fams[1]])
    assert state.scores() == (6, 5)


def test_scoring_perfect_score_is_ten() -> None:
    game = load(3)
    top = [pos(game, r, i) for r in (4, 5, 6) for i in range(7 - r)]
    best = 0
    base = [-1] * game.geo.size
    for clans in product(range(4), repeat=6):
        pyr = list(base)
        for p, c in zip(top, clans, strict=True):
            pyr[p] = c
        t = tuple(pyr)
        for fam in combinations(range(4), 3):
            best = max(best, family_score(game, t, mask(game, fam)))
    assert best == 10
    perfect = position(game, "Mk\nMk Mk\nMk Mb Br", families=[["Mk", "Mb", "Br"], [], []])
    assert perfect.scores()[0] == 10


TIE = """
Ml
Mk Mb
Br Bu Do
"""


def test_winner_tie_broken_by_influence_cards_left() -> None:
    game = load(3)
    fams = [["Ml", "Ha", "St"], ["Mk", "Mb", "Ha"], ["Br", "Ha", "St"]]
    state = position(game, TIE, families=fams, hands=[["Ha"], ["Ha", "Ha"], []])
    end = finish_with_passes(state)
    assert end.scores() == (3, 4, 1)
    state = position(
        game,
        TIE,
        families=[["Ml", "Br", "St"], ["Mk", "Mb", "Ha"], ["Br", "Ha", "St"]],
        hands=[["Ha"], ["Ha", "Ha"], ["Ha", "Ha", "Ha"]],
    )
    end = finish_with_passes(state)
    assert end.scores() == (4, 4, 1)
    assert end.winners() == (1,)
    assert end.returns() == (0.0, 1.0, 0.0)


def test_winner_still_tied_share_the_win() -> None:
    game = load(3)
    state = position(
        game,
        TIE,
        families=[["Ml", "Br", "St"], ["Mk", "Mb", "Ha"], ["Do", "Ha", "St"]],
        hands=[["Ha", "St"], ["Ha", "Do"], ["Ha", "Ha", "Ha"]],
    )
    end = finish_with_passes(state)
    assert end.scores() == (4, 4, 1)
    assert end.winners() == (0, 1)
    assert end.returns() == (0.5, 0.5, 0.0)
    assert state.winners() == ()  # nobody wins before the end
