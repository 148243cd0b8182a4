"""The interoperability contract (issue 16): declared encodings, id ranges, length bounds,
facts before loading, information states, and the harness's checks of each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clangames
from clangames.engine.encoding import (
    Bits,
    Chars,
    Fields,
    Flag,
    Int,
    Maybe,
    ObservationEncodingError,
    ObservationSpec,
    OneOf,
    Tuple,
    Upto,
)
from clangames.engine.interop import (
    UTILITY,
    InformationState,
    Interop,
    InteropError,
    LengthBounds,
    LengthCount,
    declare,
    declared,
    parameter_text,
    parameter_value,
)
from clangames.engine.rng import Rng
from clangames.testing import ConformanceError, check_game, check_state
from clangames.testing.conformance import random_playout

BUILT_IN = ("clan_feud", "kilt_castle", "kings_kilt", "koa_kingmaker")


def games_and_counts() -> list[tuple[str, int]]:
    return [
        (spec.name, n)
        for spec in clangames.games()
        if spec.name in BUILT_IN
        for n in range(spec.min_players, spec.max_players + 1)
    ]


@pytest.mark.parametrize(("name", "players"), games_and_counts())
def test_every_game_declares_its_interop_data(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    facts = clangames.game_spec(name).facts()  # before anything is loaded: from the spec
    assert facts.utility == UTILITY
    assert (facts.has_chance, facts.has_simultaneous_moves, facts.has_hidden_information) == (
        game.info.has_chance,
        game.info.has_simultaneous_moves,
        game.info.has_hidden_information,
    )
    interop = game.interop
    n = game.num_distinct_actions
    assert sorted(interop.chance_ids + interop.decision_ids) == list(range(n))
    assert game.num_chance_outcomes == len(interop.chance_ids) > 0
    assert [interop.decision_index[i] for i in interop.decision_ids] == list(
        range(interop.num_decision_actions)
    )
    assert [interop.chance_index[i] for i in interop.chance_ids] == list(
        range(game.num_chance_outcomes)
    )
    spec = game.observation_spec()
    assert spec.shape == (spec.size,) == (sum(p.size for p in spec.parts),)
    assert spec.private_parts and spec.public_parts
    assert all(-(1 << 24) <= p.low <= p.high <= 1 << 24 for p in spec.parts)


def test_koa_chance_outcomes_have_their_own_range() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    # 36 ids in all: 12 are chance (7 seals, 5 inheritance cards), never a player's.
    assert (game.num_distinct_actions, game.num_chance_outcomes) == (36, 12)
    assert game.interop.num_decision_actions == 24


@pytest.mark.parametrize(("name", "players"), games_and_counts())
def test_tensors_encode_exactly_the_observation(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    spec = game.observation_spec()
    seen = 0

    def on_state(state: Any, moves: Any) -> None:
        nonlocal seen
        if len(moves) % 7:
            return
        for p in range(players):
            tensor = state.observation_tensor(p)
            assert len(tensor) == spec.size
            assert spec.out_of_bounds(tensor) == []
            assert spec.decode(tensor) == state.observation(p)
            other = state.resample(p, Rng(len(moves)))
            assert other.observation_tensor(p) == tensor
        public = state.public_observation_tensor()
        assert spec.decode(public) == state.public_observation()
        for part in spec.public_parts:
            assert spec.part_of(tensor, part.name) == spec.part_of(public, part.name)
        seen += 1

    random_playout(game, Rng(players), on_state)
    assert seen > 3


def test_length_bounds_hold_and_count_a_sealed_round_once() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    states: list[Any] = []
    record, _, _ = random_playout(game, Rng(5), lambda s, m: states.append(s))
    count = LengthCount()
    for state in states[:-1]:
        count = count.step(state)
    decisions = sum(1 for m in record.moves if m.player >= 0)
    chance = len(record.moves) - decisions
    assert count.chance == chance
    # KOA Kingmaker numbers its rounds: one commitment round each.
    rounds = len({s.round for s in states[:-1] if s.is_simultaneous})
    turns = sum(1 for s in states[:-1] if not s.is_chance and not s.is_simultaneous)
    assert count.decisions == turns + rounds < decisions
    assert rounds > 0
    assert count.exceeds(game.interop.bounds) is None
    assert count.exceeds(LengthBounds(decisions=count.decisions - 1, chance=10**6))


def test_information_keys_follow_what_the_viewer_saw() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    root = game.initial_state()
    # Inheritance cards are dealt one house after the other: house 0's own card differs
    # between these two histories; house 1 cannot tell them apart.
    first, second = root.legal_actions()[:2]
    a, b = root.apply(first), root.apply(second)
    ids = game.actions.id
    key = {
        (h, p): InformationState.start(root, p).after(-1, ids(act), after).key
        for h, (act, after) in enumerate(((first, a), (second, b)))
        for p in range(3)
    }
    assert key[0, 0] != key[1, 0]
    assert key[0, 1] == key[1, 1]
    assert key[0, 2] == key[1, 2]
    # Its own action always counts, even when the observation stays the same.
    info = InformationState.start(a, 1)
    assert info.after(1, 0, a).key != info.after(2, 0, a).key
    assert info.after(2, 0, a).key == info.key  # nothing new for seat 1
    assert len(info.text) == 32


def test_layouts_reject_what_does_not_fit() -> None:
    with pytest.raises(ObservationEncodingError, match="missing \\['b'\\]"):

        @attrs.frozen
        class Two:
            a: int
            b: int

        Fields(Two, {"a": Int(0, 1)})
    with pytest.raises(ObservationEncodingError, match="do not fit"):
        Upto(2, Int(0, 9)).write((1, 2, 3), [])
    with pytest.raises(ObservationEncodingError, match="not one of"):
        OneOf(("x", "y")).write("z", [])
    with pytest.raises(ObservationEncodingError, match="outside"):
        Chars(4, "ab").write("abc", [])
    with pytest.raises(ObservationEncodingError, match="not one-hot"):
        OneOf(("x", "y")).read([1.0, 1.0], 0)


@attrs.frozen
class Sample:
    n: int
    flag: bool
    mask: int
    wide: int
    kind: str
    fixed: tuple[int, ...]
    queue: tuple[tuple[int, int], ...]
    word: str
    maybe: tuple[int, ...] | None


SAMPLE = ObservationSpec(
    Fields(
        Sample,
        {
            "n": Int(-3, 40),
            "flag": Flag(),
            "mask": Bits(5),
            "wide": Bits(20),
            "kind": OneOf(("a", "b", "c")),
            "fixed": Tuple(3, Int(0, 9)),
            "queue": Upto(4, Tuple(2, Int(-1, 5))),
            "word": Chars(6, "xyz"),
            "maybe": Maybe(Tuple(2, Int(0, 3))),
        },
    ),
    public=("n", "kind"),
)

samples = st.builds(
    Sample,
    n=st.integers(-3, 40),
    flag=st.booleans(),
    mask=st.integers(0, 31),
    wide=st.integers(0, (1 << 20) - 1),
    kind=st.sampled_from("abc"),
    fixed=st.tuples(*[st.integers(0, 9)] * 3),
    queue=st.lists(st.tuples(st.integers(-1, 5), st.integers(-1, 5)), max_size=4).map(tuple),
    word=st.text("xyz", max_size=6),
    maybe=st.none() | st.tuples(st.integers(0, 3), st.integers(0, 3)),
)


@settings(max_examples=150, deadline=None)
@given(samples)
def test_every_layout_round_trips_within_its_bounds(value: Sample) -> None:
    tensor = SAMPLE.encode(value)
    assert len(tensor) == SAMPLE.size
    assert SAMPLE.out_of_bounds(tensor) == []
    assert SAMPLE.decode(tensor) == value


def test_parts_are_named_with_shapes_and_bounds() -> None:
    parts = {p.name: p for p in SAMPLE.parts}
    assert parts["mask"].shape == (5,) and (parts["mask"].low, parts["mask"].high) == (0, 1)
    assert parts["n"].public and not parts["mask"].public
    assert parts["queue"].size == 1 + 4 * 2 and parts["queue"].low == -1
    assert [p.name for p in SAMPLE.public_parts] == ["n", "kind"]


def test_parameters_with_default_none_have_a_text_form() -> None:
    spec = clangames.game_spec("kings_kilt")
    components = spec.parameter("components")
    assert parameter_text(components, None) == ""
    assert parameter_value(components, "") is None
    assert parameter_value(components, "x.toml") == "x.toml"
    players = spec.parameter("players")
    assert parameter_value(players, parameter_text(players, 3)) == 3
    with pytest.raises(clangames.InvalidParameterError, match="integer"):
        parameter_value(players, "three")


def test_a_game_without_a_declaration_is_named() -> None:
    with pytest.raises(InteropError, match="declares no observation encoding"):
        declared("no_such_game")


@pytest.fixture
def redeclared() -> Iterator[Any]:
    """Declare KOA Kingmaker anew for one test, then restore its declaration."""
    original = declared("koa_kingmaker")
    game = clangames.load("koa_kingmaker", players=3)

    def redeclare(**changes: Any) -> Any:
        declare("koa_kingmaker", attrs.evolve(original, **changes))
        game.__dict__.pop("_interop", None)
        return game

    yield redeclare
    declare("koa_kingmaker", original)
    game.__dict__.pop("_interop", None)


def _caught(game: Any) -> str:
    with pytest.raises(ConformanceError) as caught:
        check_game(game, playouts=30, seed=2, interop=True)
    return caught.value.check


def test_harness_catches_a_length_bound_too_small(redeclared: Any) -> None:
    game = redeclared(length_bounds=lambda g: LengthBounds(decisions=5, chance=100))
    assert _caught(game) == "length-bounds"


def test_harness_catches_bounds_a_value_passes(redeclared: Any) -> None:
    from clangames.koa_kingmaker import encoding

    def narrow(g: Any) -> ObservationSpec:
        spec = encoding.observation_spec(g)
        layouts = dict(spec.layout.layouts)
        layouts["round"] = Int(0, 2)
        public = [p.name for p in spec.public_parts]
        return ObservationSpec(Fields(spec.layout.cls, layouts), public)

    assert _caught(redeclared(observation_spec=narrow)) == "tensor-bounds"


def test_harness_catches_a_private_part_declared_public(redeclared: Any) -> None:
    from clangames.koa_kingmaker import encoding

    def leaky(g: Any) -> ObservationSpec:
        spec = encoding.observation_spec(g)
        return ObservationSpec(spec.layout, [*(p.name for p in spec.public_parts), "hand"])

    assert _caught(redeclared(observation_spec=leaky)) == "tensor-public"


def test_harness_catches_chance_actions_declared_wrong(redeclared: Any) -> None:
    from clangames.koa_kingmaker.actions import Inherit

    assert _caught(redeclared(chance_actions=(Inherit,))) == "interop-ids"


def test_harness_catches_facts_that_disagree(redeclared: Any) -> None:
    original = declared("koa_kingmaker")
    facts = attrs.evolve(original.facts, has_simultaneous_moves=False)
    assert _caught(redeclared(facts=facts)) == "interop-facts"


def test_harness_catches_a_tensor_that_holds_hidden_information(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clangames.engine.state import State
    from clangames.koa_kingmaker.state import KoaState

    def leaky(self: Any, player: int) -> list[float]:
        # Everyone's inheritance numbers, which only their houses know until the end.
        return [*State.observation_tensor(self, player), *map(float, self.inheritance)]

    monkeypatch.setattr(KoaState, "observation_tensor", leaky)
    game = clangames.load("koa_kingmaker", players=3)
    state = clangames.resolve_chance(game.initial_state(), Rng(3))  # the numbers are dealt
    with pytest.raises(ConformanceError) as caught:
        check_state(state, Rng(1))
    assert caught.value.check == "tensor-resample"


def test_harness_requires_a_declaration_when_asked() -> None:
    assert isinstance(declared("kilt_castle"), Interop)
    game = clangames.load("kilt_castle", players=2)
    report = check_game(game, playouts=3, seed=1, interop=True)
    assert report.playouts == 3
