"""The conformance harness's check of a game's balance statistics
(:mod:`clangames.engine.statistics`): a built-in game must declare them, and for random
finished games the statistics function must give exactly the declared names, each a finite
number (``GameStatistics.of`` checks the values); a game's follower, if it offers one, must
give what its statistics function gives."""

from __future__ import annotations

from collections.abc import Callable

from clangames.engine.game import Game
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves, rollout_seats
from clangames.engine.statistics import GameStatistics, StatisticsError, declared_statistics

STATISTICS_STREAM = 3 << 32
"""The fork of the harness seed whose random games the statistics are measured on."""


def check_statistics(
    game: Game, seed: int, fail: Callable[[str, str], Exception], games: int = 2
) -> None:
    """Measure ``games`` random finished games; raise ``fail(check, message)`` for a game that
    should declare statistics and does not, or on a function that breaks its declaration.
    Games of the clangames package must declare them; others are checked if they do."""
    if game.statistics() is None and not type(game).__module__.startswith("clangames."):
        return
    try:
        declared = declared_statistics(game)
        base = Rng(seed).fork(STATISTICS_STREAM)
        for i in range(games):
            final, _, moves = rollout_moves(game.initial_state(), base.fork(i))
            declared.of(final, moves)
            if declared.follow is not None:
                _check_follower(game, declared, base.fork(i), fail)
    except StatisticsError as exc:
        raise fail("statistics", str(exc)) from exc


def _check_follower(
    game: Game, declared: GameStatistics, rng: Rng, fail: Callable[[str, str], Exception]
) -> None:
    """A follower watching a random game as ``clangames simulate`` plays it (the fast path,
    which may build on each state in place) gives what ``measure`` gives from the final
    state and the moves."""
    follow = declared.follow
    if follow is None:  # pragma: no cover - the caller checks
        return
    follower = follow()
    seats = [rng.fork(p + 1) for p in range(game.num_players)]
    played = rollout_seats(game.initial_state(), rng, seats, watch=follower.see)
    watched = declared.of(played.state, played.moves, follower)
    replayed = declared.of(played.state, played.moves)
    if watched != replayed:
        differ = sorted(n for n in declared.names if watched[n] != replayed[n])
        raise fail(
            "statistics",
            f"{game.name}: the statistics its follower watched differ from measure's for"
            f" {differ} (watched {[watched[n] for n in differ]},"
            f" measured {[replayed[n] for n in differ]})",
        )
