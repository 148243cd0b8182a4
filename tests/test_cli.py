"""The ``clangames`` command: demo narration, list, parameters, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

import clangames
from clangames.bots import RandomBot
from clangames.cli import main
from clangames.cli.params import convert, describe_parameter, parse_params
from clangames.engine import registry
from clangames.engine.actions import ActionTable
from clangames.rendering import narrate, renderer_for


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- demo -------------------------------------------------------------------------------------
def test_demo_header_narration_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo", "kings-kilt", "--players", "3", "--seed", "7")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:3] == [
        "King's Kilt (kings_kilt): 3 players, seed 7",
        "parameters: players=3, first_player=0, betrayal_match='traitor', components=None",
        "seats: P0 random, P1 random, P2 random",
    ]
    # The same game, played independently with the seeds the demo documents.
    game = clangames.load("kings_kilt", players=3)
    bots = {p: RandomBot(clangames.Rng(7).fork(p + 1)) for p in range(3)}
    match = clangames.Match(game, 7, bots)
    expected = []
    while (step := match.step()) is not None:
        who = "chance" if step.player == clangames.CHANCE else f"P{step.player}"
        expected.append(f"{len(expected) + 1:>5}  {who:<6}  {step.before.describe(step.action)}")
    assert lines[4] == " step  who     what"
    assert lines[5 : 5 + len(expected)] == expected
    chance = sum(1 for s in match.history if s.player == clangames.CHANCE)
    final = match.state
    winners = final.winners()
    tail = lines[5 + len(expected) :]
    assert tail[:3] == [
        "",
        f"Game over after {len(expected)} steps ({chance} chance outcomes,"
        f" {len(expected) - chance} decisions).",
        "Final scores:",
    ]
    for seat, score in enumerate(final.scores()):
        mark = "  winner" if seat in winners else ""
        assert tail[3 + seat] == f"  P{seat}  {score:>4}{mark}"
    assert tail[6] == "Winners: " + ", ".join(f"P{p}" for p in winners)
    returns = ", ".join(f"P{p} {r:.4g}" for p, r in enumerate(final.returns()))
    assert tail[7] == f"Returns: {returns}"
    assert len(tail) == 8
    assert any("  chance  " in line for line in expected)


@pytest.mark.parametrize(
    ("name", "told"), [("clan_feud", "; then "), ("koa_kingmaker", "turn face up")]
)
def test_demo_tells_what_a_step_set_going_and_turned_face_up(
    capsys: pytest.CaptureFixture[str], name: str, told: str
) -> None:
    # A watcher of a demo sees everything: each step is the renderer's whole narration
    # (Clan Feud's forced options and England after "; then", KOA Kingmaker's reveal),
    # not only the chosen action's own sentence.
    code, out, err = run(capsys, "demo", name, "--players", "3", "--seed", "7")
    assert (code, err) == (0, "")
    game = clangames.load(name, players=3)
    renderer = renderer_for(game)
    match = clangames.Match(game, 7, {p: RandomBot(clangames.Rng(7).fork(p + 1)) for p in range(3)})
    expected, longer = [], 0
    while (step := match.step()) is not None:
        who = "chance" if step.player == clangames.CHANCE else f"P{step.player}"
        text = narrate(renderer, step.before, step.action, step.player, match.state, None)
        longer += text != step.before.describe(step.action)
        expected.append(f"{len(expected) + 1:>5}  {who:<6}  {text}")
    lines = out.splitlines()
    assert lines[5 : 5 + len(expected)] == expected
    assert longer > 0 and any(told in line for line in expected)


def test_demo_is_deterministic_and_accepts_both_spellings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = [
        run(capsys, "demo", name, "--players", "2", "--seed", "123")[1]
        for name in ("kings-kilt", "kings_kilt", "Kings-Kilt")
    ]
    assert outputs[0] == outputs[1] == outputs[2]
    other = run(capsys, "demo", "kings_kilt", "--players", "2", "--seed", "124")[1]
    assert other.splitlines()[4:] != outputs[0].splitlines()[4:]


def test_demo_quiet_prints_header_and_result_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "kings_kilt", "--seed", "5", "--quiet")
    full = run(capsys, "demo", "kings_kilt", "--seed", "5")[1]
    assert code == 0
    lines = out.splitlines()
    assert lines[:3] == full.splitlines()[:3]
    assert lines[3] == ""
    assert lines[4].startswith("Game over after ")
    # The result part is the same as the narrated run's.
    assert full.endswith(out[out.index("Game over") :])


def test_demo_params_and_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out, err = run(
        capsys,
        "demo",
        "kings_kilt",
        "--param",
        "players=2",
        "--param",
        "betrayal_match=target",
        "--param",
        "first_player=1",
        "--seed",
        "3",
        "--record",
        str(record),
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "King's Kilt (kings_kilt): 2 players, seed 3"
    assert out.splitlines()[1] == (
        "parameters: players=2, first_player=1, betrayal_match='target', components=None"
    )
    assert out.splitlines()[-1] == f"Record saved to {record}"
    saved = clangames.GameRecord.from_json(record.read_text(encoding="utf-8"))
    assert saved.params == {
        "players": 2,
        "first_player": 1,
        "betrayal_match": "target",
        "components": None,
    }
    final = saved.final_state()
    steps = out.split("Game over after ")[1].split(" ")[0]
    assert len(saved.moves) == int(steps)
    winners = ", ".join(f"P{p}" for p in final.winners())
    assert f"Winners: {winners}\n" in out


def test_demo_with_one_bot_name_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "kings_kilt", "--players", "2", "--bots", "random,Random")
    assert code == 0
    assert out.splitlines()[2] == "seats: P0 random, P1 Random"


# -- list and version ------------------------------------------------------------------------
@pytest.mark.smoke
def test_list_shows_games_parameters_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list")
    assert (code, err) == (0, "")
    for spec in clangames.games():
        players = f"{spec.min_players}-{spec.max_players} players"
        if spec.min_players == spec.max_players:
            players = f"{spec.min_players} players"
        assert f"  {spec.name}: {spec.title}, {players}\n" in out
        for param in spec.parameters:
            assert f"      {param.name}={param.kind.__name__.upper()} (default" in out
    assert "      players=INT (default 3; 2..4): number of players\n" in out
    assert "\nBots (demo --bots NAME):\n  ismcts: information-set Monte Carlo" in out
    assert "\n  random: a uniformly random legal action\n" in out


@pytest.mark.smoke
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"clangames {clangames.__version__}\n")


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "chess"], "no game called 'chess'; registered games: "),
        (["demo", "kings_kilt", "--players", "9"], "parameter 'players' must be in 2..4, got 9"),
        (["demo", "kings_kilt", "--param", "colour=red"], "unknown parameter 'colour'"),
        (["demo", "kings_kilt", "--param", "first_player=x"], "'first_player' must be int"),
        (["demo", "kings_kilt", "--param", "oops"], "--param expects key=value, got 'oops'"),
        (
            ["demo", "kings_kilt", "--param", "players=2", "--param", "players=3"],
            "parameter 'players' is given twice",
        ),
        (
            ["demo", "kings_kilt", "--players", "3", "--param", "players=2"],
            "--players 3 contradicts --param players=2",
        ),
        (
            ["demo", "kings_kilt", "--param", "betrayal_match=both"],
            "'betrayal_match' must be one of 'traitor', 'target', got 'both'",
        ),
        (["demo", "kings_kilt", "--bots", "random,random"], "names 2 bots for 3 seats"),
        (["demo", "kings_kilt", "--bots", "genius"], "no bot called 'genius'"),
    ],
)
def test_usage_errors_exit_2_with_a_message_naming_the_problem(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("clangames: error: ")
    assert message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "kings_kilt", "--seed", "-1"], "a seed must be in 0..2**64-1, got -1"),
        (["demo", "kings_kilt", "--seed", "abc"], "a seed must be an integer, got 'abc'"),
        (["demo"], "the following arguments are required: GAME"),
        ([], "the following arguments are required: COMMAND"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_argparse_errors_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err


def test_unwritable_record_is_refused_before_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "no" / "x.json"
    code, out, err = run(capsys, "demo", "kings_kilt", "--quiet", "--record", str(target))
    assert (code, out) == (2, "")
    assert err == (
        f"clangames: error: --record: cannot write {str(target)!r}: the directory"
        f" {str(target.parent)!r} does not exist\n"
    )


@pytest.mark.smoke
def test_console_script_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "clangames.cli", "demo", "kings_kilt", "--seed", "2", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "King's Kilt (kings_kilt): 3 players, seed 2"
    bad = subprocess.run(
        [sys.executable, "-m", "clangames.cli", "demo", "nope"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 2
    assert (
        bad.stderr
        == "clangames: error: no game called 'nope'; registered games: "
        + ", ".join(s.name for s in clangames.games())
        + "\n"
    )


# -- parameter conversion --------------------------------------------------------------------
def _spec_with(*params: clangames.Parameter) -> clangames.GameSpec:
    def factory(_: Mapping[str, Any]) -> clangames.Game:
        raise AssertionError("not loaded in these tests")

    return clangames.GameSpec("toy", "Toy", "a toy", 2, 4, params, factory)


def test_convert_follows_the_declared_kind() -> None:
    flag = clangames.Parameter("fast", False, "go fast", bool)
    path = clangames.Parameter("path", None, "a file", str)
    count = clangames.Parameter("players", 2, "players", int, minimum=2, maximum=4)
    spec = _spec_with(count, flag, path)
    assert convert(spec, flag, "yes") is True
    assert convert(spec, flag, "OFF") is False
    assert convert(spec, path, "none") is None
    assert convert(spec, path, "a/b.toml") == "a/b.toml"
    assert convert(spec, count, " 3 ") == 3
    with pytest.raises(clangames.InvalidParameterError, match="'fast' must be true or false"):
        convert(spec, flag, "maybe")
    assert parse_params(spec, ["fast=1", "path=x"], players=4) == {
        "players": 4,
        "fast": True,
        "path": "x",
    }
    assert parse_params(spec, []) == {"players": 2, "fast": False, "path": None}
    assert describe_parameter(count) == "players=INT (default 2; 2..4): players"
    assert describe_parameter(path) == "path=STR (default None): a file"
    low = clangames.Parameter("cap", 5, "a cap", int, maximum=9)
    assert describe_parameter(low) == "cap=INT (default 5; <= 9): a cap"


# -- genericity: a game the CLI has never heard of ----------------------------------------------
@attrs.frozen(slots=True, cache_hash=True)
class Pile:
    size: int


@attrs.frozen(slots=True, cache_hash=True)
class Take:
    count: int


@attrs.frozen(slots=True)
class NimState(clangames.State):
    """Chance sets a pile of 3 or 4 stones; players alternately take 1 or 2; the player
    taking the last stone wins."""

    game: clangames.Game = attrs.field(repr=False, metadata={"json": False})
    phase: clangames.Phase
    stones: int
    last: int

    def _legal(self, player: int) -> tuple[Any, ...]:
        return tuple(Take(k) for k in (1, 2) if k <= self.stones)

    def _chance_weights(self) -> tuple[tuple[Any, int], ...]:
        return ((Pile(3), 1), (Pile(4), 1))

    def _apply(self, action: Any, player: int) -> NimState:
        if isinstance(action, Pile):
            return NimState(self.game, clangames.Phase.turn("take", 0), action.size, -1)
        left = self.stones - action.count
        phase = clangames.Phase.over() if left == 0 else clangames.Phase.turn("take", 1 - player)
        return NimState(self.game, phase, left, player)

    def observation(self, player: int) -> Any:
        return self.stones

    def public_observation(self) -> Any:
        return self.stones

    def resample(self, player: int, rng: clangames.Rng) -> NimState:
        return self

    def scores(self) -> tuple[int, ...]:
        return tuple(int(p == self.last) for p in range(2))

    def winners(self) -> tuple[int, ...]:
        return (self.last,) if self.is_terminal else ()

    def describe(self, action: Any) -> str:
        if isinstance(action, Pile):
            return f"the pile has {action.size} stones"
        return f"take {action.count} of {self.stones}"

    def prompt(self) -> str:
        return "take 1 or 2"


class NimGame(clangames.Game):
    """The toy game's object."""

    _table: ActionTable[Any] = ActionTable(
        [Pile(3), Pile(4), Take(1), Take(2)],
        lambda a: f"pile {a.size}" if isinstance(a, Pile) else f"take {a.count}",
    )

    max_length = 6

    @property
    def info(self) -> clangames.GameInfo:
        return clangames.GameInfo(
            "tiny_nim", "Tiny Nim", 2, 2, 2, True, False, False, self.max_length, 4
        )

    @property
    def actions(self) -> ActionTable[Any]:
        return self._table

    @property
    def state_type(self) -> type[clangames.State]:
        return NimState

    def initial_state(self) -> clangames.State:
        return NimState(self, clangames.Phase.chance("setup"), 0, -1)


