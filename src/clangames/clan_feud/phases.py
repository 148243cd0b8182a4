"""Where in a Clan Feud turn each decision comes, in words: one table for the status line
and the SVG picture's title (rendering), the prompts (:mod:`playing`) and the explanations
(:mod:`explain`), so that none of them says a bare "phase (3)" and all of them name a part
of the turn alike."""

from __future__ import annotations

from clangames.engine.phases import phase_in_words

PHASE_WORDS = {
    "start": "setting up: start territories",
    "lot": "setting up: first turn order",
    "tiebreak": "phase 1: turn order",
    "order": "phase 1: turn order",
    "p1order": "phase 1: cards before the turn order",
    "roll": "phase 1: dice rolls",
    "p1cards": "phase 1: cards after the roll",
    "assign": "phase 2: assigning dice",
    "feud": "phase 2: Feud benefit",
    "income_roll": "phase 2: Income roll",
    "draw": "drawing an action card",
    "build": "phase 2: building",
    "place": "phase 2: placing a building",
    "military": "phase 2: Military action",
    "recruit": "phase 2: recruiting",
    "move": "phase 2: moving armies",
    "army": "phase 2: moving armies",
    "step": "phase 2: marching",
    "round": "battle",
    "bcards": "battle: committing cards",
    "btokens": "battle: committing feud tokens",
    "bart": "battle: artillery roll",
    "broll": "battle: casualty dice",
    "bhits": "battle: casualty dice",
    "bloss": "battle: casualties",
    "bdeclare": "battle: attacker goes on or retreats",
    "bdefend": "battle: defender goes on or retreats",
    "bretreat": "battle: defender retreats",
    "draw_event": "phase 3: event",
    "prog": "resolving a card",
    "p3cards": "phase 3: cards before upkeep",
    "espawn": "phase 3: English armies",
    "emarch": "phase 3: English armies march",
    "emove": "phase 3: English armies march",
    "upkeep": "phase 3: upkeep",
    "upkeep_pay": "phase 3: upkeep",
    "steal": "action card: stealing",
    "steal_card": "action card: stealing",
    "modify": "action card: changing dice",
    "reroll": "action card: rerolling dice",
    "th1": "action card: free tower house",
    "free_recruit": "action card: free troops",
    "over": "game over",
}
"""Each decision's place in the turn, in words (the rulebook's phases 1 to 3 with what
is done in them), instead of the rules' task names (``p3cards``, ``bdeclare``) or a bare
phase number: the status line, the prompts and the explanations all say it so."""


def phase_words(kind: str) -> str:
    """Where in the turn a decision of ``kind`` comes, in words."""
    return phase_in_words(kind, PHASE_WORDS)
