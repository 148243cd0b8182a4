"""A saved Clan Feud state in which a clan's army stands in a territory another clan (or
nobody) controls, outside a Military move and a battle, is refused: the rules never leave
one so (an army's arrival takes control or starts a battle). The check accepted it, and
play went on from there into a position the rules could not continue: the other clan
recruited beside the army, a battle with England left the army beside an English one, and
England's march had no territory to step to (no legal action for the seat deciding it).
Found by fuzzing saved states (troops copied in from another state of the game)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import clangames
from clangames import Rng, StateDecodeError
from fuzz_helpers import random_step


def _empty_but_held(state: Any, t: int) -> bool:
    return state.controller[t] == 0 and not any(state.troops[0][3 * t : 3 * t + 3])


def _state_at_rest(players: int = 2) -> tuple[Any, Any]:
    """The game and its first state of seed 3 in phase 2 where seat 0 controls a territory
    without an army there, with no move or battle pending."""
    game = clangames.load("clan_feud", players=players)
    state, rng = game.initial_state(), Rng(3)
    while True:
        state, rng = random_step(state, rng)
        held = [t for t in range(game.board.size) if _empty_but_held(state, t)]
        quiet = state.battle is None and not any(t.kind == "move" for t in state.tasks)
        if state.phase.name == "assign" and quiet and held:
            return game, state


def test_an_army_in_another_clans_territory_is_refused() -> None:
    game, state = _state_at_rest()
    t = next(t for t in range(game.board.size) if _empty_but_held(state, t))
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["troops"][1][3 * t + 1] += 1  # a cavalry of seat 1's joins seat 0's land
    with pytest.raises(StateDecodeError) as refused:
        game.state_from_json(data)
    assert str(refused.value) == (
        f"state.troops[1]: seat 1's army stands in territory {t}, which seat 0 controls;"
        " outside a Military move or a battle an army holds its territory"
    )


def test_an_army_in_a_territory_nobody_controls_is_refused() -> None:
    game, state = _state_at_rest()
    t = next(t for t in range(game.board.size) if state.controller[t] == -1)
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["troops"][0][3 * t] = 2
    with pytest.raises(StateDecodeError, match=f"territory {t}, which nobody controls"):
        game.state_from_json(data)


@pytest.mark.parametrize("players", [2, 4])
def test_every_state_of_seeded_games_passes(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    for seed in range(2):
        state, rng = game.initial_state(), Rng(seed)
        while not state.is_terminal:
            state.check_consistency()
            state, rng = random_step(state, rng)


def _england_attacking(players: int = 2) -> Any:
    """The first state of seeded games (England soon at war) where an English army
    attacks a clan."""
    game = clangames.load("clan_feud", players=players, england_start=8)
    for seed in range(30):
        state, rng = game.initial_state(), Rng(seed)
        while not state.is_terminal:
            state, rng = random_step(state, rng)
            if state.battle is not None and state.battle.owners[0] == -1:
                return state
    raise AssertionError("no English attack found")


def test_a_battle_with_its_sides_swapped_is_refused() -> None:
    """Before, a battle in which England attacked was accepted with the sides swapped
    (a clan attacking an English army that was not there), and played on into negative
    troop counts (ValueError from bytes())."""
    state = _england_attacking()
    b = state.battle
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["battle"]["owners"].reverse()
    data["state"]["battle"]["levels"] = []  # a clan attacks: no English level tokens
    with pytest.raises(StateDecodeError) as refused:
        state.game.state_from_json(data)
    assert str(refused.value) == (
        f"state.battle.owners: England defends territory {b.territory}, where no English"
        " army stands"
    )


def test_a_battle_of_a_seat_against_itself_is_refused() -> None:
    state = _england_attacking()
    defender = state.battle.owners[1]
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["battle"]["owners"] = [defender, defender]
    data["state"]["battle"]["levels"] = []
    with pytest.raises(StateDecodeError, match=r"battle.owners: expected two different sides"):
        state.game.state_from_json(data)


def test_a_defending_seat_must_hold_the_territory() -> None:
    state = _england_attacking()
    b = state.battle
    other = 1 - b.owners[1]
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["battle"]["owners"] = [-1, other]
    with pytest.raises(StateDecodeError) as refused:
        state.game.state_from_json(data)
    assert str(refused.value) == (
        f"state.battle.owners: seat {other} defends territory {b.territory}, which it must"
        " control with an army there"
    )
