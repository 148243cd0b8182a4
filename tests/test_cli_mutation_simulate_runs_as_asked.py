"""``clangames simulate`` plays the run it was asked for (the command's mutation audit):
the seats turned the right way, the batches cut as documented and skipped by their first
game, its defaults and the bots' budgets as the seats were made, a resumed run on the
run's own batches and settings only, and every bad call refused before a game is played."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import clangames.cli.simulate as simulate_module
from clangames.cli.errors import CommandFailure
from clangames.cli.main import main
from clangames.cli.play import make_seat_bot
from clangames.cli.runs import RESULTS_FILE, read_settings
from clangames.cli.simulate import (
    Job,
    SimulateError,
    batch_size_for,
    bot_settings,
    confounding_warning,
    play_game,
    run_job,
    seats_for,
    simulate,
)
from clangames.engine.registry import load
from clangames.engine.rng import Rng
from simulate_run_helpers import (
    copy_run,
    edit_settings,
    make_run,
    refused,
    result_lines,
    write_lines,
)


def test_rotation_moves_every_bot_one_seat_on_per_game() -> None:
    names = ["a", "b", "c"]
    assert [seats_for(names, i, True) for i in range(4)] == [
        ("a", "b", "c"),
        ("c", "a", "b"),
        ("b", "c", "a"),
        ("a", "b", "c"),
    ]
    assert seats_for(names, 5, False) == ("a", "b", "c")


def test_the_default_ismcts_budget_reported_is_the_one_the_seats_get() -> None:
    bot: Any = make_seat_bot("ismcts", Rng(0))
    assert bot_settings(["ismcts", "random"]) == {
        "ismcts": {"iterations": bot.iterations, "rollout_limit": bot.rollout_limit},
        "random": {},
    }
    assert bot_settings(["ismcts"], 5, 0) == {"ismcts": {"iterations": 5, "rollout_limit": 0}}


def test_the_confounding_warnings() -> None:
    assert confounding_warning(["random", "random"], False, 5) is None  # one bot
    uneven = confounding_warning(["ismcts", "random", "random"], True, 4)
    assert uneven is not None and "4 games do not rotate evenly over 3 seats" in uneven
    assert confounding_warning(["ismcts", "random", "random"], True, 6) is None


@pytest.mark.parametrize(
    ("games", "jobs", "size"), [(10_000, 1, 50), (100, 1, 12), (100, 2, 6), (3, 4, 1)]
)
def test_batches_are_about_eight_a_worker_and_at_most_fifty_games(
    games: int, jobs: int, size: int
) -> None:
    assert batch_size_for(games, jobs) == size


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ({"games": 0}, "--games must be at least 1, got 0"),
        ({"jobs": 0}, "--jobs must be at least 1, got 0"),
        ({"names": ["random", "human"]}, "'human' cannot take a seat"),
        ({"backend": "bogus"}, "--backend must be one of local, ray, got 'bogus'"),
        ({"batch_size": 0}, "the batch size must be at least 1, got 0"),
    ],
)
def test_a_simulation_that_cannot_run_is_refused(call: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"names": ["random", "random"], "games": 2, **call}
    played: list[Job] = []
    with pytest.raises(SimulateError) as info:
        simulate(
            load("kings_kilt", players=2),
            args.pop("names"),
            1,
            args.pop("games"),
            args.pop("jobs", 1),
            on_batch=lambda job, _: played.append(job),
            **args,
        )
    assert message in str(info.value)
    assert played == []


def test_batches_are_cut_at_the_batch_size_and_skipped_by_their_first_game() -> None:
    game = load("kings_kilt", players=2)
    seen: list[tuple[int, ...]] = []
    kept = simulate(
        game,
        ["random", "random"],
        4,
        7,
        batch_size=3,
        skip={3},
        on_batch=lambda job, done: seen.append(tuple(r.index for r in done)),
    )
    assert seen == [(0, 1, 2), (6,)]
    assert [r.index for r in kept] == [0, 1, 2, 6]
    forgotten = simulate(game, ["random", "random"], 4, 7, batch_size=3, keep_results=False)
    assert forgotten == []


def test_results_come_back_in_index_order_whatever_order_batches_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def backwards(batches: list[Job], jobs: int, finished: Any) -> None:
        for batch in reversed(batches):
            finished(batch, run_job(batch))

    monkeypatch.setattr(simulate_module, "_run_local", backwards)
    results = simulate(load("kings_kilt", players=2), ["random"] * 2, 4, 6, 2, batch_size=2)
    assert [r.index for r in results] == list(range(6))


def test_a_game_longer_than_its_declared_length_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load("kings_kilt", players=2)
    short = attrs.evolve(game.info, max_game_length=10)
    monkeypatch.setattr(type(game), "info", property(lambda self: short))
    with pytest.raises(CommandFailure, match="game 3: longer than the declared max_game_length 10"):
        play_game(game, ["random", "random"], 1, 3)


def test_the_defaults_are_seed_0_and_100_games_with_the_games_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked: list[tuple[int, int]] = []

    def record(game: Any, names: Any, seed: int, games: int, *rest: Any, **kw: Any) -> list[Any]:
        asked.append((seed, games))
        return []

    monkeypatch.setattr(simulate_module, "simulate", record)
    target = tmp_path / "s.json"
    assert (
        main(["simulate", "kings-kilt", "--jobs", "1", "--no-progress", "--json", str(target)]) == 0
    )
    assert asked == [(0, 100)]
    text = target.read_text("utf-8")
    summary = json.loads(text)
    assert text == json.dumps(summary, indent=1) + "\n"
    declared = load("kings_kilt").statistics()
    assert declared is not None and list(summary["statistics"]) == list(declared.names)
    capsys.readouterr()


def test_jobs_may_be_256_and_no_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[int] = []
    monkeypatch.setattr(
        simulate_module,
        "simulate",
        lambda *a, **k: ran.append(a[4]) or [],  # jobs
    )
    assert main(["simulate", "kings-kilt", "--games", "1", "--jobs", "256", "--no-progress"]) == 0
    assert ran == [256]
    refused(capsys, ["simulate", "kings-kilt", "--jobs", "257"], "--jobs must be 1..256, got 257")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_run(tmp_path_factory.mktemp("finished") / "run", "--games", "4", "--seed", "1")


@pytest.mark.parametrize(
    "given",
    [
        ["kings-kilt"],
        ["--players", "2"],
        ["--param", "first_player=1"],
        ["--seed", "3"],
        ["--games", "4"],
        ["--seats", "random"],
        ["--rotate"],
        ["--iterations", "3"],
        ["--rollout-limit", "2"],
        ["--out", "elsewhere"],
    ],
)
def test_resume_refuses_every_setting_the_run_fixes(
    finished: Path, capsys: pytest.CaptureFixture[str], given: list[str]
) -> None:
    flag = "GAME" if given == ["kings-kilt"] else given[0]
    refused(
        capsys,
        ["simulate", "--resume", str(finished), *given, "--no-progress"],
        f"leave out {flag}",
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"statistics": ["crowned"]}, "the run measured statistics ['crowned'], this clangames"),
        ({"seats": ["random"] * 3}, "3 seats ['random', 'random', 'random'] for 2 players"),
    ],
)
def test_a_run_this_clangames_cannot_continue_is_refused(
    finished: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    changes: dict[str, Any],
    message: str,
) -> None:
    run = copy_run(finished, tmp_path)
    edit_settings(run, **changes)
    refused(capsys, ["simulate", "--resume", str(run), "--no-progress"], message)


def test_a_run_resumed_with_more_jobs_keeps_its_own_batches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """20 games on one job are cut in twos; on two jobs a new run would cut them in ones."""
    run = make_run(tmp_path / "run", "--games", "20", "--seed", "2")
    lines = result_lines(run)
    write_lines(run, lines[:3])
    assert main(["simulate", "--resume", str(run), "--jobs", "2", "--no-progress"]) == 0
    assert "14 games in" in capsys.readouterr().out
    assert sorted(result_lines(run)) == sorted(lines)
    assert read_settings(str(run)).batch_size == 2


def test_a_missing_ray_is_refused_before_the_run_directory_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    run = tmp_path / "run"
    argv = ["simulate", "kings-kilt", "--backend", "ray", "--no-progress", "--out", str(run)]
    refused(capsys, argv, "--backend ray needs Ray")
    assert not run.exists()
    assert not (tmp_path / RESULTS_FILE).exists()


def test_a_missing_matplotlib_is_refused_before_the_run_directory_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/test_cli_robust.py checks this in a child process, which imports the installed
    clangames; here it is this checkout's."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    run, plot = tmp_path / "run", tmp_path / "p.png"
    argv = ["simulate", "kings-kilt", "--no-progress", "--out", str(run), "--plot", str(plot)]
    refused(capsys, argv, "--plot needs matplotlib, the optional 'plot' extra")
    assert list(tmp_path.iterdir()) == []
