"""The kernel's kept-draft hooks (``_apply_kept``, ``_kept_state``): a rollout uses them
only on the states it made itself, only without bots or a watcher, and hands back what the
last kept move made through ``_kept_state``, once. Shown on KOA Kingmaker, whose hooks the
spies replace with ones that wrap its ``_apply_owned`` (its own kept draft is checked in
test_draft_kept.py)."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import Rng, State
from clangames.bots import RandomBot
from clangames.engine.rollout import rollout, rollout_moves, rollout_seats
from clangames.koa_kingmaker.state import KoaState


class Spies:
    """A kept move that records what it was given, and a freezer that records its calls."""

    def __init__(self, caller: State) -> None:
        self.caller = caller
        self.moves = 0
        self.finished: list[State] = []
        self.owned = KoaState._apply_owned  # type: ignore[attr-defined]

    def kept(self, s: State, action: Any, player: int) -> State:
        assert s is not self.caller  # never the caller's state
        self.moves += 1
        made: State = self.owned(s, action, player)
        return made

    def done(self, s: State) -> State:
        self.finished.append(s)
        return s


def _lend(monkeypatch: pytest.MonkeyPatch, state: State) -> Spies:
    spies = Spies(state)
    monkeypatch.setattr(KoaState, "_apply_kept", spies.kept, raising=False)
    monkeypatch.setattr(KoaState, "_kept_state", spies.done, raising=False)
    return spies


@pytest.mark.parametrize("first_mover", [False, True])
def test_rollouts_use_the_kept_hooks_on_their_own_states_and_finish_once(
    first_mover: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = clangames.load("koa_kingmaker", players=3).initial_state()
    plain = rollout(state, Rng(5), first_mover=first_mover)
    plain_moves = rollout_moves(state, Rng(5), first_mover=first_mover)
    spies = _lend(monkeypatch, state)
    final, rng, steps = rollout(state, Rng(5), first_mover=first_mover)
    assert (final, rng, steps) == plain
    assert steps > 1 and spies.moves == steps - 1 and spies.finished == [final]
    spies.moves, spies.finished = 0, []
    assert rollout_moves(state, Rng(5), first_mover=first_mover) == plain_moves
    assert spies.moves == steps - 1 and len(spies.finished) == 1


def test_a_rollout_of_no_step_hands_back_the_callers_state_through_the_freezer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = clangames.load("koa_kingmaker", players=2).initial_state()
    spies = _lend(monkeypatch, state)
    final, _, steps = rollout(state, Rng(1), max_steps=0)
    assert steps == 0 and final is state and spies.finished == [state] and spies.moves == 0


def test_rollout_seats_keeps_drafts_only_without_bots_or_a_watcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = clangames.load("koa_kingmaker", players=3).initial_state()
    seats = [Rng(20 + k) for k in range(3)]
    plain = rollout_seats(state, Rng(4), seats)
    spies = _lend(monkeypatch, state)
    assert rollout_seats(state, Rng(4), seats) == plain
    assert spies.moves == plain.steps - 1 and len(spies.finished) == 1
    spies.moves, spies.finished = 0, []
    shown: list[State] = []
    watched = rollout_seats(state, Rng(4), seats, watch=shown.append)
    assert watched == plain and len(shown) == plain.steps + 1
    assert spies.moves == 0 and not spies.finished  # a watcher is shown states only
    played = rollout_seats(state, Rng(4), seats, policies={0: RandomBot(Rng(3))})
    assert played.steps > 0 and spies.moves == 0 and not spies.finished
