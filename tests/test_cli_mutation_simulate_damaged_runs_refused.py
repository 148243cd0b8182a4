"""Run directories damaged by hand, and outputs aimed at a run's own files: every one is
refused with one line naming the file (and its line or field), and nothing is changed.
Each case here ended as the CLI's "internal error" line, was read as a different run, or
destroyed the run, before the fix."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path

import pytest

import clangames.cli.runs as runs
import clangames.cli.simulate as simulate_module
from clangames.cli.runs import RESULTS_FILE, RUN_FILE
from simulate_run_helpers import (
    copy_run,
    edit_settings,
    files_of,
    make_run,
    refused,
    result_lines,
    write_lines,
)

DEEP = "[" * 100_000 + "]" * 100_000
"""JSON nested deeper than the decoder's recursion allows."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_run(tmp_path_factory.mktemp("finished") / "run", "--games", "6", "--seed", "1")


def _both_commands(run: Path) -> list[list[str]]:
    return [
        ["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"],
        ["report", str(run)],
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "not UTF-8 text (byte 0xff at offset 0)"),
        (DEEP.encode(), "not JSON"),
    ],
)
def test_a_run_json_that_cannot_be_decoded_is_refused_naming_it(
    finished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
    message: str,
) -> None:
    run = copy_run(finished, tmp_path)
    (run / RUN_FILE).write_bytes(content)
    before = files_of(run)
    for argv in _both_commands(run):
        refused(capsys, argv, f"{run / RUN_FILE}: {message}")
    assert files_of(run) == before


def test_a_results_line_nested_too_deep_is_refused_by_line(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_run(finished, tmp_path)
    lines = result_lines(run)
    write_lines(run, [*lines[:2], '{"batch": 2, "games": ' + DEEP + "}", *lines[3:]])
    before = files_of(run)
    for argv in _both_commands(run):
        refused(capsys, argv, "results.jsonl' line 3 is not a finished batch")
    assert files_of(run) == before


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_out_of_range_is_refused_before_any_game(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    run = copy_run(finished, tmp_path)
    write_lines(run, result_lines(run)[:2])  # unfinished: resuming would play games
    edit_settings(run, seed=seed)
    before = files_of(run)
    refused(
        capsys,
        ["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"],
        f"{run / RUN_FILE}: run.seed: expected an integer in 0..2**64-1, got {seed}",
    )
    assert files_of(run) == before


@pytest.mark.parametrize(
    ("seats", "message"),
    [(["genius", "random"], "no bot called 'genius'"), (["human", "random"], "bots only")],
)
def test_seats_no_bot_can_take_are_refused_naming_run_json(
    finished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    seats: list[str],
    message: str,
) -> None:
    run = copy_run(finished, tmp_path)
    edit_settings(run, seats=seats)
    before = files_of(run)
    refused(
        capsys,
        ["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"],
        f"{run / RUN_FILE}: seats {seats}",
        message,
    )
    assert files_of(run) == before


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda entry: entry.__setitem__("batch", True), "batch True is not one of the run's"),
        (lambda entry: entry["games"][0].__setitem__(8, []), "statistics [], expected 18"),
        (lambda entry: entry["games"][0].__setitem__(3, [5.0, 0.0]), "returns [5.0, 0.0], exp"),
        (lambda entry: entry["games"][0].__setitem__(4, [1, 1]), "winners [1, 1] name a seat"),
    ],
)
def test_a_batch_that_only_looks_like_this_runs_is_refused(
    finished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: object,
    message: str,
) -> None:
    """``true`` equals 1 in Python, an empty statistics list once passed as "this game
    measured nothing", and returns that are not the winners' shares were summed into the
    win rates (a rate above 1): all were read as a finished batch."""
    run = copy_run(finished, tmp_path)
    lines = result_lines(run)
    entry = json.loads(lines[1])
    edit(entry)  # type: ignore[operator]
    write_lines(run, [lines[0], json.dumps(entry), *lines[2:]])
    before = files_of(run)
    for argv in _both_commands(run):
        refused(capsys, argv, "line 2 is not a finished batch", message)
    assert files_of(run) == before


@pytest.mark.parametrize("name", [RUN_FILE, RESULTS_FILE])
def test_no_output_may_overwrite_the_runs_own_files(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    run = copy_run(finished, tmp_path)
    before = files_of(run)
    target = str(run / name)
    resume = ["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"]
    refused(capsys, [*resume, "--json", target], f"--json: {target!r} is the run's own {name}")
    refused(capsys, [*resume, "--plot", target], f"--plot: {target!r} is the run's own {name}")
    refused(capsys, ["report", str(run), "--output", target], "--output: ", "run's own")
    assert files_of(run) == before
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    out = ["simulate", "kings-kilt", "--games", "2", "--no-progress", "--out", str(fresh)]
    refused(capsys, [*out, "--json", str(fresh / name)], "is the run's own")
    assert list(fresh.iterdir()) == []


class _FullDisk(io.StringIO):
    """A results file on a full disk: nothing written reaches it, closing included."""

    name = "run/results.jsonl"

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def close(self) -> None:
        self.flush()


@pytest.mark.parametrize("fails", ["fsync", "flush"])
def test_a_full_disk_mid_run_is_one_line_and_keeps_the_written_batches(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fails: str,
) -> None:
    run = tmp_path / "run"
    written: list[int] = []
    if fails == "fsync":
        real = os.fsync

        def fsync(fd: int) -> None:
            # Only the batches' syncs count (run.json is synced too, before any batch).
            results = run / RESULTS_FILE
            if results.exists() and os.fstat(fd).st_ino == os.stat(results).st_ino:
                written.append(fd)
            if len(written) > 2:
                raise OSError(errno.ENOSPC, "No space left on device")
            real(fd)

        monkeypatch.setattr(runs.os, "fsync", fsync)
    else:
        monkeypatch.setattr(simulate_module, "open_results", lambda directory, keep: _FullDisk())
    line = refused(
        capsys,
        [
            "simulate",
            "kings-kilt",
            "--games",
            "6",
            "--jobs",
            "1",
            "--no-progress",
            "--out",
            str(run),
        ],
        "No space left on device",
        "--resume",
    )
    assert "internal error" not in line
    if fails == "fsync":
        assert len(result_lines(run)) == 3  # the third line was written before its sync failed


def test_a_parameter_called_name_is_refused_as_unknown(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by test_simulate_tally's run.json fuzz: params {"name": ...} reached
    ``load(name, **params)`` as a second value for its first argument."""
    run = copy_run(finished, tmp_path)
    edit_settings(run, params={"name": None})
    for argv in _both_commands(run):
        refused(capsys, argv, f"{run}/run.json: cannot load its game", "unknown parameter 'name'")
