"""Differential testing: the library agrees with itself on every game, each kind of
disagreement is reported, and the shipped example's wrong toy King's Kilt is caught at
exactly the move where its broken rule first matters."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import clangames
from clangames.engine.chance import sample_chance
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing.differential import (
    Implementation,
    LibraryImplementation,
    compare,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "differential_kings_kilt.py"


@pytest.mark.parametrize(
    ("name", "players"),
    [("kings_kilt", 2), ("koa_kingmaker", 4), ("kilt_castle", 3), ("clan_feud", 2)],
)
def test_the_library_agrees_with_itself(name: str, players: int) -> None:
    impl = LibraryImplementation()
    assert isinstance(impl, Implementation)
    report = compare(impl, clangames.load(name, players=players), games=1, seed=3)
    assert report.agreed and report.divergence is None
    assert report.games == 1 and report.moves > 20
    assert "agree" in str(report)


class WrongScores(LibraryImplementation):
    def scores(self) -> Sequence[int] | None:
        scores = list(super().scores() or ())
        return [s + 1 for s in scores] if self._state().turns >= 3 else scores  # type: ignore[attr-defined]


class CrashesOnPass(LibraryImplementation):
    def apply(self, action: str, player: int) -> None:
        if action == "pass":
            raise RuntimeError("pass is not implemented")
        super().apply(action, player)


class WrongObservation(LibraryImplementation):
    def observation(self, player: int) -> object:
        data = super().observation(player)
        assert isinstance(data, dict)
        return {**data, "viewer": 99}


def test_each_kind_of_disagreement_is_reported() -> None:
    game = clangames.load("kings_kilt", players=3)
    report = compare(WrongScores(), game, games=2, seed=1)
    assert report.divergence is not None and report.divergence.what == "scores"
    state = game.state_from_position(report.divergence.position)
    assert state.turns == 3  # type: ignore[attr-defined]
    assert report.divergence.expected == list(state.scores())

    report = compare(CrashesOnPass(), game, games=3, seed=1)
    assert report.divergence is not None
    assert report.divergence.what.startswith("apply('pass'")
    assert "RuntimeError: pass is not implemented" in report.divergence.got
    assert report.divergence.record.moves[-1].action == "pass"

    report = compare(WrongObservation(), game, games=1, seed=1)
    assert report.divergence is not None and report.divergence.move == 0
    assert report.divergence.what == "observation of player 0"


def _first_high_betrayal(players: int, seed: int) -> tuple[int, State]:
    """Play the example's seeded game the way ``compare`` does; the first state where a
    betrayal above row 1 is legal, and how many moves led to it."""
    game = clangames.load("kings_kilt", players=players)
    rng = Rng(seed)
    state = game.initial_state()
    moves = 0
    while not state.is_terminal:
        if not state.is_chance:
            texts = [game.action_text(a) for a in state.legal_actions()]
            if any(re.match(r"betray [2-9]\.", t) for t in texts):
                return moves, state
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            state = state.apply(action)
        else:
            _, rng = rng.below(len(state.to_move))
            legal = state.legal_actions()
            j, rng = rng.below(len(legal))
            state = state.apply(legal[j])
        moves += 1
    raise AssertionError("no betrayal above row 1 was ever legal")


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (2, 5)])
def test_the_example_catches_the_wrong_toy_at_the_expected_move(players: int, seed: int) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--players", str(players), "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out = done.stdout
    assert "the implementations agree" in out
    found = re.search(r"divergence in game 0 \(seed (\d+)\) at move (\d+): legal actions", out)
    assert found is not None, out
    expected_move, state = _first_high_betrayal(players, seed)
    assert int(found.group(1)) == seed
    assert int(found.group(2)) == expected_move
    missing = re.search(r"missing (\[[^]]*\])", out)
    assert missing is not None and "betray 2." in missing.group(1)
    position = re.search(r"position: (.*)", out)
    assert position is not None and position.group(1) == state.to_position()
