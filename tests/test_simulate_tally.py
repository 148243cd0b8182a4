"""The running summary of a simulation (``clangames.cli.tally``): exact sums in constant
memory, the same summary in any order of the games, the box plots of a histogram as
matplotlib draws them from the values, and damaged run files refused by line."""

from __future__ import annotations

import json
import math
import random
import statistics
import tracemalloc
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from clangames.cli.main import main
from clangames.cli.runs import RESULTS_FILE, GameResult
from clangames.cli.simulate import simulate, summarize
from clangames.cli.tally import Moments, Tally, box_stats
from clangames.engine.registry import load

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)
values = st.lists(st.one_of(st.integers(-(10**6), 10**6), finite), min_size=1, max_size=60)


@given(values)
@settings(max_examples=300, deadline=None)
def test_moments_are_the_exact_mean_and_sd_rounded_once(series: list[float]) -> None:
    moments = Moments()
    for value in series:
        moments.add(value)
    got = moments.stats()
    exact = [Fraction(v) for v in series]
    n = len(series)
    mean = sum(exact, Fraction(0)) / n
    assert got["mean"] == round(float(mean), 6)
    if n > 1:
        spread = sum(((v - mean) ** 2 for v in exact), Fraction(0)) / (n - 1)
        assert got["sd"] == round(math.sqrt(spread), 6)
    else:
        assert got["sd"] == 0.0
    assert got["min"] == min(series) and got["max"] == max(series)
    # The float summation it replaced agrees to the six places kept (one unit of the last
    # place where rounding falls on either side of a half).
    assert abs(got["mean"] - round(statistics.fmean(series), 6)) <= 1.01e-6 * max(
        1.0, abs(got["mean"])
    )


def test_moments_of_whole_numbers_give_what_float_summation_gave() -> None:
    """Scores, steps and lengths are integers: there the old two-pass float formula and
    the exact sums agree to the digit (the golden simulate JSON relies on it too)."""
    rng = random.Random(3)
    for _ in range(200):
        series = [rng.randrange(-50, 500) for _ in range(rng.randrange(2, 300))]
        moments = Moments()
        for value in series:
            moments.add(value)
        mean = sum(series) / len(series)
        sd = math.sqrt(sum((v - mean) ** 2 for v in series) / (len(series) - 1))
        assert moments.stats()["mean"] == round(mean, 6)
        assert moments.stats()["sd"] == round(sd, 6)


def _results(name: str, players: int, games: int, seats: list[str]) -> list[GameResult]:
    return simulate(
        load(name, players=players), seats, 5, games, rotate=True, iterations=3, rollout_limit=4
    )


def test_the_summary_does_not_depend_on_the_order_of_the_games() -> None:
    game = load("kings_kilt", players=3)
    seats = ["random", "ismcts", "random"]
    results = _results("kings_kilt", 3, 30, seats)
    declared = game.statistics()
    assert declared is not None
    names = declared.names
    ordered = Tally.of(3, seats, names, results)
    shuffled = list(results)
    random.Random(1).shuffle(shuffled)
    other = Tally.of(3, seats, names, shuffled)
    budget = {"iterations": 3, "rollout_limit": 4}
    one = summarize(game, seats, 5, True, ordered, **budget)
    two = summarize(game, seats, 5, True, other, **budget)
    assert json.dumps(one) == json.dumps(two)
    assert ordered.statistics() == other.statistics()
    assert json.dumps(summarize(game, seats, 5, True, results, **budget)) == json.dumps(one)
    # The figures are the games': per seat wins and score histograms counted one by one.
    for seat, row in enumerate(one["per_seat"]):
        assert row["wins"] == round(math.fsum(r.returns[seat] for r in results), 6)
        hist = Counter(r.scores[seat] for r in results)
        assert row["score_histogram"] == [[k, v] for k, v in sorted(hist.items())]
    assert ordered.decision_histogram == Counter(r.decisions for r in results)


histograms = st.dictionaries(st.integers(-20, 60), st.integers(1, 12), min_size=1, max_size=15)


@given(histograms)
@settings(max_examples=300, deadline=None)
def test_box_stats_of_a_histogram_are_matplotlibs_of_its_values(counts: dict[int, int]) -> None:
    cbook = pytest.importorskip("matplotlib.cbook")
    expanded = [value for value, count in sorted(counts.items()) for _ in range(count)]
    want = cbook.boxplot_stats(expanded)[0]
    got = box_stats(Counter(counts))
    for key in ("med", "q1", "q3", "whislo", "whishi"):
        assert got[key] == pytest.approx(float(want[key]), abs=1e-9), key
    assert got["fliers"] == sorted(set(want["fliers"].tolist()))


def _peak_during(games: int, trace: bool = True) -> int:
    if trace:
        tracemalloc.start()
    try:
        args = ["simulate", "kings-kilt", "--players", "2", "--games", str(games)]
        code = main([*args, "--jobs", "1", "--seed", "2", "--no-progress"])
        assert code == 0
        return tracemalloc.get_traced_memory()[1] if trace else 0
    finally:
        tracemalloc.stop()


