"""Smoke test of benchmarks/adapters.py: a tiny run gives a row of positive ratios."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "adapters.py"


def benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("adapters_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_tiny_run_reports_every_ratio(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "adapters.json"
    args = ["--game", "koa_kingmaker", "--players", "2", "--games", "1", "--repeat", "1"]
    assert benchmark().main([*args, "--json", str(out)]) == 0
    [row] = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert (row["game"], row["players"]) == ("koa_kingmaker", 2)
    ratios = [v for k, v in row.items() if k not in ("game", "players")]
    assert len(ratios) == 5 and all(r > 0 for r in ratios)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].split()[:2] == ["koa_kingmaker", "2"]
