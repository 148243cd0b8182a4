"""``simulate --resume DIR`` and ``report DIR`` read a run's files within bounds: a
``run.json`` or ``results.jsonl`` that is not a regular file (a named pipe, a link to
``/dev/zero``) is refused by name without being read, ``run.json`` is read up to
:data:`MAX_RUN_FILE` bytes and ``results.jsonl`` a line of at most
:data:`MAX_RESULTS_LINE` bytes at a time (the file itself may be as large as the run).
Each refusal is one line naming the file and what was expected, exit 1.

Before the fix a named pipe was waited on forever and ``/dev/zero`` (or a huge file, or
one huge line) read until memory ran out. So a regression fails here rather than hangs
or eats the machine, the commands run in a child process with a time limit and an
address-space limit."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import clangames.cli.runs as runs
from clangames.cli.errors import CommandFailure
from clangames.cli.runs import (
    MAX_RESULTS_LINE,
    MAX_RUN_FILE,
    RESULTS_FILE,
    RUN_FILE,
    read_settings,
    scan_batches,
)
from cli_helpers import CLI
from simulate_run_helpers import copy_run, make_run, result_lines, write_lines

resource = pytest.importorskip("resource")  # the child's memory limit (POSIX)

MEMORY = 2 * 1024**3
"""The child's address space (bytes): ample for the commands, far less than a read of
``/dev/zero`` or of the sparse files below would take."""

HUGE = 8 * 1024**3
"""The apparent size of the sparse files below (they take no disk space)."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_run(tmp_path_factory.mktemp("finished") / "run", "--games", "6", "--seed", "1")


def _commands(run: Path) -> list[list[str]]:
    return [
        ["simulate", "--resume", str(run), "--no-progress", "--jobs", "1"],
        ["report", str(run)],
    ]


def _refused_in_a_child(argv: list[str], *fragments: str) -> None:
    """``clangames ARGV`` in a child limited in time and memory: exit 1 and one error line
    holding every one of ``fragments``."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    done = subprocess.run(
        [*CLI, *argv], capture_output=True, text=True, timeout=60, check=False, preexec_fn=limit
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert len(lines) == 1 and lines[0].startswith("clangames: error: "), done.stderr
    assert "internal error" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def _sparse(path: Path, prefix: bytes = b"") -> None:
    """``path``: ``prefix``, then zero bytes (no newline) up to :data:`HUGE`."""
    with open(path, "wb") as fh:
        fh.write(prefix)
        fh.truncate(HUGE)


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


@pytest.mark.parametrize(
    ("make", "kind"),
    [(_fifo, "a named pipe (FIFO)"), (_dev_zero, "a character device")],
    ids=["fifo", "dev-zero"],
)
@pytest.mark.parametrize("name", [RUN_FILE, RESULTS_FILE])
def test_a_run_file_that_is_not_a_regular_file_is_refused_unread(
    finished: Path, tmp_path: Path, make: object, kind: str, name: str
) -> None:
    run = copy_run(finished, tmp_path)
    make(run / name)  # type: ignore[operator]
    expected = f"expected the {name} that 'clangames simulate --out' writes"
    shown = f"{run / RUN_FILE}: {kind}" if name == RUN_FILE else f"{str(run / name)!r} is {kind}"
    for argv in _commands(run):
        _refused_in_a_child(argv, shown, "not a regular file", expected)


def test_a_huge_run_json_is_refused_after_its_first_mebibyte(
    finished: Path, tmp_path: Path
) -> None:
    run = copy_run(finished, tmp_path)
    _sparse(run / RUN_FILE, (run / RUN_FILE).read_bytes())
    for argv in _commands(run):
        _refused_in_a_child(
            argv, f"{run / RUN_FILE}: larger than 1 MiB", "expected the run.json that"
        )


def test_a_results_line_without_end_is_refused_after_its_limit(
    finished: Path, tmp_path: Path
) -> None:
    """A results file may be any size (one line per batch); only a line is bounded."""
    run = copy_run(finished, tmp_path)
    lines = result_lines(run)
    _sparse(run / RESULTS_FILE, "".join(line + "\n" for line in lines[:2]).encode())
    for argv in _commands(run):
        _refused_in_a_child(argv, f"{str(run / RESULTS_FILE)!r} line 3 is longer than 16 MiB")


def test_a_run_json_of_the_largest_size_is_read_and_one_byte_more_is_not(
    finished: Path, tmp_path: Path
) -> None:
    run = copy_run(finished, tmp_path)
    settings = (run / RUN_FILE).read_bytes()
    (run / RUN_FILE).write_bytes(settings.ljust(MAX_RUN_FILE, b" "))  # JSON allows the spaces
    assert read_settings(str(run)) == read_settings(str(finished))
    (run / RUN_FILE).write_bytes(settings.ljust(MAX_RUN_FILE + 1, b" "))
    with pytest.raises(CommandFailure, match=r"run\.json: larger than 1 MiB, too large for a"):
        read_settings(str(run))


def test_a_results_line_of_the_largest_length_is_read_and_one_byte_more_is_not(
    finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = copy_run(finished, tmp_path)
    settings = read_settings(str(run))
    lines = result_lines(run)
    longest = max(len(line) + 1 for line in lines)  # its newline included
    assert longest < MAX_RESULTS_LINE // 100  # a real batch is far from the limit
    number = 1 + max(range(len(lines)), key=lambda i: len(lines[i]))
    write_lines(run, lines)
    monkeypatch.setattr(runs, "MAX_RESULTS_LINE", longest)
    finished_batches, size = scan_batches(str(run), settings)
    assert len(finished_batches) == len(lines) and size == (run / RESULTS_FILE).stat().st_size
    monkeypatch.setattr(runs, "MAX_RESULTS_LINE", longest - 1)
    with pytest.raises(CommandFailure, match=rf"line {number} is longer than"):
        scan_batches(str(run), settings)
