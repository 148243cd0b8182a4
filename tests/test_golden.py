"""Results pinned before the engine got faster: simulate's JSON for fixed seeds and the games
ISMCTS plays for the seeds of tests/test_ismcts.py must stay byte-identical (the golden files
in tests/golden were written by tests/golden/make_golden.py on the code before the change)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _maker()
SIMULATE: list[dict[str, Any]] = json.loads((GOLDEN / "simulate.json").read_text("utf-8"))
ISMCTS: dict[str, Any] = json.loads((GOLDEN / "ismcts.json").read_text("utf-8"))


def _case_id(case: dict[str, Any]) -> str:
    c = case["case"]
    return f"{c['game']}-{c['players']}p-{'+'.join(c['seats'])}-seed{c['seed']}"


@pytest.mark.parametrize("golden", SIMULATE, ids=_case_id)
def test_simulate_json_is_unchanged(golden: dict[str, Any]) -> None:
    now = MAKER.simulate_case(golden["case"])
    assert now["results"] == golden["results"]
    assert now["summary"] == golden["summary"]  # the JSON text, byte for byte


@pytest.mark.parametrize("golden", ISMCTS["duels"], ids=lambda g: f"{g['game']}-seed{g['seed']}")
def test_ismcts_duels_are_unchanged(golden: dict[str, Any]) -> None:
    assert MAKER.duel_record(golden["game"], golden["seed"]) == golden["record"]


@pytest.mark.parametrize("golden", ISMCTS["three_players"], ids=lambda g: str(g["game"]))
def test_ismcts_three_player_games_are_unchanged(golden: dict[str, Any]) -> None:
    assert MAKER.reproducible_record(golden["game"]) == golden["record"]
