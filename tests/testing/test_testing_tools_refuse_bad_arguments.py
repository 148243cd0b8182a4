"""The public testing tools refuse what they cannot use before doing anything:
``differential.compare`` a game that is not loaded, a count of games that is not a whole
number from 0 up and seeds outside 0..2**64-1; ``strategies.follow_path`` a game that is
not loaded and a choice that is not an integer. Each is InvalidArgumentError naming the
argument and what was expected.

Found by the fuzz4 sweep: ``compare(games=-1)`` reported -1 games played, ``games=1.5``
and ``seed="x"`` were bare TypeErrors (the second "can only concatenate str"), a seed
near 2**64 failed only at the game that passed the top, and ``follow_path`` with a float
or a string choice failed part way with a TypeError ("not all arguments converted").
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import InvalidArgumentError
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
