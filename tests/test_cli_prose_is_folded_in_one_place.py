"""``list``, ``play`` and ``replay`` fold their prose with one function
(``clangames.cli.prose.fold_line``): at spaces, a folded part two spaces further in than
the line; ``list`` alone may also break a word after a hyphen."""

from __future__ import annotations

import argparse
import importlib
import io

import pytest

from clangames.cli.prose import fold_line
from clangames.engine.registry import games

main = importlib.import_module("clangames.cli.main")
play = importlib.import_module("clangames.cli.play")
replay = importlib.import_module("clangames.cli.replay")

LINE = "    a well-known long-standing rule of thumb for the two-player game"


def test_every_command_uses_the_one_function() -> None:
    assert main.fold_line is fold_line
    assert play.fold_line is fold_line
    assert replay.fold_line is fold_line


def test_hyphens_break_only_when_asked() -> None:
    assert fold_line(LINE, 30).splitlines() == [
        "    a well-known long-standing",
        "      rule of thumb for the",
        "      two-player game",
    ]
    assert fold_line(LINE, 24, hyphens=True).splitlines() == [
        "    a well-known long-",
        "      standing rule of",
        "      thumb for the two-",
        "      player game",
    ]
    assert fold_line(LINE, 200, hyphens=True) == LINE


class Screen(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_list_writes_each_summary_as_fold_line_folds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "52")
    out = Screen()
    assert main._list(argparse.Namespace(), out) == 0
    text = out.getvalue()
    for spec in games():
        assert fold_line("    " + spec.summary, 52, hyphens=True) + "\n" in text
