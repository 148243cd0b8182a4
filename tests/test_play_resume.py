"""No game is lost: ``play`` autosaves after every move, ``play --resume`` continues a game
killed mid-way exactly as it would have gone on, and records carry headers (which old
records without them do not need)."""

from __future__ import annotations

import datetime
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import clangames
from clangames import GameRecord, Move, StateDecodeError
from clangames.cli.saving import default_autosave_path
from cli_helpers import CLI, Interactive, autosave_in_tmp_fixture  # noqa: F401 - autouse


def run_cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


# -- headers ----------------------------------------------------------------------------------
HEADERS: dict[str, Any] = {
    "clangames": "0.1.0",
    "game": "kilt_castle",
    "seed": 7,
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts", "iterations": 5}],
    "rng": {"chance": (1 << 64) - 1, "seats": [None, 12]},
    "result": {"scores": [3, 4], "winners": [1], "returns": [0.0, 1.0]},
    "flag": True,
}


def test_headers_round_trip() -> None:
    record = GameRecord("kilt_castle", {"players": 2}, (Move(-1, "deal"),), HEADERS)
    data = record.to_json()
    assert list(data) == ["headers", "game", "params", "moves"]
    assert GameRecord.from_json(data) == record
    again = GameRecord.from_json(record.dumps())
    assert again == record
    assert again.headers == HEADERS


def test_a_record_without_headers_is_written_and_read_as_before() -> None:
    record = GameRecord("kilt_castle", {"players": 2}, (Move(-1, "deal"), Move(0, "x")))
    assert record.headers == {}
    assert record.to_json() == {
        "game": "kilt_castle",
        "params": {"players": 2},
        "moves": [[-1, "deal"], [0, "x"]],
    }
    old_text = json.dumps(
        {"game": "kilt_castle", "params": {"players": 2}, "moves": [[-1, "deal"], [0, "x"]]},
        indent=1,
    )
    assert record.dumps() == old_text  # byte for byte what records were before headers
    assert GameRecord.from_json(old_text) == record


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([1, 2], "record.headers: expected an object, got list"),
        ({"seed": float("nan")}, "record.headers.seed: expected a finite number"),
        ({"seats": [{"kind": {1, 2}}]}, "record.headers.seats[0].kind: expected JSON data"),
        ({"rng": {3: 4}}, "record.headers.rng: expected string keys"),
        ({"deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}, "levels"),
    ],
)
def test_bad_headers_are_refused_naming_the_entry(headers: Any, message: str) -> None:
    data = {"headers": headers, "game": "kilt_castle", "params": {}, "moves": []}
    with pytest.raises(StateDecodeError) as caught:
        GameRecord.from_json(data)
    assert message in str(caught.value)


def test_headers_nested_without_limit_never_overflow_the_check() -> None:
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(StateDecodeError, match="nested more than"):
        GameRecord.from_json({"headers": {"x": deep}, "game": "g", "params": {}, "moves": []})


# -- autosave and resume --------------------------------------------------------------------
SEATS = {
    "random": ["kings-kilt", "--players", "2", "--seed", "5", "--seats", "human,random"],
    "ismcts": [
        "kings-kilt",
        "--players",
        "2",
        "--seed",
        "6",
        "--seats",
        "human,ismcts",
        "--iterations",
        "8",
        "--rollout-limit",
        "4",
    ],
}


@pytest.mark.smoke
@pytest.mark.parametrize("opponent", sorted(SEATS))
def test_a_killed_game_resumes_from_its_autosave_as_if_never_stopped(
    opponent: str, tmp_path: Path
) -> None:
    moves_before_kill = 4
    script = "1\n" * 300 + "quit\n"
    # the game played through without a stop, for comparison
    whole = tmp_path / "whole.json"
    done = run_cli(["play", *SEATS[opponent], "--autosave", str(whole)], script)
    assert done.returncode == 0, done.stderr
    reference = GameRecord.from_json(whole.read_text())
    assert reference.final_state().is_terminal
    # the same game, killed with SIGKILL while a move is half typed
    auto = tmp_path / "auto.json"
    player = Interactive(["play", *SEATS[opponent], "--autosave", str(auto)])
    for count in range(1, moves_before_kill + 1):
        player.wait_for("player 0> ", count)
        player.send(b"1\n")
    player.wait_for("player 0> ", moves_before_kill + 1)
    player.send(b"1")  # no newline: the move being typed
    time.sleep(0.2)
    os.killpg(player.proc.pid, signal.SIGKILL)
    player.proc.communicate(timeout=30)
    saved = GameRecord.from_json(auto.read_text())
    # nothing lost but that move: the autosave is the reference up to the fifth prompt
    assert saved.moves == reference.moves[: len(saved.moves)]
    assert sum(1 for m in saved.moves if m.player == 0) == moves_before_kill
    assert reference.moves[len(saved.moves)].player == 0
    assert saved.headers["seats"][0] == {"kind": "human"}
    assert "result" not in saved.headers
    # resumed with the same seats and Rngs, the rest of the game is the reference's
    resumed = tmp_path / "resumed.json"
    again = run_cli(["play", "--resume", str(auto), "--autosave", str(resumed)], script)
    assert again.returncode == 0, again.stderr
    assert f"resumed from {auto} after {len(saved.moves)} moves" in again.stdout
    final = GameRecord.from_json(resumed.read_text())
    assert final.moves == reference.moves
    assert final.headers["seats"] == reference.headers["seats"]
    assert final.headers["rng"] == reference.headers["rng"]
    assert final.headers["result"] == reference.headers["result"]
    assert final.headers["date"] == saved.headers["date"]


