"""King's Kilt: clans climb a pyramid of cards; advance, betray, crown a King, then pass.

``clangames.load("kings_kilt", players=3)`` gives the game; see ``docs/games/kings-kilt.md``
for the rules in brief, the rulings and the component data.
"""

from clangames.kings_kilt.actions import Advance, Betray, Draw, Fill, KingsKiltAction, Pass, Reveal
from clangames.kings_kilt.components import Clan, Components, load_components, parse_components
from clangames.kings_kilt.game import SPEC, KingsKiltGame
from clangames.kings_kilt.observation import KingsKiltObservation
from clangames.kings_kilt.pyramid import Pyramid, pyramid
from clangames.kings_kilt.scoring import clan_points, family_score
from clangames.kings_kilt.state import KingsKiltState

from clangames.kings_kilt import encoding  # noqa: F401  (declares the interop data)  isort: skip

__all__ = [
    "SPEC",
    "Advance",
    "Betray",
    "Clan",
    "Components",
    "Draw",
    "Fill",
    "KingsKiltAction",
    "KingsKiltGame",
    "KingsKiltObservation",
    "KingsKiltState",
    "Pass",
    "Pyramid",
    "Reveal",
    "clan_points",
    "family_score",
    "load_components",
    "parse_components",
    "pyramid",
]
