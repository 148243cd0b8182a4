"""``clangames report DIR``: a self-contained HTML page about a finished simulation run.

``clangames simulate GAME ... --out DIR`` streams a run's results to ``DIR``; this command
reads them back, computes the same summary ``simulate --json`` writes (from the stream, so
it needs no other file) and writes ``DIR/report.html`` (or ``--output FILE``): the run's
settings, win rates by seat and by bot with their 95% Wilson intervals, the first player's
advantage, the score and game-length distributions and the game's own statistics, each
section with a table and a plot. The plots are drawn with matplotlib (the ``plot`` extra)
and embedded as PNG data, so the page is one file that can be mailed or archived; the
summary itself is embedded too, as JSON in ``<script id="summary">``.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from clangames.cli.errors import CommandFailure
from clangames.cli.files import atomic_write, check_writable, os_reason
from clangames.cli.runs import read_settings, refuse_run_file
from clangames.cli.simulate import check_plot_extra, full_summary, load_run_game, tally_run
from clangames.cli.tally import Tally, box_stats

SECTIONS = (
    ("settings", "The run"),
    ("win-rates-by-seat", "Win rates by seat"),
    ("win-rates-by-bot", "Win rates by bot"),
    ("first-player", "First-player advantage"),
    ("scores", "Score distributions"),
    ("length", "Game length"),
    ("game-statistics", "The game's own statistics"),
)
"""Every section of the page, in order: its HTML id and its heading."""

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70em; margin: 2em auto; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { padding: 0.2em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.warning { color: #a60; font-weight: bold; }
img { max-width: 100%; }
"""


def _pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive Agg backend (the extra is checked first)."""
    check_plot_extra()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(plt: Any, fig: Any) -> str:
    """A figure as an ``<img>`` with the PNG inline."""
    buffer = io.BytesIO()
    try:
        fig.tight_layout()
        fig.savefig(buffer, format="png", dpi=90)
    finally:
        plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _rate(entry: dict[str, Any]) -> list[object]:
    low, high = entry["ci95"]
    return [entry["games"], f"{entry['win_rate']:.3f}", f"{low:.3f} - {high:.3f}"]


def _rate_plot(
    plt: Any, rows: Sequence[dict[str, Any]], labels: Sequence[str], players: int, title: str
) -> str:
    fig, axes = plt.subplots(figsize=(max(4.0, 1.2 * len(rows) + 2), 3.5))
    rates = [r["win_rate"] for r in rows]
    lows = [r["win_rate"] - r["ci95"][0] for r in rows]
    highs = [r["ci95"][1] - r["win_rate"] for r in rows]
    axes.bar(range(len(rows)), rates, yerr=[lows, highs], capsize=6, color="tab:blue")
    axes.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    axes.set_xticks(range(len(rows)), labels)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% interval)")
    axes.set_title(title)
    return _png(plt, fig)


def _stats_row(name: str, values: dict[str, float]) -> list[object]:
    return [
        name,
        f"{values['mean']:.3f}",
        f"{values['sd']:.3f}",
        f"{values['min']:g}",
        f"{values['max']:g}",
    ]


def render(summary: dict[str, Any], tally: Tally) -> str:
    """The report page of a run's summary and the tally of its games."""
    plt = _pyplot()
    players = summary["players"]
    parts: dict[str, str] = {}
    settings = [
        ["game", summary["game"]],
        ["parameters", ", ".join(f"{k}={v}" for k, v in summary["params"].items()) or "-"],
        ["players", players],
        ["seats", ", ".join(summary["seats"])],
        ["rotated", "yes" if summary["rotate"] else "no"],
        ["seed", summary["seed"]],
        ["games", summary["games"]],
        ["clangames", summary["version"]],
    ]
    warnings = "".join(
        f'<p class="warning">warning: {html.escape(w)}</p>' for w in summary["warnings"]
    )
    parts["settings"] = _table(["setting", "value"], settings) + warnings
    seats = summary["per_seat"]
    seat_labels = [f"P{s['seat']} {'/'.join(n for n, _ in s['bots'])}" for s in seats]
    parts["win-rates-by-seat"] = _table(
        ["seat", "games", "win rate", "95% interval"],
        [[label, *_rate(s)] for label, s in zip(seat_labels, seats, strict=True)],
    ) + _rate_plot(plt, seats, [f"P{s['seat']}" for s in seats], players, "win rate per seat")
    bots = summary["per_bot"]
    parts["win-rates-by-bot"] = _table(
        ["bot", "seat-games", "win rate", "95% interval"], [[b["bot"], *_rate(b)] for b in bots]
    ) + _rate_plot(plt, bots, [b["bot"] for b in bots], players, "win rate per bot")
    first = summary["first_player"]
    parts["first-player"] = _table(
        ["", "games", "win rate", "95% interval", "without advantage", "advantage"],
        [
            [
                "first player",
                *_rate(first),
                f"{first['expected_without_advantage']:.3f}",
                f"{first['advantage']:+.3f}",
            ]
        ],
    )
    parts["scores"] = _table(
        ["seat", "mean", "sd", "min", "max"],
        [_stats_row(label, s["score"]) for label, s in zip(seat_labels, seats, strict=True)],
    ) + _score_plot(plt, summary, tally)
    length = summary["length"]
    parts["length"] = _table(
        ["measure", "mean", "sd", "min", "max"],
        [_stats_row("steps", length["steps"]), _stats_row("decisions", length["decisions"])],
    ) + _length_plot(plt, tally)
    statistics = summary["statistics"]
    parts["game-statistics"] = (
        _table(
            ["statistic (per game)", "mean", "sd", "min", "max"],
            [_stats_row(name, values) for name, values in statistics.items()],
        )
        + _statistics_plot(plt, statistics)
        if statistics
        else "<p>This game declares no statistics.</p>"
    )
    title = f"{summary['game']}: {summary['games']} games, seed {summary['seed']}"
    body = "".join(
        f'<section id="{key}"><h2>{html.escape(heading)}</h2>{parts[key]}</section>'
        for key, heading in SECTIONS
    )
    data = json.dumps(summary).replace("</", "<\\/")
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>{body}"
        f'<script type="application/json" id="summary">{data}</script></body></html>\n'
    )


