"""Saved games come back exactly: the headers ``play`` writes are the ones ``--resume``
reads, every seat keeps its bot, budget and generator, and a record the command cannot use
is refused as a failure of the file (exit 1) naming what is wrong, before anything runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clangames import GameRecord
from clangames.bots.ismcts import ISMCTSBot
from clangames.cli.errors import CommandFailure
from clangames.cli.saving import restore_match, saved_game
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
