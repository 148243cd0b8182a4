"""The ``clangames`` command never shows a traceback: garbage at the prompt, Ctrl-C, bad
options, unreadable records and bugs all end in one ``clangames: error: ...`` line with
the documented exit status (2 usage, 1 failure, 130 interrupted), and Ctrl-C leaves no
worker process behind."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames import GameRecord
from clangames.cli import main
from clangames.cli.play import PlaySession
from cli_helpers import CLI, Interactive, autosave_in_tmp_fixture  # noqa: F401 - autouse


def run_cli(
    args: list[str], stdin: bytes = b"", timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, timeout=timeout, check=False, env=env
    )


def assert_one_error_line(stderr: bytes, *fragments: str) -> str:
    """stderr is exactly one ``clangames: error:`` line containing ``fragments``."""
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert lines[0].startswith("clangames: error: "), text
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def files_under(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.exists() else []


def running_in_group(pgid: int) -> list[int]:
    """Processes of process group ``pgid`` that still run (zombies waiting for their
    parent to reap them are gone already), found by scanning /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


def assert_group_ends(pgid: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while (left := running_in_group(pgid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes left running: {left}"


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


# -- the play prompt --------------------------------------------------------------------------
GARBAGE = [
    "²".encode(),  # a superscript digit: str.isdigit() is true, int() refuses it
    "٣".encode(),  # an Arabic-Indic digit: int() would read 3
    "３".encode(),  # a full-width digit
    b"\xff\xfe\x80",  # not UTF-8 at all
    b"9" * 5000,  # more digits than int() converts
    b"0",
    b"-1",
    b"\x00\x01\x1b[2J",  # NUL, control characters, an escape sequence
    b"[bold red]x[/]",  # rich markup is shown, never interpreted
    b"x" * 100_000,  # a very long line
    b"save",  # a command without its file
    b"save /no/such/directory/x.json",
    b"undo undo",
]


@pytest.mark.smoke
def test_garbage_at_the_prompt_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"
    script = b"\n".join([*GARBAGE, b"1", b"quit"]) + b"\n"
    done = run_cli(
        ["play", "kings-kilt", "--players", "2", "--seed", "3", "--autosave", str(autosave)],
        script,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    out = done.stdout.decode()
    assert out.count("not accepted: ") == 11
    for shown in ("'²'", "'٣'", "'３'", "'\ufffd\ufffd\ufffd'", "'[bold red]x[/]'", "'-1'"):
        assert f"not accepted: {shown} is neither a number" in out, shown
    assert "not accepted: 999999999999... is not a number from the list" in out
    assert "not accepted: 0 is not a number from the list" in out
    assert "save needs a file name: save FILE" in out
    assert "cannot save to " in out
    # the game went on: the "1" after the garbage was played and autosaved
    record = GameRecord.from_json(autosave.read_text())
    assert any(move.player == 0 for move in record.moves)
    assert "game stopped" in out


def test_end_of_input_at_the_prompt_ends_cleanly(tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"
    done = run_cli(["play", "kilt-castle", "--seed", "1", "--autosave", str(autosave)], b"1\n")
    assert done.returncode == 1
    assert_one_error_line(
        done.stderr,
        "the input ended before the game did",
        f"clangames play --resume {autosave}",
    )
    assert GameRecord.from_json(autosave.read_text()).headers["seats"][0] == {"kind": "human"}


# -- Ctrl-C -------------------------------------------------------------------------------------
@needs_proc
@pytest.mark.smoke
def test_ctrl_c_in_play_exits_130_with_one_line_and_keeps_the_game(tmp_path: Path) -> None:
    autosave = tmp_path / "auto.json"
    game = Interactive(
        ["play", "kings-kilt", "--players", "2", "--seed", "4", "--autosave", str(autosave)]
    )
    game.wait_for("player 0> ")
    game.send(b"1\n")
    game.wait_for("player 0> ", 2)
    started = time.monotonic()
    os.killpg(game.proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
    code, _, err = game.finish()
    assert time.monotonic() - started < 5
    assert code == 130
    assert_one_error_line(err, "interrupted; the game is saved in", str(autosave))
    assert_group_ends(game.proc.pid)
    record = GameRecord.from_json(autosave.read_text())
    assert sum(1 for m in record.moves if m.player == 0) == 1


@needs_proc
@pytest.mark.smoke
@pytest.mark.parametrize("progress", [False, True])
def test_ctrl_c_in_simulate_stops_the_workers_and_exits_130(progress: bool) -> None:
    args = ["simulate", "kings-kilt", "--games", "100000", "--jobs", "2", "--seed", "1"]
    sim = Interactive([*args] if progress else [*args, "--no-progress"])
    # wait until the workers run: two spawned children of the main process
    deadline = time.monotonic() + 30
    while len(running_in_group(sim.proc.pid)) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)  # the main process, the resource tracker and two workers
    time.sleep(1.0)
    assert sim.proc.poll() is None
    started = time.monotonic()
    os.killpg(sim.proc.pid, signal.SIGINT)
    code, out, err = sim.finish()
    assert time.monotonic() - started < 10
    assert code == 130
    assert out == b""
    text = err.decode()
    assert "Traceback" not in text
    last = text.splitlines()[-1]
    assert last == "clangames: error: interrupted; the worker processes were stopped"
    if not progress:
        assert_one_error_line(err)
    assert_group_ends(sim.proc.pid)


# -- every bad option is refused before any work ---------------------------------------------
BIG = ["--games", "1000000"]  # would run for hours if the check came after the games
BAD_OPTIONS = [
    (["play", "kings-kilt", "--iterations", "0"], "--iterations: expected an integer >= 1"),
    (["play", "kings-kilt", "--iterations", "-5"], "--iterations: expected an integer >= 1"),
    (["play", "kings-kilt", "--rollout-limit", "-1"], "--rollout-limit: expected an integer >= 0"),
    (["play", "kings-kilt", "--iterations", "²"], "--iterations: expected an integer, got '²'"),
    (["play", "kings-kilt", "--seats", "human,genius"], "no bot called 'genius'"),
    (["play", "kings-kilt", "--autosave", "{tmp}/no/a.json"], "--autosave: cannot write"),
    (["play", "kings-kilt", "--autosave", "{tmp}"], "is a directory"),
    (["play", "kings-kilt", "--autosave", "x", "--no-autosave"], "not allowed with argument"),
    (["play"], "play needs a GAME (or --resume FILE)"),
    (["play", "kings-kilt", "--resume", "{tmp}/r.json"], "drop GAME"),
    (["play", "--resume", "{tmp}/r.json", "--seats", "random"], "drop --seats"),
    (["simulate", "kings-kilt", *BIG, "--iterations", "0"], "expected an integer >= 1"),
    (["simulate", "kings-kilt", *BIG, "--iterations", "-5"], "expected an integer >= 1"),
    (["simulate", "kings-kilt", *BIG, "--rollout-limit", "-1"], "expected an integer >= 0"),
    (["simulate", "kings-kilt", "--games", "0"], "--games: expected an integer >= 1, got 0"),
    (["simulate", "kings-kilt", *BIG, "--jobs", "0"], "--jobs: expected an integer >= 1"),
    (["simulate", "kings-kilt", *BIG, "--jobs", "100000"], "--jobs must be 1..256"),
    (["simulate", "kings-kilt", *BIG, "--seats", "human"], "'human' cannot take a seat"),
    (["simulate", "kings-kilt", *BIG, "--seats", "genius"], "no bot called 'genius'"),
    (["simulate", "kings-kilt", *BIG, "--json", "{tmp}/no/s.json"], "--json: cannot write"),
    (["simulate", "kings-kilt", *BIG, "--json", "{tmp}"], "--json: '"),
    (["simulate", "kings-kilt", *BIG, "--plot", "{tmp}/no/p.png"], "--plot: cannot write"),
    (["demo", "kings-kilt", "--record", "{tmp}/no/r.json"], "--record: cannot write"),
    (["demo", "kings-kilt", "--record", ""], "--record: expected a file name"),
    (["demo", "kings-kilt", "--seed", "-1"], "a seed must be in 0..2**64-1"),
    (["demo"], "the following arguments are required: GAME"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["replay", "{tmp}/r.json", "--as", "x"], "--as: invalid int value"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_OPTIONS)
def test_bad_options_are_refused_at_once_with_one_line(
    argv: list[str], message: str, tmp_path: Path, _autosave_in_tmp: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "r.json").write_text(GameRecord("kings_kilt", {"players": 2}).dumps())
    args = [a.replace("{tmp}", str(work)) for a in argv]
    started = time.monotonic()
    done = run_cli(args, timeout=30)
    assert time.monotonic() - started < 15
    assert done.returncode == 2, done.stderr
    assert done.stdout == b""
    assert_one_error_line(done.stderr, message)
    assert files_under(work) == [work / "r.json"]  # nothing written
    assert files_under(_autosave_in_tmp) == []


def test_plot_without_matplotlib_is_refused_before_the_games(tmp_path: Path) -> None:
    hide = tmp_path / "hide"
    (hide / "matplotlib").mkdir(parents=True)
    (hide / "matplotlib" / "__init__.py").write_text("raise ImportError('not installed')\n")
    env = {**os.environ, "PYTHONPATH": str(hide)}
    target = tmp_path / "p.png"
    done = run_cli(["simulate", "kings-kilt", *BIG, "--plot", str(target)], env=env, timeout=30)
    assert done.returncode == 2
    assert_one_error_line(done.stderr, "--plot needs matplotlib, the optional 'plot' extra")
    assert not target.exists()


# -- records that cannot be read -------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\xff", "is not UTF-8 text (byte 0x89 at offset 0)"),
        (b"[" * 100_000 + b"]" * 100_000, ""),
        (b'{"game": "kings_kilt", "params": {}, "moves": ' + b"[" * 5000 + b"]" * 5000 + b"}", ""),
        (b"", "not valid JSON"),
        (b"[1, 2]", "expected an object"),
        (b'{"game": "chess", "params": {}, "moves": []}', "no game called 'chess'"),
        (b'{"game": "kings_kilt", "params": {}, "moves": [[0, "fly away"]]}', "moves[0]"),
        (b'{"headers": 5, "game": "kings_kilt", "params": {}, "moves": []}', "record.headers"),
    ],
)
def test_a_bad_record_to_replay_is_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    done = run_cli(["replay", str(path)])
    assert done.returncode == 1  # the file is at fault, not the command line
    assert done.stdout == b""
    assert_one_error_line(done.stderr, message)


def test_replay_of_a_missing_file_or_a_directory(tmp_path: Path) -> None:
    for target, message in ((tmp_path / "none.json", "No such file"), (tmp_path, "directory")):
        done = run_cli(["replay", str(target)])
        assert done.returncode == 1
        assert_one_error_line(done.stderr, "cannot read the record", message)


# -- the last resort -------------------------------------------------------------------------
def test_an_unexpected_exception_is_one_line_naming_a_bug(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: argparse.Namespace, out: object) -> int:
        raise RuntimeError("the flux capacitor\nis upside down")

    cli_main = importlib.import_module("clangames.cli.main")  # the name is also the function
    monkeypatch.setattr(cli_main, "_list", broken)
    assert main(["list"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "clangames: error: internal error, a bug in clangames (please report it with the"
        " command line): RuntimeError: the flux capacitor is upside down\n"
    )


def test_ctrl_c_anywhere_is_exit_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(args: argparse.Namespace, out: object) -> int:
        raise KeyboardInterrupt

    cli_main = importlib.import_module("clangames.cli.main")  # the name is also the function
    monkeypatch.setattr(cli_main, "_list", interrupted)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "clangames: error: interrupted\n"


# -- every supported Python ------------------------------------------------------------------
@pytest.mark.smoke
def test_simulate_workers_start_without_any_warning(tmp_path: Path) -> None:
    # Warnings as errors in the main process and (passed on by multiprocessing) the workers:
    # forking a multi-threaded process warns from Python 3.12 on; spawn never forks.
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    summary = tmp_path / "s.json"
    args = ["simulate", "kilt-castle", "--games", "4", "--jobs", "2", "--json", str(summary)]
    done = run_cli([*args, "--seed", "3", "--no-progress"], env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert json.loads(summary.read_text())["games"] == 4


# -- any command line --------------------------------------------------------------------------
WORDS = [
    "demo",
    "list",
    "play",
    "replay",
    "simulate",
    "kings-kilt",
    "koa_kingmaker",
    "kilt-castle",
    "chess",
    "--players",
    "--param",
    "--seed",
    "--seats",
    "--bots",
    "--iterations",
    "--rollout-limit",
    "--games",
    "--jobs",
    "--json",
    "--plot",
    "--record",
    "--autosave",
    "--no-autosave",
    "--resume",
    "--as",
    "--quiet",
    "--rotate",
    "--version",
    "-h",
    "random",
    "human",
    "genius",
    "human,random",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "²",
    "٣",
    "1e3",
    "9" * 30,
    "players=2",
    "players=x",
    # (a component file that is not UTF-8, board=/bin/ls, is the loaders' to refuse)
    "components=/dev/null",
    "=",
    "",
    " ",
    "\x00",
    "/nonexistent/x.json",
    "/",
    "/dev/null",
    "\udcff",
]


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    argv=st.one_of(
        st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=7),
        st.tuples(
            st.sampled_from(["demo", "play", "simulate"]),
            st.sampled_from(["kings-kilt", "koa-kingmaker", "kilt-castle"]),
            st.lists(st.sampled_from(WORDS[9:]) | st.text(max_size=8), max_size=6),
        ).map(lambda t: [t[0], t[1], *t[2]]),
    )
)
def test_any_command_line_ends_in_a_status_and_at_most_one_error_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # a --record or --json with a relative name lands here
    # keep every run short: few games, one job, no bots that think long, no prompt
    if argv[:1] == ["simulate"]:
        argv = [*argv, "--games", "2", "--jobs", "1", "--no-progress"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    lines = err.getvalue().splitlines()
    if code == 0:
        assert "clangames: error" not in err.getvalue()
    else:
        assert code in (1, 2), (argv, code, err.getvalue())
        assert lines and lines[-1].startswith("clangames: error: "), (argv, err.getvalue())
        assert len([line for line in lines if "error" in line]) == 1, err.getvalue()
        assert "internal error" not in lines[-1], (argv, lines[-1])


# -- any typed line ----------------------------------------------------------------------------
LINES = ["1", "2", "undo", "board", "help", "save", "pass", "quit now", "²", "٣", "9" * 40]


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(["kings_kilt", "koa_kingmaker", "kilt_castle"]),
    lines=st.lists(st.sampled_from(LINES) | st.text(max_size=12), max_size=12),
)
def test_any_typed_lines_leave_the_game_playable(game: str, lines: list[str]) -> None:
    loaded = clangames.load(game, players=3)
    typed = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    inp = io.StringIO("\n".join([*typed, "quit", "quit"]) + "\n")
    session = PlaySession(loaded, 1, ["human", "random", "random"], inp, io.StringIO())
    assert session.run() == 0
    # the record so far replays through the rules to the very same state
    assert session.record().final_state() == session.match.state


def _is_worker(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # it ended meanwhile
        return False


@needs_proc
def test_a_worker_killed_mid_simulation_is_a_one_line_failure() -> None:
    sim = Interactive(["simulate", "kings-kilt", *BIG, "--jobs", "2", "--no-progress"])
    deadline = time.monotonic() + 30
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        workers = [pid for pid in running_in_group(sim.proc.pid) if _is_worker(pid)]
    assert len(workers) == 2
    time.sleep(0.5)
    os.kill(workers[0], signal.SIGKILL)
    code, out, err = sim.finish()
    assert code == 1
    assert out == b""
    assert_one_error_line(err, "a worker process died before finishing its games")
    assert_group_ends(sim.proc.pid)
