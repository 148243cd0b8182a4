"""A symbolic link that points round in a loop, given where the command writes or found
among a run's files, is refused in one line naming the loop.

Before: ``report DIR --output LOOP`` and ``simulate ... --out DIR --json LOOP`` ended in
"internal error ... RuntimeError: Symlink loop" (``Path.resolve`` raises on a loop), a
loop as the run's ``results.jsonl`` did too for ``report``, and once past that the
writability check said "File exists" instead of naming the loop."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from clangames.cli import main
from simulate_run_helpers import copy_run, make_run


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def loop(where: Path) -> Path:
    """A link at ``where`` to a link back to it."""
    other = where.with_name(where.name + ".other")
    os.symlink(other.name, where)
    os.symlink(where.name, other)
    return where


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_run(tmp_path_factory.mktemp("finished") / "run", "--games", "4", "--seed", "1")


def test_report_output_through_a_link_loop_is_a_usage_error(finished: Path, tmp_path: Path) -> None:
    target = loop(tmp_path / "report.html")
    code, out, err = run(["report", str(finished), "--output", str(target)])
    assert code == 2
    assert out == ""
    assert err == (
        f"clangames: error: --output: cannot write {str(target)!r}:"
        " Too many levels of symbolic links\n"
    )


def test_simulate_json_through_a_link_loop_is_refused_before_any_game(tmp_path: Path) -> None:
    target = loop(tmp_path / "summary.json")
    out_dir = tmp_path / "run"
    argv = ["simulate", "kings-kilt", "--games", "2", "--jobs", "1", "--no-progress"]
    code, _, err = run([*argv, "--out", str(out_dir), "--json", str(target)])
    assert code == 2
    assert err == (
        f"clangames: error: --json: cannot write {str(target)!r}:"
        " Too many levels of symbolic links\n"
    )
    assert not out_dir.exists()  # refused before the run directory was made


@pytest.mark.parametrize("command", ["report", "simulate"])
def test_a_results_file_that_is_a_link_loop_is_one_line(
    finished: Path, tmp_path: Path, command: str
) -> None:
    damaged = copy_run(finished, tmp_path)
    (damaged / "results.jsonl").unlink()
    loop(damaged / "results.jsonl")
    argv = (
        ["report", str(damaged)]
        if command == "report"
        else ["simulate", "--resume", str(damaged), "--jobs", "1", "--no-progress"]
    )
    code, out, err = run(argv)
    assert code == 1
    assert out == ""
    assert err == (
        f"clangames: error: cannot read {str(damaged / 'results.jsonl')!r}:"
        " Too many levels of symbolic links\n"
    )
