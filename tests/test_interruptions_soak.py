"""Nothing is lost when a command is stopped at any moment: ``simulate --out`` killed
(SIGKILL, SIGINT or SIGTERM) at random moments, its resumes killed too, ends with the
uninterrupted run's summary; ``play`` with bots only, killed the same way and resumed
from its autosave until the game ends, always leaves an autosave that loads, and ends
with the uninterrupted game's moves.

A soak: it runs only with ``CLANGAMES_SOAK=1`` (a few minutes). The fuzz4 sweep ran it
with 25 simulate runs and 50 games (none lost). The console script is used, since
``python -m clangames.cli`` cannot guard the package's import against a Ctrl-C (see
``clangames_launcher``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from clangames import GameRecord

pytestmark = [
    pytest.mark.skipif(os.environ.get("CLANGAMES_SOAK") != "1", reason="a soak: CLANGAMES_SOAK=1"),
    pytest.mark.soak,  # no per-test time limit (tests/conftest.py)
]
LAUNCHER = [
    sys.executable,
    "-c",
    "import sys, clangames_launcher; sys.exit(clangames_launcher.main())",
]
SIGNALS = [signal.SIGKILL, signal.SIGINT, signal.SIGTERM]


def _run(args: list[str], rng: random.Random, kill_after: float | None) -> tuple[int, str]:
    """Run the command in its own session; after ``kill_after`` seconds (if it is still
    running) send one of SIGNALS to the whole group. Its status and stderr."""
    proc = subprocess.Popen(
        [*LAUNCHER, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, rng.choice(SIGNALS))
    _, err = proc.communicate(timeout=600)
    if proc.returncode != 0:
        with contextlib.suppress(ProcessLookupError):  # a worker the parent's stop left
            os.killpg(proc.pid, signal.SIGKILL)
    assert "Traceback" not in err.decode(errors="replace"), err.decode(errors="replace")
    return proc.returncode, err.decode(errors="replace")


@pytest.mark.parametrize("seed", range(5))
def test_simulate_killed_at_random_moments_gives_the_uninterrupted_summary(
    tmp_path: Path, seed: int
) -> None:
    run = ["simulate", "kings-kilt", "--players", "3", "--games", "1500", "--seed", "4"]
    run += ["--seats", "random", "--no-progress"]
    whole = tmp_path / "whole.json"
    assert _run([*run, "--jobs", "1", "--json", str(whole)], random.Random(0), None)[0] == 0
    rng = random.Random(seed)
    for attempt in range(5):
        out, result = tmp_path / f"run{attempt}", tmp_path / f"result{attempt}.json"
        code, _ = _run([*run, "--jobs", "2", "--out", str(out)], rng, rng.uniform(0.0, 4.0))
        for _ in range(20):
            if code == 0 and result.exists():
                break
            if not (out / "run.json").exists():  # killed before the run's settings were written
                shutil.rmtree(out, ignore_errors=True)
                args = [*run, "--jobs", "1", "--out", str(out), "--json", str(result)]
            else:
                args = ["simulate", "--resume", str(out), "--jobs", rng.choice(["1", "2"])]
                args += ["--no-progress", "--json", str(result)]
            code, err = _run(args, rng, rng.uniform(0.0, 4.0) if rng.random() < 0.6 else None)
            assert code in (0, 130, -9, -15, -2), err
        assert json.loads(result.read_text()) == json.loads(whole.read_text())


GAMES = [
    ["kings-kilt", "--players", "3", "--seats", "random,ismcts,random", "--iterations", "30"],
    [
        "koa-kingmaker",
        "--players",
        "4",
        "--seats",
        "random,random,ismcts,random",
        "--iterations",
        "30",
    ],
    ["kilt-castle", "--players", "2", "--seats", "random,random"],
    ["clan-feud", "--players", "3", "--seats", "random,random,random"],
]


@pytest.mark.parametrize("seed", range(10))
def test_play_killed_at_random_moments_resumes_to_the_same_game(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    game = [*rng.choice(GAMES), "--seed", str(rng.randrange(50))]
    whole = tmp_path / "whole.json"
    assert _run(["play", *game, "--autosave", str(whole)], rng, None)[0] == 0
    auto = tmp_path / "auto.json"
    code, _ = _run(["play", *game, "--autosave", str(auto)], rng, rng.uniform(0.4, 2.5))
    for _ in range(30):
        if not auto.exists():  # stopped before its first move was saved
            code, _ = _run(["play", *game, "--autosave", str(auto)], rng, rng.uniform(0.4, 2.5))
            continue
        record = GameRecord.from_json(auto.read_text())  # a kill never leaves a torn file
        record.final_state()
        if "result" in record.headers and code == 0:
            break
        kill = rng.uniform(0.4, 2.5) if rng.random() < 0.6 else None
        code, err = _run(["play", "--resume", str(auto), "--autosave", str(auto)], rng, kill)
        assert code in (0, 130, -9, -15) or kill is not None, err
    want = GameRecord.from_json(whole.read_text()).moves
    assert GameRecord.from_json(auto.read_text()).moves == want
