"""``clangames replay`` draws its tables at the terminal's width and folds its sentences
(narration, the reveal, the end report) at spaces, as ``play`` does: on an 80-column screen
no line is longer than 80 (the tables were drawn 100 wide, every row folded in two by the
terminal, and a long sentence was cut mid-word). Into a file or a pipe it keeps 100 columns
and whole lines."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import clangames
from clangames import GameRecord
from clangames.bots import make_bot
from clangames.cli.prose import fold_line
from clangames.cli.replay import STEP_HELP, replay
from clangames.engine.match import Match
from clangames.engine.rng import Rng
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse


class Screen(io.StringIO):
    """Output that says it is a terminal (its size comes from COLUMNS and LINES)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture(name="record")
def record_fixture(tmp_path: Path) -> GameRecord:
    path = tmp_path / "koa.json"
    args = ["demo", "koa-kingmaker", "--players", "4", "--seed", "4", "--quiet"]
    code, _, err = run_main([*args, "--record", str(path)])
    assert code == 0, err
    return GameRecord.from_json(path.read_text())


def _longest(text: str) -> int:
    """The longest line's length as the screen shows it: colour codes take no room, and
    the step prompt stands on a line of its own (the typed key's Enter ends its line)."""
    text = re.sub(r"\(at move \d+ of \d+\) > ", "\n", text)
    return max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in text.splitlines())


def test_replay_step_at_an_80_column_terminal_fits_it(
    record: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    out = Screen()
    assert replay(record, out, 1, inp=io.StringIO("\n5\nl\nq\n")) == 0
    text = out.getvalue()
    assert "===== Game over =====" in text
    assert "court and discard pile" in text  # the full table, at 80 columns
    assert _longest(text) <= 80, text


def test_replay_whole_at_an_80_column_terminal_fits_it(
    record: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = Screen()
    assert replay(record, out, None, boards=True) == 0
    assert _longest(out.getvalue()) <= 80


def test_into_a_pipe_replay_keeps_100_columns(
    record: GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    assert replay(record, out, None, boards=True) == 0
    text = out.getvalue()
    assert "─" * 81 in text  # the tables are 100 wide
    # a sentence stays on one line: a hand of the reveal, longer than 80
    assert any(len(line) > 80 and "'s hand: " in line for line in text.splitlines())


def test_the_step_keys_fit_one_line_of_the_smallest_screen() -> None:
    assert len(STEP_HELP) < 80


def test_a_long_prompt_folds_under_its_start_at_80_columns() -> None:
    # a record of Clan Feud stopped at a decision whose prompt is longer than 80 characters
    match = Match(clangames.load("clan_feud", players=2), 0, {1: make_bot("random", Rng(1))})
    while len(match.state.prompt()) <= 80:
        match.run()
        match.apply(match.state.legal_actions(0)[0], 0)
    prompt = match.state.prompt()
    out = io.StringIO()
    assert replay(match.record, out, None, width=80) == 0
    lines = out.getvalue().splitlines()
    start = lines.index("The record ends before the game does; the table now:")
    folded = lines[len(lines) - len(fold_line(prompt, 80).splitlines()) :]
    # the prompt was printed whole, for the terminal to wrap flush left
    assert len(folded) > 1 and all(line.startswith("  ") for line in folded[1:])
    assert start < len(lines) - len(folded)
    assert all(len(line) <= 80 for line in folded)
    assert " ".join(" ".join(folded).split()) == prompt


def test_a_long_parameter_line_folds_at_80_columns() -> None:
    # Clan Feud's parameters take 91 columns: the line was printed whole
    match = Match(clangames.load("clan_feud", players=3), 0, {})
    out = io.StringIO()
    assert replay(match.record, out, None, width=80) == 0
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("parameters: players=3, board=None")
    assert lines[2].startswith("  ") and "=" in lines[2]
    assert _longest(out.getvalue()) <= 80
