"""Pictures of games for people: the layer between the games and the front-ends.

``text`` draws any game in the terminal from an observation (never the full state) and
narrates steps without leaking hidden information; a module per game (``kings_kilt``,
``koa_kingmaker``, ``kilt_castle``, ``clan_feud``) draws that game's own screen. ``plain``
turns those pictures into plain text for library users and installs the kernel's drawing
hook, so ``state.render()`` and ``str(state)`` work; ``screen`` fits a decision to a
terminal; ``explain`` holds the rules in brief, option explanations and the end-of-game
score breakdowns. Rules packages never import this layer; the command line does.
"""

from clangames.rendering.explain import (
    EndReport,
    SeatBreakdown,
    end_report,
    explain_action,
    rules_text,
)
from clangames.rendering.plain import render_observation, render_state, text_of
from clangames.rendering.screen import fold, matching
from clangames.rendering.text import (
    GenericRenderer,
    Renderer,
    legal_list,
    narrate,
    renderer_for,
)

__all__ = [
    "EndReport",
    "GenericRenderer",
    "Renderer",
    "SeatBreakdown",
    "end_report",
    "explain_action",
    "fold",
    "legal_list",
    "matching",
    "narrate",
    "render_observation",
    "render_state",
    "renderer_for",
    "rules_text",
    "text_of",
]
