"""The running summary of a simulation: what ``clangames simulate`` and ``clangames report``
print, kept while the games come in, so that a run of any length takes the same memory.

A run of a million games used to keep every game's result until the end (about 0.7 KB a
game for King's Kilt, 2.5 KB for Clan Feud with its statistics). A :class:`Tally` keeps,
per series (a seat's scores, a bot's, the game lengths, each statistic), the count, the
sum and the sum of squares as exact rationals (a float is a whole number over a power of
two), the least and the most, and the few histograms the report draws. The sums being
exact, the games may come in any order and the summary is the same: the mean is the exact
mean rounded once, the standard deviation the exact one (the earlier code summed floats
in index order, which agrees to the six decimals the summary keeps).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from clangames.cli.runs import GameResult

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n`` (fractional successes
    allowed, for shared wins); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class Sum:
    """An exact running sum of ints and finite floats: ``total / 2**shift``."""

    __slots__ = ("shift", "total")

    def __init__(self) -> None:
        self.total = 0
        self.shift = 0

    def add(self, value: float) -> None:
        """Add ``value`` exactly (a float is an integer over a power of two)."""
        num, den = value.as_integer_ratio()
        self.add_ratio(num, den.bit_length() - 1)

    def add_ratio(self, num: int, places: int) -> None:
        """Add ``num / 2**places`` exactly."""
        if places > self.shift:
            self.total <<= places - self.shift
            self.shift = places
        self.total += num << (self.shift - places)

    def exact(self) -> Fraction:
        """The sum, exactly."""
        return Fraction(self.total, 1 << self.shift)

    def __float__(self) -> float:
        return float(self.exact())


class Moments:
    """A series' count, exact sum and sum of squares, least and most value."""

    __slots__ = ("count", "high", "low", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total = Sum()
        self.squares = Sum()
        self.low: float = 0
        self.high: float = 0

    def add(self, value: float) -> None:
        """One more value of the series (an int or a finite float)."""
        num, den = value.as_integer_ratio()
        places = den.bit_length() - 1
        self.total.add_ratio(num, places)
        self.squares.add_ratio(num * num, 2 * places)
        if self.count:
            if value < self.low:
                self.low = value
            elif value > self.high:
                self.high = value
        else:
            self.low = self.high = value
        self.count += 1

    def stats(self) -> dict[str, float]:
        """Mean, sample standard deviation, min and max (the mean and sd rounded to 6
        places for stable JSON; all 0 for an empty series)."""
        n = self.count
        if n == 0:
            return {"mean": 0.0, "sd": 0.0, "min": 0.0, "max": 0.0}
        total = self.total.exact()
        mean = total / n
        sd = 0.0
        if n > 1:
            sd = math.sqrt((self.squares.exact() - total * mean) / (n - 1))
        return {
            "mean": round(float(mean), 6),
            "sd": round(sd, 6),
            "min": self.low,
            "max": self.high,
        }


def share(wins: float, n: int) -> dict[str, Any]:
    """Games, wins, the win rate and its 95% Wilson interval (rounded to 6 places)."""
    low, high = wilson(wins, n)
    return {
        "games": n,
        "wins": round(wins, 6),
        "win_rate": round(wins / n, 6) if n else 0.0,
        "ci95": [round(low, 6), round(high, 6)],
    }


class _Seat:
    __slots__ = ("bots", "histogram", "outright", "scores", "wins")

    def __init__(self) -> None:
        self.bots: Counter[str] = Counter()
        self.wins = Sum()
        self.outright = 0
        self.scores = Moments()
        self.histogram: Counter[int] = Counter()


class _Bot:
    __slots__ = ("plays", "scores", "wins")

    def __init__(self) -> None:
        self.plays = 0
        self.wins = Sum()
        self.scores = Moments()


class Tally:
    """The summary of a simulation's games so far, in constant memory (see the module):
    :meth:`add` each game, in any order; :meth:`summary` for the JSON summary."""

    def __init__(self, players: int, names: Sequence[str], statistics: Sequence[str]) -> None:
        self.players = players
        self.names = tuple(names)
        self.statistic_names = tuple(statistics)
        self.games = 0
        self._seats = [_Seat() for _ in range(players)]
        self._bots = {name: _Bot() for name in sorted(set(names))}
        self._steps = Moments()
        self._decisions = Moments()
        self.decision_histogram: Counter[int] = Counter()
        """Games by their number of decisions (the report's length plot)."""
        self._first_games = 0
        self._first_wins = Sum()
        self._statistics = [Moments() for _ in self.statistic_names]

    @classmethod
    def of(
        cls,
        players: int,
        names: Sequence[str],
        statistics: Sequence[str],
        results: Iterable[GameResult],
    ) -> Tally:
        """The tally of ``results``."""
        tally = cls(players, names, statistics)
        for result in results:
            tally.add(result)
        return tally

    def add(self, result: GameResult) -> None:
        """Count one finished game."""
        self.games += 1
        seats = result.seats
        scores = result.scores
        returns = result.returns
        bots = self._bots
        for seat, tally in enumerate(self._seats):
            bot = seats[seat]
            score = scores[seat]
            won = returns[seat]
            tally.bots[bot] += 1
            tally.wins.add(won)
            tally.scores.add(score)
            tally.histogram[score] += 1
            by_bot = bots.get(bot)
            if by_bot is None:  # a seat's bot outside the run's names: counted all the same
                by_bot = bots[bot] = _Bot()
            by_bot.plays += 1
            by_bot.wins.add(won)
            by_bot.scores.add(score)
        if len(result.winners) == 1:
            self._seats[result.winners[0]].outright += 1
        self._steps.add(result.steps)
        self._decisions.add(result.decisions)
        self.decision_histogram[result.decisions] += 1
        if result.first >= 0:
            self._first_games += 1
            self._first_wins.add(returns[result.first])
        if result.statistics and self._statistics:
            for moments, value in zip(self._statistics, result.statistics, strict=True):
                moments.add(value)

    def score_histograms(self) -> list[Counter[int]]:
        """Games by final score, per seat (the plots' box plots)."""
        return [seat.histogram for seat in self._seats]

    def per_seat(self) -> list[dict[str, Any]]:
        """Per seat: its bots, win share, outright wins and score distribution."""
        return [
            {
                "seat": seat,
                "bots": [[name, count] for name, count in sorted(tally.bots.items())],
                **share(float(tally.wins), self.games),
                "outright_wins": tally.outright,
                "score": tally.scores.stats(),
                "score_histogram": [[k, v] for k, v in sorted(tally.histogram.items())],
            }
            for seat, tally in enumerate(self._seats)
        ]

    def per_bot(self) -> list[dict[str, Any]]:
        """Per bot (over every seat it took): its win share and score distribution."""
        return [
            {"bot": name, **share(float(bot.wins), bot.plays), "score": bot.scores.stats()}
            for name, bot in sorted(self._bots.items())
        ]

    def length(self) -> dict[str, dict[str, float]]:
        """The games' steps and decisions."""
        return {"steps": self._steps.stats(), "decisions": self._decisions.stats()}

    def first_player(self) -> dict[str, Any]:
        """How often the seat that decided first won, against ``1 / players``."""
        n = self.players
        games = self._first_games
        wins = float(self._first_wins)
        return {
            **share(wins, games),
            "expected_without_advantage": round(1 / n, 6),
            "advantage": round(wins / games - 1 / n, 6) if games else 0.0,
        }

    def statistics(self) -> dict[str, dict[str, float]]:
        """The game's own statistics: mean, sd, min and max per declared name."""
        return {
            name: moments.stats()
            for name, moments in zip(self.statistic_names, self._statistics, strict=True)
        }


def box_stats(histogram: Counter[int], whis: float = 1.5) -> dict[str, Any]:
    """What a box plot of the values counted in ``histogram`` draws (as matplotlib's
    ``cbook.boxplot_stats`` gives for the values themselves: quartiles by linear
    interpolation, whiskers at the furthest values within ``whis`` times the box's height,
    each flier value once), without listing the values."""
    values = sorted(histogram)
    n = sum(histogram.values())

    def at(rank: int) -> int:  # the rank-th smallest value (0-based)
        seen = 0
        for value in values:
            seen += histogram[value]
            if rank < seen:
                return value
        raise IndexError(rank)

    def percentile(p: float) -> float:
        position = (n - 1) * p / 100
        below = math.floor(position)
        low = at(below)
        high = at(min(below + 1, n - 1))
        return float(low + (high - low) * (position - below))

    q1, median, q3 = percentile(25), percentile(50), percentile(75)
    reach = whis * (q3 - q1)
    below_high = [v for v in values if v <= q3 + reach]
    above_low = [v for v in values if v >= q1 - reach]
    high = float(below_high[-1]) if below_high and below_high[-1] >= q3 else q3
    low = float(above_low[0]) if above_low and above_low[0] <= q1 else q1
    return {
        "med": median,
        "q1": q1,
        "q3": q3,
        "whislo": low,
        "whishi": high,
        "fliers": [v for v in values if v < low or v > high],
    }
