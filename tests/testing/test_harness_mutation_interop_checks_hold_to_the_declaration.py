"""The harness's interoperability checks (``testing/interop.py``) hold a game to exactly
what it declares (the harness's mutation audit): a length bound is checked to the very
node (one below what a game reaches fails, exactly that passes), an information-state key
that ignores the seat's own action is named, a tensor that decodes to another observation
is named by ``check_state`` too, and ``check_game`` compares each seat's tensor under
``resample``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.encoding import ObservationSpec
from clangames.engine.interop import (
    InformationState,
    LengthBounds,
    Round,
    count_step,
    declare,
    declared,
)
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing import ConformanceError, check_game, check_state, random_playout

SEED = 2


@pytest.fixture
def koa_bounds() -> Iterator[Any]:
    """Declare KOA Kingmaker's length bounds anew for one test, then restore them."""
    original = declared("koa_kingmaker")
    game = clangames.load("koa_kingmaker", players=3)

    def redeclare(bounds: LengthBounds) -> Any:
        declare("koa_kingmaker", attrs.evolve(original, length_bounds=lambda g: bounds))
        game.__dict__.pop("_interop", None)
        return game

    yield redeclare
    declare("koa_kingmaker", original)
    game.__dict__.pop("_interop", None)


def counts_of_the_first_playout(game: Any) -> tuple[int, int]:
    """The decision and chance nodes of ``check_game(seed=SEED)``'s first playout."""
    states: list[State] = []
    random_playout(game, Rng(Rng(SEED).fork(0).state), lambda s, m: states.append(s))
    decisions = chance = 0
    previous: Round = None
    for state in states[:-1]:
        d, c, previous = count_step(state, previous)
        decisions, chance = decisions + d, chance + c
    return decisions, chance


def test_length_bounds_are_checked_to_the_node(koa_bounds: Any) -> None:
    decisions, chance = counts_of_the_first_playout(clangames.load("koa_kingmaker", players=3))
    game = koa_bounds(LengthBounds(decisions, chance))
    check_game(game, playouts=1, seed=SEED, interop=True)  # exactly what it reaches
    game = koa_bounds(LengthBounds(decisions - 1, chance))
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED, interop=True)
    assert info.value.check == "length-bounds"
    assert f"{decisions} decisions, above the declared bound {decisions - 1}" in str(info.value)
    game = koa_bounds(LengthBounds(decisions, chance - 1))
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED, interop=True)
    assert info.value.check == "length-bounds"
    assert f"{chance} chance nodes, above the declared bound {chance - 1}" in str(info.value)


def test_an_information_state_that_ignores_the_seats_own_action_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = InformationState.after

    def forgets_own_actions(self: Any, mover: int, action_id: int, state: State) -> Any:
        return self if mover == self.player else real(self, mover, action_id, state)

    monkeypatch.setattr(InformationState, "after", forgets_own_actions)
    game = clangames.load("kilt_castle", players=2)
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=3, seed=SEED, rate=1.0, interop=True)
    assert info.value.check == "infostate"
    assert "information-state key stayed" in str(info.value)


def koa_state() -> State:
    """A KOA Kingmaker state with the hidden inheritance numbers dealt."""
    game = clangames.load("koa_kingmaker", players=3)
    return clangames.resolve_chance(game.initial_state(), Rng(3))


def test_check_state_names_a_tensor_that_decodes_to_another_observation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = ObservationSpec.decode

    def off(self: ObservationSpec, tensor: Any) -> Any:
        obs = real(self, tensor)
        return attrs.evolve(obs, round=obs.round + 1)

    monkeypatch.setattr(ObservationSpec, "decode", off)
    with pytest.raises(ConformanceError) as info:
        check_state(koa_state(), Rng(1))
    assert info.value.check == "tensor-exact"
    assert "the tensor decodes to a different observation" in str(info.value)


