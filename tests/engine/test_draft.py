"""Drafts (clangames.engine.draft): thaw a state, edit it, freeze it in place."""

from __future__ import annotations

import importlib
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.draft import _copier, drafting, freeze, maker, owned_apply, thaw
from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.engine.simultaneous import Commitments
from clangames.engine.state import State
from testing import toys
from testing.toys import ToyState

GAME = toys.toy()


def at_stake() -> ToyState:
    state: Any = GAME.initial_state().apply_text("draw high").apply_text("draw low")
    assert isinstance(state, ToyState)
    return state


def test_a_draft_is_an_editable_copy_that_freezes_into_the_state_type() -> None:
    state = at_stake()
    draft = thaw(state)
    assert isinstance(draft, ToyState) and type(draft) is not ToyState
    draft.stake = 2
    draft.phase = Phase.turn("bid", 0)
    assert state.stake == 0  # the original is untouched
    frozen = freeze(draft, ToyState)
    assert frozen is draft and type(frozen) is ToyState
    assert frozen == attrs.evolve(state, stake=2, phase=Phase.turn("bid", 0))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        draft.stake = 3  # the stale draft reference is the frozen state now
    assert frozen.stake == 2


def test_an_unedited_draft_freezes_equal_to_its_source() -> None:
    state = at_stake()
    frozen = freeze(thaw(state), ToyState)
    assert frozen == state and frozen is not state
    assert frozen.legal_actions(0) == state.legal_actions(0)


def test_caches_start_empty_in_a_draft() -> None:
    state = at_stake()
    state.legal_actions(0)  # fills the legal-action memo
    assert state._memo
    draft = thaw(state)
    assert draft._memo is None
    assert freeze(draft, ToyState)._memo is None


def test_each_state_class_gets_its_own_draft_class() -> None:
    state = at_stake()
    leak = toys.LeakCard(
        state.game, state.phase, state.deck, state.cards, state.community, state.stake,
        state.commitments,
    )  # fmt: skip
    draft = thaw(leak)
    assert isinstance(draft, toys.LeakCard)
    assert type(freeze(draft, toys.LeakCard)) is toys.LeakCard
    assert type(thaw(state)) is not type(draft)


def test_freezing_into_another_type_or_a_non_draft_is_refused() -> None:
    state = at_stake()
    draft = thaw(state)
    with pytest.raises(TypeError, match="is not a draft of LeakCard"):
        freeze(draft, toys.LeakCard)
    with pytest.raises(TypeError, match="ToyState is not a draft of ToyState"):
        freeze(state, ToyState)
    assert type(draft) is not ToyState  # the refused freeze changed nothing


@attrs.frozen(slots=True)
class _ListCache(ToyState):
    scratch: list[int] = attrs.field(factory=list, eq=False, metadata={"cache": True})


def test_a_cache_field_without_a_constant_default_is_refused() -> None:
    state = at_stake()
    odd = _ListCache(
        state.game, state.phase, state.deck, state.cards, state.community, state.stake,
        state.commitments,
    )  # fmt: skip
    with pytest.raises(TypeError, match="scratch: a cache field needs a constant default"):
        thaw(odd)


def test_every_game_state_declares_its_caches() -> None:
    # A cache field left unmarked would be copied into the next state and serve stale data.
    for name in ("kings_kilt", "koa_kingmaker", "kilt_castle"):
        state_type = clangames.load(name, players=2).state_type
        for field in attrs.fields(state_type):
            if field.eq is False and field.name != "game":
                assert field.metadata.get("cache"), (name, field.name)
    assert attrs.fields(State)._memo.metadata["cache"]


@attrs.frozen(slots=True, cache_hash=True)
class _Hashed(ToyState):
    pass


def hashed_at_stake() -> _Hashed:
    """:func:`at_stake`'s state as a hash-caching state class."""
    state = at_stake()
    return _Hashed(
        state.game, state.phase, state.deck, state.cards, state.community, state.stake,
        state.commitments,
    )  # fmt: skip


