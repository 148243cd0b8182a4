"""Smoke test of benchmarks/harness.py on the toy game: its rows, ratios and JSON report."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import clangames
from clangames.testing import DEFAULT_RATE, check_game

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "harness.py"


def benchmark() -> ModuleType:
    """benchmarks/harness.py, imported as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("harness_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # attrs resolves the module's annotations through it
    spec.loader.exec_module(module)
    return module


def test_benchmark_rows_measure_check_game_against_bare_playouts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "harness.json"
    args = ["--game", "toy-duel", "--games", "12", "--repeat", "1", "--seed", "3"]
    assert benchmark().main([*args, "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["seed"], report["repeat"], report["rate"]) == (3, 1, DEFAULT_RATE)
    [row] = report["rows"]
    expected = check_game(clangames.load("toy_duel"), playouts=12, seed=3)
    assert (row["game"], row["players"], row["games"]) == ("toy_duel", 2, 12)
    assert (row["steps"], row["fully_checked"]) == (expected.steps, expected.fully_checked)
    assert row["ratio"] == pytest.approx(row["harness_us_per_step"] / row["bare_us_per_step"])
    assert row["ratio"] > 1  # the checks cost something on top of the playout
    assert row["full_share"] == pytest.approx(expected.fully_checked / (expected.steps + 12))
    printed = capsys.readouterr().out
    assert f"rate {DEFAULT_RATE}" in printed
    assert any(
        line.startswith("toy_duel") and line.rstrip().endswith("%") for line in printed.splitlines()
    )


def test_benchmark_refuses_unknown_games_and_bad_options() -> None:
    module = benchmark()
    with pytest.raises(SystemExit, match="unknown game"):
        module.main(["--game", "no-such-game", "--games", "1"])
    with pytest.raises(SystemExit):
        module.main(["--rate", "2"])
