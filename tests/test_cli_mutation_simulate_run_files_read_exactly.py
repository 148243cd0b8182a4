"""A run directory is read back exactly (the simulate command's mutation audit): every
field of run.json and of a game row checked for its type and range, a damaged one refused
naming the file and its line or field; batches cut where the run cut them (a short last
batch included); a line torn by a crash cut off, a batch written twice counted once and
the file kept whole; ``--out`` taking only a new or empty directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clangames.cli.main import main
from clangames.cli.runs import (
    RESULTS_FILE,
    RUN_FILE,
    append_batch,
    open_results,
    read_settings,
    result_from_row,
)
from simulate_run_helpers import (
    copy_run,
    edit_settings,
    files_of,
    make_run,
    refused,
    result_lines,
    write_lines,
)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six two-player games, one a batch."""
    return make_run(tmp_path_factory.mktemp("finished") / "run", "--games", "6", "--seed", "1")


@pytest.fixture(scope="module")
def batched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twenty-five games in batches of three (25 // 8), the last batch one game."""
    return make_run(tmp_path_factory.mktemp("batched") / "run", "--games", "25", "--seed", "3")


def _resume(run: Path, *extra: str) -> list[str]:
    return ["simulate", "--resume", str(run), "--no-progress", "--jobs", "1", *extra]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": 2}, "run format 2, this clangames reads 1"),
        ({"format": True}, "run format True, this clangames reads 1"),
        ({"seats": []}, "run.seats: expected a list of bot names, got []"),
        ({"games": 0}, "run.games: expected a whole number at least 1, got 0"),
        ({"iterations": 0}, "run.iterations: expected null or at least 1, got 0"),
        ({"rotate": 1}, "run.rotate: expected true or false, got 1"),
    ],
)
def test_a_run_json_field_out_of_range_is_refused_naming_it(
    finished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    changes: dict[str, Any],
    message: str,
) -> None:
    run = copy_run(finished, tmp_path)
    edit_settings(run, **changes)
    before = files_of(run)
    refused(capsys, _resume(run), f"{run / RUN_FILE}: {message}")
    assert files_of(run) == before