def test_a_draft_of_a_hash_caching_state_hashes_its_own_fields() -> None:
    hashed = hashed_at_stake()
    before = hash(hashed)
    draft = thaw(hashed)
    draft.stake = 2
    frozen = freeze(draft, _Hashed)
    assert hash(frozen) == hash(attrs.evolve(hashed, stake=2)) != before


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("clangames.kings_kilt.turn", "kings_kilt"),
        ("clangames.koa_kingmaker.rules", "koa_kingmaker"),
        ("clangames.kilt_castle.turn", "kilt_castle"),
    ],
)
def test_each_games_draft_protocol_restates_its_state_fields(module: str, name: str) -> None:
    # The Protocol exists so that mypy checks the rules' edits; it must not drift from
    # the state it drafts (same names, same annotations).
    if module in clangames.compiled_modules():
        # mypyc compiles the Protocol's class body and keeps no annotations for it at run
        # time; mypy still checks the rules against it, and the pure build runs this check.
        pytest.skip(f"{module} is compiled: its Draft Protocol has no run-time annotations")
    draft = importlib.import_module(module).Draft
    state_type = clangames.load(name, players=2).state_type
    fields = {
        f.name: f.type for f in attrs.fields(state_type) if not f.metadata.get("cache") or f.init
    }
    assert draft.__annotations__ == fields


def test_a_draft_cannot_be_thawed_again() -> None:
    draft = thaw(at_stake())
    with pytest.raises(TypeError, match="is a draft already; freeze it before thawing it"):
        thaw(draft)


def test_a_drafting_pair_thaws_and_freezes_as_thaw_and_freeze_do() -> None:
    state = at_stake()
    state.legal_actions(0)  # a memo the specialised thaw must reset too
    fast_thaw, fast_freeze = drafting(ToyState)
    draft = fast_thaw(state)
    assert type(draft) is type(thaw(state))  # one draft class per state class
    assert draft._memo is None
    draft.stake = 2
    frozen = fast_freeze(draft)
    assert frozen is draft and type(frozen) is ToyState
    assert frozen == attrs.evolve(state, stake=2)
    assert freeze(fast_thaw(state), ToyState) == state  # the generic freeze accepts it
    assert fast_freeze(thaw(state)) == state  # and the specialised one a generic draft
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        draft.stake = 3


def test_drafting_needs_a_state_class_that_is_not_a_draft() -> None:
    with pytest.raises(TypeError, match="drafting needs a State class, got <class 'int'>"):
        drafting(int)  # type: ignore[type-var]
    draft_class = type(thaw(at_stake()))
    with pytest.raises(TypeError, match="is a draft already"):
        drafting(draft_class)


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("clangames.kilt_castle.turn", "KiltCastleState"),
        ("clangames.kings_kilt.turn", "KingsKiltState"),
        ("clangames.koa_kingmaker.rules", "KoaState"),
    ],
)
def test_each_games_moves_are_bound_to_its_state_class(module: str, name: str) -> None:
    rules = importlib.import_module(module)
    state_module = importlib.import_module(module.rsplit(".", 1)[0] + ".state")
    state_type = getattr(state_module, name)
    assert rules._thaw is _copier(state_type)
    game = clangames.load(module.split(".")[1], players=2)
    state = game.initial_state()
    draft = rules._thaw(state)
    assert type(draft) is type(thaw(state))
    assert type(rules._freeze(draft)) is state_type


def test_an_owned_apply_edits_the_state_itself_through_the_move() -> None:
    state = at_stake()
    state.legal_actions(0)  # a memo the owned apply must reset
    expected = attrs.evolve(state, stake=2)
    seen: list[tuple[Any, object, int]] = []

    def move(draft: Any, action: object, player: int) -> None:
        assert type(draft) is type(thaw(expected))  # the one draft class, editable
        assert draft._memo is None
        seen.append((draft, action, player))
        draft.stake = action

    made = owned_apply(ToyState, move)(state, 2, 1)
    assert made is state and type(made) is ToyState
    assert seen == [(state, 2, 1)]
    assert made == expected and made._memo is None
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.stake = 3


def test_an_owned_apply_of_a_hash_caching_state_forgets_its_hash() -> None:
    hashed = hashed_at_stake()
    before = hash(hashed)
    expected = attrs.evolve(hashed, stake=2)

    def move(draft: Any, action: object, player: int) -> None:
        draft.stake = 2

    made = owned_apply(_Hashed, move)(hashed, None, 0)
    assert hash(made) == hash(expected) != before


