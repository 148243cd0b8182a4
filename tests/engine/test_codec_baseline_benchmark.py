"""Smoke test of benchmarks/codec_baseline.py: a tiny run against a base built from git."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "codec_baseline.py"


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # The base is unpacked under the temporary folder: this test's own.
    env = dict(os.environ, TMPDIR=str(tmp_path))
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_a_base_built_from_git_is_compared_row_by_row(tmp_path: Path) -> None:
    report = tmp_path / "baseline.json"
    # HEAD as the base: the committed code against the checkout, states of one game.
    done = run(
        tmp_path,
        *("--base", "HEAD", "--game", "kilt_castle", "--players", "2"),
        *("--games", "1", "--repeat", "1", "--rounds", "1", "--json", str(report)),
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(report.read_text(encoding="utf-8"))
    assert len(figures["base"]) == 40
    assert list((tmp_path / f"clangames-base-{figures['base'][:12]}" / "src").iterdir())
    (row,) = figures["rows"]
    assert (row["game"], row["players"]) == ("kilt_castle", 2)
    assert row["states"] > 0
    for kind in ("to_json", "from_json", "trip"):
        assert row[f"{kind}_speedup"] > 0
    line = next(x for x in done.stdout.splitlines() if x.startswith("kilt_castle"))
    assert f"{row['trip_speedup']:.2f}x" in line


def test_an_unknown_base_is_refused_by_name(tmp_path: Path) -> None:
    done = run(tmp_path, "--base", "no-such-commit")
    assert done.returncode != 0
    assert "no-such-commit" in done.stderr
