"""What ``play`` says in sentences (help, rules, explain, a refused line, narration, the end
report) is folded at spaces to the screen's width: on an 80-column terminal no word is cut in
two and no line is longer than the screen. Into a file or a pipe the lines stay whole. Ctrl-C
at the prompt puts the error line on a line of its own."""

from __future__ import annotations

import io
import os
import signal

import clangames
from clangames.cli.play import HELP, PlaySession, fold_line, help_text
from clangames.rendering.explain import rules_text
from cli_helpers import Interactive, autosave_in_tmp_fixture  # noqa: F401 - autouse

PROMPT = "player 0> "


def _answers(typed: list[str], width: int | None) -> list[str]:
    """What Clan Feud (2 players, seed 5) printed after each typed line, on a screen of
    ``width`` columns (None: not a terminal)."""
    game = clangames.load("clan_feud", players=2)
    out = io.StringIO()
    inp = io.StringIO("\n".join([*typed, "quit"]) + "\n")
    size = {} if width is None else {"width": width, "height": 24}
    assert PlaySession(game, 5, ["human", "random"], inp, out, **size).run() == 0
    return out.getvalue().split(PROMPT)[1:-1]


TYPED = ["help", "rules", "explain 7", "x" * 300]


def test_help_rules_explain_and_refusals_fold_at_spaces_at_80_columns() -> None:
    answers = _answers(TYPED, 80)
    for typed, answer in zip(TYPED, answers, strict=True):
        lines = answer.splitlines()
        assert all(len(line) <= 80 for line in lines), (typed, answer)
        assert len(lines) > 1, (typed, answer)
    help_text, rules, explained, refused = answers
    assert "  ACTION TEXT  take the option written out (e.g. 'pass'); a unique beginning\n" in (
        help_text
    )
    # the rules, written folded at about 90 columns, and the explanation are folded again
    # at 80, word by word (the words are those of the guide, whatever it says)
    state = clangames.load("clan_feud", players=2).initial_state()
    assert _words(rules) == _words(rules_text(state))
    assert rules.splitlines()[1].startswith("  ")  # a folded line goes on two spaces in
    assert explained.startswith("assign white 2 to feud II: ")
    assert explained.splitlines()[-1] == "Now: player 0: assign a die to a free slot of your board"
    # a long typed line is shown cut, its quote closed with ...
    assert refused.startswith("not accepted: '" + "x" * 55 + "...' is\n  neither a number")


def _words(text: str) -> list[str]:
    return text.split()


def test_every_line_of_help_fits_80_columns() -> None:
    for options in ([], ["assign white 1 to feud I"], ["advance 1.1"], ["x" * 30], ["y" * 90]):
        text = help_text(options)
        assert max(len(line) for line in text.splitlines()) < 80, text
    assert help_text(["y" * 90]) == HELP.format(example="'pass'")


def test_help_filters_with_the_words_of_the_game_being_played() -> None:
    # the example was King's Kilt's 'betray 2.1' in every game
    line = next(x for x in help_text(["assign white 1 to feud I"]).splitlines() if "WORDS" in x)
    assert line.endswith("containing those words ('assign white')")
    line = next(x for x in help_text(["z" * 10, "b"]).splitlines() if "WORDS" in x)
    assert line.endswith(f"('{'z' * 10}')")


def test_into_a_pipe_the_lines_stay_whole() -> None:
    _, rules, explained, _ = _answers(TYPED, None)
    assert len(rules.splitlines()) == 1  # one paragraph: one line
    assert explained.splitlines()[0].endswith("and a slot of that level is free.")


def test_a_folded_line_goes_on_under_its_start() -> None:
    line = "    +3  family card Buchanan (1 King) " + "word " * 20
    folded = fold_line(line, 40).splitlines()
    assert folded[0].startswith("    +3  family card Buchanan")
    assert all(part.startswith("      ") and len(part) <= 40 for part in folded[1:])
    assert " ".join(" ".join(folded).split()) == " ".join(line.split())
    assert fold_line("short", 40) == "short"


def test_ctrl_c_at_the_prompt_ends_the_prompts_line() -> None:
    game = Interactive(["play", "kings-kilt", "--players", "2", "--seed", "4", "--no-autosave"])
    game.wait_for(PROMPT)
    os.killpg(game.proc.pid, signal.SIGINT)
    code, out, err = game.finish()
    assert code == 130
    assert out.endswith(PROMPT.encode() + b"\n")
    assert err == b"clangames: error: interrupted; autosave is off\n"


def _at_a_long_prompt(out: io.StringIO, width: int | None) -> PlaySession:
    """Clan Feud (2 players, seed 0), the human taking each first option, stopped at the
    first decision of theirs whose prompt is longer than 80 characters."""
    game = clangames.load("clan_feud", players=2)
    size = {} if width is None else {"width": width, "height": 24}
    session = PlaySession(game, 0, ["human", "random"], io.StringIO(), out, **size)
    while True:
        session._advance_bots()
        state = session.match.state
        if len(state.prompt()) > 80:
            return session
        action = state.legal_actions(0)[0]
        session.match.apply(action, 0)
        session._record_step(state, action, 0)


def test_a_long_prompt_folds_under_its_start_at_80_columns() -> None:
    out = io.StringIO()
    session = _at_a_long_prompt(out, 80)
    out.seek(0)
    out.truncate()
    session._show(0)
    prompt = session.match.state.prompt()
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if prompt.startswith(line) and line)
    folded = lines[start : start + len(fold_line(prompt, 80).splitlines())]
    # its continuation lines were flush left, reading as a line of their own
    assert len(folded) > 1 and all(line.startswith("  ") for line in folded[1:])
    assert all(len(line) <= 80 for line in folded)
    assert " ".join(" ".join(folded).split()) == prompt
    assert lines[start + len(folded)].lstrip().startswith("1. ")  # then the options


def test_into_a_pipe_a_long_prompt_stays_one_line() -> None:
    out = io.StringIO()
    session = _at_a_long_prompt(out, None)
    out.seek(0)
    out.truncate()
    session._show(0)
    assert session.match.state.prompt() in out.getvalue().splitlines()
