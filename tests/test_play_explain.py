"""Scripted games through the command: rules, explain, filters, undo, the hot-seat pass
screen, replay navigation and simulate's report (issue 17)."""

from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from clangames import GameRecord, load
from clangames.cli.play import CLEAR_SCROLLBACK, PlaySession
from clangames.engine.phases import CHANCE
from cli_helpers import CLI, autosave_in_tmp_fixture  # noqa: F401 - autouse


def _run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, text=True, timeout=300, check=False
    )


KILT_CASTLE = ["play", "kilt-castle", "--players", "2", "--seed", "5", "--seats", "human,random"]


def test_rules_explain_and_undo_in_a_scripted_game() -> None:
    done = _run(
        [*KILT_CASTLE, "--no-autosave"],
        "rules\nexplain 1\n?1\n? 2\nexplain 999\nexplain\n1\nundo\nundo\nquit\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Kilt Castle in brief. Players share one castle on a grid" in out
    game = load("kilt_castle", players=2)
    # the game's first human decision, from the same seed (the lay-out is chance)
    first = "build plain at 0.3"
    assert game.parse_action(first) is not None
    assert out.count(f"player 0> {first}: player 0 (red/light grey) builds a plain light grey") == 2
    assert "This puts a floor of your colour on that space. Legal because" in out
    assert "Now: player 0 (red/light grey): build one light grey floor in column 3" in out
    assert "player 0> build 1-crest at 0.3: " in out
    assert "999 is not a number from the list (1..3)" in out
    assert "explain needs an option number, 1..3: explain N" in out
    assert (
        "undone: back to your decision at step 8; this is as far back as undo goes"
        " (the chance outcome at step 6 is before it)" in out
    )
    assert "nothing to undo: you have not decided anything yet" in out


def test_undo_counts_how_far_back_it_can_go() -> None:
    # three decisions with only the bot's between them (Kilt Castle has no chance after the
    # lay-out): three undos, each saying how many are left, the last what stops it
    done = _run([*KILT_CASTLE, "--no-autosave"], "1\n1\n1\nundo\nundo\nundo\nundo\nquit\n")
    assert done.returncode == 0, done.stderr
    said = re.findall(r"(?:undone|nothing to undo): [^\n]*", done.stdout)
    assert said == [
        "undone: back to your decision at step 11; you can undo 2 more decisions",
        "undone: back to your decision at step 10; you can undo 1 more decision",
        "undone: back to your decision at step 8; this is as far back as undo goes"
        " (the chance outcome at step 6 is before it)",
        "nothing to undo: you have not decided anything yet",
    ]


def test_the_first_undo_of_a_game_says_there_is_nothing_yet() -> None:
    done = _run([*KILT_CASTLE, "--no-autosave"], "undo\nquit\n")
    assert "nothing to undo: you have not decided anything yet" in done.stdout


def test_typed_words_filter_a_long_option_list_and_keep_the_numbers() -> None:
    args = ["play", "kings-kilt", "--players", "2", "--seed", "5", "--seats", "human,random"]
    done = _run([*args, "--no-autosave"], "betray 1.2\nMacleod\nquit\n")
    out = done.stdout
    assert "4 options contain 'betray 1.2':\n19. betray 1.2 with Macleod\n" in out
    assert "22. betray 1.2 with Hamilton\n" in out
    assert "6 options contain 'Macleod':\n11. betray 1.0 with Macleod\n15. betray 1.1" in out


def test_the_hot_seat_pass_screen_clears_the_scrollback() -> None:
    args = ["play", "kings-kilt", "--players", "2", "--seed", "5", "--seats", "human,human"]
    done = _run([*args, "--no-autosave"], "\n1\n\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert CLEAR_SCROLLBACK == "\x1b[H\x1b[2J\x1b[3J"
    passes = out.split("===== pass to ")
    assert len(passes) == 3  # before player 0, then before player 1
    # each pass screen is preceded and followed by the clearing sequence, and player 0's
    # family never appears after the screen that hands over to player 1
    assert out.count(CLEAR_SCROLLBACK) == 4
    to_player_1 = out.index("===== pass to player 1")
    family_0 = out[:to_player_1].split("Your family: ")[1].splitlines()[0]
    assert family_0 not in out[to_player_1:].replace("Your family: " + family_0, "")


@pytest.fixture(name="record")
def record_fixture(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    done = _run(
        ["demo", "kilt-castle", "--players", "2", "--seed", "3", "--quiet", "--record", str(path)]
    )
    assert done.returncode == 0, done.stderr
    return path


def test_replay_step_goes_back_forward_jumps_first_and_last(record: Path) -> None:
    recorded = GameRecord.from_json(json.loads(record.read_text()))
    total = len(recorded.moves)
    done = _run(["replay", str(record), "--step"], "\nn\nb\n5\nj 7\nf\nl\n9999\nzz\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    parts = re.split(r"\(at move (\d+) of \d+\) > ", out)
    at = [int(k) for k in parts[1::2]]  # where each prompt stood
    answers = parts[2::2]  # what each key printed
    assert at == [0, 1, 2, 1, 5, 7, 0, total, total, total]
    assert "[1] chance: " in answers[0] and "[2] chance: " in answers[1]
    assert "jumped to after move 1\n[1] chance" in answers[2]
    assert "jumped to after move 5\n[5] " in answers[3]
    assert "jumped to after move 7\n[7] " in answers[4]
    assert "back at the start" in answers[5]
    assert f"jumped to after move {total}" in answers[6]
    assert "===== Game over =====" in answers[6]
    assert f"no move 9999: moves are 0..{total}" in answers[7]
    assert "unknown key 'zz'" in answers[8]


def test_a_bad_record_shows_nothing_before_its_error(record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["moves"][40][1] = "move red/orange to 99"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = _run(["replay", str(bad), "--step"], "\n" * 50)
    assert done.stdout == ""
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("clangames: error: ")


def test_simulate_reports_bots_version_seeds_and_confounding(tmp_path: Path) -> None:
    base = ["simulate", "kings-kilt", "--players", "2", "--games", "4", "--jobs", "1"]
    base += ["--seats", "ismcts,random", "--iterations", "3", "--rollout-limit", "4"]
    base += ["--no-progress", "--seed", "2"]
    fixed = tmp_path / "fixed.json"
    done = _run([*base, "--json", str(fixed)])
    assert done.returncode == 0, done.stderr
    assert "warning: seat and bot are confounded" in done.stdout
    assert "bots: ismcts (iterations 3, rollout_limit 4); random (no settings)" in done.stdout
    summary = json.loads(fixed.read_text())
    assert summary["version"] == "0.1.0"
    assert summary["bots"] == {"ismcts": {"iterations": 3, "rollout_limit": 4}, "random": {}}
    assert summary["seeding"].startswith("game i: chance from Rng(seed).fork(i)")
    assert summary["warnings"] and "confounded" in summary["warnings"][0]
    rotated = tmp_path / "rotated.json"
    done = _run([*base, "--rotate", "--json", str(rotated), "--plot", str(tmp_path / "p.png")])
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stdout
    assert "per bot (every seat)" in done.stdout
    summary = json.loads(rotated.read_text())
    assert summary["warnings"] == []
    assert [b["games"] for b in summary["per_bot"]] == [4, 4]
    assert (tmp_path / "p.png").stat().st_size > 1000
    uneven = _run([*base, "--rotate", "--games", "3"])
    assert "3 games do not rotate evenly over 2 seats" in uneven.stdout


def test_undo_crosses_a_chance_outcome_nobody_saw() -> None:
    # Clan Feud, seed 0: after player 0's first decision an action card is drawn for the
    # bot, unseen by player 0; undo goes back across it (Match.undo alone would refuse)
    game = load("clan_feud", players=2)
    out = io.StringIO()
    session = PlaySession(game, 0, ["human", "random"], io.StringIO(), out)
    session._advance_bots()
    before = session.match.state
    moves_before = session.match.record.moves
    action = before.legal_actions(0)[0]
    session.match.apply(action, 0)
    session._record_step(before, action, 0)
    session._advance_bots()
    history = session.match.history
    drawn = [
        i for i, step in enumerate(history) if step.player == CHANCE and i >= len(moves_before)
    ]
    assert drawn and game.action_text(history[drawn[0]].action).startswith("draw ")
    assert not session.match.can_undo(0)  # the kernel's Match refuses any chance outcome
    assert not session.chance_seen(drawn[0])
    assert session._undo(0)
    assert session.match.state == before
    assert session.match.record.moves == moves_before
    assert "undone: back to your decision at step" in out.getvalue()


def test_undo_is_refused_across_a_chance_outcome_the_player_saw() -> None:
    # King's Kilt: the refill turns up the pile's top card, which player 0 sees: refused
    done = _run(
        ["play", "kings-kilt", "--players", "2", "--seed", "5", "--seats", "human,random"],
        "1\nundo\nquit\n",
    )
    assert "nothing to undo: the chance outcome at step" in done.stdout
