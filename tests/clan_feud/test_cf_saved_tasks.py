"""A saved Clan Feud state's task stack is checked kind by kind when it is read.

Before, a task's fields were checked only against the observation's broad bounds
(-1..4095), so a task counter of 999 or -1, a data entry of -1, an extra task on the stack
or a territory controlled during the set-up loaded, then crashed in play (IndexError,
ValueError from the random generator, TypeError from the effect interpreter). Now each
kind's fields have their own ranges (``observation.TASK_FIELDS``) and the stack its simple
shape; these tests hold the two halves of the promise: no real state is refused, and a
state that loads plays to the end raising only the library's typed errors.

``CLANGAMES_SOAK=1`` (or ``CLANGAMES_FUZZ_SCALE=k``) makes the random soak longer.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from typing import Any

import pytest

import clangames
from clangames.clan_feud.actions import Assign
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.observation import TASK_FIELDS, _sizes
from clangames.clan_feud.rules import INCOME, OPTIONS, TOGETHER, WEIGHTS
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.errors import ClanGamesError, StateDecodeError
from clangames.engine.rng import Rng
from fuzz_helpers import SCALE, random_step

from .cf_rules_helpers import load, position

CONFIGS = [(players, start) for players in (2, 3, 4, 5) for start in (0, 14)]
"""(players, England's start on its track): 14 has England at war from the first turn."""


@functools.cache
def game_of(players: int, start: int) -> ClanFeudGame:
    game = clangames.load("clan_feud", players=players, england_start=start)
    assert isinstance(game, ClanFeudGame)
    return game


@functools.cache
def real_states(players: int, start: int, seeds: int = 2) -> tuple[ClanFeudState, ...]:
    """Every state of a few seeded random games."""
    game = game_of(players, start)
    out: list[ClanFeudState] = []
    for seed in range(seeds):
        state: Any = game.initial_state()
        rng = Rng(7919 * players + 31 * start + seed)
        while True:
            out.append(state)
            if state.is_terminal:
                break
            state, rng = random_step(state, rng)
    return tuple(out)


def all_real_states() -> list[ClanFeudState]:
    return [s for players, start in CONFIGS for s in real_states(players, start)]


@pytest.mark.parametrize(("players", "start"), CONFIGS)
def test_every_state_of_real_games_round_trips(players: int, start: int) -> None:
    game = game_of(players, start)
    states = real_states(players, start)
    for state in states:
        assert game.state_from_json(json.dumps(state.to_json())) == state
    if start:
        assert any(s.english for s in states), "England never marched: the war went untested"


# -- one out-of-range field per task kind ------------------------------------------------------


NEVER_WAITING = frozenset(
    kind
    for kind in TASK_FIELDS
    if kind not in OPTIONS and kind not in WEIGHTS and kind not in TOGETHER
)
"""Automatic kinds (phase 1's recount, a battle round's start, ...) that the rules run at
once, so that no settled state holds them (checked below)."""


def out_of_range(state: ClanFeudState, field: str, kind: str) -> int | None:
    """A value of ``field`` that a ``kind`` task never holds in ``state``'s game, yet within
    the observation's broad bounds (so only the kind's own range refuses it); None if
    ``field`` takes every such value."""
    spec = TASK_FIELDS[kind]
    sizes = _sizes(state)
    if field == "player":  # (a seat past the last is refused by the broad check already)
        return {"none": 0, "seat": -1}.get(spec.player)
    lo, hi = (sizes[x] if isinstance(x, str) else x for x in getattr(spec, field))
    if hi < sizes["top"]:
        return hi + 1
    if lo > -1:
        return lo - 1
    return None


@functools.cache
def kinds_found() -> dict[str, tuple[ClanFeudState, int]]:
    """Per task kind, a real state with a task of that kind and its index on the stack.
    Two rare decisions are reached from the real states before them: a defender's retreat
    and an Income II roll."""
    found: dict[str, tuple[ClanFeudState, int]] = {}
    for state in all_real_states():
        for i, task in enumerate(state.tasks):
            found.setdefault(task.kind, (state, i))
        if state.is_terminal or state.is_chance or state.is_simultaneous:
            continue
        top = state.tasks[-1]
        for action in state.legal_actions(top.player):
            retreat = top.kind == "bdefend" and action == state.game.words["retreat"]
            income = isinstance(action, Assign) and (action.column, action.level) == (INCOME, 2)
            if retreat or income:
                after: Any = state.apply(action, top.player)
                if after.tasks and after.tasks[-1].kind in ("bretreat", "income_roll"):
                    found.setdefault(after.tasks[-1].kind, (after, len(after.tasks) - 1))
    return found


def test_every_kind_that_waits_is_found_in_real_games() -> None:
    waiting = set(TASK_FIELDS) - NEVER_WAITING - {"tiebreak"}  # the regent's rare tie-break
    missing = waiting - set(kinds_found())
    assert not missing, f"no real state holds {sorted(missing)}"


def test_a_tie_break_of_another_length_is_refused() -> None:
    """The regent's tie-break is rare in random games: a scenario sets one up."""
    game = load(3)
    king = game.board.territories[game.board.king_start].id
    state = position(
        game,
        [Task("tiebreak", 0, data=(0, 1))],
        regent=0,
        troops={(0, king): (1, 0, 0)},
        control={king: 0},
    )
    assert game.state_from_json(json.dumps(state.to_json())) == state
    data = state.to_json()
    data["state"]["tasks"][-1]["data"] = [0]
    with pytest.raises(StateDecodeError, match=re.escape("tasks[1].data: a 'tiebreak' task")):
        game.state_from_json(data)
    assert set(TASK_FIELDS) == set(OPTIONS) | set(WEIGHTS) | set(TOGETHER) | NEVER_WAITING


def mutations() -> list[tuple[str, str, int]]:
    """(kind, field, value) for every field with a range narrower than the broad one."""
    out = []
    for kind, (state, _) in sorted(kinds_found().items()):
        for field in ("player", "a", "b", "c"):
            value = out_of_range(state, field, kind)
            if value is not None:
                out.append((kind, field, value))
    return out


@pytest.mark.parametrize(("kind", "field", "value"), mutations())
def test_a_task_field_outside_its_kinds_range_is_refused(kind: str, field: str, value: int) -> None:
    state, i = kinds_found()[kind]
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["tasks"][i][field] = value
    with pytest.raises(StateDecodeError, match=re.escape(f"tasks[{i}].{field}")):
        state.game.state_from_json(data)


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        ("roll", lambda d: d.append(0)),  # one dice count too many
        ("lot", lambda d: d.extend(d[:1] or [0, 0])),  # a seat drawn twice
        ("order", lambda d: d.extend([0, 0])),  # a seat placed twice
        ("prog", lambda d: d.append(-1)),  # half a frame
        ("step", lambda d: d.__setitem__(3, 2)),  # the King 0 or 1
        ("army", lambda d: d.append(0)),  # four troop types
        ("emove", lambda d: d.append(999)),  # a target off the board
    ],
)
def test_task_data_of_the_wrong_shape_is_refused(kind: str, change: Any) -> None:
    state, i = kinds_found()[kind]
    data = json.loads(json.dumps(state.to_json()))
    change(data["state"]["tasks"][i]["data"])
    with pytest.raises(StateDecodeError, match=re.escape(f"tasks[{i}].data")):
        state.game.state_from_json(data)


