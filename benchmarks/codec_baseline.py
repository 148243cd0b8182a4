"""A state's JSON round trip today against the code of the day issue 11 was filed.

    python benchmarks/codec_baseline.py [--base COMMIT] [--games N] [--players P]
                                        [--game NAME] [--seed S] [--repeat R]
                                        [--rounds K] [--callgrind] [--json FILE]

What it compares: for the same states (the JSON texts of ``playout.py``'s
``sample_states``, made by this checkout), ``game.state_from_json(state.to_json())`` run by
the code at ``--base`` (default ``f0704e9``, the commit issue 11 measured: its generic
codec, its ``check_consistency`` of that day and no liveness check, which came later with
issue 10) and by this checkout (generated codec, today's fuller consistency checks and the
liveness check). So the new side does more checking than the old one did; the ratio
old / new is what a user of the round trip gained. Only the games the base had are
compared (not Clan Feud).

The two versions are both called ``clangames``, so each side runs in its own process with
``PYTHONPATH`` set to its ``src`` folder (the base is unpacked from git with
``git archive`` into the temporary folder once, and reused). Each worker decodes every text
once, checks that re-encoding gives the same data (both sides must agree on the states),
then times ``to_json``, ``state_from_json`` and the round trip per call in its thread's CPU
time, best of ``--repeat``; ``--rounds`` workers per side run alternately (base first in
odd rounds, new first in even ones) and the best is kept. With ``--callgrind`` it also
counts instructions per round trip under ``valgrind --tool=callgrind`` (stable on a shared
machine): one worker per side runs each row's round trips inside one
``functools.reduce`` call, and callgrind counts only inside that C function
(``--toggle-collect``) and writes one profile after each call (``--dump-after``), so
start-up, imports and the decoding check count nothing. Neither side calls ``reduce``
itself.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BASE_COMMIT = "f0704e9"


def resolve_commit(commit: str) -> str:
    """The full hash of ``commit`` in this repository; exits naming it if unknown."""
    done = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"codec_baseline.py: {commit!r} is not a commit of {REPO}")
    return done.stdout.strip()


def base_source(sha: str) -> Path:
    """The ``src`` folder of commit ``sha``, unpacked from git once into the temp folder."""
    dest = Path(tempfile.gettempdir()) / f"clangames-base-{sha[:12]}"
    src = dest / "src"
    if not (src / "clangames" / "__init__.py").is_file():
        tar = subprocess.run(
            ["git", "-C", str(REPO), "archive", "--format=tar", sha, "src"],
            capture_output=True,
            check=True,
        ).stdout
        unpacking = Path(tempfile.mkdtemp(prefix="clangames-base-"))
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(unpacking, filter="data")
        if not dest.exists():
            unpacking.replace(dest)
        if not (src / "clangames" / "__init__.py").is_file():
            raise SystemExit(f"codec_baseline.py: could not unpack {sha} into {dest}")
    return src


def worker_command(src: Path, *args: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of a worker importing ``clangames`` from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    return [sys.executable, str(Path(__file__).resolve()), "--worker", *args], env


def run_worker(src: Path, *args: str) -> Any:
    """Run a worker on ``src``'s code; its JSON answer (exits with its error if it fails)."""
    command, env = worker_command(src, *args)
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"codec_baseline.py: worker on {src} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def callgrind_counts(src: Path, rows: int, *args: str) -> list[int]:
    """Instructions a worker on ``src``'s code executes inside each of its ``rows``
    ``functools.reduce`` calls, counted by callgrind."""
    command, env = worker_command(src, *args)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                "--collect-atstart=no",
                "--toggle-collect=functools_reduce",
                "--dump-after=functools_reduce",
                *command,
            ],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"codec_baseline.py: callgrind worker failed:\n{done.stderr}")
        counts = []
        for i in range(1, rows + 1):
            dump = Path(f"{out}.{i}")
            if not dump.is_file():
                raise SystemExit(f"codec_baseline.py: callgrind wrote no profile {dump.name}")
            totals = [x for x in dump.read_text().splitlines() if x.startswith("summary:")]
            counts.append(int(totals[0].split()[1]))
    return counts


# -- the worker: runs under either side's clangames ------------------------------------------


def worker_states(texts: dict[str, list[str]]) -> dict[str, list[Any]]:
    """Each row's states decoded from their texts, re-encoding checked against the data."""
    import clangames

    rows: dict[str, list[Any]] = {}
    for key, row_texts in texts.items():
        name, players = key.rsplit("/", 1)
        game = clangames.load(name, players=int(players))
        known = game.initial_state().to_json()["params"]
        states = []
        for i, text in enumerate(row_texts):
            data = json.loads(text)
            data["params"] = adapt_params(data["params"], known, key)
            state = game.state_from_json(data)
            if state.to_json() != data:
                raise SystemExit(f"{key} state {i}: re-encoded data differ from the text")
            states.append(state)
        rows[key] = states
    return rows


def adapt_params(params: dict[str, Any], known: dict[str, Any], key: str) -> dict[str, Any]:
    """``params`` without the parameters a side's game lacks (added later, at the defaults
    the texts are made with, which keep the rules of before); exits if the rest differ."""
    kept = {k: v for k, v in params.items() if k in known}
    if kept != known:
        raise SystemExit(f"{key}: the texts' parameters {params} do not match {known}")
    return kept


def encode_all(states: list[Any]) -> None:
    """``to_json``, once per state."""
    for state in states:
        state.to_json()


def decode_all(game: Any, datas: list[Any]) -> None:
    """``state_from_json``, once per state's data."""
    for data in datas:
        game.state_from_json(data)


def trip_one(_: None, state: Any) -> None:
    """The measured round trip of one state (the step of ``functools.reduce``)."""
    state.game.state_from_json(state.to_json())


