"""Each step of a King's Kilt game in words: one table for the SVG picture's title and any
text picture that names the step, so that none of them shows the rules' internal names
(``reveal_top``, ``deal_influence``) and all of them say a step alike."""

from __future__ import annotations

from clangames.engine.phases import phase_in_words

PHASE_WORDS = {
    "deal_family": "dealing Clan Family cards",
    "deal_third": "dealing third Family cards",
    "deal_influence": "dealing Influence hands",
    "build_base": "laying the pyramid's base",
    "reveal_top": "turning up the top card",
    "turn": "choosing a move",
    "fill": "filling an empty space",
    "reveal": "turning a family card face up",
    "over": "game over",
}
"""Every phase a King's Kilt state can be in (``encoding.PHASES``), said short enough for
the picture's title line: the setup's deals, the pile's new top card turned face up, a
turn's move (advance, betray or pass), a vacancy filled from beneath, a family card shown
when a reminder row is first reached, and the end."""


def phase_words(name: str) -> str:
    """The King's Kilt step ``name`` in words."""
    return phase_in_words(name, PHASE_WORDS)
