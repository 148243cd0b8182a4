"""KOA Kingmaker's SVG picture names the cards of every house's discard pile (public, as the
text picture lists them) rather than counting them; the fullest pile there can be stays on
one legible line inside its house's row; the picture still hides what the seat cannot see."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import attrs

import clangames
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves
from clangames.engine.state import State
from clangames.koa_kingmaker.cards import CHARACTERS
from clangames.rendering.svg import picture, state_picture
from clangames.testing.svg_checks import check_svg
from test_svg import SVG, parse

PILES = ["Marshals, Fanatic", "Marshals, Gold", "Jester, Gold", "Gold", "Marshals, Banner"]
"""The discard piles of houses 0 to 4 in round 4 of the seeded game below (the state
docs/pictures/koa_kingmaker.svg shows)."""


def _round_four() -> State:
    """3 players (houses 3 and 4 automated), seed 7: the state before the 26th step, the
    commit of round 4."""
    game = clangames.load("koa_kingmaker", players=3)
    state = game.initial_state()
    _, _, moves = rollout_moves(state, Rng(7))
    for player, action in moves[:25]:
        state = state.apply(action, player)
    return state


def _discard_lines(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "text") if (t.text or "").startswith("discards")]


def test_every_viewer_sees_each_pile_by_name() -> None:
    state = _round_four()
    for seat in (None, 0, 1, 2):
        root = parse(state_picture(state, seat))
        assert _discard_lines(root) == [f"discards: {pile}" for pile in PILES]
        # the same words as the text picture
        text = state.render(seat, width=120)
        for pile in PILES:
            assert f"discards: {pile}" in text


def test_an_empty_pile_says_none() -> None:
    game: Any = clangames.load("koa_kingmaker", players=4)
    root = parse(state_picture(game.initial_state(), 0))
    assert _discard_lines(root) == ["discards: none"] * game.houses


def test_the_fullest_pile_fits_its_row_under_the_court() -> None:
    # a pile holds at most one of each of the seven characters; give house 1 all of them
    state: Any = _round_four()
    obs = state.observation(0)
    full = attrs.evolve(obs, discards=(obs.discards[0], CHARACTERS, *obs.discards[2:]))
    root = parse(picture(full, state.game))
    names = "Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic"
    line = next(t for t in root.iter(SVG + "text") if t.text == f"discards: {names}")
    rows = [r for r in root.iter(SVG + "rect") if r.attrib.get("rx") == "6"]
    row = rows[1]
    top = float(row.attrib["y"])
    bottom = top + float(row.attrib["height"])
    right = float(row.attrib["x"]) + float(row.attrib["width"])
    size = float(line.attrib["font-size"])
    # at most 0.6 em a character in a sans-serif face: the line ends inside the row
    assert float(line.attrib["x"]) + 0.6 * size * len(line.text or "") < right
    # below every card of the row (courts and the table), above the row's lower edge
    cards = [
        float(r.attrib["y"]) + float(r.attrib["height"])
        for g in root.iter(SVG + "g")
        if "data-card" in g.attrib
        for r in g.iter(SVG + "rect")
        if top <= float(r.attrib["y"]) < bottom
    ]
    baseline = float(line.attrib["y"])
    assert cards and max(cards) < baseline - size and baseline < bottom


def test_the_picture_is_unchanged_by_a_re_deal_of_the_hidden_cards() -> None:
    def fail(kind: str, message: str) -> Exception:
        return AssertionError(f"{kind}: {message}")

    check_svg(_round_four(), fail, Rng(3))
