"""Smoke test of benchmarks/serve_load.py: a tiny bounded run against the real server,
its summary line and its JSON report (a measurement, not a timed test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "serve_load.py"


def test_a_small_load_run_reports_throughput_and_latency(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--games",
            "2",
            "--clients",
            "3",
            "--max-moves",
            "40",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(out.read_text())
    assert report["games"] == 2 and report["clients_per_game"] == 3
    assert report["moves"] >= 2 * 40 - 10 and report["human_moves"] > 0
    assert report["moves_per_second"] > 0
    assert 0 < report["latency_p50_ms"] <= report["latency_p99_ms"]
    assert "moves/s" in done.stdout and "p99" in done.stdout
