"""What the tests that drive the ``clangames`` command share: the command line, keeping
``play``'s autosaves out of the home, an interactive child process, and a run in this
process."""

from __future__ import annotations

import contextlib
import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "clangames.cli"]

_DEFAULT_SIGINT_THEN_EXEC = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL);"
    " os.execv(sys.argv[1], sys.argv[1:])"
)


def at_a_terminal(argv: list[str]) -> list[str]:
    """``argv`` run as from a terminal, with Ctrl-C's signal at its default. A process
    inherits an ignored SIGINT (a shell's background job ignores it), and Python then
    never raises KeyboardInterrupt: a Ctrl-C test run from such a job would test nothing
    but the ignoring. The disposition is reset in a small Python that execs ``argv``."""
    return [sys.executable, "-c", _DEFAULT_SIGINT_THEN_EXEC, *argv]


@pytest.fixture(autouse=True, name="_autosave_in_tmp")
def autosave_in_tmp_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``play`` autosaves under $XDG_STATE_HOME: keep the tests' games out of the home.

    Autouse in every test module that imports it; a test that needs the folder asks for
    ``_autosave_in_tmp``."""
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


class Interactive:
    """A ``clangames`` process in its own process group, fed and read line by line."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen(
            at_a_terminal([*CLI, *args]),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.out = b""

    def wait_for(self, text: str, count: int = 1, timeout: float = 30) -> None:
        """Read stdout until ``text`` has appeared ``count`` times."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        needle = text.encode()
        while self.out.count(needle) < count:
            left = deadline - time.monotonic()
            assert left > 0, f"no {text!r} x{count} in: {self.out[-2000:]!r}"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                assert chunk, f"output ended before {text!r} x{count}: {self.out[-2000:]!r}"
                self.out += chunk

    def send(self, data: bytes) -> None:
        """Write ``data`` to the process's stdin at once."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def finish(self, timeout: float = 30) -> tuple[int, bytes, bytes]:
        """Wait for the exit: status, the rest of stdout, stderr."""
        out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, self.out + out, err


def run_main(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run ``clangames ARGV`` in this process with ``stdin`` as the typed lines: the exit
    code, stdout and stderr (much faster than a child process, for checks of the text)."""
    from clangames.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = saved_stdin
    return code, out.getvalue(), err.getvalue()
