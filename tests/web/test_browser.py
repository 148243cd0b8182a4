"""A real browser: headless Chromium (Debian's ``chromium``) driven by Playwright plays a
whole KOA Kingmaker game against ``clangames serve`` with two human seats in two browser
contexts and a bot, checking on every update that neither page shows what its seat may
not know, and saving screenshots under ``build/test-artifacts/browser/``."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
sync_api = pytest.importorskip("playwright.sync_api")

import clangames  # noqa: E402
from clangames.engine.rng import Rng  # noqa: E402
from clangames.engine.state import State  # noqa: E402
from clangames.rendering.svg import state_picture  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts" / "browser"

if not os.path.exists(CHROMIUM):
    pytest.skip(
        "Debian's chromium is not installed (scripts/test.sh installs it)", allow_module_level=True
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``clangames serve`` in a child process on a free loopback port."""
    port = free_port()
    db = tmp_path / "serve.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "clangames.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "") from None
                time.sleep(0.05)
        yield url, db
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def state_after(db: Path, moves: int) -> State:
    """The game's state after its first ``moves`` moves, rebuilt from the server's file."""
    with sqlite3.connect(db) as con:
        (spec,) = con.execute("SELECT spec FROM games").fetchone()
        rows = con.execute(
            "SELECT player, action FROM moves ORDER BY idx LIMIT ?", (moves,)
        ).fetchall()
    import json

    data = json.loads(spec)
    state = clangames.load(data["game"], **data["params"]).initial_state()
    for player, text in rows:
        options = (
            [a for a, _ in state.chance_weights()]
            if player == clangames.CHANCE
            else state.legal_actions(player)
        )
        state = state.apply(next(a for a in options if state.action_text(a) == text), player)
    return state


def check_page(page: Any, seat: int, other: int, db: Path) -> bool:
    """The page shows its seat's picture for the state it says it shows, the same picture
    as for a re-deal of what the seat cannot see, and never the other seat's inheritance
    number or the card it put face down. True if that card lay face down (so the last check
    ran)."""
    # One read of the page, so a live update cannot land between its parts.
    moves, svg, text = page.evaluate(
        "() => [Number(document.getElementById('moves').textContent),"
        " document.getElementById('picture').innerHTML, document.body.innerText]"
    )
    state = state_after(db, moves)
    expected = state_picture(state, seat)
    assert _normal(svg) == _normal(expected)
    assert state_picture(state.resample(seat, Rng(moves)), seat) == expected
    if state.phase.name != "over":
        theirs = state.inheritance[other]  # type: ignore[attr-defined]
        if theirs:
            assert f"inheritance {theirs}" not in text and f"inheritance {theirs}" not in svg
    sealed = state.phase.name == "commit" and state.table.ids[other] >= 0  # type: ignore[attr-defined]
    if sealed:
        # The other seat's card lies face down, so its latest move (this round's commit) is
        # told without the card. Earlier rounds may name its cards: whoever commits last in
        # a round is revealed at once, and the log says so.
        told = re.findall(rf"\[\d+\] player {other}: ([^\n]*)", text)
        assert told and told[-1] == "puts a card face down", told[-1:]
    return bool(sealed)


def _normal(svg: str) -> str:
    # The browser re-serialises the document: compare the text content and the shapes'
    # count, which any leak would change.
    texts = re.findall(r">([^<>]+)</text>", svg)
    return f"{len(re.findall('<rect', svg))}|" + "|".join(t.replace("&amp;", "&") for t in texts)


def test_two_browsers_play_a_whole_koa_game(server: tuple[str, Path]) -> None:
    url, db = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            creator = browser.new_context().new_page()
            creator.goto(url + "/")
            creator.select_option("#game", "koa_kingmaker")
            creator.fill("#seats", "human,human,random")
            creator.fill("#seed", "17")
            creator.click("#go")
            creator.wait_for_selector("#links a")
            links = creator.locator("#links a").all_inner_texts()
            assert len(links) == 3 and "/watch/" in links[2]
            creator.screenshot(path=str(ARTIFACTS / "create.png"))
            pages = []
            for seat in (0, 1):
                page = browser.new_context().new_page()  # a context each: two players
                page.goto(links[seat])
                page.wait_for_selector("#picture svg")
                pages.append(page)
            rng = Rng(23)
            clicks = picture_clicks = sealed_checks = 0
            for _ in range(4000):
                if all(pg.inner_text("#result") for pg in pages):
                    break
                progressed = False
                for seat, page in enumerate(pages):
                    buttons = page.locator("#legal button.action")
                    count = buttons.count()
                    if count:
                        before = int(page.inner_text("#moves"))
                        i, rng = rng.below(count)
                        text = buttons.nth(i).inner_text()
                        label = text.removeprefix("play ").removeprefix("nominate ")
                        cards = page.locator(f'#picture g[data-label="{label}"]')
                        if text != label and clicks % 2 and cards.count():
                            cards.last.click()  # a card of the hand, clicked in the picture
                            picture_clicks += 1
                        else:
                            buttons.nth(i).click()
                        try:
                            page.wait_for_function(
                                "b => Number(document.getElementById('moves').textContent) > b",
                                arg=before,
                                timeout=5000,
                            )
                            progressed = True
                            clicks += 1
                        except sync_api.TimeoutError:
                            pass  # a stale click (the table changed under it): look again
                    # Both pages, the other once it has caught up: right after one seat
                    # commits, the other's page is the one that must not show that card.
                    moves = int(page.inner_text("#moves"))
                    with contextlib.suppress(sync_api.TimeoutError):
                        pages[1 - seat].wait_for_function(
                            "m => Number(document.getElementById('moves').textContent) >= m",
                            arg=moves,
                            timeout=5000,
                        )
                    for viewer, shown in enumerate(pages):
                        sealed_checks += check_page(shown, viewer, 1 - viewer, db)
                    if clicks == 6 and seat == 1:
                        page.screenshot(path=str(ARTIFACTS / "koa-seat1-midgame.png"))
                if not progressed:
                    pages[0].wait_for_timeout(50)
            for seat, page in enumerate(pages):
                page.wait_for_function("document.getElementById('result').textContent !== ''")
                check_page(page, seat, 1 - seat, db)
                page.screenshot(path=str(ARTIFACTS / f"koa-seat{seat}-end.png"), full_page=True)
            assert "Game over" in pages[0].inner_text("#result")
            assert clicks > 5 and picture_clicks > 0
            assert sealed_checks > 0  # the face-down card check did run
            with urllib.request.urlopen(
                url + links[2].split(url, 1)[1].replace("/watch/", "/api/games/") + "/record"
            ) as r:
                assert b'"koa_kingmaker"' in r.read()
        finally:
            browser.close()
