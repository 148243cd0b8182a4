"""Kilt Castle set-up and board data: the start lay-out's exact chance, the start player,
the board file and its parameter, saved states."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

import clangames
from clangames import InvalidParameterError, StateDecodeError
from clangames.kilt_castle import KiltCastleState, load_board

from .kc_helpers import laid_out, load


def layouts(players: int) -> dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction]:
    """Every complete start lay-out (card positions, sides) with its exact probability."""
    game = load(players)
    out: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    todo = [(game.initial_state(), Fraction(1))]
    while todo:
        state, p = todo.pop()
        if not state.is_chance:
            assert isinstance(state, KiltCastleState)
            out[(state.positions, state.inner)] += p  # type: ignore[assignment]
            continue
        for action, q in state.chance_outcomes():
            todo.append((state.apply(action), p * q))
    return dict(out)


def row_ok(game: clangames.Game, positions: tuple[int, ...]) -> bool:
    """No card row shows a colour more than twice."""
    from clangames.kilt_castle import KiltCastleGame

    assert isinstance(game, KiltCastleGame)
    for position in set(positions):
        colours = Counter(
            c
            for i, p in enumerate(positions)
            if p == position
            for c in game.board.cards[game.cards[i]]
        )
        if max(colours.values()) > 2:
            return False
    return True


@pytest.mark.parametrize(("players", "count"), [(4, 48 * 64), (3, 3 * 8)])
def test_the_layout_is_uniform_over_the_valid_layouts(players: int, count: int) -> None:
    # Rejection sampling of a shuffled deal with random sides makes every valid lay-out
    # equally likely: 48 valid ways to fill rows of 3, 2 and 1 from 6 double cards (the 4
    # triples that repeat a colour three times are dealt again), times 2**6 sides.
    dist = layouts(players)
    game = load(players)
    assert len(dist) == count
    assert set(dist.values()) == {Fraction(1, count)}
    assert all(row_ok(game, positions) for positions, _ in dist)
    sizes = Counter(Counter(positions)[1] for positions, _ in dist)
    assert sizes == {3 if players == 4 else 2: count}


def test_the_single_cards_and_the_first_chance_node() -> None:
    game = load(4)
    s = game.initial_state()
    assert s.is_chance and s.card_row(0) == ("red", "orange", "light grey", "dark grey")
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 12 and {p for _, p in outcomes} == {Fraction(1, 12)}


def test_a_colour_already_twice_in_the_row_is_not_dealt_into_it() -> None:
    game = load(4)
    s = game.initial_state()
    s = s.apply(game.parse_action("lay red/orange with red inside"))
    s = s.apply(game.parse_action("lay red/light grey with red inside"))
    cards = {game.card_names[game.card_slot[a.card]] for a, _ in s.chance_outcomes()}
    assert cards == {"orange/light grey", "orange/dark grey", "light grey/dark grey"}
    weights = dict(s.chance_weights())
    assert len(set(weights.values())) == 1  # each finishes the lay-out in 3 * 2 ways


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_start_player_owns_the_outer_colour_of_the_lone_card(players: int) -> None:
    game = load(players)
    for seed in range(12):
        s = laid_out(game, seed)
        lone = s.positions.index(game.start_position)
        colours = game.board.cards[game.cards[lone]]
        outer = next(c for c in colours if c != s.inner[lone])
        assert s.to_move == (game.owner[outer],) and s.phase.name == "relocate"


def test_seats_and_colours() -> None:
    assert load(2).seat_colours == ((0, 2), (1, 3))
    three = load(3)
    assert three.seat_colours == ((0,), (1,), (2,))
    assert [three.card_names[i] for i in range(len(three.cards))] == [
        "red",
        "orange",
        "light grey",
        "red/orange",
        "red/light grey",
        "orange/light grey",
    ]
    assert load(4).info.has_hidden_information is False


def test_the_bundled_board() -> None:
    board = load_board()
    assert (board.rows, board.cols, board.num_positions) == (5, 5, 20)
    assert len(board.spaces) == 22
    assert board.floors == (11, 3, 2) and board.floors_per_colour == 16
    assert len(board.cards) == 10 and sum(len(c) == 2 for c in board.cards) == 6
    assert board.provenance["grid"] == "reconstructed"
    assert board.provenance["supplies"] == "rulebook"
    assert board.picture() == "\n".join(
        [". . . . ~", ". . . . .", ". . . . .", ". . . . .", "~ . . . ~"]
    )
    # positions clockwise: north columns 0..4, east rows 0..4, south columns 4..0, west rows 4..0
    assert board.positions[0] == ("north", 0) and board.positions[19] == ("west", 0)


BUNDLED = Path(__file__).parents[2] / "src" / "clangames" / "kilt_castle" / "board.toml"


def test_a_user_board_file(tmp_path: Path) -> None:
    text = BUNDLED.read_text("utf-8").replace(
        "water = [[0, 4], [4, 0], [4, 4]]", "water = [[2, 2]]"
    )
    path = tmp_path / "board.toml"
    path.write_text(text, "utf-8")
    game = load(4, board=str(path))
    assert len(game.board.spaces) == 24
    assert [game.board.label(s) for s in game.board.lines[2]] == ["0.2", "1.2", "3.2", "4.2"]
    s = laid_out(game)
    assert not s.is_terminal


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("rows = 5", "rows = 0", "grid.rows must be an integer >= 1"),
        ('["north", 3]', '["up", 3]', r"positions.order\[3\]"),
        ("one_crest = 3", 'one_crest = "x"', "floors.one_crest"),
        ('provenance = "reconstructed"', 'provenance = "guess"', "provenance must be one of"),
        ("double_rows_four_colours = [3, 2, 1]", "double_rows_four_colours = [4, 2]", "lone"),
        ("max_same_colour = 2", "max_same_colour = 1", "admits no start lay-out"),
        ('colours = ["red", "orange"]', 'colours = ["red", "pink"]', r"card\[4\]"),
    ],
)
def test_bad_board_files_are_rejected(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = BUNDLED.read_text("utf-8")
    assert old in text
    path = tmp_path / "board.toml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(InvalidParameterError, match=message):
        load(4, board=str(path))


def test_unreadable_board_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match="cannot be read"):
        load(4, board=str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml", "utf-8")
    with pytest.raises(InvalidParameterError, match="not valid TOML"):
        load(4, board=str(bad))


def test_parameters_are_checked() -> None:
    with pytest.raises(InvalidParameterError):
        clangames.load("kilt_castle", players=5)
    with pytest.raises(InvalidParameterError):
        clangames.load("kilt_castle", stall_rounds=0)


def test_saved_states_round_trip_and_corrupt_ones_are_named() -> None:
    game = load(4)
    s = laid_out(game, 3)
    data = json.loads(json.dumps(s.to_json()))
    assert game.state_from_json(data) == s
    data["state"]["money"][0] = -1
    with pytest.raises(StateDecodeError, match="money"):
        game.state_from_json(data)
    data = s.to_json()
    data["state"]["towers"][4] = "a"  # a floor on the water at (0, 4)
    with pytest.raises(StateDecodeError, match="water"):
        game.state_from_json(data)
    data = s.to_json()
    data["state"]["towers"][0] = "a"  # a red floor that is not missing from the supply
    with pytest.raises(StateDecodeError, match="supply"):
        game.state_from_json(data)


def test_perfect_information_observation_and_resample() -> None:
    game = load(3)
    s = laid_out(game, 7)
    assert s.resample(1, clangames.Rng(3)) is s
    views = [s.observation(p) for p in range(3)]
    assert {attrs.evolve(v, viewer=-1) for v in views} == {s.public_observation()}
    public = s.public_observation()
    assert public.positions == s.positions and public.towers == s.towers
    assert public.roofs_unused == 2 and public.money == (10, 10, 10)
    assert game.info.max_game_length == 3 + (3 * 15 + 2 + 1) * 30 + 2 * (3 * 15 + 2)
