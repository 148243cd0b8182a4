"""The suite's own guard against hangs: every test fails after ``timeout`` seconds
(pyproject.toml), except soaks and runs lengthened by a variable (tests/conftest.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).parent

SLEEPERS = """
import time

import pytest


@pytest.mark.soak
def test_a_soak_may_take_its_time():
    time.sleep(2)


def test_a_plain_test_may_not():
    time.sleep(2)


@pytest.mark.timeout(1)
def test_a_test_with_its_own_limit_keeps_it():
    time.sleep(2)
"""


def _run(tmp_path: Path, **env: str) -> str:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 1\nmarkers = soak\n", "utf-8")
    (tmp_path / "test_sleepers.py").write_text(SLEEPERS, "utf-8")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CLANGAMES_")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=tmp_path,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


def test_the_suite_has_a_per_test_timeout() -> None:
    config = tomllib.loads((HERE.parent / "pyproject.toml").read_text("utf-8"))
    options = config["tool"]["pytest"]["ini_options"]
    assert 60 <= options["timeout"] <= 900
    assert any(
        dep.startswith("pytest-timeout")
        for dep in config["project"]["optional-dependencies"]["test"]
    )


def test_a_hanging_test_fails_and_a_soak_is_let_run(tmp_path: Path) -> None:
    out = _run(tmp_path)
    assert "FAILED test_sleepers.py::test_a_plain_test_may_not" in out
    assert "FAILED test_sleepers.py::test_a_test_with_its_own_limit_keeps_it" in out
    assert "Timeout" in out
    assert "2 failed, 1 passed" in out


def test_a_lengthened_run_lifts_the_timeout_from_every_test(tmp_path: Path) -> None:
    # a test's own limit too: the lifting marker is put before it
    out = _run(tmp_path, CLANGAMES_SOAK="1")
    assert "3 passed" in out
