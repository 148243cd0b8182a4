"""Resumable simulation runs: ``simulate --out DIR`` streams finished batches, a run whose
process is killed is finished by ``simulate --resume DIR`` without replaying its finished
batches, and the summary (computed from the stream) is the uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clangames.cli.main import main
from clangames.cli.runs import RESULTS_FILE, read_settings, scan_batches

CLI = [sys.executable, "-m", "clangames.cli"]
RUN = ["kings-kilt", "--players", "3", "--seed", "4", "--seats", "random"]


def _batches(directory: Path) -> list[int]:
    lines = (directory / RESULTS_FILE).read_text("utf-8").splitlines()
    return [json.loads(line)["batch"] for line in lines]


def test_a_killed_run_resumed_gives_the_uninterrupted_summary(tmp_path: Path) -> None:
    run = tmp_path / "run"
    games = "4000"
    # The run in its own session, so that killing the group leaves no worker behind.
    process = subprocess.Popen(
        [*CLI, "simulate", *RUN, "--games", games, "--jobs", "1", "--out", str(run)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            results = run / RESULTS_FILE
            if results.exists() and results.read_bytes().count(b"\n") >= 3:
                break
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    settings = read_settings(str(run))
    before = _batches(run)
    assert 3 <= len(before) < len(settings.batch_starts()), "the kill came too late"
    # A line torn by the crash is dropped, not read.
    with open(run / RESULTS_FILE, "a", encoding="utf-8") as fh:
        fh.write('{"batch": 999999, "games": [[1, ')
    resumed = tmp_path / "resumed.json"
    assert (
        main(
            [
                "simulate",
                "--resume",
                str(run),
                "--jobs",
                "2",
                "--no-progress",
                "--json",
                str(resumed),
            ]
        )
        == 0
    )
    after = _batches(run)
    assert after[: len(before)] == before  # finished batches were kept ...
    assert sorted(after) == settings.batch_starts()  # ... and not played again
    whole = tmp_path / "whole.json"
    assert (
        main(
            [
                "simulate",
                *RUN,
                "--games",
                games,
                "--jobs",
                "1",
                "--no-progress",
                "--json",
                str(whole),
            ]
        )
        == 0
    )
    assert resumed.read_text("utf-8") == whole.read_text("utf-8")
    summary = json.loads(resumed.read_text("utf-8"))
    assert summary["games"] == 4000
    assert set(summary["statistics"]) >= {"crowned", "king.Stewart"}


def test_resuming_a_finished_run_plays_nothing_and_gives_the_same_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, first, again = tmp_path / "run", tmp_path / "a.json", tmp_path / "b.json"
    args = ["simulate", "kilt-castle", "--games", "12", "--seed", "2", "--no-progress"]
    assert main([*args, "--jobs", "2", "--out", str(run), "--json", str(first)]) == 0
    lines = (run / RESULTS_FILE).read_bytes()
    assert main(["simulate", "--resume", str(run), "--json", str(again), "--no-progress"]) == 0
    assert (run / RESULTS_FILE).read_bytes() == lines
    assert again.read_text("utf-8") == first.read_text("utf-8")
    assert "resuming" in capsys.readouterr().out
    games: list[int] = []
    finished, _ = scan_batches(str(run), read_settings(str(run)), lambda r: games.append(r.index))
    assert sorted(games) == list(range(12))
    assert len(finished) == len(read_settings(str(run)).batch_starts())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "{run}", "kings-kilt"], "leave out GAME"),
        (["--resume", "{run}", "--seed", "3"], "leave out --seed"),
        (["--resume", "{tmp}/nothing"], "holds no run"),
        (["kings-kilt", "--out", "{run}"], "is not an empty directory"),
        (["kings-kilt", "--address", "ray://x:1"], "--address needs --backend ray"),
        ([], "simulate needs GAME"),
    ],
)
def test_bad_run_options_are_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    run = tmp_path / "run"
    assert (
        main(
            [
                "simulate",
                "koa-kingmaker",
                "--games",
                "2",
                "--out",
                str(run),
                "--jobs",
                "1",
                "--no-progress",
            ]
        )
        == 0
    )
    capsys.readouterr()
    argv = [a.format(run=run, tmp=tmp_path) for a in args]
    assert main(["simulate", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("clangames: error: ")
    assert message in err[0]


def test_an_unfinished_run_cannot_be_reported(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert (
        main(
            [
                "simulate",
                "koa-kingmaker",
                "--games",
                "6",
                "--jobs",
                "3",
                "--out",
                str(run),
                "--no-progress",
            ]
        )
        == 0
    )
    lines = (run / RESULTS_FILE).read_text("utf-8").splitlines()
    (run / RESULTS_FILE).write_text(lines[0] + "\n", "utf-8")
    assert main(["report", str(run)]) == 1


def test_the_ray_backend_without_the_extra_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    assert main(["simulate", "kings-kilt", "--backend", "ray", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("clangames: error: --backend ray needs Ray")
    assert "pip install 'clangames[ray]'" in err