def test_owned_apply_needs_a_state_class_that_is_not_a_draft() -> None:
    def move(draft: Any, action: object, player: int) -> None:
        pass

    with pytest.raises(TypeError, match="owned_apply needs a State class, got <class 'int'>"):
        owned_apply(int, move)  # type: ignore[type-var]
    with pytest.raises(TypeError, match="is a draft already"):
        owned_apply(type(thaw(at_stake())), move)


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"])
def test_each_games_owned_move_gives_its_move_s_successor_in_place(name: str) -> None:
    # The fast path's _apply_owned must be _apply, but on the state itself: checked at
    # every step of seeded random games (equal successors, same legal actions after).
    info = clangames.load(name).info
    for players in range(info.min_players, info.max_players + 1):
        game = clangames.load(name, players=players)
        owned_move = game.state_type._apply_owned  # type: ignore[attr-defined]
        rng = clangames.Rng(players)
        state = game.initial_state()
        while not state.is_terminal:
            mover = state.to_move[0]
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
            else:
                legal = state.legal_actions(mover)
                index, rng = rng.below(len(legal))
                action = legal[index]
            expected = state.apply(action, mover)
            twin = game.state_from_json(state.to_json())  # equal, and nobody else's
            made = owned_move(twin, action, mover)
            assert made is twin and type(made) is game.state_type
            assert made == expected
            assert made.to_json() == expected.to_json()
            state = expected


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle"])
@pytest.mark.parametrize("hook", ["_apply_kept", "_apply_owned"])
def test_a_rollout_builds_in_place_only_on_states_it_made(
    name: str, hook: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (Clan Feud's own file checks the same of its moves.) Every step but the first is
    # made in place, on a kept draft by a rollout, on states by a rollout_seats shown to
    # a watcher; the caller's state is never touched; the game equals the copying one.
    game = clangames.load(name, players=3)
    state = game.initial_state()
    for _ in range(20):
        state = state.apply(*reversed(next_move(state)))
    before = state.to_json()
    seats = [clangames.Rng(k) for k in range(3)]
    if hook == "_apply_kept":
        copying, _, _ = clangames.rollout(state, clangames.Rng(5), first_mover=True)
    else:
        copying = clangames.rollout_seats(state, clangames.Rng(5), seats).state
    real = getattr(game.state_type, hook)
    seen: list[State] = []

    def spy(s: State, action: object, player: int) -> State:
        seen.append(s)
        return real(s, action, player)  # type: ignore[no-any-return]

    monkeypatch.setattr(game.state_type, hook, spy)
    if hook == "_apply_kept":
        final, _, steps = clangames.rollout(state, clangames.Rng(5), first_mover=True)
    else:
        played = clangames.rollout_seats(state, clangames.Rng(5), seats, watch=lambda s: None)
        final, steps = played.state, played.steps
    assert steps > 1 and len(seen) == steps - 1
    assert all(s is not state for s in seen)
    assert state.to_json() == before and final == copying


def next_move(state: State) -> tuple[int, object]:
    """The first mover and its first legal action (a chance node's first outcome)."""
    mover = state.to_move[0]
    if state.is_chance:
        return mover, state.chance_outcomes()[0][0]
    return mover, state.legal_actions(mover)[0]


def test_maker_makes_the_value_the_class_would_and_refuses_what_it_would_leave_half_made() -> None:
    pile = maker(Multiset)((2, 0, 1))
    assert type(pile) is Multiset and pile == Multiset((2, 0, 1))
    assert hash(pile) == hash(Multiset((2, 0, 1))) and repr(pile) == "Multiset((2, 0, 1))"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        pile.counts = (0,)  # type: ignore[misc]
    assert maker(Commitments)((-1, 3)) == Commitments((-1, 3))

    @attrs.frozen(slots=True)
    class Two:
        a: int
        b: int

    @attrs.frozen(slots=True)
    class Checked:
        a: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen(slots=True, cache_hash=True)
    class Hashed:
        a: int

    for cls in (Two, Checked, Hashed, int):
        with pytest.raises(TypeError, match="one plain field"):
            maker(cls)
