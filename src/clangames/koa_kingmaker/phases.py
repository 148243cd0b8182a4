"""Each step of a KOA Kingmaker round in words: one table for the terminal's header and the
SVG picture's title, so that neither shows the rules' internal names (``seal``,
``commit``) and both say a step alike."""

from __future__ import annotations

from clangames.engine.phases import phase_in_words

PHASE_WORDS = {
    "inherit": "the inheritance cards are being dealt",
    "seal": "the automated households put their cards face down",
    "commit": "each house puts one card face down",
    "return": "a house may take a card back from its discard pile",
    "discard": "a hit house gives up a Royal or its Jester",
    "over": "game over",
}
"""Every phase a KOA Kingmaker state can be in (``rules.PHASE_NAMES``), as a clause after
the round number: the deal of the inheritance numbers, the households' and then the
players' face-down cards, the card taken back by Gold or a Thief, the card lost to a hit,
and the end."""


def phase_words(name: str) -> str:
    """The KOA Kingmaker step ``name`` in words."""
    return phase_in_words(name, PHASE_WORDS)