def test_a_longer_run_takes_no_more_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """The command keeps a tally, not the games: three times the games, the same peak (the
    list of results it used to keep grew by about 0.4 KB a game here, 500 KB in all). The
    longer run is played once untraced first, so the rules' own caches (bounded, and
    filled by the games met) are as full in both traced runs."""
    _peak_during(1800, trace=False)
    short = _peak_during(600)
    long = _peak_during(1800)
    assert long - short < 100_000, (short, long)
    capsys.readouterr()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda g: g.__setitem__(2, ["x", 1, 2]), "scores"),
        (lambda g: g.__setitem__(1, ["random"]), "seats"),
        (lambda g: g.__setitem__(1, ["random", "nobody", "random"]), "seats"),
        (lambda g: g.__setitem__(4, [7]), "winners"),
        (lambda g: g.__setitem__(3, [0.5, "half", 0.5]), "returns"),
        (lambda g: g.__setitem__(5, -3), "steps"),
        (lambda g: g.__setitem__(7, 9), "first seat"),
        (lambda g: g.__setitem__(8, [1.0]), "statistics"),
        (lambda g: g.__setitem__(8, [float("nan")] * len(g[8])), "statistics"),
        (lambda g: g.pop(), "9 items"),
    ],
)
def test_a_damaged_game_line_is_refused_by_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: object, message: str
) -> None:
    run = tmp_path / "run"
    args = ["simulate", "kings-kilt", "--players", "3", "--games", "6", "--jobs", "1"]
    assert main([*args, "--seed", "2", "--no-progress", "--out", str(run)]) == 0
    lines = (run / RESULTS_FILE).read_text("utf-8").splitlines()
    entry = json.loads(lines[0])
    edit(entry["games"][0])  # type: ignore[operator]
    lines[0] = json.dumps(entry)
    (run / RESULTS_FILE).write_text("\n".join(lines) + "\n", "utf-8")
    capsys.readouterr()
    for command in (["report", str(run)], ["simulate", "--resume", str(run), "--no-progress"]):
        assert main(command) != 0
        err = capsys.readouterr().err
        assert "line 1 is not a finished batch" in err and message in err, err
        assert "Traceback" not in err


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 3)
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("fuzz") / "run"
    args = ["simulate", "kings-kilt", "--players", "2", "--games", "4", "--jobs", "1"]
    assert main([*args, "--seed", "1", "--no-progress", "--out", str(run)]) == 0
    return run


def _one_line_refusal_or_success(code: int, err: str) -> None:
    if code == 0:
        return
    assert code in (1, 2), (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clangames: error: "), err
    assert "internal error" not in err and "Traceback" not in err, err


@given(
    key=st.sampled_from(
        [
            "format",
            "game",
            "params",
            "seats",
            "seed",
            "games",
            "rotate",
            "iterations",
            "rollout_limit",
            "batch_size",
            "statistics",
            "version",
        ]
    ),
    value=json_values,
    drop=st.booleans(),
)
@settings(max_examples=150, deadline=None)
@example(key="batch_size", value=0, drop=False)
@example(key="batch_size", value=float("inf"), drop=False)
@example(key="games", value=-5, drop=False)
@example(key="format", value=True, drop=False)
@example(key="seats", value=["random"], drop=False)
def test_any_run_json_is_resumed_or_refused_in_one_line(
    finished_run: Path,
    tmp_path_factory: pytest.TempPathFactory,
    key: str,
    value: object,
    drop: bool,
) -> None:
    run = tmp_path_factory.mktemp("edited") / "run"
    run.mkdir()
    data = json.loads((finished_run / "run.json").read_text("utf-8"))
    if drop:
        data.pop(key)
    else:
        data[key] = value
    (run / "run.json").write_text(json.dumps(data), "utf-8")
    (run / RESULTS_FILE).write_bytes((finished_run / RESULTS_FILE).read_bytes())
    capture = _Capture()
    with capture:
        code = main(["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"])
    _one_line_refusal_or_success(code, capture.err)


@given(
    data=st.binary(max_size=300)
    | st.lists(json_values, max_size=3).map(
        lambda rows: (json.dumps({"batch": 0, "games": rows}) + "\n").encode()
    )
)
@settings(max_examples=60, deadline=None)
def test_any_results_file_is_resumed_or_refused_in_one_line(
    finished_run: Path, tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    run = tmp_path_factory.mktemp("bytes") / "run"
    run.mkdir()
    (run / "run.json").write_bytes((finished_run / "run.json").read_bytes())
    (run / RESULTS_FILE).write_bytes(data)
    capture = _Capture()
    with capture:
        code = main(["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"])
    _one_line_refusal_or_success(code, capture.err)


class _Capture:
    """stdout and stderr of an in-process command (capsys cannot be used per example)."""

    def __enter__(self) -> None:
        import contextlib
        import io

        self._out, self._err = io.StringIO(), io.StringIO()
        self._stack = contextlib.ExitStack()
        self._stack.enter_context(contextlib.redirect_stdout(self._out))
        self._stack.enter_context(contextlib.redirect_stderr(self._err))

    def __exit__(self, *exc: object) -> None:
        self._stack.close()
        self.err = self._err.getvalue()
