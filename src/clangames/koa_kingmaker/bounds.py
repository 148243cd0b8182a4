"""KOA Kingmaker's two length bounds (decisions and chance nodes), proved from the rules
with a potential that pays for every round.

The argument is in :func:`length_bounds`; :func:`potential` and :func:`hand_value` compute
its terms for a state, so a test can follow them along played games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.interop import LengthBounds
from clangames.koa_kingmaker.cards import CHARACTERS, GOLD, JESTER, KEEPERS, THIEF

if TYPE_CHECKING:
    from clangames.koa_kingmaker.game import KoaGame
    from clangames.koa_kingmaker.state import KoaState


def extra_value(houses: int) -> dict[int, int]:
    """What a Gold, a Thief and a Jester in hand are worth above the 1 of any character:
    a Gold 3h - 3 more (13 in all with five houses, 10 with four), a Thief 3h - 5 more (11
    or 8), a Jester 2 more (see :func:`length_bounds`)."""
    return {GOLD: 3 * houses - 3, THIEF: 3 * houses - 5, JESTER: 2}


ROYALS_A_HOUSE = (KEEPERS & ~CHARACTERS).bit_count()
"""The Royalty cards each house starts with in court: 3."""


def hand_value(state: KoaState) -> int:
    """Psi: every character in a hand is worth 1, a Gold, a Thief and a Jester more
    (:func:`extra_value`; see :func:`length_bounds`)."""
    extras = extra_value(state.game.houses).items()
    total = 0
    for hand in state.hands:
        total += (hand & CHARACTERS).bit_count()
        total += sum(extra for card, extra in extras if hand >> card & 1)
    return total


def potential(state: KoaState) -> int:
    """Phi = Psi + 2K, K the Royals and Jesters in courts (see :func:`length_bounds`)."""
    keepers = sum((court & KEEPERS).bit_count() for court in state.courts)
    return hand_value(state) + 2 * keepers


def start_hand_value(game: KoaGame) -> int:
    """Psi at the start: every house holds its 7 characters, 6h + 1 a house (31 with five
    houses, 25 with four)."""
    extras = extra_value(game.houses).values()
    return game.houses * (CHARACTERS.bit_count() + sum(extras))


def start_potential(game: KoaGame) -> int:
    """Phi at the start: Psi_0 + 2 x 3 Royals a house (37 with five houses, 31 with four)."""
    return start_hand_value(game) + game.houses * 2 * ROYALS_A_HOUSE


def length_bounds(game: KoaGame) -> LengthBounds:
    """Decision and chance-node bounds of any KOA Kingmaker game, adversarial play included.

    Decisions come only in rounds: the commitment round (one decision, however many seats
    commit), a return per real house owed one (rulings, step 6) and a hit decision per
    hit on a real house with two or more Royals and Jesters to choose from (step 7); an
    automated household decides nothing. In a round write g, t, j, o for the Golds,
    Thieves, Jesters and other characters played, r the returns, hd the hit decisions.

    With h houses (5, or 4 with 2 players), let Psi value the characters in all hands: 1
    each, but a Gold 3h - 2 (13 with five houses, 10 with four), a Thief 3h - 4 (11, 8) and
    a Jester 3. Let K count the Royals and Jesters in courts and Phi = Psi + 2K: Phi_0 =
    h (6h + 1 + 6) (185 with five houses, 124 with four), and Phi >= 0. We show that Phi
    falls by at least a round's decisions every round.

    1. **A round with characters.** Psi falls by at least 1 + r + 2j:
       - no Thief fed (step 6, "each Gold not stolen"): a Gold played takes its value from
         Psi and brings back at most one card, never itself (it is on the table), worth at
         most a Thief's, 2 less: Psi falls by 2 a Gold, and r <= g. A Jester takes 3, any
         other character at least 1. So Psi falls by at least 2g + 3j + t + o >= 1 + r + 2j
         (a character was played);
       - Thieves fed: the g >= 1 Golds are discarded (3h - 2 each); each Thief (3h - 4)
         brings back at most one card worth at most a Gold, so r <= t and Psi falls by at
         least (3h - 2) g - 2t + 3j + o >= 1 + t + 2j, because g + t <= h (one card a
         house) gives (3h - 2) g >= 1 + 3t.
       Each non-void hit takes a keeper from a court (K - 1) and each Jester joins one
       (K + 1, paid by the 2j above), so Phi falls by 1 + r + 2 hits >= the decisions.
    2. **A round without characters** changes no hand (no returns without a Gold or a
       Thief) and has a hit on a live house: every live real house holds a nomination of
       every other live house, and nominations with no Seer or Marshals played hit the
       most nominated. Phi falls by 2 hits >= 1 + hd.

    So decisions <= Phi_0: 124 with 2 players, 185 with 3 to 5 (the step bound's split
    gave 3,900 and 6,000). Left loose: the Thief and Gold weights pay for a round where
    one Gold feeds h - 1 Thieves that each take a Gold back, which the cards allow but
    which needs every house to play for it.

    **Chance nodes.** The h inheritance numbers, and per round one sealed card per
    automated household with cards in hand: a character play. Step 1 shows Psi falls by
    at least the characters played in a round (2g + 3j + t + o, or (3h - 2) g - 2t + 3j
    + o >= g + t + j + o since (3h - 3) g >= 3t), so seals <= Psi_0 and chance <= h +
    Psi_0: 104 with 2 players, 160 with 3 or 4, and 5 with 5 players (no automated
    household).
    """
    h = game.houses
    seals = start_hand_value(game) if game.automated else 0
    return LengthBounds(decisions=start_potential(game), chance=h + seals)


__all__ = [
    "extra_value",
    "hand_value",
    "length_bounds",
    "potential",
    "start_hand_value",
    "start_potential",
]
