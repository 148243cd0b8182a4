"""Setting up: families, Influence hands, the draw pile and the pyramid base.

Every deal is a chance node with one outcome per clan (identical cards collapse):

1. ``deal_family``: the one-card-per-clan deck is dealt round the table, two each; what is
   left of it goes back to the Clan Members.
2. ``deal_third``: each player gets one more Clan Member. A card of a clan the player
   already holds would be returned and replaced, so the outcome is drawn among the other
   clans only, weighted by how many of each remain: the same distribution, exactly.
3. ``deal_influence``: Influence hands, round the table.
4. ``build_base``: the Clan Leaders lie shuffled on top of the pile; the first cards drawn
   form row 1 of the pyramid, left to right.
5. The pile's top card is turned up (a ``reveal_top`` chance node), and the first player
   takes the first turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.kings_kilt.pyramid import EMPTY
from clangames.kings_kilt.state import KingsKiltState

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame

DEAL_FAMILY = Phase.chance("deal_family")
DEAL_THIRD = Phase.chance("deal_third")
DEAL_INFLUENCE = Phase.chance("deal_influence")
BUILD_BASE = Phase.chance("build_base")
REVEAL_TOP = Phase.chance("reveal_top")
SETUP_PHASES = ("deal_family", "deal_third", "deal_influence", "build_base")


def initial_state(game: KingsKiltGame) -> KingsKiltState:
    """The box opened: one member of each clan set aside as the family deck, the rest of
    the members in a pool, the leaders apart, nothing dealt."""
    comps = game.components
    k = len(game.clans)
    n = game.num_players
    empty = Multiset.empty(k)
    return KingsKiltState(
        game=game,
        phase=DEAL_FAMILY,
        pyramid=(EMPTY,) * game.geo.size,
        top=EMPTY,
        leaders=Multiset((comps.leaders_per_clan,) * k),
        members=Multiset((comps.members_per_clan - 1,) * k),
        reshuffled=empty,
        family_deck=(1 << k) - 1,
        families=(0,) * n,
        from_deck=(0,) * n,
        revealed=(0,) * n,
        hands=(empty,) * n,
        discards=empty,
        removed=empty,
        passed=0,
        crowned=False,
        nobles_triggered=False,
        guardians_triggered=False,
        actor=-1,
        vacancy=-1,
        reveal_queue=(),
        dealt=0,
        turns=0,
    )
