"""``clangames report DIR`` shows the run as it was (the simulate command's mutation audit):
every setting, the confounding warning, each table's every column under its seat's or
bot's label, at DIR/report.html unless told otherwise; and a directory without a run or
an output that cannot be written is refused before the page is drawn."""

from __future__ import annotations

import errno
import json
from html import escape
from pathlib import Path
from typing import Any

import pytest

import clangames.cli.report as report_module
from clangames.cli.main import build_parser, main
from clangames.cli.runs import RESULTS_FILE, RUN_FILE
from report_helpers import ReportPage
from simulate_run_helpers import copy_run, files_of, make_run, refused

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str, str]:
    """An unrotated run of two bots (so the page warns), its summary, its page and what
    the command printed."""
    base = tmp_path_factory.mktemp("reported")
    run, summary = base / "run", base / "summary.json"
    make_run(
        run,
        *("--games", "4", "--seed", "6", "--seats", "random,ismcts"),
        *("--iterations", "2", "--rollout-limit", "2", "--json", str(summary)),
    )
    printed = base / "printed.txt"  # a module fixture cannot use capsys
    with printed.open("w", encoding="utf-8") as out:
        args = build_parser().parse_args(["report", str(run)])
        assert args.handler(args, out) == 0
    page = (run / "report.html").read_text("utf-8")
    return run, json.loads(summary.read_text("utf-8")), page, printed.read_text("utf-8")


def _rate(entry: dict[str, Any]) -> list[str]:
    low, high = entry["ci95"]
    return [str(entry["games"]), f"{entry['win_rate']:.3f}", f"{low:.3f} - {high:.3f}"]


def _stats(values: dict[str, Any]) -> list[str]:
    return [f"{values[k]:.3f}" for k in ("mean", "sd")] + [f"{values[k]:g}" for k in ("min", "max")]


def test_the_page_shows_every_setting_and_the_warning(
    reported: tuple[Path, dict[str, Any], str, str],
) -> None:
    run, summary, html, printed = reported
    assert printed == f"report of 4 games of kings_kilt written to {run / 'report.html'}\n"
    page = ReportPage()
    page.feed(html)
    params = ", ".join(f"{k}={v}" for k, v in summary["params"].items())
    assert page.sections["settings"]["rows"] == [
        ["setting", "value"],
        ["game", "kings_kilt"],
        ["parameters", params],
        ["players", "2"],
        ["seats", "random, ismcts"],
        ["rotated", "no"],
        ["seed", "6"],
        ["games", "4"],
        ["clangames", summary["version"]],
    ]
    assert params.startswith("players=2, ")
    warning = summary["warnings"][0]
    assert f'<p class="warning">warning: {escape(warning)}</p>' in html
    assert escape(warning) != warning  # its apostrophes are escaped, not raw
    assert "seat and bot are confounded" in warning


def test_every_table_column_is_the_summarys(
    reported: tuple[Path, dict[str, Any], str, str],
) -> None:
    _, summary, html, _ = reported
    page = ReportPage()
    page.feed(html)
    rows = {key: section["rows"][1:] for key, section in page.sections.items()}
    labels = ["P0 random", "P1 ismcts"]
    seats = summary["per_seat"]
    assert rows["win-rates-by-seat"] == [
        [lab, *_rate(s)] for lab, s in zip(labels, seats, strict=True)
    ]
    assert rows["win-rates-by-bot"] == [[b["bot"], *_rate(b)] for b in summary["per_bot"]]
    first = summary["first_player"]
    assert rows["first-player"] == [
        [
            "first player",
            *_rate(first),
            f"{first['expected_without_advantage']:.3f}",
            f"{first['advantage']:+.3f}",
        ]
    ]
    assert rows["first-player"][0][-1][0] in "+-"
    assert rows["scores"] == [
        [lab, *_stats(s["score"])] for lab, s in zip(labels, seats, strict=True)
    ]
    length = summary["length"]
    assert rows["length"] == [
        ["steps", *_stats(length["steps"])],
        ["decisions", *_stats(length["decisions"])],
    ]
    assert length["steps"] != length["decisions"]


def test_a_directory_without_a_run_is_named_before_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"
    refused(capsys, ["report", str(missing)], "holds no run")
    assert not missing.exists()


def test_an_output_that_cannot_be_written_is_refused_before_the_page(
    reported: tuple[Path, dict[str, Any], str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = reported[0]
    before = files_of(run)
    target = tmp_path / "no" / "page.html"
    line = refused(capsys, ["report", str(run), "--output", str(target)], "--output: cannot write")
    assert "does not exist" in line
    assert files_of(run) == before


def test_markup_in_a_runs_names_stays_text(
    reported: tuple[Path, dict[str, Any], str, str], tmp_path: Path
) -> None:
    """report does not ask the bot registry about a run's seats, so a run.json edited by
    hand can name a seat anything: the page shows the name, and runs no markup from it."""
    run = copy_run(reported[0], tmp_path)
    name = "</script><b>x</b>"
    for file in (RUN_FILE, RESULTS_FILE):
        text = (run / file).read_text("utf-8")
        (run / file).write_text(text.replace('"ismcts"', json.dumps(name)), "utf-8")
    target = tmp_path / "page.html"
    assert main(["report", str(run), "--output", str(target)]) == 0
    html = target.read_text("utf-8")
    body, script = html.split('<script type="application/json" id="summary">')
    assert "<b>" not in body  # escaped in every table
    # The page's own three end tags, and none from the name: it cannot end the script.
    assert script.endswith("</script></body></html>\n") and script.count("</") == 3
    page = ReportPage()
    page.feed(html)
    assert json.loads(page.summary)["seats"] == ["random", name]
    assert page.sections["settings"]["rows"][4] == ["seats", f"random, {name}"]


def test_a_report_that_cannot_be_written_after_all_is_one_line(
    reported: tuple[Path, dict[str, Any], str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The disk may fill between the check of --output and the page's writing."""

    def full(path: Any, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report_module, "atomic_write", full)  # the page is written whole
    target = tmp_path / "page.html"
    refused(
        capsys, ["report", str(reported[0]), "--output", str(target)], "cannot write the report"
    )
    assert not target.exists()
