"""The console script's entry: a Ctrl-C while clangames is still loading ends with one line
and exit status 130, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import clangames
import clangames_launcher


class _InterruptedWhileLoading(types.ModuleType):
    """Stands in for ``clangames.cli.main`` as if Ctrl-C came while it was imported."""

    def __getattr__(self, name: str) -> object:
        raise KeyboardInterrupt


def test_a_ctrl_c_while_loading_exits_130_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "clangames.cli.main", _InterruptedWhileLoading("fake"))
    assert clangames_launcher.main() == 130
    err = capsys.readouterr().err
    assert err == "clangames: error: interrupted while starting\n"


def test_the_launcher_runs_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["clangames", "list"])
    assert clangames_launcher.main() == 0


@pytest.mark.parametrize("delay", [0.02, 0.08, 0.15, 0.3])
def test_sigint_at_any_moment_of_the_start_shows_no_traceback(delay: float) -> None:
    script = Path(sys.executable).with_name("clangames")
    if not script.exists():
        pytest.skip("the console script is not installed next to this Python")
    proc = subprocess.Popen([str(script), "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    if b"Traceback" in err or b"Fatal Python error" in err:
        # The one window clangames cannot close: the interpreter's start (site, the
        # installer-generated script's own imports) runs before any clangames code (see
        # clangames_launcher's docstring); a Ctrl-C inside `site` is even a fatal error with
        # status 1. Such output is tolerated only if none of its frames is clangames code:
        # once clangames runs, a Ctrl-C never shows a traceback.
        # The launcher's own module body is part of that window (the script imports it
        # before main can guard anything): only its main, or the package, may not appear.
        package = f'"{Path(clangames.__file__).parent}{os.sep}'  # not clangames_launcher.py
        launcher = f'"{clangames_launcher.__file__}"'
        frames = [line for line in err.decode().splitlines() if line.lstrip().startswith("File ")]
        assert frames or b"init_import_site" in err, err
        assert not any(package in frame for frame in frames), err
        assert not any(launcher in f and not f.endswith(", in <module>") for f in frames), err
        return
    # Before Python sets up its handler the signal just ends the process (-SIGINT); after
    # it, the launcher or the command reports one line with 130; or `list` was done.
    assert proc.returncode in (0, 130, -signal.SIGINT), (proc.returncode, err)
    if proc.returncode == 130:
        assert err.decode().count("\n") == 1, err
