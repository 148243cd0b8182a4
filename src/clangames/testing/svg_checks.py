"""Conformance checks of the SVG pictures (issue 19), run by ``check_game`` on the states
whose text pictures it checks (a sample).

A built-in game (one whose observation class lives in the ``clangames`` package) must have
an SVG picture, and its drawing module must account for every field of the observation
(drawn, or left out on purpose): a field added to an observation without a decision about
its picture fails here, naming the field. Each seat's picture and the public one must parse
as XML and stay the same under a re-deal of what that seat cannot see.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import attrs

from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.rendering.svg import COVERAGE, has_picture, state_picture

SVG_STREAM = 5 << 32
"""The fork of the full checks' Rng that drives the SVG re-deals."""

Fail = Callable[[str, str], Exception]


def _parses(fail: Fail, svg: str, who: str) -> None:
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise fail("svg", f"the SVG picture {who} is not well-formed XML: {exc}") from exc
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        raise fail("svg", f"the SVG picture {who} is not an <svg> document (got {root.tag})")


def check_coverage(observation_type: type, fail: Fail) -> None:
    """Every field of ``observation_type`` is drawn or left out on purpose, not both."""
    drawn, left_out = COVERAGE[observation_type]
    fields = {f.name for f in attrs.fields(observation_type)}
    missing = sorted(fields - drawn - left_out)
    if missing:
        raise fail(
            "svg-coverage",
            f"{observation_type.__name__} fields {missing} are neither drawn by its SVG picture"
            " nor listed in its LEFT_OUT (clangames.rendering.svg.<game>)",
        )
    stale = sorted((drawn | left_out) - fields)
    if stale or drawn & left_out:
        raise fail(
            "svg-coverage",
            f"the SVG picture of {observation_type.__name__} lists fields it does not have"
            f" ({stale}) or lists one twice ({sorted(drawn & left_out)})",
        )


def check_svg(state: State, fail: Fail, rng: Rng) -> None:
    """The SVG checks on one state (a sampled one: drawing costs far more than a step)."""
    kind = type(state.public_observation())
    if not has_picture(kind):
        if kind.__module__.startswith("clangames."):
            raise fail("svg", f"{state.game.name} has no SVG picture (clangames.rendering.svg)")
        return  # a game from outside the library: SVG pictures are optional there
    check_coverage(kind, fail)
    public = state_picture(state)
    _parses(fail, public, "for everyone")
    stream = rng.fork(SVG_STREAM)
    for p in range(state.game.num_players):
        mine = state_picture(state, p)
        _parses(fail, mine, f"for player {p}")
        other = state.resample(p, stream.fork(p + 1))
        if state_picture(other, p) != mine:
            raise fail(
                "svg-leak",
                f"player {p}'s SVG picture changes under resample({p}): it shows something"
                f" player {p} cannot know",
            )
