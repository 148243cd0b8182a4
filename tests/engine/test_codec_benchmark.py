"""Smoke test of benchmarks/codec.py: a tiny run, its table and its JSON report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "codec.py"


def test_tiny_codec_benchmark_reports_each_ratio(tmp_path: Path) -> None:
    report = tmp_path / "codec.json"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--games",
            "2",
            "--repeat",
            "1",
            "--game",
            "kings_kilt",
            "--game",
            "kilt_castle",
            "--players",
            "2",
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(report.read_text(encoding="utf-8"))["per_call"]
    assert [(r["game"], r["players"]) for r in rows] == [("kilt_castle", 2), ("kings_kilt", 2)]
    for row in rows:
        for key in ("to_json", "from_json", "resample", "round_trip_speedup"):
            assert row[key] > 0, (row, key)
        # The table prints the same figures, one line per game and player count.
        line = next(x for x in done.stdout.splitlines() if x.startswith(row["game"]))
        assert f"{row['round_trip_speedup']:.2f}x" in line


def test_unknown_game_is_refused_by_name() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--game", "no_such_game"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "no_such_game" in done.stderr
