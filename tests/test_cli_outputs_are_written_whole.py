"""``simulate --json/--plot``, ``report --output`` and a run's ``run.json`` are written whole
or not at all: a write that fails midway (here a file-size limit, as a full disk would)
is one line, exit 1, and leaves the old file as it was and no temporary file behind.
Before the fix each was written in place: the failure left a truncated file where the
good old one had been (and a cut ``run.json`` made its directory unusable)."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from clangames.cli.files import atomic_write
from clangames.cli.main import main
from clangames.cli.runs import RESULTS_FILE, RUN_FILE
from cli_helpers import CLI
from simulate_run_helpers import make_run

resource = pytest.importorskip("resource")  # the file-size limit (POSIX)

SIMULATE = ["simulate", "kings-kilt", "--players", "2", "--games", "4", "--jobs", "1"]
OLD = b"the good old file\n"


def _limited(argv: list[str], max_bytes: int) -> subprocess.CompletedProcess[str]:
    """``clangames ARGV`` in a process that may not make any file larger than
    ``max_bytes``: a write past it fails with EFBIG ("File too large") midway, like a
    disk that fills (the signal the kernel sends is ignored, as Python does anyway)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))

    return subprocess.run(
        [*CLI, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        preexec_fn=limit,
    )


def _one_line_error(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clangames: error: "), done.stderr
    assert "internal error" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.mark.parametrize(
    ("option", "what"), [("--json", "the JSON summary"), ("--plot", "the plot")]
)
def test_a_summary_or_plot_that_cannot_be_written_whole_leaves_the_old_file(
    tmp_path: Path, option: str, what: str
) -> None:
    if option == "--plot":
        pytest.importorskip("matplotlib.font_manager")  # its cache built here, not limited
    out = tmp_path / "out" / ("summary.json" if option == "--json" else "plot.png")
    out.parent.mkdir()
    out.write_bytes(OLD)
    done = _limited([*SIMULATE, "--no-progress", option, str(out)], 1024)  # the file is 3+ kB
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]  # no temporary file
    _one_line_error(done, f"cannot write {what} {str(out)!r}: File too large")


def test_a_report_that_cannot_be_written_whole_leaves_the_old_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib.font_manager")
    run = make_run(tmp_path / "run", "--games", "4")
    page = run / "report.html"
    page.write_bytes(OLD)
    done = _limited(["report", str(run)], 4096)  # the page, with its plots, is 50+ kB
    assert page.read_bytes() == OLD
    assert sorted(p.name for p in run.iterdir()) == sorted([RUN_FILE, RESULTS_FILE, page.name])
    _one_line_error(done, f"cannot write the report {str(page)!r}: File too large")


def test_a_run_json_that_cannot_be_written_whole_leaves_the_directory_usable(
    tmp_path: Path,
) -> None:
    run = tmp_path / "run"
    done = _limited([*SIMULATE, "--no-progress", "--out", str(run)], 200)  # run.json: 700 B
    assert list(run.iterdir()) == []  # no run.json cut short, no temporary file
    assert done.returncode == 1, done.stderr  # a failure while working, as for --json
    assert done.stderr.strip().splitlines() == [
        f"clangames: error: --out: cannot create the run directory {str(run)!r}: File too large"
    ]
    # ... so the directory still takes the run (a partial run.json made it "not empty").
    assert main([*SIMULATE, "--no-progress", "--out", str(run)]) == 0
    assert sorted(p.name for p in run.iterdir()) == [RESULTS_FILE, RUN_FILE]


def test_a_file_written_whole_keeps_its_permissions_and_its_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Written whole means a new file renamed over the old one: it must not come out
    private (a temporary file's mode) nor turn a symbolic link into a plain file."""
    shared = tmp_path / "shared.json"
    shared.write_bytes(OLD)
    shared.chmod(0o640)
    real = tmp_path / "elsewhere" / "summary.json"
    real.parent.mkdir()
    real.write_bytes(OLD)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    fresh = tmp_path / "fresh.json"
    for target in (shared, link, fresh):
        assert main([*SIMULATE, "--no-progress", "--json", str(target)]) == 0
    capsys.readouterr()
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640
    assert link.is_symlink() and real.read_bytes() == fresh.read_bytes() != OLD
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # as open() would make it
    assert b'"games": 4' in shared.read_bytes()


@pytest.mark.timeout(60)
def test_a_named_pipe_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    """A pipe or a device (``--json /dev/stdout``) has no old content to keep, and must
    not be replaced by a file: it is written as it is."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    atomic_write(fifo, "through the pipe\n")
    reader.join(timeout=30)
    if reader.is_alive():  # nothing came through: let the reader go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no temporary file beside it
