"""The terminal front-ends through the `clangames` command: play, replay and simulate."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import clangames
from clangames import GameRecord

CLI = [sys.executable, "-m", "clangames.cli"]


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` autosaves under $XDG_STATE_HOME: keep the tests' games out of the home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def _run(args: list[str], stdin: str = "", timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )


def _score_table(text: str) -> list[str]:
    """The final table's rows (``player k  score  win share  [winner]``)."""
    start = text.rindex("seat      score")
    return [line.split() for line in text[start:].splitlines()[1:] if line.startswith("player")]


@pytest.mark.smoke
@pytest.mark.parametrize(
    ("game", "players"), [("kings-kilt", 2), ("koa-kingmaker", 3), ("kilt-castle", 2)]
)
def test_play_a_whole_game_against_random_then_save_and_replay(
    game: str, players: int, tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    seats = ",".join(["human"] + ["random"] * (players - 1))
    script = "garbage\n" + "1\n" * 600 + f"save {saved}\nquit\n"
    played = _run(
        ["play", game, "--players", str(players), "--seed", "5", "--seats", seats], script
    )
    assert played.returncode == 0, played.stderr
    # bad input is re-prompted with the reason, and the game goes on
    assert "not accepted: 'garbage' is neither a number, an action nor a command" in played.stdout
    assert "saved the record" in played.stdout
    record = GameRecord.from_json(saved.read_text())
    final = record.final_state()
    assert final.is_terminal
    table = _score_table(played.stdout)
    assert [int(row[2]) for row in table] == list(final.scores())
    replayed = _run(["replay", str(saved)])
    assert replayed.returncode == 0, replayed.stderr
    assert _score_table(replayed.stdout) == table


def test_hot_seat_never_shows_another_seats_secrets() -> None:
    out = _run(
        ["play", "kings-kilt", "--players", "2", "--seed", "5", "--seats", "human,human"],
        "1\n" * 40,
    ).stdout
    game = clangames.load("kings_kilt", players=2)
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(5))
    families = [set(state.family_of(p)) for p in range(2)]
    segments = re.split(r"===== pass to player (\d) =====", out)[1:]
    assert len(segments) >= 4  # the screen came up several times
    for seat_text, text in zip(segments[::2], segments[1::2], strict=True):
        seat = int(seat_text)
        for line in text.splitlines():
            if line.startswith("Your family:"):
                shown = set(re.findall(r"(\w+) \(face", line))
                assert shown == families[seat]
            dealt = re.search(
                r"a (\w+) (?:Clan Family|Influence) card is dealt to player (\d)", line
            )
            if dealt:
                assert int(dealt.group(2)) == seat, line


@pytest.mark.smoke
def test_simulate_gives_the_same_json_whatever_the_number_of_jobs(tmp_path: Path) -> None:
    outputs = []
    for jobs in (1, 2):
        path = tmp_path / f"jobs{jobs}.json"
        done = _run(
            [
                "simulate",
                "kings-kilt",
                "--games",
                "24",
                "--players",
                "3",
                "--seats",
                "random",
                "--jobs",
                str(jobs),
                "--seed",
                "9",
                "--json",
                str(path),
                "--no-progress",
            ]
        )
        assert done.returncode == 0, done.stderr
        outputs.append(path.read_text())
    assert outputs[0] == outputs[1]
    summary = json.loads(outputs[0])
    assert summary["games"] == 24


def test_undo_goes_back_to_your_decision_but_never_across_chance() -> None:
    # Kilt Castle has no chance after the lay-out: undo works.
    castle = _run(
        ["play", "kilt-castle", "--players", "2", "--seed", "5", "--seats", "human,random"],
        "1\nundo\nquit\n",
    )
    assert "undone: back to your decision at step 8" in castle.stdout
    # In King's Kilt a move refills row 1 and turns up the pile's top card: a chance
    # outcome that revealed something, so undo is refused.
    kilt = _run(
        ["play", "kings-kilt", "--players", "2", "--seed", "5", "--seats", "human,random"],
        "1\nundo\nquit\n",
    )
    assert "nothing to undo: the chance outcome at step" in kilt.stdout
    assert "came after your last decision, and undo never goes back past it" in kilt.stdout


@pytest.mark.smoke
def test_simulate_draws_a_png_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "plot.png"
    done = _run(
        [
            "simulate",
            "kings-kilt",
            "--games",
            "6",
            "--players",
            "2",
            "--seats",
            "random",
            "--jobs",
            "1",
            "--seed",
            "2",
            "--plot",
            str(path),
            "--no-progress",
        ]
    )
    assert done.returncode == 0, done.stderr
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
