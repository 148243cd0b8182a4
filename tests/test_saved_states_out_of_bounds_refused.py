"""Saved states whose values lie outside what a game can reach are refused when read.

Each case was accepted by ``state_from_json`` before, and then failed later, with
something other than a refusal: the observation tensor raised (a field beyond the bounds
its encoding declares), or the rules raised a KeyError or a ValueError in play. Found by
mutating real saved states (values swapped between fields, ints at 2**63 and -1, lists
grown or retyped): each is now a StateDecodeError naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

import clangames
from clangames.engine.errors import StateDecodeError
from clangames.engine.rng import Rng
from clangames.engine.state import State
from fuzz_helpers import random_playout, random_step


def first_state(name: str, players: int, wanted: Callable[[State], bool], seed: int = 0) -> State:
    """The first state of seeded random playouts for which ``wanted`` holds."""
    game = clangames.load(name, players=players)
    for attempt in range(50):
        state = game.initial_state()
        rng = Rng(seed + attempt)
        while not state.is_terminal:
            if wanted(state):
                return state
            state, rng = random_step(state, rng)
    raise AssertionError("no such state in 50 playouts")


def refused(state: State, change: Callable[[dict[str, Any]], None], message: str) -> None:
    """``state``'s JSON changed by ``change`` is refused with ``message``; the unchanged
    JSON still reads back to ``state`` and plays on (the check refuses no real state)."""
    data = state.to_json()
    change(data["state"])
    with pytest.raises(StateDecodeError, match=re.escape(message)):
        state.game.state_from_json(json.dumps(data))
    back = state.game.state_from_json(json.dumps(state.to_json()))
    assert back == state
    assert random_playout(state.game, back, 1).is_terminal


# -- KOA Kingmaker -------------------------------------------------------------------------------
@pytest.mark.parametrize("scored", [-1, 1 << 5, 2**63, -(2**63)])
def test_koa_scored_outside_the_houses_is_refused(scored: int) -> None:
    # Before: accepted, and observation_tensor raised "bitmask ... does not fit".
    state = first_state("koa_kingmaker", 5, lambda s: bool(s.hits))

    def change(body: dict[str, Any]) -> None:
        body["scored"] = scored

    refused(state, change, "state.scored: expected a bitmask of the 5 houses")


def test_koa_hits_repeated_beyond_one_round_are_refused() -> None:
    # Before: accepted with 1000 copies of a hit; the tensor allows 10 (two a house).
    state = first_state("koa_kingmaker", 4, lambda s: bool(s.hits))

    def change(body: dict[str, Any]) -> None:
        body["hits"] = body["hits"] + [body["hits"][0]] * 1000

    refused(state, change, "state.hits: a round hits a house by the count at most once")


def test_koa_returns_owed_twice_by_one_house_are_refused() -> None:
    state = first_state("koa_kingmaker", 3, lambda s: bool(s.recovering))

    def change(body: dict[str, Any]) -> None:
        body["recovering"] = [body["recovering"][0]] * 6

    refused(state, change, "state.recovering: expected distinct houses in ascending order")


# -- Clan Feud -----------------------------------------------------------------------------------
def test_clan_feud_a_task_of_no_known_kind_under_the_top_is_refused() -> None:
    # Before: accepted (only the top task's kind was checked, against the phase) and the
    # rules raised KeyError when play reached it.
    state = first_state("clan_feud", 3, lambda s: len(s.tasks) >= 2)

    def change(body: dict[str, Any]) -> None:
        body["tasks"][0]["kind"] = "phase21_0"

    refused(state, change, "state.tasks[0].kind: expected one of the rules' tasks, got 'phase21_0'")


@pytest.mark.parametrize("value", [-1, 1 << 44, 2**63 - 1])
def test_clan_feud_city_dice_outside_the_board_are_refused(value: int) -> None:
    # Before: accepted, and observation_tensor raised "bitmask ... does not fit 44 bits".
    state = first_state("clan_feud", 4, lambda s: not s.is_chance)

    def change(body: dict[str, Any]) -> None:
        body["city_dice"][1] = value

    refused(state, change, "state.city_dice[1]: expected a bitmask of the 44 territories")


def _moving(state: State) -> bool:
    return any(task.kind == "move" for task in state.tasks) and any(state.moved)


def test_clan_feud_moved_troops_beyond_the_army_are_refused() -> None:
    # Before: accepted, and listing the moves raised "bytes must be in range(0, 256)".
    state = first_state("clan_feud", 3, _moving)
    i = next(i for i, m in enumerate(state.moved) if m)

    def more(body: dict[str, Any]) -> None:
        body["moved"][i] = 512

    def negative(body: dict[str, Any]) -> None:
        body["moved"][i] = -1

    message = "state.moved: expected counts from 0 to seat"
    refused(state, more, message)
    refused(state, negative, message)


def test_clan_feud_moved_troops_outside_a_move_are_refused() -> None:
    state = first_state("clan_feud", 2, lambda s: not s.is_chance and s.turn >= 1)
    assert not any(task.kind == "move" for task in state.tasks)

    def change(body: dict[str, Any]) -> None:
        body["moved"][0] = 1

    refused(state, change, "state.moved: troops are marked as moved only during a Military move")


def test_koa_royalty_in_a_hand_is_refused() -> None:
    # Before: a house's hand and court swapped was accepted (the same cards, one place
    # each) and play later reached a seat with no legal action.
    state = first_state("koa_kingmaker", 2, lambda s: not s.is_chance and s.round >= 1)

    def change(body: dict[str, Any]) -> None:
        body["hands"][0], body["courts"][0] = body["courts"][0], body["hands"][0]

    refused(state, change, "state.hands[0]: Royalty never leaves the court but for the centre")


def test_clan_feud_card_modifiers_of_another_length_are_refused() -> None:
    # Before: accepted with 13 fields, and observation_tensor raised (it allows 12).
    state = first_state("clan_feud", 5, lambda s: bool(s.mods))

    def change(body: dict[str, Any]) -> None:
        body["mods"] = body["mods"] + [0]

    refused(state, change, "state.mods: expected no modifiers or 12, got 13")


# -- King's Kilt ---------------------------------------------------------------------------------
def test_kings_kilt_more_reveals_than_seats_are_refused() -> None:
    # Before: accepted, and observation_tensor raised (it allows one reveal a seat).
    state = first_state("kings_kilt", 3, lambda s: bool(s.reveal_queue))

    def change(body: dict[str, Any]) -> None:
        body["reveal_queue"] = body["reveal_queue"] + [0] * 3

    refused(state, change, "state.reveal_queue: at most 3 reveals are owed at once")


def _with_tasks(state: State) -> bool:
    return len(state.tasks) >= 2 and not state.is_chance


def test_clan_feud_a_task_stack_deeper_than_any_game_is_refused() -> None:
    # Before: accepted, and observation_tensor raised (it allows 40 tasks).
    state = first_state("clan_feud", 3, _with_tasks)

    def change(body: dict[str, Any]) -> None:
        body["tasks"] = body["tasks"][:1] * 41 + body["tasks"][1:]

    refused(state, change, "state.tasks: at most 40 tasks are ever pending")


def test_clan_feud_task_data_longer_than_any_task_keeps_is_refused() -> None:
    state = first_state("clan_feud", 3, _with_tasks)

    def change(body: dict[str, Any]) -> None:
        body["tasks"][0]["data"] = list(range(49))

    refused(state, change, "state.tasks[0].data: a task keeps at most 48 values, got 49")


@pytest.mark.parametrize("value", [-2, 2**63])
@pytest.mark.parametrize("where", ["a", "b", "c", "data"])
def test_clan_feud_task_values_out_of_range_are_refused(value: int, where: str) -> None:
    # Before: 2**63 was accepted, and play raised IndexError ("cannot fit 'int' into an
    # index-sized integer") or ValueError ("bytes must be in range(0, 256)").
    state = first_state("clan_feud", 3, _with_tasks)

    def change(body: dict[str, Any]) -> None:
        task = body["tasks"][0]
        if where == "data":
            task["data"] = [*task["data"], value]
        else:
            task[where] = value

    refused(state, change, "state.tasks[0]: a task's counters and data run -1..")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("feud", 2**63, f"state.feud[1]: feud tokens stay within 0..999, got {2**63}"),
        ("money", 1000, "state.money[1]: pounds stay within 0..999, got 1000"),
        ("vp", -1000, "state.vp[1]: victory points stay within -999..999, got -1000"),
        ("feud", -1, "state.feud[1]: feud tokens are never negative, got -1"),
    ],
)
def test_clan_feud_amounts_beyond_the_declared_caps_are_refused(
    field: str, value: int, message: str
) -> None:
    # Before: a feud of 2**63 was accepted, and play raised ValueError from Rng.below. The
    # refusal named state.money[p] whichever amount was wrong.
    state = first_state("clan_feud", 3, lambda s: not s.is_chance)

    def change(body: dict[str, Any]) -> None:
        body[field][1] = value

    refused(state, change, message)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("played", [-21, -1], "state.battle.played: expected designs 0.."),
        ("roller", 2, "state.battle.roller: expected a side 0 or 1, or -1"),
        ("hits", [0, 2**63], "state.battle.hits: expected two counts 0.."),
        ("rounds", -1, "state.battle.rounds: expected 0..4095"),
    ],
)
def test_clan_feud_battle_numbers_out_of_range_are_refused(
    field: str, value: Any, message: str
) -> None:
    # Before: nothing of a battle but its sides and attackers was checked; a card played
    # of -21 was accepted and writing the position raised ValueError.
    state = first_state("clan_feud", 3, lambda s: s.battle is not None)

    def change(body: dict[str, Any]) -> None:
        body["battle"][field] = value

    refused(state, change, message)


def test_clan_feud_more_dice_of_a_kind_than_the_cap_are_refused() -> None:
    # Before: 5000 dice of one kind were accepted, and play raised IndexError.
    state = first_state("clan_feud", 4, lambda s: not s.is_chance)

    def change(body: dict[str, Any]) -> None:
        body["pool"][2][0] = 5000

    refused(state, change, "state.pool[2]: at most 30 dice of one colour and value")
