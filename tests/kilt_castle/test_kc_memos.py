"""The memos that make Kilt Castle's rules fast give the answers worked out from scratch,
whether they are cold, warm or emptied at their size limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clangames
from clangames.engine.bits import bits_of
from clangames.engine.phases import CHANCE
from clangames.kilt_castle import KiltCastleGame, KiltCastleState, ducat_day, scoring, setup, turn
from clangames.kilt_castle import game as game_module
from clangames.kilt_castle.board import letter_floor

from .kc_helpers import load
from .test_kc_relocation import reference_relocations

GAME = load(4)


def reference_ducat_day(game: KiltCastleGame, s: KiltCastleState) -> tuple[int, ...]:
    """Each seat's ducat-day pay-out by a plain search over the board's neighbour lists."""
    board = game.board
    paid = [0] * game.num_players
    for colour in game.colours:
        roofed = {sp for sp in board.spaces if s.roofed >> sp & 1}
        members = {
            sp
            for sp in board.spaces
            if s.towers[sp] and (sp in roofed or letter_floor(s.towers[sp][-1]) // 3 == colour)
        }
        best = 0
        seen: set[int] = set()
        for start in sorted(members):
            if start in seen:
                continue
            area, todo = {start}, [start]
            while todo:
                for nb in board.neighbours[todo.pop()]:
                    if nb in members and nb not in area:
                        area.add(nb)
                        todo.append(nb)
            seen |= area
            value = sum(
                1 + (0 if sp in roofed else letter_floor(s.towers[sp][-1]) % 3) for sp in area
            )
            best = max(best, value)
        paid[game.owner[colour]] += best
    return tuple(paid)


def random_states(game: KiltCastleGame, seeds: range) -> list[KiltCastleState]:
    """Every state of random playouts from these seeds."""
    out: list[KiltCastleState] = []
    for seed in seeds:
        state = game.initial_state()
        rng = clangames.Rng(seed)
        while state.to_move:
            out.append(state)
            player = state.to_move[0]
            if player == CHANCE:
                outcome, rng = clangames.sample_chance(state, rng)
                state = state.apply(outcome, CHANCE)
            else:
                legal = state.legal_actions(player)
                index, rng = rng.below(len(legal))
                state = state.apply(legal[index], player)
        assert isinstance(state, KiltCastleState)
    return out


def test_ducat_days_match_a_plain_search_with_the_memo_cold_and_warm() -> None:
    states = [s for s in random_states(GAME, range(6)) if s.phase.name == "relocate"]
    assert len(states) > 100
    GAME.area_memo.clear()
    cold = [ducat_day(GAME, s.towers, s.roofed) for s in states]
    assert GAME.area_memo  # the groups were kept
    warm = [ducat_day(GAME, s.towers, s.roofed) for s in states]
    assert cold == warm == [reference_ducat_day(GAME, s) for s in states]
    assert any(sum(paid) for paid in cold)


def test_the_area_memo_is_emptied_at_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load(3)
    states = [s for s in random_states(game, range(3)) if s.phase.name == "relocate"]
    game.area_memo.clear()  # a loaded game is shared within the process
    monkeypatch.setattr(scoring, "AREA_MEMO_LIMIT", 4)
    for s in states:
        assert ducat_day(game, s.towers, s.roofed) == reference_ducat_day(game, s)
        assert len(game.area_memo) <= 4


def test_memoised_layout_weights_match_the_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load(2)
    layouts = [s for s in random_states(game, range(8)) if s.phase.name == "layout"]
    assert len(layouts) == 8 * len(game.doubles)
    fresh = [setup._layout_weights(s) for s in layouts]
    game.layout_memo.clear()
    assert [setup.chance_weights(s) for s in layouts] == fresh
    assert [setup.chance_weights(s) for s in layouts] == fresh  # warm
    game.layout_memo.clear()
    monkeypatch.setattr(setup, "LAYOUT_MEMO_LIMIT", 3)
    assert [setup.chance_weights(s) for s in layouts] == fresh
    assert len(game.layout_memo) <= 3


@settings(max_examples=200, deadline=None)
@given(slot=st.integers(0, len(GAME.cards) - 1), mask=st.integers(0, GAME.all_positions))
def test_a_relocation_memo_miss_lists_the_masks_targets_in_order(slot: int, mask: int) -> None:
    GAME.relocation_memo[slot].pop(mask, None)
    row = GAME.relocate_actions[slot]
    expected = tuple(row[target] for target in bits_of(mask))
    assert GAME.relocations_for(slot, mask) == expected
    assert GAME.relocation_memo[slot][mask] == expected


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("reading", ["behind", "either"])
def test_relocations_through_the_target_memo_match_a_plain_reference(
    players: int, reading: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The memo is keyed by the count of cards at each position, not by which card lies
    # where: every relocation state of seeded games, with the memo cold, warm and emptied
    # at its limit, lists exactly what the plain card-by-card reference lists.
    game = load(players, relocation_neighbour=reading)
    layouts = [s.positions for s in random_states(game, range(5)) if s.phase.name == "relocate"]
    assert len(layouts) > 100
    expected = [reference_relocations(game, positions) for positions in layouts]
    game.target_memo.clear()  # a loaded game is shared within the process
    assert [turn.relocations(game, positions) for positions in layouts] == expected
    assert len(game.target_memo) < len(set(layouts))  # lay-outs share their counts
    assert [turn.relocations(game, positions) for positions in layouts] == expected
    game.target_memo.clear()
    monkeypatch.setattr(turn, "TARGET_MEMO_LIMIT", 3)
    monkeypatch.setattr(game_module, "CACHE_LIMIT", 5)
    for memo in game.relocation_memo:
        memo.clear()
    for positions, listed in zip(layouts, expected, strict=True):
        assert turn.relocations(game, positions) == listed
        assert len(game.target_memo) <= 3
        assert all(len(memo) <= 5 for memo in game.relocation_memo)


def test_roof_moves_through_the_roof_memo_match_the_placed_roofs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load(4)
    states = [s for s in random_states(game, range(20)) if s.phase.name == "roof"]
    assert len(states) > 20
    expected = [
        tuple(game.roof_actions[sp] for sp in game.board.spaces if s.roofed >> sp & 1)
        for s in states
    ]
    assert all(len(moves) == game.board.roofs for moves in expected)
    game.roof_memo.clear()
    assert [s.legal_actions(s.to_move[0]) for s in states] == expected  # cold
    assert [turn.roof_options(game, s.roofed) for s in states] == expected  # warm
    game.roof_memo.clear()
    monkeypatch.setattr(turn, "ROOF_MEMO_LIMIT", 2)
    for s, moves in zip(states, expected, strict=True):
        assert turn.roof_options(game, s.roofed) == moves
        assert len(game.roof_memo) <= 2
