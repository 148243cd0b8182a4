"""Saved games come back exactly: the headers ``play`` writes are the ones ``--resume``
reads, every seat keeps its bot, budget and generator, and a record the command cannot use
is refused as a failure of the file (exit 1) naming what is wrong, before anything runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from clangames import GameRecord
from clangames.bots.ismcts import ISMCTSBot
from clangames.cli.errors import CommandFailure
from clangames.cli.saving import autosave_directory, restore_match, saved_game
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse

CASTLE = ["kilt-castle", "--players", "2", "--seed", "3"]


def _played(tmp_path: Path, seats: str, *extra: str, typed: str = "1\n1\nquit\n") -> Path:
    """A Kilt Castle game with ``seats`` played for two human decisions, then quit: its
    autosave file."""
    path = tmp_path / "saved.json"
    code, _, err = run_main(
        ["play", *CASTLE, "--seats", seats, *extra, "--autosave", str(path)], typed
    )
    assert code == 0, err
    return path


def _edited(path: Path, edit: Any) -> GameRecord:
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    return GameRecord.from_json(data)


# -- fixed: a bot name written in another spelling lost its saved budget ------------------
def test_a_bot_name_in_capitals_keeps_its_saved_budget(tmp_path: Path) -> None:
    path = _played(tmp_path, "human,ismcts", "--iterations", "3", "--rollout-limit", "2")
    record = _edited(path, lambda d: d["headers"]["seats"][1].update(bot=" ISMCTS "))
    saved = saved_game(record, str(path))
    assert saved.names == ["human", "ismcts"]
    assert dict(saved.seats[1].settings) == {"iterations": 3, "rollout_limit": 2}
    bot = restore_match(saved, str(path)).policies[1]
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.rollout_limit) == (3, 2)


# -- fixed: a record's unusable game or bot was a usage error (exit 2) ---------------------
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(game="chess"), "no game called 'chess'"),
        (lambda d: d["params"].update(players=9), "parameter 'players' must be in 2..4, got 9"),
    ],
)
def test_replaying_a_record_of_an_unloadable_game_is_a_failure(
    tmp_path: Path, edit: Any, message: str
) -> None:
    path = _played(tmp_path, "human,random")
    _edited(path, edit)
    code, out, err = run_main(["replay", str(path)])
    assert (code, out) == (1, "")
    assert err.startswith("clangames: error: the record's game cannot be loaded: ")
    assert message in err and err.count("\n") == 1


def test_resuming_a_record_of_an_unknown_bot_is_a_failure_naming_the_seat(
    tmp_path: Path,
) -> None:
    path = _played(tmp_path, "human,random")
    record = _edited(path, lambda d: d["headers"]["seats"][1].update(bot="genius"))
    with pytest.raises(CommandFailure, match=r"headers\.seats\[1\]\.bot: no bot called 'genius'"):
        restore_match(saved_game(record, str(path)), str(path))
    code, out, err = run_main(["play", "--resume", str(path), "--no-autosave"], "quit\n")
    assert (code, out) == (1, "")
    assert f"{path}: headers.seats[1].bot: no bot called 'genius'" in err


# -- every header --resume reads is checked, the message quoting the bad value ----------------
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda h: h.update(seed=True),
            "headers.seed: expected an integer >= 0 and <= 18446744073709551615, got True",
        ),
        (
            lambda h: h.update(seed=1 << 64),
            f"headers.seed: expected an integer >= 0 and <= {(1 << 64) - 1}, got {1 << 64}",
        ),
        (
            lambda h: h.update(seed=-3),
            "headers.seed: expected an integer >= 0 and <= 18446744073709551615, got -3",
        ),
        (lambda h: h.update(date=5), "headers.date: expected text, got 5"),
        (
            lambda h: h["seats"].__setitem__(0, "human"),
            "headers.seats[0]: expected an object, got 'human'",
        ),
        (
            lambda h: h["seats"][1].update(bot="Human"),
            "headers.seats[1].bot: expected a bot name, got 'Human'",
        ),
        (
            lambda h: h["seats"][1].update(bot=" "),
            "headers.seats[1].bot: expected a bot name, got ' '",
        ),
        (
            lambda h: h["seats"][1].update(iterations=0),
            "headers.seats[1].iterations: expected an integer >= 1, got 0",
        ),
        (
            lambda h: h["seats"][1].update(rollout_limit=-1),
            "headers.seats[1].rollout_limit: expected an integer >= 0, got -1",
        ),
        (
            lambda h: h["seats"][1].update(rollout_limit="4"),
            "headers.seats[1].rollout_limit: expected an integer >= 0, got '4'",
        ),
        (lambda h: h.update(rng=[1, 2]), "headers.rng: expected an object, got [1, 2]"),
        (
            lambda h: h["rng"].update(seats=[None]),
            "headers.rng.seats: expected a list of 2 states, got [None]",
        ),
        (
            lambda h: h["rng"].update(seats=[None, 1, 2]),
            "headers.rng.seats: expected a list of 2 states",
        ),
        (
            lambda h: h["rng"]["seats"].__setitem__(1, -1),
            "headers.seats[1] rng: expected an integer >= 0",
        ),
    ],
)
def test_a_bad_header_is_refused_naming_it_and_quoting_the_value(
    tmp_path: Path, edit: Any, message: str
) -> None:
    path = _played(tmp_path, "human,ismcts", "--iterations", "2", "--rollout-limit", "1")
    record = _edited(path, lambda d: edit(d["headers"]))
    with pytest.raises(CommandFailure) as caught:
        saved_game(record, str(path))
    assert str(caught.value).startswith(f"{path}: {message}")


def test_a_record_of_an_unloadable_game_names_the_file_when_resumed(tmp_path: Path) -> None:
    path = _played(tmp_path, "human,random")
    record = _edited(path, lambda d: d.update(game="chess"))
    with pytest.raises(CommandFailure, match=rf"^{re.escape(str(path))}: no game called 'chess'"):
        saved_game(record, str(path))
    record = _edited(path, lambda d: d.update(game="kilt_castle", params={"players": 9}))
    with pytest.raises(CommandFailure, match=rf"^{re.escape(str(path))}: kilt_castle: parameter"):
        saved_game(record, str(path))


def test_a_demo_records_each_bot_under_the_registry_spelling(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    code, _, err = run_main(
        ["demo", *CASTLE, "--bots", " Random,RANDOM", "--quiet", "--record", str(path)]
    )
    assert code == 0, err
    seats = GameRecord.from_json(path.read_text()).headers["seats"]
    assert seats == [{"kind": "bot", "bot": "random"}] * 2
    assert GameRecord.from_json(path.read_text()).headers["command"] == "demo"


def test_a_relative_state_home_is_ignored_as_the_xdg_rules_say(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    assert autosave_directory() == tmp_path / ".local" / "state" / "clangames" / "autosave"
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "abs"))
    assert autosave_directory() == tmp_path / "abs" / "clangames" / "autosave"