def test_autosave_goes_to_the_state_directory_and_is_named_in_help(
    _autosave_in_tmp: Path,
) -> None:
    done = run_cli(["play", "kilt-castle", "--players", "2", "--seed", "2"], "help\n1\nquit\n")
    assert done.returncode == 0, done.stderr
    files = list((_autosave_in_tmp / "clangames" / "autosave").iterdir())
    assert len(files) == 1 and files[0].name.startswith("kilt_castle-")
    assert f"autosave: {files[0]} (clangames play --resume FILE continues it)" in done.stdout
    assert f"autosave: {files[0]} (after every move)" in done.stdout
    record = GameRecord.from_json(files[0].read_text())
    headers = record.headers
    assert headers["clangames"] == clangames.__version__
    assert (headers["command"], headers["game"], headers["seed"]) == ("play", "kilt_castle", 2)
    assert headers["params"] == record.to_json()["params"]
    assert headers["params"]["players"] == 2
    assert headers["seats"] == [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    assert headers["date"].endswith("Z")
    assert sum(1 for m in record.moves if m.player == 0) == 1


def test_no_autosave_writes_nothing(_autosave_in_tmp: Path) -> None:
    done = run_cli(["play", "kilt-castle", "--no-autosave"], "1\nhelp\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "autosave: off" in done.stdout
    assert not _autosave_in_tmp.exists()


def test_a_saved_game_resumes_too_and_a_finished_one_shows_its_result(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    done = run_cli(
        ["play", "kilt-castle", "--players", "2", "--seed", "3", "--no-autosave"],
        f"1\n1\nsave {saved}\nquit\n",
    )
    assert done.returncode == 0, done.stderr
    record = GameRecord.from_json(saved.read_text())
    assert record.headers["seats"][1] == {"kind": "bot", "bot": "random"}
    finished = tmp_path / "finished.json"
    again = run_cli(
        ["play", "--resume", str(saved), "--autosave", str(finished)], "1\n" * 300 + "quit\n"
    )
    assert again.returncode == 0, again.stderr
    end = GameRecord.from_json(finished.read_text())
    assert end.moves[: len(record.moves)] == record.moves
    assert end.final_state().is_terminal
    assert end.headers["result"]["scores"] == list(end.final_state().scores())
    over = run_cli(["play", "--resume", str(finished), "--no-autosave"], "quit\n")
    assert over.returncode == 0, over.stderr
    assert "===== Game over =====" in over.stdout


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("headers"), "the record has no headers"),
        (lambda d: d["headers"].pop("rng"), "headers.rng: expected an object"),
        (lambda d: d["headers"]["seats"].pop(), "headers.seats: expected a list of 2 seats"),
        (lambda d: d["headers"]["seats"][1].update(kind="alien"), "seats[1].kind"),
        (lambda d: d["headers"]["seats"][1].update(bot="genius"), "no bot called 'genius'"),
        (lambda d: d["headers"].update(seed=-3), "headers.seed: expected an integer >= 0"),
        (lambda d: d["moves"].append([0, "fly away"]), "record.moves["),
    ],
)
def test_a_record_that_cannot_be_resumed_is_one_line(
    tmp_path: Path, edit: Any, message: str
) -> None:
    saved = tmp_path / "saved.json"
    done = run_cli(["play", "kilt-castle", "--players", "2", "--autosave", str(saved)], "quit\n")
    assert done.returncode == 0, done.stderr
    data = json.loads(saved.read_text())
    edit(data)
    saved.write_text(json.dumps(data))
    again = run_cli(["play", "--resume", str(saved), "--no-autosave"], "quit\n")
    assert again.returncode == 1  # the file is at fault, not the command line
    assert again.stdout == ""
    lines = again.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("clangames: error: "), again.stderr
    assert message in lines[0]


def test_two_games_started_in_the_same_second_get_two_autosave_files(tmp_path: Path) -> None:
    now = datetime.datetime(2026, 11, 22, 18, 40, 5)
    first = default_autosave_path(tmp_path, "kings_kilt", now)
    second = default_autosave_path(tmp_path, "kings_kilt", now)
    assert (first.name, second.name) == (
        "kings_kilt-20261122-184005.json",
        "kings_kilt-20261122-184005-2.json",
    )
    assert first.exists() and second.exists()


def test_an_unusable_autosave_directory_is_refused_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    done = run_cli(["play", "kilt-castle"], "1\nquit\n")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("clangames: error: autosave: cannot write in ")
    assert lines[0].endswith("; choose a file with --autosave FILE or --no-autosave")


class _BrokenBot:
    """A third-party bot that fails on its third decision."""

    def __init__(self, rng: clangames.Rng) -> None:
        self.rng = rng
        self.calls = 0

    def act(self, state: clangames.State, player: int) -> clangames.Action:
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("the bot's model file vanished")
        return state.legal_actions(player)[0]


def test_a_bot_failing_mid_game_says_where_the_game_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from clangames.bots import registry
    from clangames.bots.registry import BotSpec
    from clangames.cli.main import main

    monkeypatch.setitem(registry._BOTS, "broken", BotSpec("broken", "fails", _BrokenBot))
    save = tmp_path / "game.json"
    args = ["play", "kilt_castle", "--players", "2", "--seats", "broken,random"]
    assert main([*args, "--autosave", str(save)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "RuntimeError: the bot's model file vanished" in err
    assert f"clangames play --resume {save}" in err
    # Nothing is lost: the moves before the failure are in the autosave and replay.
    record = GameRecord.from_json(save.read_text())
    assert len(record.moves) > 2
    record.replay()
