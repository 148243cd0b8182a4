"""The KOA Kingmaker state: an immutable snapshot of the table.

The rules live in :mod:`rules` (dealing, committing, resolving a round), :mod:`scoring`
and :mod:`observation`; this class holds the data and wires the kernel's methods to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.phases import Phase
from clangames.engine.rng import Rng
from clangames.engine.simultaneous import Commitments
from clangames.engine.state import State
from clangames.koa_kingmaker import observation, rules, scoring
from clangames.koa_kingmaker.cards import card_name

if TYPE_CHECKING:
    from clangames.koa_kingmaker.game import KoaGame
    from clangames.koa_kingmaker.observation import KoaObservation


@attrs.frozen(slots=True)
class KoaState(State):
    """Where each house's cards are, who is still in, and what the round still owes.

    Houses are 0..4; the real players' houses are 0..n-1 (seat p owns house p), the rest
    are automated households. Each house's cards in one place are a bitmask of card
    kinds (see :mod:`clangames.koa_kingmaker.cards`).
    """

    game: KoaGame = attrs.field(repr=False, metadata={"json": False})
    phase: Phase
    round: int
    """Rounds begun so far (0 while the inheritance cards are dealt)."""
    inheritance: tuple[int, ...]
    """Each house's inheritance number 1..5; 0 if not dealt (or not in the game)."""
    alive: int
    """Houses still in the game, as a bitmask."""
    out_round: tuple[int, ...]
    """Per house: 0 while in the game, r once out in round r, -1 if it never played."""
    hands: tuple[int, ...]
    courts: tuple[int, ...]
    discards: tuple[int, ...]
    """Each house's own discard pile (characters only)."""
    centre: tuple[int, ...]
    """Each house's Royalty in the centre pile."""
    table: Commitments
    """The card each house has face down (commit step) or still lying on the table after
    the reveal, as a card kind (-1 for none). Sealed until every commitment is in."""
    played: tuple[int, ...]
    """The cards of the latest reveal per house (-1 for none): this round's once revealed,
    the previous round's while the cards are being committed; all -1 before round 1."""
    recovering: tuple[int, ...]
    """Houses that still owe a Gold or Thief return decision, the first deciding now."""
    hits: tuple[tuple[int, int], ...]
    """Hits still to be taken, in order: (house, source) with source -1 for the hit of
    the count and a house number for a Marshals counter-attack by that house."""
    scored: int
    """Houses whose nomination played this round goes to their court (last hit)."""

    # -- rules -----------------------------------------------------------------------------
    # The rule functions themselves are the methods: no extra call on the hot path.
    _legal = rules.legal_actions
    _apply = rules.apply
    _chance_weights = rules.chance_weights
    # Run on every state read from JSON, so also the function itself (before the method
    # ``observation`` below hides the module's name in this class body).
    check_consistency = observation.check_consistency

    def explain_illegal(self, action: Any, player: int) -> str:
        return rules.explain_illegal(self, action, player)

    # -- results ---------------------------------------------------------------------------
    def scores(self) -> tuple[int, ...]:
        """Court and hand points per seat (final once over, provisional before)."""
        return scoring.scores(self)

    def winners(self) -> tuple[int, ...]:
        """The winning seat after the tie-break; empty before the end."""
        return scoring.winners(self) if self.is_terminal else ()

    # -- views -------------------------------------------------------------------------------
    def observation(self, player: int) -> KoaObservation:
        return observation.observe(self, player)

    def public_observation(self) -> KoaObservation:
        return observation.observe(self, None)

    def resample(self, player: int, rng: Rng) -> KoaState:
        return observation.resample(self, player, rng)

    def describe(self, action: Any) -> str:
        return rules.describe(self, action)

    def prompt(self) -> str:
        return rules.prompt(self)

    # -- conveniences for people and tests ----------------------------------------------------
    def hand_of(self, house: int) -> tuple[str, ...]:
        """The names of a house's hand cards (hidden information: for drivers/tests)."""
        return _names(self.hands[house])

    def court_of(self, house: int) -> tuple[str, ...]:
        """The names of the cards in a house's court."""
        return _names(self.courts[house])

    def discards_of(self, house: int) -> tuple[str, ...]:
        """The names of the cards in a house's discard pile."""
        return _names(self.discards[house])

    def centre_of(self, house: int) -> tuple[str, ...]:
        """The names of a house's Royalty in the centre pile."""
        return _names(self.centre[house])

    def is_in(self, house: int) -> bool:
        """True while ``house`` is still in the game."""
        return bool(self.alive >> house & 1)


rules.bind_state_type(KoaState)  # the moves thaw and freeze this class's drafts
# The fast path's moves, generated by bind_state_type for this class (see rollout.py).
setattr(KoaState, "_apply_owned", rules.apply_owned)  # noqa: B010
setattr(KoaState, "_apply_kept", rules.apply_kept)  # noqa: B010
setattr(KoaState, "_kept_state", rules.kept_state)  # noqa: B010


def _names(mask: int) -> tuple[str, ...]:
    out = []
    k = 0
    while mask:
        if mask & 1:
            out.append(card_name(k))
        mask >>= 1
        k += 1
    return tuple(out)