def test_check_game_compares_every_seats_tensor_under_resample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clangames.testing import interop as interop_checks

    real = interop_checks.check_resampled_tensor
    seats: list[int] = []

    def spy(state: State, other: State, p: int, fail: Any) -> None:
        seats.append(p)
        real(state, other, p, fail)

    monkeypatch.setattr(interop_checks, "check_resampled_tensor", spy)
    report = check_game(clangames.load("koa_kingmaker", players=3), playouts=1, seed=SEED)
    assert report.fully_checked > 0
    assert seats == [0, 1, 2] * report.fully_checked


@pytest.fixture
def koa_declaration() -> Iterator[Any]:
    """Declare KOA Kingmaker anew for one test (a fresh game each time), then restore it."""
    original = declared("koa_kingmaker")

    def redeclare(**changes: Any) -> Any:
        declare("koa_kingmaker", attrs.evolve(original, **changes))
        return clangames.load("koa_kingmaker", players=3)

    yield redeclare
    declare("koa_kingmaker", original)
    clangames.load("koa_kingmaker", players=3).__dict__.pop("_interop", None)


def test_a_game_with_chance_that_declares_no_chance_actions_is_named(
    koa_declaration: Any,
) -> None:
    game = koa_declaration(chance_actions=())
    game.__dict__.pop("_interop", None)
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED, interop=True)
    assert info.value.check == "interop-ids"
    assert "a game with chance declares no chance actions" in str(info.value)


def test_bounds_float32_cannot_hold_are_named(koa_declaration: Any) -> None:
    from clangames.engine.encoding import Fields
    from clangames.engine.encoding import Int as Whole
    from clangames.koa_kingmaker import encoding

    def wide(g: Any) -> ObservationSpec:
        spec = encoding.observation_spec(g)
        layouts = dict(spec.layout.layouts)
        layouts["round"] = Whole(0, 2**25)
        public = [p.name for p in spec.public_parts]
        return ObservationSpec(Fields(spec.layout.cls, layouts), public)

    game = koa_declaration(observation_spec=wide)
    game.__dict__.pop("_interop", None)
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED, interop=True)
    assert info.value.check == "observation-spec"
    assert "parts ['round'] have bounds beyond 2**24" in str(info.value)


def test_facts_declared_after_the_game_was_loaded_are_named(koa_declaration: Any) -> None:
    game = clangames.load("koa_kingmaker", players=3)
    game.__dict__.pop("_interop", None)
    assert game.interop.facts.has_chance  # built now, from the declaration of the moment
    facts = attrs.evolve(declared("koa_kingmaker").facts, has_chance=False)
    stale = koa_declaration(facts=facts)
    assert stale is game  # the loaded game keeps its interop data
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED, interop=True)
    assert info.value.check == "interop-facts"
    assert "the spec's facts differ from the loaded game's" in str(info.value)


def test_a_tensor_of_the_wrong_size_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from clangames.koa_kingmaker.state import KoaState

    def longer(self: Any, player: int) -> list[float]:
        return [*State.observation_tensor(self, player), 0.0]

    monkeypatch.setattr(KoaState, "observation_tensor", longer)
    state = koa_state()
    size = state.game.observation_spec().size
    with pytest.raises(ConformanceError) as info:
        check_state(state, Rng(1))
    assert info.value.check == "tensor-shape"
    assert f"{size + 1} floats, declared {size}" in str(info.value)


def test_a_declared_bound_of_no_decisions_is_named(koa_declaration: Any) -> None:
    game = koa_declaration(length_bounds=lambda g: LengthBounds(decisions=0, chance=10**6))
    game.__dict__.pop("_interop", None)
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED, interop=True)
    assert info.value.check == "interop-bounds"
    assert "are not sensible" in str(info.value)


def test_interop_false_skips_a_declared_games_declaration(koa_declaration: Any) -> None:
    game = koa_declaration(length_bounds=lambda g: LengthBounds(decisions=5, chance=10**6))
    game.__dict__.pop("_interop", None)
    assert check_game(game, playouts=1, seed=SEED, interop=False).playouts == 1
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=1, seed=SEED)  # None: checked, since it is declared
    assert info.value.check == "length-bounds"
