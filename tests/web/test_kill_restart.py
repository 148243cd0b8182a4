"""A real ``clangames serve`` killed (SIGKILL) in the middle of a game and started again on
the same database: every acknowledged move is still there, the seats' links still work and
the game plays on to its end."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from clangames.engine.rng import Rng


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "clangames.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "") from None
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def call(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        result: dict[str, Any] = json.loads(r.read())
        return result


def play(base: str, game: str, tokens: dict[str, str], rng: Rng, moves: int) -> Rng:
    """Human seats answer with random legal actions until ``moves`` were made (or the end);
    bots move on the server in between."""
    made = 0
    deadline = time.monotonic() + 60
    while made < moves and time.monotonic() < deadline:
        acted = False
        for token in tokens.values():
            view = call(f"{base}/api/games/{game}/view?token={token}")
            if view["result"] is not None:
                return rng
            if view["legal"]:
                i, rng = rng.below(len(view["legal"]))
                try:
                    call(
                        f"{base}/api/games/{game}/act",
                        {"token": token, "turn": view["turn"], "action": view["legal"][i]},
                    )
                    made += 1
                    acted = True
                except urllib.error.HTTPError as exc:
                    assert exc.code == 409  # the table moved on (a bot): look again
        if not acted:
            time.sleep(0.02)
    return rng


def test_a_killed_server_resumes_every_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port)
    try:
        created = call(
            base + "/api/games",
            {
                "game": "koa_kingmaker",
                "players": 3,
                "seed": 5,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
            },
        )
        game = created["game"]
        tokens = {seat: link.rsplit("/", 1)[1] for seat, link in created["seats"].items()}
        rng = play(base, game, tokens, Rng(1), 8)
        before = {
            seat: call(f"{base}/api/games/{game}/view?token={t}") for seat, t in tokens.items()
        }
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    proc = start(db, port)
    try:
        after = {
            seat: call(f"{base}/api/games/{game}/view?token={t}") for seat, t in tokens.items()
        }
        for seat in tokens:
            # Nothing acknowledged is lost: the log told before the kill is still there.
            assert after[seat]["log"][: len(before[seat]["log"])] == before[seat]["log"]
            assert after[seat]["moves"] >= before[seat]["moves"]
        play(base, game, tokens, rng, 10_000)
        final = call(f"{base}/api/games/{game}/view")
        assert final["result"] is not None
        with urllib.request.urlopen(f"{base}/api/games/{game}/record", timeout=30) as r:
            record = json.loads(r.read())
        assert len(record["moves"]) == final["moves"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
