"""``play`` keeps its word at the prompt: seat lists and bot budgets as documented, the
autosave always holding the game as it stands (from the start, after an undo, with a
failure said once), a quit saying where the game is, a save that cannot be written never
ending the game, and each hot-seat player told the steps since their turn exactly once."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import clangames
from clangames import GameRecord
from clangames.cli.play import PlayError, PlaySession, seat_names
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse

CASTLE = ["play", "kilt-castle", "--players", "2", "--seed", "5"]


def test_a_seat_list_of_the_wrong_length_is_refused_with_both_counts() -> None:
    with pytest.raises(PlayError, match=r"^--seats names 3 seats for 2 players$"):
        seat_names("human,random,random", 2)
    assert seat_names("Human", 3) == ["human"] * 3
    assert seat_names("human", 3, default_rest="random") == ["human", "random", "random"]


def test_one_ismcts_budget_given_leaves_the_other_at_its_default(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    argv = [*CASTLE, "--seats", "human,ismcts", "--iterations", "2", "--autosave", str(path)]
    code, _, err = run_main(argv, "quit\n")
    assert code == 0, err
    seat = GameRecord.from_json(path.read_text()).headers["seats"][1]
    assert seat == {"kind": "bot", "bot": "ismcts", "iterations": 2, "rollout_limit": 40}
    argv[argv.index("--iterations") : argv.index("--iterations") + 2] = ["--rollout-limit", "0"]
    code, _, err = run_main(argv, "quit\n")
    assert code == 0, err
    seat = GameRecord.from_json(path.read_text()).headers["seats"][1]
    assert seat == {"kind": "bot", "bot": "ismcts", "iterations": 200, "rollout_limit": 0}


def test_iterations_below_one_are_refused() -> None:
    code, out, err = run_main([*CASTLE, "--iterations", "0"])
    assert (code, out) == (2, "")
    assert "expected an integer >= 1, got 0" in err


def test_the_autosave_holds_the_game_from_its_start_and_after_an_undo(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    code, out, err = run_main([*CASTLE, "--autosave", str(path)], "quit\n")
    assert code == 0, err
    started = GameRecord.from_json(path.read_text())
    assert not any(move.player == 0 for move in started.moves)  # written before any decision
    assert f"game stopped; the game is saved in {path}; continue it with" in out
    code, _, err = run_main([*CASTLE, "--autosave", str(path)], "1\n1\nundo\nquit\n")
    assert code == 0, err
    undone = GameRecord.from_json(path.read_text())
    assert sum(1 for move in undone.moves if move.player == 0) == 1


def test_an_autosave_that_fails_is_said_once_and_the_game_goes_on(tmp_path: Path) -> None:
    out = io.StringIO()
    game = clangames.load("kilt_castle", players=2)
    gone = tmp_path / "gone"
    session = PlaySession(
        game, 5, ["human", "random"], io.StringIO("1\n1\n1\nquit\n"), out, autosave=gone / "a.json"
    )
    assert session.run() == 0
    text = out.getvalue()
    assert text.count("cannot autosave to ") == 1
    assert f"cannot autosave to {str(gone / 'a.json')!r}: No such file or directory (" in text
    assert "(the game goes on; 'save FILE' still works)" in text
    assert sum(1 for step in session.match.history if step.player == 0) == 3


def test_a_save_to_an_impossible_name_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    saved = tmp_path / "ok.json"
    code, out, err = run_main(
        [*CASTLE, "--no-autosave"], f"save bad\x00name\n1\nsave {saved}\nquit\n"
    )
    assert (code, err) == (0, "")
    assert "cannot save to " in out
    record = GameRecord.from_json(saved.read_text())
    assert sum(1 for move in record.moves if move.player == 0) == 1


def test_each_hot_seat_player_is_told_each_step_once() -> None:
    out = io.StringIO()
    game = clangames.load("kilt_castle", players=2)
    typed = "1\n" * 8 + "quit\n" * 2  # a line at a pass screen is its Enter
    session = PlaySession(game, 5, ["human", "human"], io.StringIO(typed), out)
    assert session.run() == 0
    told: dict[str, list[int]] = {"0": [], "1": []}
    for part in out.getvalue().split("===== pass to player ")[1:]:
        told[part[0]] += [int(k) for k in re.findall(r"^\[(\d+)\] ", part, flags=re.MULTILINE)]
    for seat, steps in told.items():
        assert steps and len(steps) == len(set(steps)), (seat, steps)
    assert len(session.match.history) in told["0"] + told["1"]


def test_a_finished_game_is_saved_with_its_result(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    code, out, err = run_main([*CASTLE, "--autosave", str(path)], "1\n" * 400 + "quit\n")
    assert code == 0, err
    assert "===== Game over =====" in out
    data = json.loads(path.read_text())
    final = GameRecord.from_json(data).final_state()
    assert data["headers"]["result"]["scores"] == list(final.scores())


def test_a_resumed_game_is_autosaved_before_anyone_moves(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    code, _, err = run_main([*CASTLE, "--autosave", str(first)], "1\nquit\n")
    assert code == 0, err
    code, _, err = run_main(["play", "--resume", str(first), "--autosave", str(second)], "quit\n")
    assert code == 0, err
    assert (
        GameRecord.from_json(second.read_text()).moves
        == GameRecord.from_json(first.read_text()).moves
    )
