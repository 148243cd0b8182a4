"""Each step of a Kilt Castle game in words: one table for the SVG picture's title and any
text picture that names the step, so that none of them shows the rules' internal names
(``relocate``, ``roof``) and all of them say a step alike."""

from __future__ import annotations

from clangames.engine.phases import phase_in_words

PHASE_WORDS = {
    "layout": "laying out the building cards",
    "relocate": "moving a building card",
    "build": "building floors",
    "roof": "moving a roof",
    "over": "game over",
}
"""Every phase a Kilt Castle state can be in (``observation.PHASES``): the starting
layout of the cards, a turn's card moved clockwise, the floors its colours build, the
choice of which placed roof moves when none is left, and the end."""


def phase_words(name: str) -> str:
    """The Kilt Castle step ``name`` in words."""
    return phase_in_words(name, PHASE_WORDS)
