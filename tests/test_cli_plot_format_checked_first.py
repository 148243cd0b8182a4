"""``simulate --plot FILE`` whose extension names no format matplotlib writes is refused
before the first game, as a usage error naming the file and the formats there are (it used
to play every game and then fail inside matplotlib as an internal error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import run_main

pytest.importorskip("matplotlib")

SIMULATE = ["simulate", "kilt-castle", "--players", "2", "--games", "2", "--no-progress"]


def test_an_unknown_plot_format_is_refused_before_any_game(tmp_path: Path) -> None:
    target = tmp_path / "out.pgn"
    code, out, err = run_main([*SIMULATE, "--plot", str(target)])
    assert code == 2
    assert f"--plot: matplotlib cannot write {str(target)!r}: its extension .pgn" in err
    assert ".png" in err and ".svg" in err  # the formats there are
    assert "games" not in out  # no game was played: no summary
    assert not target.exists()


@pytest.mark.parametrize("name", ["out.PNG", "out.svg", "plot"])
def test_known_formats_and_no_extension_are_drawn(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    code, _, err = run_main([*SIMULATE, "--plot", str(target)])
    assert (code, err) == (0, "")
    assert target.stat().st_size > 0
