"""The command's one-line messages say what was wrong and what was expected: the error
line itself (one line, cut with an ellipsis only past its limit), the demo's seat count,
the serve options' ranges and the missing extra; and a demo record names each seat's own
bot."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

import clangames
from clangames import GameRecord
from clangames.cli.demo import DemoError, run_demo
from clangames.cli.errors import one_line
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse


def test_one_line_cuts_only_past_its_limit_and_marks_the_cut() -> None:
    assert one_line("a\n b\t c") == "a b c"
    exact = "x" * 400
    assert one_line(exact) == exact
    cut = one_line("y" * 401)
    assert len(cut) == 400 and cut.endswith("y...")


def test_a_wrong_number_of_demo_bots_says_what_counts_are_allowed() -> None:
    game = clangames.load("kilt_castle", players=3)
    with pytest.raises(DemoError, match=r"^--bots names 2 bots for 3 seats; give 1 or 3 names$"):
        run_demo(game, 0, ["random", "random"], io.StringIO())


def test_a_demo_record_names_each_seats_own_bot(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    code, _, err = run_main(
        [
            "demo", "kilt-castle", "--players", "2", "--quiet",
            "--bots", "random,ismcts", "--record", str(path),
        ]
    )  # fmt: skip
    assert code == 0, err
    seats = GameRecord.from_json(path.read_text()).headers["seats"]
    assert [seat["bot"] for seat in seats] == ["random", "ismcts"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "65536"], "serve: --port must be in 1..65535, got 65536"),
        (["--max-games", "0"], "serve: --max-games must be at least 1, got 0"),
    ],
)
def test_serve_options_out_of_range_are_refused(argv: list[str], message: str) -> None:
    code, out, err = run_main(["serve", *argv])
    assert (code, out) == (2, "")
    assert err == f"clangames: error: {message}\n"


def test_serve_without_the_extra_names_the_missing_module(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    modules: Any = sys.modules
    monkeypatch.setitem(modules, "uvicorn", None)  # import uvicorn fails
    code, _, err = run_main(["serve"])
    assert code == 2
    assert "serve needs the [web] extra (uvicorn is missing)" in err