NIM = clangames.GameSpec(
    "tiny_nim",
    "Tiny Nim",
    "take the last stone",
    2,
    2,
    (clangames.Parameter("players", 2, "number of players", int, minimum=2, maximum=2),),
    lambda params: NimGame(NIM, params),
)


@pytest.fixture
def register_for_test() -> Iterator[Callable[[clangames.GameSpec], None]]:
    """Register games through the public registry; unregistered again after the test."""
    names: list[str] = []

    def add(spec: clangames.GameSpec) -> None:
        registry.register(spec)
        names.append(spec.name)

    yield add
    for name in names:
        registry.unregister(name)


def test_demo_works_for_a_game_it_was_never_written_for(
    capsys: pytest.CaptureFixture[str], register_for_test: Callable[[clangames.GameSpec], None]
) -> None:
    register_for_test(NIM)
    code, out, err = run(capsys, "demo", "tiny-nim", "--seed", "1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Tiny Nim (tiny_nim): 2 players, seed 1"
    game = clangames.load("tiny_nim")
    match = clangames.Match(game, 1, {p: RandomBot(clangames.Rng(1).fork(p + 1)) for p in range(2)})
    match.run()
    first = match.history[0]
    assert lines[5] == f"    1  chance  {first.before.describe(first.action)}"
    winner = match.state.winners()[0]
    assert f"Winners: P{winner}" in lines
    assert lines[-1] == f"Returns: P0 {float(winner == 0):.4g}, P1 {float(winner == 1):.4g}"
    listing = run(capsys, "list")[1]
    assert "  tiny_nim: Tiny Nim, 2 players\n    take the last stone\n" in listing


@pytest.mark.smoke
def test_demo_over_every_registered_game(capsys: pytest.CaptureFixture[str]) -> None:
    for spec in clangames.games():
        for players in sorted({spec.min_players, spec.max_players}):
            code, out, err = run(
                capsys, "demo", spec.name, "--players", str(players), "--seed", "11", "--quiet"
            )
            assert (code, err) == (0, ""), spec.name
            assert out.startswith(f"{spec.title} ({spec.name}): {players} players, seed 11\n")
            assert "\nWinners: P" in out


def test_record_json_is_what_the_match_recorded(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    assert main(["demo", "kings_kilt", "--quiet", "--seed", "8", "--record", str(target)]) == 0
    data = json.loads(target.read_text(encoding="utf-8"))
    game = clangames.load("kings_kilt")
    match = clangames.Match(game, 8, {p: RandomBot(clangames.Rng(8).fork(p + 1)) for p in range(3)})
    match.run()
    headers = data.pop("headers")
    assert data == match.record.to_json()
    assert headers["clangames"] == clangames.__version__
    assert headers["command"] == "demo"
    assert (headers["game"], headers["seed"]) == ("kings_kilt", 8)
    assert headers["params"] == match.record.to_json()["params"]
    assert headers["seats"] == [{"kind": "bot", "bot": "random"}] * 3
    final = match.state
    assert headers["result"] == {
        "scores": list(final.scores()),
        "winners": list(final.winners()),
        "returns": list(final.returns()),
    }
    assert headers["rng"]["chance"] == match.rng.state


class TooLongNim(NimGame):
    """Declares a maximum length its games always exceed (a misbehaving game)."""

    max_length = 2


def test_a_game_that_outlives_its_declared_length_is_a_failure_exit_1(
    capsys: pytest.CaptureFixture[str], register_for_test: Callable[[clangames.GameSpec], None]
) -> None:
    register_for_test(attrs.evolve(NIM, factory=lambda params: TooLongNim(NIM, params)))
    code, _, err = run(capsys, "demo", "tiny_nim", "--quiet")
    assert code == 1
    assert err == (
        "clangames: error: the game failed: tiny_nim: still not over after 2 steps,"
        " beyond its declared max_game_length 2\n"
    )


def test_a_game_without_winners_reports_none(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    register_for_test: Callable[[clangames.GameSpec], None],
) -> None:
    register_for_test(NIM)
    monkeypatch.setattr(NimState, "winners", lambda self: ())
    code, out, _ = run(capsys, "demo", "tiny_nim", "--quiet")
    assert code == 0
    assert out.splitlines()[-2:] == ["Winners: none", "Returns: P0 0, P1 0"]
