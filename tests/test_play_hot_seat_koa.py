"""Hot seat KOA Kingmaker through ``clangames play``: each seat's screens never show another
seat's face-down card before the reveal nor its inheritance number, and do show the seat's
own hand. The true secrets come from the saved record replayed through the kernel, so every
comparison is exact."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from clangames import GameRecord
from clangames.koa_kingmaker import KoaState, Nominate, Play
from clangames.koa_kingmaker.cards import card_name
from clangames.rendering.koa_kingmaker import played_name

CLI = [sys.executable, "-m", "clangames.cli"]
PASS = re.compile(r"===== pass to player (\d) =====")
DECIDE = re.compile(r"--- player (\d) \(human\) to decide ---")
STEP = re.compile(r"^\[(\d+)\] player (\d): (.*)$")
NUMBER = re.compile(r"inheritance(?: number|:) (\d)")
"""An inheritance number on screen: "Your inheritance: 4" or "... inheritance number 4"."""
DEALT = re.compile(r"house (\d) is dealt inheritance number")


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play`` autosaves under $XDG_STATE_HOME: keep the tests' games out of the home."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def expected_hand(state: KoaState, seat: int) -> str:
    """The hand line a seat must see, spelled out from the kernel's card names."""
    names = state.hand_of(seat)
    characters = [n for n in names if not n.startswith("nomination")]
    targets = [n.rsplit(" ", 1)[1] for n in names if n.startswith("nomination")]
    parts = list(characters)
    if len(targets) == 1:
        parts.append(f"nomination of house {targets[0]}")
    elif targets:
        parts.append(f"nominations of houses {', '.join(targets)}")
    return "Your hand: " + (", ".join(parts) if parts else "empty")


def this_round_cells(chunk: str) -> dict[int, str]:
    """The "this round" cell of each house's row in the one board drawn in ``chunk``."""
    lines = chunk.splitlines()
    header = next(line for line in lines if line.startswith("house") and "this round" in line)
    column = header.index("this round")
    cells = {}
    for line in lines:
        found = re.match(r"house (\d)", line)
        if found and line is not header:
            cells[int(found.group(1))] = line[column:].split("  ")[0].strip()
    return cells


def play_hot_seat(tmp_path: Path, players: int, seats: str, seed: int) -> tuple[str, GameRecord]:
    """Play ``clangames play`` choosing the first action at every prompt for 70 lines,
    then save the record: the whole output and the record."""
    saved = tmp_path / "koa.json"
    # A pass screen swallows any line, so "save" is sent twice: one lands at a prompt.
    script = "1\n" * 70 + f"save {saved}\n" * 2 + "quit\n"
    args = ["play", "koa-kingmaker", "--players", str(players), "--seed", str(seed)]
    done = subprocess.run(
        [*CLI, *args, "--seats", seats],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, GameRecord.from_json(saved.read_text())


@pytest.mark.parametrize(
    ("players", "seats", "seed"),
    [
        (3, "human,human,random", 4),
        # five players: the last inheritance card has one outcome in the full state but
        # several for every seat but its owner, so its number must not be narrated
        (5, "human,human,human,random,random", 4),
    ],
)
def test_hot_seat_koa_never_shows_another_seats_secrets(
    tmp_path: Path, players: int, seats: str, seed: int
) -> None:
    out, record = play_hot_seat(tmp_path, players, seats, seed)
    states = list(record.replay())
    assert all(isinstance(s, KoaState) for s in states)
    moves = record.moves
    actions = [states[0].game.parse_action(move.action) for move in moves]
    humans = tuple(i for i, name in enumerate(seats.split(",")) if name == "human")

    # The pass screens split the output into one segment per seat; every decision shown in
    # a segment belongs to the seat the screen was passed to.
    segments = PASS.split(out)[1:]
    assert len(segments) >= 8
    for seat_text, text in zip(segments[::2], segments[1::2], strict=True):
        assert set(DECIDE.findall(text)) == {seat_text}

    # Each decision screen is matched with the state it was drawn from.
    decisions = [i for i, move in enumerate(moves) if move.player in humans]
    final = states[-1]
    chunks = DECIDE.split(out)[1:]
    pending = 0 if final.is_terminal else 1
    assert len(chunks) // 2 == len(decisions) + pending
    screens = [states[i] for i in decisions] + ([final] if pending else [])

    hidden_cards = hidden_steps = revealed_steps = 0
    for (seat_text, chunk), state in zip(
        zip(chunks[::2], chunks[1::2], strict=True), screens, strict=True
    ):
        assert isinstance(state, KoaState)
        seat = int(seat_text)
        lines = chunk.splitlines()
        # The seat's own hand and number are printed.
        assert [line for line in lines if line.startswith("Your hand:")] == [
            expected_hand(state, seat)
        ]
        assert f"Your inheritance: {state.inheritance[seat]}" in lines
        # No other seat's inheritance number: every number shown is this seat's own, or
        # that of an automated household's deal (households are not seats).
        for line in lines:
            number = NUMBER.search(line)
            if number is None:
                continue
            dealt = DEALT.search(line)
            if dealt is not None and int(dealt.group(1)) >= players:
                continue
            assert int(number.group(1)) == state.inheritance[seat], line
        # Another seat's face-down card shows as a marker in its row.
        cells = this_round_cells(chunk)
        for other in range(players):
            card = state.table.ids[other]
            if other == seat or state.phase.name != "commit" or card < 0:
                continue
            assert cells[other] == "[face down]", (other, card_name(card))
            hidden_cards += 1
        # Another seat's commitment is told without its card, unless it was the last card
        # down, which turns the whole table up.
        for line in lines:
            step = STEP.match(line)
            if step is None or int(step.group(2)) == seat:
                continue
            index = int(step.group(1))
            action = actions[index - 1]
            if not isinstance(action, (Play, Nominate)):
                continue
            before, after = states[index - 1], states[index]
            assert isinstance(before, KoaState) and isinstance(after, KoaState)
            if after.phase.name == "commit" and after.round == before.round:
                assert step.group(3) == "puts a card face down", line
                hidden_steps += 1
            else:
                # the last card down: told in full, with every card it turned face up
                shown = ", ".join(
                    f"house {h}: {played_name(c)}" for h, c in enumerate(after.played) if c >= 0
                )
                told = f"{before.describe(action)}; all cards turn face up: {shown}"
                assert step.group(3) == told, line
                revealed_steps += 1
    # The checks compared something: many face-down cards and commitments, some revealed.
    assert hidden_cards >= 10
    assert hidden_steps >= 10
    assert revealed_steps >= 3
