"""Load test of ``clangames serve`` on loopback (issue 19; a measurement, not a timed test).

Starts the real server (uvicorn) in a child process with a throwaway database, creates N
games at once, each with H human seats played by load clients over WebSockets (random
legal actions), bots in the other seats, and extra spectator pages so that every game has
M open pages; then plays every game to its end (or --max-moves). Reports moves per second
over all games (humans', bots' and chance moves alike) and the latency of a human move:
from sending it to receiving the seat's view that includes it (p50 and p99).

    python benchmarks/serve_load.py --games 8 --clients 3 --json report.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

try:
    import websockets
except ImportError:  # pragma: no cover - the [web] extra is missing
    sys.exit("serve_load.py needs the [web] extra: pip install 'clangames[web]'")

from clangames.engine.rng import Rng


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


async def seat_client(ws_url: str, rng: Rng, latencies: list[float], max_moves: int) -> int:
    """Play one seat: answer every decision with a random legal action; the moves made."""
    made = 0
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        sent_at: float | None = None
        acted_on = -1
        latest: dict[str, Any] | None = None
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                sent_at = None  # a stale answer (the table moved on): answer the latest view
            else:
                latest = message
                if sent_at is not None and message["moves"] > acted_on:
                    latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
            if latest is None:
                continue
            if latest["result"] is not None or latest["moves"] >= max_moves:
                return made
            if latest["legal"] and sent_at is None and latest["moves"] > acted_on:
                i, rng = rng.below(len(latest["legal"]))
                acted_on = latest["moves"]
                sent_at = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {"type": "act", "turn": latest["turn"], "action": latest["legal"][i]}
                    )
                )
                made += 1


async def spectator(ws_url: str, max_moves: int) -> int:
    """Watch one game to its end; the views received."""
    seen = 0
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        while True:
            view = json.loads(await ws.recv())
            seen += 1
            if view.get("result") is not None or view.get("moves", 0) >= max_moves:
                return seen


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    humans = min(args.humans, args.players)
    games = []
    for g in range(args.games):
        seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": "random"}] * (
            args.players - humans
        )
        games.append(
            post(
                base + "/api/games",
                {"game": args.game, "players": args.players, "seed": args.seed + g, "seats": seats},
            )
        )
    ws_base = base.replace("http://", "ws://")
    latencies: list[float] = []
    tasks = []
    rng = Rng(args.seed)
    for created in games:
        gid = created["game"]
        for link in created["seats"].values():
            token = link.rsplit("/", 1)[1]
            tasks.append(
                seat_client(
                    f"{ws_base}/ws/{gid}?token={token}",
                    rng.fork(len(tasks)),
                    latencies,
                    args.max_moves,
                )
            )
        for _ in range(max(args.clients - humans, 0)):
            tasks.append(spectator(f"{ws_base}/ws/{gid}", args.max_moves))
    start = time.perf_counter()
    await asyncio.gather(*tasks)
    seconds = time.perf_counter() - start
    moves = 0
    for created in games:
        with urllib.request.urlopen(f"{base}/api/games/{created['game']}/view", timeout=30) as r:
            moves += json.loads(r.read())["moves"]
    return {
        "game": args.game,
        "players": args.players,
        "games": args.games,
        "clients_per_game": max(args.clients, humans),
        "human_seats_per_game": humans,
        "moves": moves,
        "seconds": seconds,
        "moves_per_second": moves / seconds,
        "human_moves": len(latencies),
        "latency_p50_ms": 1000 * percentile(latencies, 0.5),
        "latency_p99_ms": 1000 * percentile(latencies, 0.99),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="koa_kingmaker")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=4, help="concurrent games (N)")
    parser.add_argument("--clients", type=int, default=3, help="open pages per game (M)")
    parser.add_argument("--humans", type=int, default=2, help="seats played by load clients")
    parser.add_argument("--max-moves", type=int, default=400, help="stop a game after this")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="also write the report here")
    args = parser.parse_args(argv)
    for name in ("players", "games", "clients", "max_moves"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "load.sqlite3")
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "clangames.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                db,
                "--max-games",
                str(args.games),
            ],
            stdout=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(400):
                try:
                    urllib.request.urlopen(base + "/", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
            report = asyncio.run(run(args, base))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(
        f"{report['game']} x{report['games']} games, {report['clients_per_game']} pages each:"
        f" {report['moves']} moves in {report['seconds']:.2f}s ="
        f" {report['moves_per_second']:.1f} moves/s; human move latency p50"
        f" {report['latency_p50_ms']:.1f} ms, p99 {report['latency_p99_ms']:.1f} ms"
        f" ({report['human_moves']} moves)"
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
