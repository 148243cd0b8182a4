"""``simulate --backend ray`` on one module-scoped local Ray instance (``num_cpus=2``): the
same games, byte for byte, as ``--jobs 1`` and ``--jobs 2``. Skipped without the ``ray``
extra."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import clangames
from clangames.cli.main import main
from clangames.cli.simulate import simulate, summarize

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[Any]:
    """One local Ray for the module (its start-up costs seconds): simulate uses a Ray this
    process already initialised and leaves it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_same_games_as_one_and_two_local_jobs() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    seats = ["ismcts", "random", "random"]
    runs = {
        name: simulate(
            game, seats, 11, 18, jobs, backend=backend, rotate=True, iterations=4, rollout_limit=5
        )
        for name, jobs, backend in (("one", 1, "local"), ("two", 2, "local"), ("ray", 2, "ray"))
    }
    assert runs["ray"] == runs["one"] == runs["two"]
    assert [r.index for r in runs["ray"]] == list(range(18))
    assert all(r.statistics for r in runs["ray"])
    texts = {
        name: json.dumps(summarize(game, seats, 11, True, results, iterations=4, rollout_limit=5))
        for name, results in runs.items()
    }
    assert texts["ray"] == texts["one"] == texts["two"]


def test_the_ray_backend_through_the_command_streams_the_same_run(tmp_path: Path) -> None:
    args = ["simulate", "kings-kilt", "--games", "30", "--seed", "8", "--no-progress"]
    local, on_ray = tmp_path / "local.json", tmp_path / "ray.json"
    assert main([*args, "--jobs", "1", "--json", str(local)]) == 0
    run = tmp_path / "run"
    assert main([*args, "--backend", "ray", "--out", str(run), "--json", str(on_ray)]) == 0
    assert on_ray.read_bytes() == local.read_bytes()
    assert ray.is_initialized()  # the module's Ray was used, not shut down
    assert main(["report", str(run)]) == 0
    assert (run / "report.html").stat().st_size > 0
