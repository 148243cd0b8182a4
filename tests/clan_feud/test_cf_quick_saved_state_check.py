"""Clan Feud's saved-state check takes a quick path (issue 11's JSON round trip) without
changing what it refuses or how it says so.

The seats, cards and board are first tested on whole tuples (``observation.
_seats_and_board_look_consistent``); the field-by-field loops, which word the error, run
only when that test says no. ``_check_english`` returns at once when no English army is
on the board or in a battle. These tests decode real states of seeded games of every
player count with one integer changed at a time (the decoder alone, without the checks),
and with two clans' armies put in one territory, and compare the whole check with the
one before the quick path (frozen in ``cf_legacy_checks``).
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Iterator
from typing import Any

import pytest

import clangames
from clangames import Game
from clangames.clan_feud import observation
from clangames.engine.codec import decode
from clangames.engine.errors import StateDecodeError
from clangames.engine.state import State
from clangames.testing import random_playout
from fuzz_helpers import int_paths

from . import cf_legacy_checks

PLAYERS = range(2, 6)


@functools.cache
def loaded(players: int) -> Game:
    return clangames.load("clan_feud", players=players)


@functools.cache
def playout_states(players: int, seed: int) -> tuple[State, ...]:
    """Every state of one seeded random game, from the root to the end."""
    states: list[State] = []
    random_playout(loaded(players), clangames.Rng(seed), lambda s, _: states.append(s))
    return tuple(states)


# The fields the quick paths test, then the rest of the state (a sample of it).
QUICK_FIELDS = frozenset(
    {"money", "feud", "vp", "covered", "filled", "pool", "troops", "hands", "city_dice"}
    | {"deck", "discards", "controller", "site", "towers", "english", "battle"}
)


def changed(data: dict[str, Any], path: tuple[Any, ...], value: int) -> dict[str, Any]:
    """A deep copy of ``data`` with the integer at ``path`` set to ``value``."""
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def base_states(players: int) -> list[State]:
    """Every 40th state of two seeded games (chance, decisions and battles among them)."""
    return [s for seed in (1, 2) for s in playout_states(players, seed)[::40]]


def mutants(players: int) -> Iterator[State]:
    """Decoded (unchecked) states: the originals, then one integer changed to old +- 1,
    -1, 0, 256 (one byte too many) or 2**20, at up to 40 sampled places per state in the
    fields the quick paths test and 10 elsewhere; and a second clan's troops added to a
    territory that holds an army."""
    game = loaded(players)
    extra = {"game": game}
    pick = random.Random(players)
    for state in base_states(players):
        data = state.to_json()["state"]
        yield decode(game.state_type, data, "state", extra)
        paths = list(int_paths(data))
        quick = [p for p in paths if p[0] in QUICK_FIELDS]
        other = [p for p in paths if p[0] not in QUICK_FIELDS]
        chosen = pick.sample(quick, min(40, len(quick))) + pick.sample(other, min(10, len(other)))
        for path in chosen:
            holder: Any = data
            for key in path[:-1]:
                holder = holder[key]
            old = holder[path[-1]]
            for value in sorted({old + 1, old - 1, -1, 0, 256, 1 << 20} - {old}):
                yield decode(game.state_type, changed(data, path, value), "state", extra)
        troops = data["troops"]
        for p, row in enumerate(troops):
            held = [i for i, count in enumerate(row) if count]
            if held:
                other_seat = (p + 1) % players
                yield decode(
                    game.state_type,
                    changed(data, ("troops", other_seat, held[0]), 1),
                    "state",
                    extra,
                )


def message(check: Any, state: State) -> str | None:
    try:
        check(state)
    except StateDecodeError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("players", PLAYERS)
def test_check_refuses_what_it_refused_before(players: int) -> None:
    """The same verdict and the same message as the check before the quick paths, for
    every mutant; the quick test accepts only what the detailed loops accept, and it does
    accept the unchanged states (else it would only cost time)."""
    game = loaded(players)
    size, designs = game.board.size, len(game.deck.designs)
    refused = quick_accepted = quick_refused = 0
    for state in mutants(players):
        expected = message(cf_legacy_checks.check_consistency, state)
        assert message(observation.check_consistency, state) == expected, state
        refused += expected is not None
        lengths_ok = all(
            len(getattr(state, f)) == players for f in ("money", "feud", "vp", "covered")
        ) and all(len(getattr(state, f)) == players for f in ("filled", "pool", "city_dice"))
        if not lengths_ok:
            continue
        if observation._seats_and_board_look_consistent(state, players, size, designs):
            quick_accepted += 1
            observation._check_seats_and_board(state, players, size, designs, _raise)
        else:
            quick_refused += 1
    assert refused > 100
    assert quick_accepted > 50
    assert quick_refused > 50


@pytest.mark.parametrize("players", PLAYERS)
def test_quick_test_accepts_every_state_of_a_game(players: int) -> None:
    """Every state of a seeded game passes the quick test (the slow loops never run on
    the states the rules make)."""
    game = loaded(players)
    size, designs = game.board.size, len(game.deck.designs)
    states = playout_states(players, 3)
    assert states
    for state in states:
        assert observation._seats_and_board_look_consistent(state, players, size, designs)


def _raise(field: str, why: str) -> None:
    raise StateDecodeError(f"state.{field}: {why}")
