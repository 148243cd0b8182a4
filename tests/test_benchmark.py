"""Smoke test of benchmarks/playout.py: a tiny run, its table and its JSON report."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import clangames

ROW = re.compile(r"(\S+) +(\d+) +(\d+\.\d\d) +(\d+\.\d) +(\d+\.\d)")
"""A table row: game, players, us/step, games/s, mean length."""
SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "playout.py"


def playout_steps(name: str, players: int, games: int, seed: int) -> int:
    """Steps of the documented loop: one Rng(seed) stream across the games."""
    game = clangames.load(name, players=players)
    rng = clangames.Rng(seed)
    steps = 0
    for _ in range(games):
        state = game.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
                state = state.apply(action)
            else:
                legal = state.legal_actions(state.to_move[0])
                index, rng = rng.below(len(legal))
                state = state.apply(legal[index], state.to_move[0])
            steps += 1
    return steps


def test_tiny_benchmark_prints_a_row_per_game_and_players_and_writes_json(
    tmp_path: Path,
) -> None:
    report = tmp_path / "bench.json"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--games",
            "3",
            "--repeat",
            "1",
            "--ref-games",
            "5",
            "--call-games",
            "1",
            "--seed",
            "2",
            "--json",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("clangames random playouts: 3 games per row, seed 2, best of 1")
    head = f"{'game':<24}{'players':>8}{'us/step':>10}{'games/s':>10}{'mean length':>13}"
    assert lines[2] == "step by step (legal_actions, apply, sample_chance):"
    assert lines[3] == head
    expected_rows = [
        (spec.name, n)
        for spec in clangames.games()
        for n in range(spec.min_players, spec.max_players + 1)
    ]
    count = len(expected_rows)
    rows = [m for line in lines[4 : 4 + count] if (m := ROW.fullmatch(line))]
    assert [(m.group(1), int(m.group(2))) for m in rows] == expected_rows
    fast_at = lines.index("fast path (clangames.rollout, the same games):")
    assert lines[fast_at + 1] == head
    fast_rows = [
        m for line in lines[fast_at + 2 : fast_at + 2 + count] if (m := ROW.fullmatch(line))
    ]
    # the fast path plays the very same games: same lengths
    assert [(m.group(1), m.group(2), m.group(5)) for m in fast_rows] == [
        (m.group(1), m.group(2), m.group(5)) for m in rows
    ]

    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["seed"] == 2 and data["repeat"] == 1
    results = data["results"]
    assert [(r["game"], r["players"]) for r in results] == expected_rows
    assert [r["steps"] for r in data["fast"]] == [r["steps"] for r in results]
    for result, match in zip(results, rows, strict=True):
        steps = playout_steps(result["game"], result["players"], 3, 2)
        assert result["games"] == 3
        assert result["steps"] == steps  # the benchmark plays exactly the documented games
        assert result["mean_length"] == steps / 3
        assert float(match.group(5)) == round(steps / 3, 1)
        assert result["us_per_step"] > 0
        assert abs(result["us_per_step"] - result["seconds"] / steps * 1e6) < 1e-6
        assert abs(result["games_per_second"] * result["seconds"] - 3) < 1e-6

    assert [(r["game"], r["players"]) for r in data["simulate"]] == expected_rows
    for row in data["simulate"]:
        assert row["games_per_second"] > 0 and row["cost_over_bare"] > 0
    assert [(r["game"], r["players"]) for r in data["per_call"]] == expected_rows
    for row in data["per_call"]:
        assert all(row[k] > 0 for k in ("to_json", "from_json", "resample", "deepcopy", "pickle"))

    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert "OpenSpiel: not installed (pip install 'clangames[bench]'), no comparison" in lines
        assert data["openspiel"] is None
        assert data["references"] == [] and data["ratios"] == []
    else:
        names = [r["game"] for r in data["references"]]
        assert names == [
            f"{game}[{driver}]"
            for driver in ("random", "rng")
            for game in ("python_tic_tac_toe", "tic_tac_toe", "leduc_poker")
        ]
        # each path of each configuration against each reference and driver
        assert len(data["ratios"]) == 2 * 6 * len(results)
        assert "step cost ratio to OpenSpiel driven by random.Random (lower is faster):" in lines


def test_players_and_game_filters(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--games",
            "2",
            "--repeat",
            "1",
            "--players",
            "2",
            "--game",
            "kings-kilt",
            "--ref-games",
            "2",
            "--call-games",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if ROW.fullmatch(line)]
    # one step row, one fast row, and six references when OpenSpiel is installed
    assert len(rows) == 2 + 6 * ("OpenSpiel: not installed" not in done.stdout)
    assert rows[0].split()[:2] == ["kings_kilt", "2"]
    steps = playout_steps("kings_kilt", 2, 2, 1)
    assert rows[0].split()[4] == f"{steps / 2:.1f}"
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "1", "--game", "chess"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 1
    assert "unknown game(s): chess" in bad.stderr
