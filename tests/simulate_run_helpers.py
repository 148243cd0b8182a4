"""What the tests of ``simulate --out`` run directories share: a small run made in-process,
its files edited by hand, and the one-line refusal every damaged run must end in."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from clangames.cli.main import main
from clangames.cli.runs import RESULTS_FILE, RUN_FILE

SMALL_RUN = ["simulate", "kings-kilt", "--players", "2", "--jobs", "1", "--no-progress"]
"""A two-player King's Kilt run of random bots, played in this process."""


def make_run(directory: Path, *options: str) -> Path:
    """A finished run in ``directory`` (``options`` after :data:`SMALL_RUN`, e.g. --games)."""
    assert main([*SMALL_RUN, *options, "--out", str(directory)]) == 0
    return directory


def copy_run(run: Path, tmp_path: Path, name: str = "copy") -> Path:
    """A copy of ``run`` to edit."""
    return Path(shutil.copytree(run, tmp_path / name))


def edit_settings(run: Path, **changes: Any) -> None:
    """Rewrite ``run.json`` with ``changes`` applied."""
    data = json.loads((run / RUN_FILE).read_text("utf-8"))
    data.update(changes)
    (run / RUN_FILE).write_text(json.dumps(data), "utf-8")


def result_lines(run: Path) -> list[str]:
    """The lines of ``results.jsonl``."""
    return (run / RESULTS_FILE).read_text("utf-8").splitlines()


def write_lines(run: Path, lines: list[str]) -> None:
    """Replace ``results.jsonl`` with ``lines``."""
    (run / RESULTS_FILE).write_text("".join(line + "\n" for line in lines), "utf-8")


def files_of(run: Path) -> dict[str, bytes]:
    """Every file of ``run`` and its bytes (to show a refusal changed nothing)."""
    return {p.name: p.read_bytes() for p in sorted(run.iterdir())}


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], *fragments: str) -> str:
    """Run ``argv``: it must fail with one ``clangames: error:`` line holding every one of
    ``fragments``, and no internal error; the line."""
    capsys.readouterr()
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (1, 2), (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("clangames: error: "), err
    assert "internal error" not in err, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return lines[0]