def test_a_stack_grown_with_a_copy_of_a_task_is_refused() -> None:
    state, i = kinds_found()["assign"]
    data = json.loads(json.dumps(state.to_json()))
    tasks = data["state"]["tasks"]
    tasks.insert(i, copy.deepcopy(tasks[i]))
    with pytest.raises(StateDecodeError, match="at most one 'assign' task"):
        state.game.state_from_json(data)


def test_a_battle_round_missing_a_step_is_refused() -> None:
    state, i = kinds_found()["bcas"]
    data = json.loads(json.dumps(state.to_json()))
    del data["state"]["tasks"][i - 1]  # a side's casualties, below the casualty count
    with pytest.raises(StateDecodeError, match="what is left of one round, in order"):
        state.game.state_from_json(data)


def test_a_territory_controlled_during_the_set_up_is_refused() -> None:
    state, _ = kinds_found()["start"]
    data = json.loads(json.dumps(state.to_json()))
    data["state"]["controller"][0] = 0 if data["state"]["controller"][0] < 0 else -1
    with pytest.raises(StateDecodeError, match=r"controller: while seat \d draws its start"):
        state.game.state_from_json(data)


def test_an_upkeep_removal_where_the_seat_has_no_troops_is_refused() -> None:
    state, i = kinds_found()["upkeep"]
    data = json.loads(json.dumps(state.to_json()))
    task = data["state"]["tasks"][i]
    rows = data["state"]["troops"][task["player"]]
    empty = next(t for t in range(len(rows) // 3) if not any(rows[3 * t : 3 * t + 3]))
    task["a"] = empty + 1
    with pytest.raises(StateDecodeError, match=re.escape(f"tasks[{i}].a")):
        state.game.state_from_json(data)


# -- the soak: random changes to real states' tasks ---------------------------------------------


def mutate(data: dict[str, Any], rnd: random.Random, size: int) -> str:
    """One random change to the task stack (or to control during the set-up), as a corrupt or
    hand-edited save would make: a field set to a nearby or boundary value, data grown,
    shrunk or changed, a task copied or dropped. Returns what it did."""
    state = data["state"]
    tasks = state["tasks"]
    # (no 25..30: that many casualty dice, which the rules allow, weigh more than the
    # random generator can draw from, whether the state was saved or not)
    values = [-1, 0, 1, 2, 3, 4, 5, 7, 20, 24, 40, size - 1, size, size + 1, 64, 999, 4095]
    roll = rnd.random()
    if roll < 0.1:
        i = rnd.randrange(len(tasks))
        tasks.insert(rnd.randrange(len(tasks) + 1), copy.deepcopy(tasks[i]))
        return f"copy of tasks[{i}]"
    if roll < 0.16 and len(tasks) > 1:
        i = rnd.randrange(len(tasks) - 1)
        del tasks[i]
        return f"tasks[{i}] dropped"
    if roll < 0.2 and state["turn"] == 0:  # control changed during the set-up
        t = rnd.randrange(size)
        state["controller"][t] = rnd.choice([-1, 0, 1])
        return f"controller[{t}]"
    i = rnd.randrange(len(tasks))
    task = tasks[i]
    field = rnd.choice(["player", "a", "b", "c", "data"])
    if field != "data":
        task[field] = rnd.choice([*values, task[field] + 1, task[field] - 1])
        return f"tasks[{i}].{field} = {task[field]}"
    items = task["data"]
    if not items or rnd.random() < 0.2:
        items.append(rnd.choice(values))
    elif rnd.random() < 0.2:
        items.pop(rnd.randrange(len(items)))
    else:
        j = rnd.randrange(len(items))
        items[j] = rnd.choice([*values, items[j] + 1, items[j] - 1])
    return f"tasks[{i}].data = {items}"


SOAK_CASES = 150 * SCALE
"""Mutated states per soak run (a few seconds; ``CLANGAMES_SOAK=1``: twenty times)."""


def test_soak_a_mutated_task_stack_is_refused_or_plays_to_the_end() -> None:
    states = [s for s in all_real_states()[::3] if not s.is_terminal]
    rnd = random.Random(20261129)
    loaded = 0
    for case in range(SOAK_CASES):
        state = rnd.choice(states)
        game = state.game
        data = json.loads(json.dumps(state.to_json()))
        what = mutate(data, rnd, game.board.size)
        try:
            loaded_state: Any = game.state_from_json(data)
        except StateDecodeError:
            continue
        loaded += 1
        rng = Rng(case)
        try:
            for _ in range(game.info.max_game_length):
                if loaded_state.is_terminal:
                    break
                loaded_state, rng = random_step(loaded_state, rng)
            loaded_state.scores()
        except ClanGamesError:
            pass  # a typed refusal is the library's answer
        except Exception as exc:  # anything else is the bug this soak hunts
            pytest.fail(f"{what} loaded, then play raised {type(exc).__name__}: {exc}")
    assert loaded, "every mutation was refused: the soak tested no play"