def _score_plot(plt: Any, summary: dict[str, Any], tally: Tally) -> str:
    fig, axes = plt.subplots(figsize=(8, 3.5))
    seats = summary["per_seat"]
    axes.bxp([box_stats(histogram) for histogram in tally.score_histograms()])
    axes.set_xticks(range(1, len(seats) + 1), [f"P{s['seat']}" for s in seats])
    axes.set_ylabel("final score")
    axes.set_title("score distribution per seat")
    return _png(plt, fig)


def _length_plot(plt: Any, tally: Tally) -> str:
    fig, axes = plt.subplots(figsize=(8, 3.5))
    counts = sorted(tally.decision_histogram.items())
    axes.bar([k for k, _ in counts], [v for _, v in counts], width=1.0, color="tab:green")
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    axes.set_title("game length")
    return _png(plt, fig)


def _statistics_plot(plt: Any, statistics: dict[str, dict[str, float]]) -> str:
    names = list(statistics)
    fig, axes = plt.subplots(figsize=(8, max(2.5, 0.3 * len(names) + 1)))
    means = [statistics[n]["mean"] for n in names]
    sds = [statistics[n]["sd"] for n in names]
    axes.barh(range(len(names)), means, xerr=sds, color="tab:purple", capsize=3)
    axes.set_yticks(range(len(names)), names)
    axes.invert_yaxis()
    axes.set_xlabel("mean per game (bar: one standard deviation)")
    axes.set_title("the game's statistics")
    return _png(plt, fig)


def build_report(directory: str) -> tuple[dict[str, Any], str]:
    """The summary of the finished run in ``directory`` and its report page."""
    settings = read_settings(directory)
    game = load_run_game(directory, settings)
    tally = tally_run(directory, settings)
    summary = full_summary(game, settings, tally)
    return summary, render(summary, tally)


def add_parser(subparsers: Any) -> None:
    """Add the ``report`` subcommand to the ``clangames`` parser."""
    parser = subparsers.add_parser(
        "report",
        help="write an HTML report of a simulation run (simulate --out DIR)",
        description=(
            "Win rates by seat and by bot with 95% intervals, the first player's advantage,"
            " score and length distributions and the game's own statistics of the run in"
            " DIR, as one self-contained HTML page (needs matplotlib, the 'plot' extra)."
        ),
    )
    parser.add_argument("directory", metavar="DIR", help="a run directory (simulate --out DIR)")
    parser.add_argument(
        "--output", metavar="FILE", default=None, help="where to write (default DIR/report.html)"
    )
    parser.set_defaults(handler=lambda args, out: run(args, out))


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``clangames report``: every input is checked before the page is drawn."""
    target = args.output if args.output is not None else str(Path(args.directory) / "report.html")
    read_settings(args.directory)  # a directory without a run stops here
    refuse_run_file(target, args.directory, "--output")
    check_writable(target, "--output")
    check_plot_extra()
    summary, page = build_report(args.directory)
    try:
        atomic_write(target, page)
    except OSError as exc:
        raise CommandFailure(f"cannot write the report {target!r}: {os_reason(exc)}") from None
    out.write(f"report of {summary['games']} games of {summary['game']} written to {target}\n")
    return 0
