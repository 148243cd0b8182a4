"""The SVG pictures' title lines name the step of the game in words, from one table per game
(``<game>.phases.PHASE_WORDS``), never by the rules' internal phase names (``reveal_top``,
``p3cards``): every phase seeded games of every player count reach has words, a phase the
table lacks still reads as words, and the longest title at every player count stays on the
picture's top line, clear of whose view it is."""

from __future__ import annotations

import importlib
import re
import xml.etree.ElementTree as ET
from types import ModuleType
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout, rollout_seats
from clangames.engine.state import State
from clangames.kilt_castle.observation import PHASES as KILT_CASTLE_PHASES
from clangames.kings_kilt.encoding import PHASES as KINGS_KILT_PHASES
from clangames.koa_kingmaker.rules import PHASE_NAMES as KOA_PHASES
from clangames.rendering.svg import picture, state_picture
from clangames.rendering.svg.canvas import ASIDE_SIZE, CHAR_EM, MARGIN, Canvas
from test_svg import SVG, parse

GAMES = ("kings_kilt", "kilt_castle", "koa_kingmaker", "clan_feud")
SEEDS = range(1, 21)
LEAST_TITLE_SIZE = 14
"""The smallest the title may be set to fit: still larger than the aside beside it."""
LARGEST = {
    "kings_kilt": {"turns": 999},
    "kilt_castle": {"turns": 999},
    "koa_kingmaker": {"round": 99},
    "clan_feud": {"turn": 99, "deck_size": 99},
}
"""Counters the title shows, at more digits than a game reaches."""


def _phases(name: str) -> ModuleType:
    return importlib.import_module(f"clangames.{name}.phases")


def _player_counts(name: str) -> range:
    info = clangames.load(name).info
    return range(info.min_players, info.max_players + 1)


def _heading(root: ET.Element) -> tuple[ET.Element, ET.Element]:
    title, aside = list(root.iter(SVG + "text"))[:2]
    return title, aside


def _reached(name: str, players: int) -> dict[str, State]:
    """The first state of each phase that seeded random games reach, by phase name."""
    game = clangames.load(name, players=players)
    first: dict[str, State] = {}

    def watch(state: State) -> None:
        # the rollout may build on a state in place: keep a picture-ready copy at once
        if state.phase.name not in first:
            first[state.phase.name] = game.state_from_json(state.to_json())

    for seed in SEEDS:
        seats = [Rng(seed * 10 + seat) for seat in range(players)]
        rollout_seats(game.initial_state(), Rng(seed), seats, watch=watch)
    return first


@pytest.mark.parametrize("name", GAMES)
def test_every_phase_seeded_games_reach_has_words(name: str) -> None:
    words = _phases(name).PHASE_WORDS
    for players in _player_counts(name):
        reached = set(_reached(name, players))
        assert "over" in reached, (name, players)
        assert reached <= set(words), (name, players, sorted(reached - set(words)))


def test_every_declared_phase_has_words() -> None:
    # the three games that list their phase names: the table covers them exactly
    for name, declared in (
        ("kings_kilt", KINGS_KILT_PHASES),
        ("kilt_castle", KILT_CASTLE_PHASES),
        ("koa_kingmaker", KOA_PHASES),
    ):
        assert set(_phases(name).PHASE_WORDS) == set(declared), name


@pytest.mark.parametrize("name", GAMES)
def test_titles_say_the_step_in_words_not_its_internal_name(name: str) -> None:
    words = _phases(name).PHASE_WORDS
    for players in _player_counts(name)[:: len(_player_counts(name)) - 1]:
        for phase, state in _reached(name, players).items():
            title, _ = _heading(parse(state_picture(state, 0)))
            text = title.text or ""
            assert words[phase] in text, (name, phase, text)
            # where the old title put the internal name ("- reveal_top,", "- bhits -")
            bare = re.search(rf"- {re.escape(phase)}(,| -|$)", text)
            assert bare is None or words[phase].startswith(phase), (name, phase, text)
            assert "_" not in text, (name, phase, text)


def test_the_words_for_the_steps_are_plain() -> None:
    titles = {
        "kings_kilt": ("reveal_top", "King's Kilt - turning up the top card, turn 7"),
        "kilt_castle": ("relocate", "Kilt Castle - moving a building card"),
        "koa_kingmaker": ("commit", "KOA Kingmaker - round 7 - each house puts one card face down"),
        "clan_feud": (
            "bhits",
            "Clan Feud - turn 7 - battle: casualty dice - order 0 1 2 - deck 30",
        ),
    }
    counters = {
        "kings_kilt": {"turns": 7},
        "kilt_castle": {},
        "koa_kingmaker": {"round": 7},
        "clan_feud": {"turn": 7, "order": (0, 1, 2), "deck_size": 30},
    }
    for name, (phase, expected) in titles.items():
        game = clangames.load(name, players=3)
        obs = attrs.evolve(game.initial_state().observation(0), phase=phase, **counters[name])
        title, aside = _heading(parse(picture(obs, game)))
        seat = "house" if name == "koa_kingmaker" else "player"
        assert (title.text, aside.text) == (expected, f"as {seat} 0 sees it")


@pytest.mark.parametrize("name", GAMES)
def test_a_phase_missing_from_the_table_still_reads_as_words(name: str) -> None:
    assert "a_step_added_later" not in _phases(name).PHASE_WORDS
    assert _phases(name).phase_words("a_step_added_later") == "a step added later"
    game = clangames.load(name, players=2)
    obs = attrs.evolve(game.initial_state().observation(1), phase="a_step_added_later")
    title, _ = _heading(parse(picture(obs, game)))
    assert "a step added later" in (title.text or "")


@pytest.mark.parametrize("name", GAMES)
def test_the_longest_title_fits_the_top_line_at_every_player_count(name: str) -> None:
    words = _phases(name).PHASE_WORDS
    for players in _player_counts(name):
        game: Any = clangames.load(name, players=players)
        state, _, _ = rollout(game.initial_state(), Rng(3), max_steps=40)
        for seat in (None, players - 1):
            obs = state.public_observation() if seat is None else state.observation(seat)
            for phase in words:
                root = parse(picture(attrs.evolve(obs, phase=phase, **LARGEST[name]), game))
                title, aside = _heading(root)
                size = float(title.attrib["font-size"])
                width = float(root.attrib["width"])
                end = float(title.attrib["x"]) + CHAR_EM * size * len(title.text or "")
                start = width - MARGIN - CHAR_EM * ASIDE_SIZE * len(aside.text or "")
                assert end < start, (name, players, phase, title.text)
                assert size >= LEAST_TITLE_SIZE, (name, players, phase, title.text)


def test_a_title_too_long_for_its_line_is_set_smaller_and_a_short_one_is_not() -> None:
    short, long = Canvas(640, 100, "t"), Canvas(640, 100, "t")
    short.heading("Short - title", "public view")
    long.heading("Long - " + "word " * 20, "as player 3 sees it")
    for canvas, fits in ((short, True), (long, False)):
        title, aside = _heading(parse(canvas.svg()))
        size = float(title.attrib["font-size"])
        assert (size == 18) is fits
        end = MARGIN + CHAR_EM * size * len(title.text or "")
        assert end < 640 - MARGIN - CHAR_EM * ASIDE_SIZE * len(aside.text or "")
        assert aside.attrib["text-anchor"] == "end" and aside.attrib["x"] == "624"
