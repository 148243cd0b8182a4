"""``clangames report DIR``: the page built from a small run has every section, and its
figures are the summary's (the one ``simulate --json`` writes for the same run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clangames.cli.main import main
from clangames.cli.report import SECTIONS
from report_helpers import ReportPage

pytest.importorskip("matplotlib")


def test_the_report_has_every_section_with_the_summarys_figures(tmp_path: Path) -> None:
    run, summary_file = tmp_path / "run", tmp_path / "summary.json"
    assert (
        main(
            [
                "simulate",
                "kings-kilt",
                "--players",
                "2",
                "--seats",
                "random,ismcts",
                "--iterations",
                "3",
                "--rollout-limit",
                "4",
                "--rotate",
                "--games",
                "16",
                "--seed",
                "6",
                "--jobs",
                "2",
                "--no-progress",
                "--out",
                str(run),
                "--json",
                str(summary_file),
            ]
        )
        == 0
    )
    target = tmp_path / "page.html"
    assert main(["report", str(run), "--output", str(target)]) == 0
    page = ReportPage()
    page.feed(target.read_text("utf-8"))
    summary = json.loads(summary_file.read_text("utf-8"))
    assert json.loads(page.summary) == summary
    assert list(page.sections) == [key for key, _ in SECTIONS]
    sections = page.sections
    for key in ("win-rates-by-seat", "win-rates-by-bot", "scores", "length"):
        assert sections[key]["images"] == 1, key
    seat_rows = sections["win-rates-by-seat"]["rows"][1:]
    for row, seat in zip(seat_rows, summary["per_seat"], strict=True):
        assert row[1:] == [
            str(seat["games"]),
            f"{seat['win_rate']:.3f}",
            f"{seat['ci95'][0]:.3f} - {seat['ci95'][1]:.3f}",
        ]
    bot_rows = sections["win-rates-by-bot"]["rows"][1:]
    assert [row[0] for row in bot_rows] == ["ismcts", "random"]
    for row, bot in zip(bot_rows, summary["per_bot"], strict=True):
        assert row[2] == f"{bot['win_rate']:.3f}"
    first = summary["first_player"]
    assert sections["first-player"]["rows"][1][2:] == [
        f"{first['win_rate']:.3f}",
        f"{first['ci95'][0]:.3f} - {first['ci95'][1]:.3f}",
        f"{first['expected_without_advantage']:.3f}",
        f"{first['advantage']:+.3f}",
    ]
    score_rows = sections["scores"]["rows"][1:]
    assert [row[1] for row in score_rows] == [
        f"{s['score']['mean']:.3f}" for s in summary["per_seat"]
    ]
    steps = summary["length"]["steps"]
    assert sections["length"]["rows"][1] == [
        "steps",
        f"{steps['mean']:.3f}",
        f"{steps['sd']:.3f}",
        f"{steps['min']:g}",
        f"{steps['max']:g}",
    ]
    statistic_rows = sections["game-statistics"]["rows"][1:]
    assert [row[0] for row in statistic_rows] == list(summary["statistics"])
    assert [row[1] for row in statistic_rows] == [
        f"{v['mean']:.3f}" for v in summary["statistics"].values()
    ]
    assert sections["game-statistics"]["images"] == 1


def test_the_report_of_a_directory_without_a_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("clangames: error: ") and "holds no run" in err