def trip(states: list[Any]) -> None:
    """The measured round trip, once per state."""
    for state in states:
        state.game.state_from_json(state.to_json())


def worker(args: argparse.Namespace) -> int:
    """Time (or, for callgrind, just run) the round trips; print the answer as JSON."""
    texts = json.loads(Path(args.worker).read_text(encoding="utf-8"))
    if args.names:
        import clangames

        print(json.dumps([s.name for s in clangames.games()]))
        return 0
    rows = worker_states(texts)
    if args.count:
        for states in rows.values():
            functools.reduce(trip_one, states, None)
        print("{}")
        return 0
    answer: dict[str, dict[str, float]] = {}
    for key, states in rows.items():
        datas = [s.to_json() for s in states]
        game = states[0].game
        kinds = {
            "to_json": partial(encode_all, states),
            "from_json": partial(decode_all, game, datas),
            "trip": partial(trip, states),
        }
        best = dict.fromkeys(kinds, float("inf"))
        for _ in range(args.repeat):
            for kind, call in kinds.items():
                start = time.thread_time()
                call()
                best[kind] = min(best[kind], time.thread_time() - start)
        answer[key] = {kind: seconds / len(states) for kind, seconds in best.items()}
    print(json.dumps(answer))
    return 0


# -- the driver: runs under this checkout ---------------------------------------------------


def make_texts(args: argparse.Namespace, names: set[str]) -> dict[str, list[str]]:
    """Every row's state texts, made by this checkout (rows of games the base had)."""
    sys.path.insert(0, str(HERE))  # benchmarks/ is not a package
    from _measure import configurations
    from playout import sample_states

    from clangames.engine.registry import load

    texts: dict[str, list[str]] = {}
    for name, n in configurations("codec_baseline.py", args.game, args.players):
        if name in names:
            states = sample_states(load(name, players=n), args.games, args.seed)
            texts[f"{name}/{n}"] = [json.dumps(s.to_json()) for s in states]
    if not texts:
        raise SystemExit("codec_baseline.py: no row asked for existed at the base commit")
    return texts


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Run both sides, print the table and return the JSON report."""
    sha = resolve_commit(args.base)
    sides = {"base": base_source(sha), "new": REPO / "src"}
    with tempfile.TemporaryDirectory() as tmp:
        text_file = Path(tmp) / "texts.json"
        text_file.write_text("{}", encoding="utf-8")
        names = set(run_worker(sides["base"], str(text_file), "--names"))
        texts = make_texts(args, names)
        text_file.write_text(json.dumps(texts), encoding="utf-8")
        best: dict[str, dict[str, dict[str, float]]] = {side: {} for side in sides}
        for round_ in range(args.rounds):
            order = ["base", "new"] if round_ % 2 == 0 else ["new", "base"]
            for side in order:
                got = run_worker(sides[side], str(text_file), "--repeat", str(args.repeat))
                for key, kinds in got.items():
                    row = best[side].setdefault(key, dict.fromkeys(kinds, float("inf")))
                    for kind, seconds in kinds.items():
                        row[kind] = min(row[kind], seconds)
        counts: dict[str, dict[str, float]] = {side: {} for side in sides}
        if args.callgrind:
            with ThreadPoolExecutor(max_workers=2) as pool:
                counted = pool.map(
                    lambda src: callgrind_counts(src, len(texts), str(text_file), "--count"),
                    sides.values(),
                )
                for side, side_counts in zip(sides, counted, strict=True):
                    for (key, row_texts), total in zip(texts.items(), side_counts, strict=True):
                        counts[side][key] = total / len(row_texts)
    print(
        f"state JSON round trip, base {sha[:12]} (old codec, old checks, no liveness check)"
        f" over this checkout; {args.rounds} x {args.repeat} runs, thread CPU time"
    )
    head = f"{'game':<16}{'players':>8}{'to_json':>10}{'from_json':>11}{'trip':>8}"
    print(head + (f"{'trip instr':>12}" if args.callgrind else ""))
    rows = []
    for key in texts:
        name, n = key.rsplit("/", 1)
        old, new = best["base"][key], best["new"][key]
        row: dict[str, Any] = {"game": name, "players": int(n), "states": len(texts[key])}
        for kind in ("to_json", "from_json", "trip"):
            row[f"{kind}_speedup"] = old[kind] / new[kind]
        line = f"{name:<16}{n:>8}{row['to_json_speedup']:>9.2f}x{row['from_json_speedup']:>10.2f}x"
        line += f"{row['trip_speedup']:>7.2f}x"
        if args.callgrind:
            row["trip_instructions_old"] = counts["base"][key]
            row["trip_instructions_new"] = counts["new"][key]
            row["trip_instruction_speedup"] = counts["base"][key] / counts["new"][key]
            line += f"{row['trip_instruction_speedup']:>11.2f}x"
        rows.append(row)
        print(line)
    return {"base": sha, "seed": args.seed, "games": args.games, "rows": rows}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The benchmark's options (and the worker's, which the driver passes itself)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE_COMMIT, help=f"base commit (default {BASE_COMMIT})")
    parser.add_argument("--games", type=int, default=4, help="seeded games per row (default 4)")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="playout seed (default 1)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per worker (default 5)")
    parser.add_argument("--rounds", type=int, default=4, help="workers per side (default 4)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON here")
    parser.add_argument("--worker", metavar="TEXTS", help=argparse.SUPPRESS)
    parser.add_argument("--names", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if min(args.games, args.repeat, args.rounds) < 1:
        parser.error("--games, --repeat and --rounds must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the comparison (or, with ``--worker``, one side of it)."""
    args = parse_args(argv)
    if args.worker:
        return worker(args)
    report = measure(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
