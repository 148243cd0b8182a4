"""Relocation rule I in both readings (issue 15, ruling KC-6): a card that lands on an empty
position needs a card on the position behind it (counter-clockwise, the default ``"behind"``)
or, with ``relocation_neighbour="either"``, on either neighbouring position. Each scenario
below passes under one reading and would fail under the other, or pins what both share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import clangames
from clangames import IllegalActionError, InvalidParameterError
from clangames.cli import main
from clangames.kilt_castle import KiltCastleAction, KiltCastleGame, KiltCastleState, Relocate
from clangames.kilt_castle.turn import relocations

from .kc_helpers import FOUR_ROWS, laid_out, load, move, reloc, table

READINGS = ("behind", "either")


def reference_relocations(
    game: KiltCastleGame, positions: Sequence[int]
) -> tuple[KiltCastleAction, ...]:
    """Every legal relocation worked out from scratch, card by card and target by target,
    in the order the engine lists them (card slot, then target position)."""
    total = game.board.num_positions
    either = game.params["relocation_neighbour"] == "either"
    out: list[KiltCastleAction] = []
    for slot, source in enumerate(positions):
        for to in range(total):
            if to == source:
                continue
            after = list(positions)
            after[slot] = to
            sizes = Counter(after)
            if sizes[to] > game.max_row or len(sizes) > game.max_rows:
                continue
            if sizes[to] == 1:  # the card lands alone: rule I
                near = {(to - 1) % total}
                if either:
                    near.add((to + 1) % total)
                if not any(q in sizes for q in near):
                    continue
            out.append(game.relocate_actions[slot][to])
    return tuple(out)


def start(players: int, reading: str) -> KiltCastleState:
    """The first turn after a seeded start lay-out (singles at 0, doubles at 1, 2, 3)."""
    return laid_out(load(players, relocation_neighbour=reading), seed=players)


def cards_at(state: KiltCastleState, position: int) -> list[int]:
    """The board card numbers of the cards lying at ``position``."""
    game = state.game
    return [game.cards[i] for i, p in enumerate(state.positions) if p == position]


# -- the scenarios -------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_card_with_a_card_only_on_its_clockwise_side_needs_either(players: int) -> None:
    # From the start lay-out, position 19 is empty, 18 (behind it) is empty and 0 (ahead of
    # it, round the corner) holds the single cards.
    behind = start(players, "behind")
    either = start(players, "either")
    assert behind.positions == either.positions
    card = cards_at(behind, 1)[0]
    action = Relocate(card, 19)
    assert action not in behind.legal_actions(behind.actor)
    with pytest.raises(IllegalActionError, match=r"behind it \(18, counter-clockwise\)"):
        behind.apply(action, behind.actor)
    assert action in either.legal_actions(either.actor)
    moved = either.apply(action, either.actor)
    assert isinstance(moved, KiltCastleState)
    assert moved.positions[moved.game.card_slot[card]] == 19


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("reading", READINGS)
def test_a_card_with_a_card_behind_it_may_open_a_row(players: int, reading: str) -> None:
    s = start(players, reading)
    last = max(s.positions)  # the lone start card's position
    ahead = last + 1
    for card in cards_at(s, 1):  # row 1 keeps cards; the lone start card stays behind `ahead`
        assert Relocate(card, ahead) in s.legal_actions(s.actor)
    moved = s.apply(Relocate(cards_at(s, 1)[0], ahead), s.actor)
    assert isinstance(moved, KiltCastleState)
    assert len(moved.card_row(ahead)) == 1


@pytest.mark.parametrize("reading", READINGS)
def test_a_lone_card_leaving_the_position_behind_its_target_is_refused(reading: str) -> None:
    # red/dark grey lies alone at 3: once it has left, nothing is behind 4 (nor ahead of it).
    s = table(rows=FOUR_ROWS, relocation_neighbour=reading)
    action = reloc(s, "red/dark grey", 4)
    assert action not in s.legal_actions(0)
    with pytest.raises(IllegalActionError, match="a card alone at 4 needs a card on"):
        s.apply(action, 0)


@pytest.mark.parametrize("reading", READINGS)
def test_a_move_into_an_occupied_row_is_the_same_in_both_readings(reading: str) -> None:
    # Joining a row never asks for a neighbour, wherever the row lies: a lone row at 10
    # has nothing on 9 or 11.
    rows = {0: FOUR_ROWS[0], 1: FOUR_ROWS[1], 2: ["red/light grey"], 10: ["orange/dark grey"]}
    rows |= {3: ["red/dark grey"]}
    s = table(rows=rows, relocation_neighbour=reading)
    legal = s.legal_actions(0)
    assert reloc(s, "red/orange", 10) in legal
    assert reloc(s, "red/orange", 2) in legal
    assert reloc(s, "red/orange", 0) not in legal  # a full row stays full
    s = move(s, "red/orange", 10)
    assert sorted(s.card_row(10)) == ["orange/dark grey", "red/orange"]


def test_the_targets_of_a_card_from_the_start_rows_differ_only_behind_the_front() -> None:
    targets = {}
    for reading in READINGS:
        s = table(rows=FOUR_ROWS, relocation_neighbour=reading)
        targets[reading] = {a.to for a in s.legal_actions(0) if a.card == 9}  # at 1
    assert targets["behind"] == {2, 3, 4}
    assert targets["either"] == {2, 3, 4, 19}


def test_the_either_reading_names_both_neighbours_when_it_refuses() -> None:
    s = table(rows=FOUR_ROWS, relocation_neighbour="either")
    with pytest.raises(IllegalActionError, match="needs a card on a neighbouring position"):
        s.apply(reloc(s, "red/orange", 10), 0)
    s = table(rows=FOUR_ROWS)
    with pytest.raises(IllegalActionError, match=r"behind it \(9, counter-clockwise\)"):
        s.apply(reloc(s, "red/orange", 10), 0)


def test_the_ring_wraps_behind_position_zero() -> None:
    # A lone row at 19: a card may open a row at 0, whose position behind is 19.
    rows = {19: ["red"], 1: ["orange", "light grey", "dark grey"], 2: FOUR_ROWS[1]}
    rows |= {3: [*FOUR_ROWS[2], "red/dark grey"]}
    s = table(rows=rows)
    assert reloc(s, "orange", 0) in s.legal_actions(0)
    assert reloc(s, "red", 0) not in s.legal_actions(0)  # 19 would be empty behind it
    either = table(rows=rows, relocation_neighbour="either")
    assert reloc(either, "red", 0) in either.legal_actions(0)  # 1, ahead of 0, holds cards


# -- the listing against a plain reference -----------------------------------------------------
def _layouts(players: int) -> st.SearchStrategy[tuple[int, ...]]:
    """Card positions within the limits: a few distinct row positions, each card in one."""
    game = load(players)
    cards = len(game.cards)
    row_positions = st.lists(
        st.integers(0, game.board.num_positions - 1),
        min_size=1,
        max_size=game.max_rows,
        unique=True,
    )
    return row_positions.flatmap(
        lambda rows: st.lists(st.sampled_from(rows), min_size=cards, max_size=cards).map(tuple)
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("reading", READINGS)
def test_the_listing_matches_a_plain_reference(players: int, reading: str) -> None:
    game = load(players, relocation_neighbour=reading)

    @settings(max_examples=150, deadline=None, database=None)
    @given(positions=_layouts(players))
    def check(positions: tuple[int, ...]) -> None:
        assume(max(Counter(positions).values()) <= game.max_row)
        listed = relocations(game, positions)
        assert listed == reference_relocations(game, positions)
        assert listed == relocations(game, positions)  # the memo, now warm, agrees
        assert listed, "every lay-out within the limits leaves a relocation (KC-6)"

    check()


@pytest.mark.parametrize("reading", READINGS)
def test_the_listing_matches_the_reference_along_random_games(reading: str) -> None:
    game = load(4, relocation_neighbour=reading)
    for seed in range(4):
        state: clangames.State = game.initial_state()
        rng = clangames.Rng(seed)
        while not state.is_terminal:
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
                state = state.apply(action)
                continue
            if isinstance(state, KiltCastleState) and state.phase.name == "relocate":
                assert state.legal_actions(state.actor) == reference_relocations(
                    game, state.positions
                )
            player = state.to_move[0]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            state = state.apply(legal[j], player)


# -- the parameter -------------------------------------------------------------------------------
def test_the_parameter_is_validated_and_defaults_to_behind() -> None:
    assert load(4).params["relocation_neighbour"] == "behind"
    assert not load(4).relocation_either
    assert load(4, relocation_neighbour="either").relocation_either
    for bad in ("both", "Behind", "", 1, None):
        with pytest.raises(InvalidParameterError, match="relocation_neighbour") as caught:
            clangames.load("kilt_castle", relocation_neighbour=bad)
        if isinstance(bad, str):
            assert "'behind', 'either'" in str(caught.value)


def test_clangames_list_shows_the_parameter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "      relocation_neighbour=STR (default 'behind'; one of 'behind', 'either')" in out
