"""The kernel's position notation: any game (a third-party toy included) gets a generic
notation that round-trips; formats read exactly what they write and refuse anything else
with a PositionError naming the token; arbitrary text never escapes as another error; the
conformance harness catches a lossy notation; a complete notation names a missing field."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clangames.engine.game import Game
from clangames.engine.position import (
    Counts,
    Flag,
    Grouped,
    Int,
    Keyed,
    Name,
    NameSet,
    Notation,
    Optional,
    PositionError,
    Quoted,
    Seq,
    Text,
    _Scanner,
    notation_of,
    parse_node,
    read_phase,
    show_node,
    show_phase,
)
from clangames.engine.rng import Rng
from clangames.testing import ConformanceError, check_game, random_playout
from testing import toys


def test_a_third_party_game_gets_a_generic_notation_that_round_trips() -> None:
    game = toys.toy()
    assert game.names == {}
    seen = 0

    def check(state: object, _moves: object) -> None:
        nonlocal seen
        assert hasattr(state, "to_position")
        text = state.to_position()  # type: ignore[attr-defined]
        assert game.state_from_position(text) == state
        seen += 1

    for seed in range(20):
        random_playout(game, Rng(seed), check)
    assert seen == 20 * 7
    assert game.initial_state().to_position() == (
        "toy_duel deal@chance deck=[2,2,1] cards=[-1,-1] community=-1 stake=0 commitments=[-1,-1]"
    )


def test_phases_write_who_decides() -> None:
    for phase in (
        {"name": "turn", "to_move": [1], "simultaneous": False},
        {"name": "deal", "to_move": [-1], "simultaneous": False},
        {"name": "over", "to_move": [], "simultaneous": False},
        {"name": "bid", "to_move": [0, 2], "simultaneous": True},
        {"name": "bid", "to_move": [2], "simultaneous": True},
        {"name": "both", "to_move": [0, 1], "simultaneous": False},
    ):
        assert read_phase(show_phase(phase), 3) == phase
    assert show_phase({"name": "bid", "to_move": [0, 2], "simultaneous": True}) == (
        "bid@together:0+2"
    )
    for bad in ("turn", "@1", "turn@x", "turn@3", "turn@together:", "turn@1+9"):
        with pytest.raises(PositionError, match="expected name@who"):
            read_phase(bad, 3)


CLANS = ("Bruce", "Mac Leod", "Stewart")


@pytest.mark.parametrize(
    ("fmt", "value", "text"),
    [
        (Int(), -12, "-12"),
        (Flag(), True, "y"),
        (Text(), "a b", '"a b"'),
        (Text(), "", '""'),
        (Text(empty_as_none=True), "", "-"),
        (Text(), "-", '"-"'),
        (Name(CLANS, "clan"), 1, "Mac_Leod"),
        (Name(CLANS, "clan"), -1, "-"),
        (NameSet(CLANS, "clan"), 0b101, "[Bruce,Stewart]"),
        (Counts(CLANS, "clan"), [2, 0, 1], "[Bruce*2,Stewart]"),
        (Seq(Seq(Int())), [[1], [], [2, 3]], "[[1],[],[2,3]]"),
        (Grouped(Int(), [2, 1], "row"), [1, 2, 3], "[[1,2],[3]]"),
        (Keyed(CLANS, "clan", Int(), 0), [0, 4, 0], "[Mac_Leod:4]"),
        (Optional(Int()), None, "~"),
    ],
)
def test_formats_write_and_read_back(fmt: object, value: object, text: str) -> None:
    assert hasattr(fmt, "show") and hasattr(fmt, "read")
    assert show_node(fmt.show(value)) == text  # type: ignore[attr-defined]
    assert fmt.read(parse_node(text), "f") == value  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("fmt", "text", "expected"),
    [
        (Int(), "1.5", "token '1.5': expected a whole number"),
        (Flag(), "yes", "token 'yes': expected y or n"),
        (Name(CLANS, "clan"), "Gordon", "token 'Gordon': expected a clan (Bruce, Mac_Leod"),
        (Name(CLANS, "clan"), "[Bruce]", "is a list, expected a clan"),
        (NameSet(CLANS, "clan"), "Bruce", "expected a [list] of clan names"),
        (NameSet(CLANS, "clan"), "[Bruce,bruce]", "bruce is listed twice"),
        (Counts(CLANS, "clan"), "[Bruce*x]", "expected a count after '*'"),
        (Grouped(Int(), [2, 1], "row"), "[[1],[2]]", "expected 2 entries in row 1, got 1"),
        (Keyed(CLANS, "clan", Int(), 0), "[Bruce]", "expected clan:value"),
        (Keyed(CLANS, "clan", Int(), 0), "[Bruce:1,Bruce:2]", "Bruce is given twice"),
    ],
)
def test_formats_refuse_bad_tokens(fmt: object, text: str, expected: str) -> None:
    with pytest.raises(PositionError) as caught:
        fmt.read(parse_node(text), "field")  # type: ignore[attr-defined]
    assert expected in str(caught.value)
    assert str(caught.value).startswith("field")


def test_names_are_read_case_insensitively_and_must_be_words() -> None:
    assert Name(CLANS, "clan").read("mac_leod", "f") == 1
    assert Name(CLANS, "clan").read("Mac Leod", "f") == 1
    with pytest.raises(TypeError, match="cannot be a notation word"):
        Name(("a,b",), "x")
    with pytest.raises(TypeError, match="not distinct"):
        Name(("Bruce", "bruce"), "x")


def test_malformed_text_is_refused_with_its_place() -> None:
    with pytest.raises(PositionError, match=r"at character 4 .*expected ',' or '\]'"):
        parse_node("[1,2")
    with pytest.raises(PositionError, match="a complete JSON string"):
        parse_node('"abc')
    with pytest.raises(PositionError, match="at most 20 nested lists"):
        parse_node("[" * 30 + "]" * 30)
    game = toys.toy()
    good = game.initial_state().to_position()
    with pytest.raises(PositionError, match="a space between fields"):
        game.state_from_position(good.replace(" cards=", "cards="))


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list('[]-,=~"y0129 abcdk@:*_')), max_size=80))
def test_any_text_gives_a_state_or_a_position_error(text: str) -> None:
    game = toys.toy()
    prefix = "toy_duel deal@chance deck=[2,2,1] "
    for candidate in (text, prefix + text):
        try:
            state = game.state_from_position(candidate)
        except PositionError as exc:
            assert str(exc)
        else:
            assert state.game == game


class LossyToy(toys.ToyGame):
    """A toy whose notation writes the stake as a flag: stake 2 reads back as 1."""

    def make_notation(self) -> Notation:
        return Notation(self, {"stake": _Lossy()})


class _Lossy(Flag):
    def read(self, node: object, path: str) -> object:
        return 1 if super().read(node, path) else 0  # type: ignore[arg-type]


def test_the_harness_catches_a_lossy_notation() -> None:
    game = LossyToy(toys.SPEC, toys.SPEC.resolve({}))
    with pytest.raises(ConformanceError) as caught:
        check_game(game, playouts=30, rate=1.0)
    assert caught.value.check == "position-roundtrip"
    assert "stake" in str(caught.value)


def test_a_complete_notation_names_a_missing_field() -> None:
    game = toys.toy()
    with pytest.raises(TypeError, match="field 'stake' has no position format"):
        Notation(
            game,
            {"deck": Int(), "cards": Int(), "community": Int(), "commitments": Int()},
            complete=True,
            where="toys.py",
        )
    with pytest.raises(TypeError, match="unknown fields"):
        Notation(game, {"colour": Int()})


def test_the_notation_is_built_once_per_game() -> None:
    game: Game = toys.toy()
    assert notation_of(game) is notation_of(game)


GAMES = [("kings_kilt", 3), ("koa_kingmaker", 4), ("kilt_castle", 2), ("clan_feud", 3)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_mutated_positions_give_a_state_or_a_position_error(name: str, players: int) -> None:
    """Any edit of a real position (a character changed, dropped or doubled) is read or
    refused with a PositionError: no other exception escapes."""
    import clangames

    game = clangames.load(name, players=players)
    record, _, _ = random_playout(game, Rng(5))
    states = list(record.replay())
    texts = [s.to_position() for s in states[:: max(1, len(states) // 6)]]

    @settings(max_examples=60, deadline=None)
    @given(
        pick=st.integers(0, len(texts) - 1),
        at=st.integers(0, 10**6),
        edit=st.sampled_from(["change", "drop", "double"]),
        char=st.sampled_from(list('[]-,=~"y0129 :*_@+Xa')),
    )
    def run(pick: int, at: int, edit: str, char: str) -> None:
        text = texts[pick]
        i = at % len(text)
        if edit == "change":
            text = text[:i] + char + text[i + 1 :]
        elif edit == "drop":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + text[i] + text[i:]
        try:
            state = game.state_from_position(text)
        except PositionError as exc:
            assert str(exc)
        else:
            assert game.state_from_position(state.to_position()) == state

    run()


WORDS = st.from_regex(r"[A-Za-z0-9_'.:/+*@&~\\-]{1,8}", fullmatch=True)
NODES = st.recursive(
    st.one_of(WORDS, st.text(max_size=6).map(Quoted)),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(node=NODES)
def test_the_fast_reader_and_the_scanner_agree(node: object) -> None:
    """Field values are parsed by the C JSON parser when well formed, else by the
    scanner: both read back exactly what was written."""
    text = show_node(node)  # type: ignore[arg-type]
    fast, slow = _Scanner(text), _Scanner(text)
    assert fast.field_value() == node == slow.value()
    assert fast.at == slow.at == len(text)
