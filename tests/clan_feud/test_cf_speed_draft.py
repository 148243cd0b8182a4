"""The second speed pass's shortcuts keep states right: a draft freezes every sequence it
wrote back into tuples (it tracks them instead of checking all), the next dice to roll are
found as the plain scan finds them, and a state decoded from JSON (its tasks equal to the
interned ones but not the same objects) plays on exactly as the original."""

from __future__ import annotations

import pytest

import clangames
from clangames.clan_feud import rules
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.rng import Rng

SEQUENCES = (*rules._SEQUENCES, *rules._NESTED)


def played(players: int, games: int) -> list[tuple[ClanFeudState, int, object]]:
    """(state, player, action) for every step of seeded random games (CHANCE at chance)."""
    game = clangames.load("clan_feud", players=players)
    out: list[tuple[ClanFeudState, int, object]] = []
    for seed in range(games):
        state, rng = game.initial_state(), Rng(100 + seed)
        while not state.is_terminal:
            assert isinstance(state, ClanFeudState)
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
                out.append((state, -1, action))
                state = state.apply(action)
            else:
                player = state.to_move[0]
                legal = state.legal_actions(player)
                k, rng = rng.below(len(legal))
                out.append((state, player, legal[k]))
                state = state.apply(legal[k], player)
    return out


def assert_frozen(state: ClanFeudState) -> None:
    for name in SEQUENCES:
        value = getattr(state, name)
        assert type(value) is tuple, name
        if name in rules._NESTED:
            assert all(type(row) is tuple for row in value), name
    assert type(state.tasks) is tuple
    assert state.options is None or type(state.options) is tuple


@pytest.mark.parametrize("players", [2, 5])
def test_every_state_is_made_of_tuples_and_survives_json(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    steps = played(players, 2)
    assert len(steps) > 300
    for state, _, _ in steps:
        assert_frozen(state)
    for state, _, _ in steps[::5]:
        assert game.state_from_json(state.to_json()) == state
    final, _, _ = clangames.rollout(game.initial_state(), Rng(7), first_mover=True)
    assert isinstance(final, ClanFeudState) and final.is_terminal
    assert_frozen(final)


def test_next_roll_is_the_first_count_left() -> None:
    rolls = [s.tasks[-1] for s, _, _ in played(3, 1) if s.tasks[-1].kind == "roll"]
    assert rolls
    for task in rolls:
        plain = next((i for i, count in enumerate(task.data) if count), -1)
        assert rules._roll_next(task) == plain


@pytest.mark.parametrize("players", [2, 4])
def test_a_decoded_state_plays_on_as_the_original(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    steps = played(players, 1)
    checked = phase2 = 0
    for state, player, action in steps[::3]:
        decoded = game.state_from_json(state.to_json())
        assert isinstance(decoded, ClanFeudState)
        phase2 += any(t.kind == "phase2" for t in decoded.tasks)
        after = decoded.apply(action, player) if player >= 0 else decoded.apply(action)
        expected = state.apply(action, player) if player >= 0 else state.apply(action)
        assert after.to_json() == expected.to_json()
        assert after.options == expected.options
        checked += 1
    assert checked > 50 and phase2 > 10
