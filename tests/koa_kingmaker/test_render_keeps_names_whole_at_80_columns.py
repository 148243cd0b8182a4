"""KOA Kingmaker's text picture on the smallest supported screen (80 columns): no line is
longer than 80 and no name is cut in two (a cell, a header line or a summary line breaks
only between cards and houses, never inside "Royal 2", "nom. of house 3", "nominates
house 1" or "house 4"), while every card the viewer may see is still there; at 140
columns each court and discard pile stands whole on one line. Checked on crowded positions
(full courts with Jester, Banner and kept nominations, long discard piles, Royalty in the
centre, cards face down) for 2, 3 and 5 players, from every seat and the public view, on
the full board and the summary, and on random games."""

from __future__ import annotations

import itertools
import re

import pytest

import clangames
from clangames.koa_kingmaker import KoaState, Play, Seal
from clangames.koa_kingmaker.cards import CHARACTER_NAMES, FANATIC, ROYAL_NAMES, card_name
from clangames.rendering.koa_kingmaker import KoaRenderer
from clangames.rendering.plain import text_of
from clangames.rendering.text import renderer_for, seat_view

from .helpers import apply, arrange, start

NAMES = (
    *CHARACTER_NAMES,
    *ROYAL_NAMES,
    *(f"house {h}" for h in range(5)),
    *(f"nom. of house {h}" for h in range(5)),
    *(f"nominates house {h}" for h in range(5)),
    "(yours, face down)",
    "[face down]",
    "out in round",
)
"""Every name a KOA picture may show that has a space in it, or could be folded."""


def renderer(state: KoaState) -> KoaRenderer:
    found = renderer_for(state.game)
    assert isinstance(found, KoaRenderer)
    return found


def crowded(players: int, committed: bool = True) -> KoaState:
    """Round 1 with every court full (Royalty, Jester, Banner and, for a player's house,
    the nominations of two other houses), every discard pile holding four characters,
    house 0's Royal 1 in the centre; then the households' cards sealed and (``committed``)
    house 0's Fanatic committed face down."""
    s = start(players)
    game = s.game
    for h in range(game.houses):
        s = arrange(s, h, "hands", "courts", "Jester", "Banner")
        s = arrange(s, h, "hands", "discards", "Seer", "Marshals", "Gold", "Thief")
        if not game.is_automated(h):
            others = [t for t in range(game.houses) if t != h][:2]
            s = arrange(s, h, "hands", "courts", *others)
    s = arrange(s, 0, "courts", "centre", "Royal 1")
    while s.phase.name == "seal":
        s = apply(s, Seal(FANATIC))
    if committed:
        s = apply(s, Play(FANATIC), 0)
    return s


def court_words(cards: int) -> str:
    """A court as the picture must name it: Royalty first, then the rest by kind."""
    kinds = [k for k in range(15) if cards >> k & 1]
    ordered = [k for k in kinds if k >= 12] + [k for k in kinds if k < 12]
    words = [f"nom. of house {k - 7}" if 7 <= k < 12 else card_name(k) for k in ordered]
    return ", ".join(words) or "none"


def pile_words(cards: int) -> str:
    return ", ".join(card_name(k) for k in range(15) if cards >> k & 1) or "none"


def counts(text: str) -> dict[str, int]:
    """How often each name stands whole on a line."""
    lines = text.splitlines()
    return {name: sum(line.count(name) for line in lines) for name in NAMES}


def views(state: KoaState) -> list[tuple[int | None, bool]]:
    """Every seat and the public view, full board and summary."""
    seats: list[int | None] = [None, *range(state.game.num_players)]
    return list(itertools.product(seats, (False, True)))


def assert_whole_at_80(state: KoaState) -> None:
    view = renderer(state)
    for viewer, compact in views(state):
        narrow = text_of(seat_view(view, state, viewer, compact), 80)
        wide = text_of(seat_view(view, state, viewer, compact), 1000)
        assert max(len(line) for line in narrow.splitlines()) <= 80, narrow
        # A name cut in two at a line's end would be missing from the narrow count.
        assert counts(narrow) == counts(wide), (viewer, compact, narrow)


def table_rows(text: str) -> dict[int, list[str]]:
    """Each house's row of the full board as its lines' text in the court column, the
    lines joined by single spaces."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("house, status"))
    column = lines[head].index("court and discard pile")
    rows: dict[int, list[str]] = {}
    current: list[str] = []
    for line in lines[head + 2 :]:
        found = re.match(r"house (\d) ", line)
        if found:
            current = rows.setdefault(int(found.group(1)), [])
        elif line.startswith("Your "):
            break
        current.append(line[column:].strip())
    return rows


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("committed", [True, False])
def test_crowded_courts_keep_every_name_whole_at_80_columns(players: int, committed: bool) -> None:
    state = crowded(players, committed)
    assert state.phase.name == "commit"
    assert_whole_at_80(state)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_court_and_discard_pile_is_on_the_80_column_board(players: int) -> None:
    state = crowded(players)
    view = renderer(state)
    for viewer in (None, *range(players)):
        text = text_of(seat_view(view, state, viewer), 80)
        rows = table_rows(text)
        assert list(rows) == list(range(state.game.houses))
        for house, cell in rows.items():
            court = court_words(state.courts[house])
            pile = pile_words(state.discards[house])
            # Joined by spaces, the cell's lines read as the court and the pile in full:
            # nothing lost, and every break was at a space between two cards.
            assert " ".join(filter(None, cell)) == f"court: {court} discards: {pile}"
            assert any(line.startswith("discards: ") for line in cell)
        assert "Centre pile: house 0: Royal 1" in text


@pytest.mark.parametrize("players", [2, 3, 5])
def test_at_140_columns_each_court_and_pile_stands_on_one_line(players: int) -> None:
    state = crowded(players)
    view = renderer(state)
    for viewer in (None, *range(players)):
        text = text_of(seat_view(view, state, viewer), 140)
        assert max(len(line) for line in text.splitlines()) <= 140
        lines = [line.strip() for line in text.splitlines()]
        for house in range(state.game.houses):
            court = court_words(state.courts[house])
            assert any(line.endswith(f"court: {court}") for line in lines), (house, text)
            assert any(
                line.endswith(f"discards: {pile_words(state.discards[house])}") for line in lines
            )
        if viewer == 0:
            assert "Fanatic" in text and "(yours, face down)" in text
        else:
            assert "(yours, face down)" not in text


def test_the_summary_folds_between_items_and_indents_the_rest() -> None:
    state = crowded(5)
    text = text_of(seat_view(renderer(state), state, 0, compact=True), 80)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("house 0 (you): "))
    house = [lines[start]]
    house += itertools.takewhile(lambda line: line.startswith("  "), lines[start + 1 :])
    assert len(house) > 1
    assert " ".join(line.strip() for line in house) == (
        "house 0 (you): in, hand 2, this round Fanatic (yours, face down) | court: Royal 2,"
        " Royal 3, Jester, Banner, nom. of house 1, nom. of house 2"
    )


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_keep_every_name_whole_at_80_columns(players: int) -> None:
    game = clangames.load("koa_kingmaker", players=players)
    rng = clangames.Rng(80 + players)
    state = game.initial_state()
    assert isinstance(state, KoaState)
    step = 0
    while not state.is_terminal:
        if state.round and step % 3 == 0:
            assert_whole_at_80(state)
        step += 1
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            state = apply(state, action)
        else:
            player = state.to_move[0]
            legal = state.legal_actions(player)
            pick, rng = rng.below(len(legal))
            state = apply(state, legal[pick], player)
    assert_whole_at_80(state)
