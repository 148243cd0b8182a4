"""``clangames list`` folds its descriptions to the terminal's width: at 80 columns no line
is longer than 80 (they were folded at 100, and the terminal cut each long one mid-word).
Into a file or a pipe it folds at 100 columns as before."""

from __future__ import annotations

import argparse
import io

import pytest

from clangames.cli.main import _list


class Screen(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _listed(out: io.StringIO) -> list[str]:
    assert _list(argparse.Namespace(), out) == 0
    return out.getvalue().splitlines()


def test_list_at_an_80_column_terminal_fits_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    lines = _listed(Screen())
    assert max(len(line) for line in lines) <= 80
    text = "\n".join(lines)
    assert "  clan_feud: Clan Feud, 2-5 players" in text
    # a folded description goes on under its start, two spaces further in
    assert "\n        " in text


def test_list_into_a_pipe_folds_at_100(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    lines = _listed(io.StringIO())
    assert 80 < max(len(line) for line in lines) <= 100
