"""The kernel's kept draft (``draft.kept_apply``): the fast path's moves on one draft kept
from a move to the next, frozen once at the end of a playout.

For the three older games, whose ``_apply_kept`` and ``_kept_state`` it makes, the kept
draft must describe exactly the state the copying ``apply`` makes at every step of
seeded games (every field, the cache the rules read included), answer what the rollout
loop asks of it as that state does, and a rollout must end on a frozen state equal to the
step-by-step API's."""

from __future__ import annotations

import importlib
from typing import Any

import attrs
import pytest

import clangames
from clangames import Rng, State
from clangames.engine.draft import kept_apply, owned_apply, thaw
from testing import toys
from testing.toys import ToyState

from .test_draft import _Hashed, hashed_at_stake

RULES = {
    "kilt_castle": "clangames.kilt_castle.turn",
    "kings_kilt": "clangames.kings_kilt.turn",
    "koa_kingmaker": "clangames.koa_kingmaker.rules",
}
GAMES = [
    (name, players)
    for name in RULES
    for players in range(
        clangames.load(name).info.min_players, clangames.load(name).info.max_players + 1
    )
]


GAME = toys.toy()


def at_stake() -> ToyState:
    state: Any = GAME.initial_state().apply_text("draw high").apply_text("draw low")
    assert isinstance(state, ToyState)
    return state


def _stake(draft: Any, action: object, player: int) -> None:
    draft.stake = action


def test_a_kept_apply_edits_one_draft_across_moves_and_freezes_it_once() -> None:
    state = at_stake()
    state.legal_actions(0)  # a memo the first move must reset
    apply_kept, kept_state = kept_apply(ToyState, _stake)
    draft = apply_kept(state, 2, 1)
    assert draft is state and type(draft) is type(thaw(at_stake()))  # the class's draft
    assert draft._memo is None and draft.stake == 2
    draft._memo = {0: ()}  # as if a memo were filled between moves: the next move resets it
    again = apply_kept(draft, 1, 0)
    assert again is state and type(again) is type(draft) and again._memo is None
    made = kept_state(again)
    assert made is state and type(made) is ToyState
    assert made == attrs.evolve(at_stake(), stake=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.stake = 3


def test_kept_state_hands_a_state_back_as_it_is() -> None:
    state = at_stake()
    _, kept_state = kept_apply(ToyState, _stake)
    before = state.to_json()
    assert kept_state(state) is state and type(state) is ToyState
    assert state.to_json() == before


def test_a_kept_draft_of_a_hash_caching_state_forgets_its_hash() -> None:
    hashed = hashed_at_stake()
    before = hash(hashed)
    apply_kept, kept_state = kept_apply(_Hashed, _stake)
    made = kept_state(apply_kept(apply_kept(hashed, 1, 0), 2, 0))
    assert type(made) is _Hashed
    assert hash(made) == hash(attrs.evolve(hashed_at_stake(), stake=2)) != before


def test_kept_apply_needs_a_state_class_that_is_not_a_draft() -> None:
    with pytest.raises(TypeError, match="kept_apply needs a State class, got <class 'int'>"):
        kept_apply(int, _stake)  # type: ignore[type-var]
    with pytest.raises(TypeError, match="is a draft already"):
        kept_apply(type(thaw(at_stake())), _stake)
    with pytest.raises(TypeError, match="owned_apply needs a State class"):
        owned_apply(str, _stake)  # type: ignore[type-var]


@pytest.mark.parametrize("name", list(RULES))
def test_each_older_game_offers_its_moves_kept_draft(name: str) -> None:
    rules = importlib.import_module(RULES[name])
    state_type = clangames.load(name).state_type
    assert state_type._apply_kept is rules.apply_kept  # type: ignore[attr-defined]
    assert state_type._kept_state is rules.kept_state  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_kept_draft_describes_the_copying_moves_state_at_every_step(
    name: str, players: int
) -> None:
    game = clangames.load(name, players=players)
    state_type = game.state_type
    apply_kept = state_type._apply_kept  # type: ignore[attr-defined]
    fields = [f.name for f in attrs.fields(state_type) if f.name != "game"]
    start = game.initial_state()
    draft_type = type(thaw(start))
    for seed in (players, 40 + players):
        final, _, moves = clangames.rollout_moves(start, Rng(seed), first_mover=True)
        (p0, a0), rest = moves[0], moves[1:]
        copied = start._apply(a0, p0)  # the kernel's first move copies: the caller's state
        draft = start._apply(a0, p0)
        for p, a in rest:
            copied = copied._apply(a, p)
            draft = apply_kept(draft, a, p)
            assert type(draft) is draft_type
            for field in fields:  # the cache fields too: what the rules kept for _legal
                assert getattr(draft, field) == getattr(copied, field), field
            asked(draft, copied)
        made = state_type._kept_state(draft)  # type: ignore[attr-defined]
        assert made is draft and type(made) is state_type
        assert made == copied == final and made.to_json() == final.to_json()
        assert made.is_terminal and hash(made) == hash(final)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            made.phase = made.phase  # type: ignore[misc]


def asked(draft: State, copied: State) -> None:
    """What the rollout loop asks of the draft (and ``is_terminal``) equals the state's
    answers, for every seat to move."""
    assert draft.phase == copied.phase and draft.is_terminal == copied.is_terminal
    if copied.is_chance:
        assert draft._chance_weights() == copied.chance_weights()
        return
    for p in copied.to_move:
        assert draft._legal(p) == copied.legal_actions(p)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_rollouts_end_on_frozen_states_whatever_their_length(name: str, players: int) -> None:
    """Cut after 0, 1, 2 or many steps, or played out: a state, never the draft, the one
    the step-by-step API reaches; the caller's state untouched."""
    game = clangames.load(name, players=players)
    start = game.initial_state()
    before = start.to_json()
    for limit in (0, 1, 2, 7, 60, None):
        for first_mover in (False, True):
            state, _, steps = clangames.rollout(start, Rng(11), limit, first_mover=first_mover)
            assert type(state) is game.state_type
            _, _, moves = clangames.rollout_moves(start, Rng(11), limit, first_mover=first_mover)
            assert len(moves) == steps
            walked = start
            for p, a in moves:
                walked = walked.apply(a, p)
            assert state == walked and state.to_json() == walked.to_json()
            assert hash(state) == hash(walked)
        seats = [Rng(30 + k) for k in range(players)]
        played = clangames.rollout_seats(start, Rng(11), seats, limit)
        assert type(played.state) is game.state_type
        walked = start
        for p, a in played.moves:
            walked = walked.apply(a, p)
        assert played.state == walked
    assert start.to_json() == before
