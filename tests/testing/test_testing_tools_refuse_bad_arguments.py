"""The public testing tools refuse what they cannot use before doing anything:
``differential.compare`` a game that is not loaded, a count of games that is not a whole
number from 0 up and seeds outside 0..2**64-1; ``strategies.follow_path`` a game that is
not loaded and a choice that is not an integer. Each is InvalidArgumentError naming the
argument and what was expected.

Found by the fuzz4 sweep: ``compare(games=-1)`` reported -1 games played, ``games=1.5``
and ``seed="x"`` were bare TypeErrors (the second "can only concatenate str"), a seed
near 2**64 failed only at the game that passed the top, and ``follow_path`` with a float
or a string choice failed part way with a TypeError ("not all arguments converted").
Likewise ``check_game``: ``playouts=-1`` returned a report of -1 playouts, 1.5, "3" or
None a TypeError part way, True was taken as 1, ``replays=-1`` and ``max_applied=-1``
were accepted, ``invariant=5`` failed at the first state; and ``random_playout`` with
a generator that is not an ``Rng`` raised AttributeError.
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import InvalidArgumentError
from clangames.testing import check_game, random_playout
from clangames.testing.differential import LibraryImplementation, compare
from clangames.testing.strategies import follow_path


def _game() -> clangames.Game:
    return clangames.load("kings_kilt", players=2)


@pytest.mark.parametrize("games", [-1, 1.5, "2", None, True])
def test_compare_refuses_a_count_of_games_that_is_no_count(games: Any) -> None:
    with pytest.raises(InvalidArgumentError, match=r"games must be an int from 0 up, got"):
        compare(LibraryImplementation(), _game(), games=games)


@pytest.mark.parametrize(("seed", "games"), [(-1, 1), ("x", 1), (2**64, 1), (2**64 - 2, 3)])
def test_compare_refuses_seeds_outside_the_generator_s_range(seed: Any, games: int) -> None:
    with pytest.raises(InvalidArgumentError, match=r"seeds seed\.\.seed\+games-1 must lie in"):
        compare(LibraryImplementation(), _game(), games=games, seed=seed)


def test_compare_takes_the_last_seeds_and_refuses_a_game_that_is_not_loaded() -> None:
    report = compare(LibraryImplementation(), _game(), games=2, seed=2**64 - 2)
    assert report.games == 2 and report.divergence is None
    assert compare(LibraryImplementation(), _game(), games=0).games == 0
    with pytest.raises(InvalidArgumentError, match=r"compare needs a loaded Game"):
        compare(LibraryImplementation(), "kings_kilt", games=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("choices", "message"),
    [
        ([0, 1.5], r"choice 1 must be an int, got 1\.5"),
        (["a"], r"choice 0 must be an int, got 'a'"),
        ([True], r"choice 0 must be an int, got True"),
        (None, r"needs a sequence of ints, got None"),
        ("12", r"needs a sequence of ints, got '12'"),
    ],
)
def test_follow_path_refuses_choices_that_are_not_integers(choices: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        follow_path(_game(), choices)


def test_follow_path_refuses_a_game_that_is_not_loaded_and_takes_numpy_choices() -> None:
    with pytest.raises(InvalidArgumentError, match=r"follow_path needs a loaded Game"):
        follow_path("kings_kilt", [0])  # type: ignore[arg-type]
    np = pytest.importorskip("numpy")
    game = _game()
    assert follow_path(game, np.arange(30)) == follow_path(game, list(range(30)))


@pytest.mark.parametrize("name", ["playouts", "replays", "max_applied"])
@pytest.mark.parametrize("bad", [-1, 1.5, "3", None, True])
def test_check_game_refuses_a_count_that_is_no_count(name: str, bad: Any) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"check_game: {name} must be an int from 0 up"):
        check_game(_game(), **{"playouts": 1, name: bad})


@pytest.mark.parametrize(
    ("keyword", "expected"),
    [
        ({"invariant": 5}, r"invariant must be a function of a state or None, got 5"),
        ({"interop": "yes"}, r"interop must be True, False or None, got 'yes'"),
        ({"seed": -1}, r"Rng seed must be an int in \[0, 2\*\*64\), got -1"),
    ],
)
def test_check_game_refuses_other_arguments_before_any_game(
    keyword: dict[str, Any], expected: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=expected):
        check_game(_game(), playouts=1, **keyword)


def test_check_game_takes_a_numpy_count() -> None:
    np = pytest.importorskip("numpy")
    assert check_game(_game(), playouts=np.int64(2), replays=np.int64(1)).playouts == 2


def test_random_playout_refuses_a_generator_that_is_no_rng() -> None:
    with pytest.raises(InvalidArgumentError, match=r"needs a loaded Game and a clangames Rng"):
        random_playout(_game(), 5)  # type: ignore[arg-type]