def test_a_run_json_that_is_not_json_is_refused_naming_it(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(finished, tmp_path)
    (run / RUN_FILE).write_text('{"format": 1,', "utf-8")
    refused(capsys, ["report", str(run)], f"{run / RUN_FILE}: not JSON")


def test_a_rollout_limit_of_zero_is_a_run_setting(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(finished, tmp_path)
    edit_settings(run, rollout_limit=0)
    assert main(_resume(run)) == 0
    assert "resuming" in capsys.readouterr().out


# A game row: index, seats, scores, returns, winners, steps, decisions, first, statistics.
ROW_DAMAGE = [
    (lambda g: g.append(0), "a game is a list of 9 items"),
    (lambda g: g.__setitem__(2, [3]), "scores [3], expected 2 numbers"),
    (lambda g: g.__setitem__(2, [True, 1]), "scores [True, 1], expected 2 numbers"),
    (lambda g: g.__setitem__(3, [1.0]), "returns [1.0], expected 2 numbers"),
    (lambda g: g.__setitem__(4, [2]), "winners [2], expected seats 0..1"),
    (lambda g: g.__setitem__(6, g[5] + 1), "steps and"),
    (lambda g: g.__setitem__(5, True), "True steps"),
    (lambda g: g.__setitem__(7, 2), "first seat 2, expected -1..1"),
]


@pytest.mark.parametrize(("edit", "message"), ROW_DAMAGE)
def test_a_damaged_game_row_is_refused_by_line(
    finished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: Any,
    message: str,
) -> None:
    run = copy_run(finished, tmp_path)
    lines = result_lines(run)
    entry = json.loads(lines[1])
    edit(entry["games"][0])
    write_lines(run, [lines[0], json.dumps(entry), *lines[2:]])
    before = files_of(run)
    for argv in (_resume(run), ["report", str(run)]):
        refused(
            capsys, argv, f"{str(run / RESULTS_FILE)!r} line 2 is not a finished batch", message
        )
    assert files_of(run) == before


@pytest.mark.parametrize(
    ("line", "message"),
    [("[]", "line 3 is not a finished batch"), ('{"batch": 0}', "line 3 is not a finished")],
)
def test_a_line_that_is_no_batch_is_refused_by_line(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    run = copy_run(finished, tmp_path)
    lines = result_lines(run)
    write_lines(run, [*lines[:2], line, *lines[3:]])
    refused(capsys, _resume(run), message)


def test_a_batch_starting_off_the_runs_cuts_is_refused(
    batched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Games 1..3 are not a batch of a run cut in threes: read, they would count game 1
    and 2 twice."""
    run = copy_run(batched, tmp_path)
    lines = result_lines(run)
    first, second = json.loads(lines[0]), json.loads(lines[1])
    assert (first["batch"], second["batch"]) == (0, 3)
    shifted = {"batch": 1, "games": first["games"][1:] + second["games"][:1]}
    write_lines(run, [*lines, json.dumps(shifted)])
    refused(capsys, _resume(run), f"line {len(lines) + 1} is not a finished batch", "batch 1 ")


def test_a_run_with_a_short_last_batch_resumes_and_reports_as_played(
    batched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(batched, tmp_path)
    last = json.loads(result_lines(run)[-1])
    assert last["batch"] == 24 and [g[0] for g in last["games"]] == [24]
    before = files_of(run)
    assert main([*_resume(run), "--json", str(tmp_path / "a.json")]) == 0
    assert "0 games in" in capsys.readouterr().out
    assert main(["report", str(run), "--output", str(tmp_path / "r.html")]) == 0
    assert files_of(run) == before
    assert json.loads((tmp_path / "a.json").read_text("utf-8"))["games"] == 25


def test_a_batch_written_twice_counts_once_and_the_file_is_kept(
    batched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A resumed run that raced a dying one may write a batch twice; the lines after the
    copy are finished batches too, and resuming must neither count nor cut them."""
    whole = copy_run(batched, tmp_path, "whole")
    assert main([*_resume(whole), "--json", str(tmp_path / "whole.json")]) == 0
    run = copy_run(batched, tmp_path)
    lines = result_lines(run)
    kept = [*lines[:3], lines[1], *lines[3:6]]  # batch 3 twice; batches 18.. not played
    write_lines(run, kept)
    assert main([*_resume(run), "--json", str(tmp_path / "resumed.json")]) == 0
    capsys.readouterr()
    after = result_lines(run)
    assert after[: len(kept)] == kept
    assert sorted(json.loads(line)["batch"] for line in after[len(kept) :]) == list(
        range(18, 25, 3)
    )
    assert (tmp_path / "resumed.json").read_text("utf-8") == (tmp_path / "whole.json").read_text(
        "utf-8"
    )


def test_a_line_torn_by_a_crash_is_cut_off_and_played_again(
    batched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(batched, tmp_path)
    lines = result_lines(run)
    torn = lines[-1][: len(lines[-1]) // 2]
    (run / RESULTS_FILE).write_text("".join(f"{line}\n" for line in lines[:-1]) + torn, "utf-8")
    assert main(_resume(run)) == 0
    assert "1 games in" in capsys.readouterr().out
    assert result_lines(run) == lines


def test_a_run_that_lost_its_results_file_plays_every_game_again(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(finished, tmp_path)
    (run / RESULTS_FILE).unlink()
    assert main(_resume(run)) == 0
    assert "6 games in" in capsys.readouterr().out
    assert sorted(result_lines(run)) == sorted(result_lines(finished))


def test_out_takes_a_new_or_empty_directory_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("keep me", "utf-8")
    new = ["simulate", "kings-kilt", "--games", "2", "--jobs", "1", "--no-progress"]
    refused(capsys, [*new, "--out", str(a_file)], "is not an empty directory")
    assert a_file.read_text("utf-8") == "keep me"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([*new, "--out", str(empty)]) == 0
    assert sorted(p.name for p in empty.iterdir()) == [RESULTS_FILE, RUN_FILE]


def test_a_batch_is_on_the_disk_when_append_batch_returns(tmp_path: Path) -> None:
    """A run killed after a batch finished must find it in the file: the line may not wait
    in a buffer for the stream to close."""
    run = make_run(tmp_path / "run", "--games", "2", "--seed", "5")
    lines = result_lines(run)
    (run / RESULTS_FILE).write_bytes(b"")
    results = [
        result_from_row(row, read_settings(str(run))) for row in json.loads(lines[0])["games"]
    ]
    out = open_results(str(run), 0)
    try:
        append_batch(out, 0, results)
        assert result_lines(run) == lines[:1]
    finally:
        out.close()
