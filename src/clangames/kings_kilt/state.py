"""The King's Kilt state: an immutable snapshot of the table.

The rules live in :mod:`setup` (dealing), :mod:`turn` (advance, betray, vacancy, reveal,
pass), :mod:`scoring` and :mod:`observation`; this class holds the data and wires the
kernel's methods to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.engine.state import State
from clangames.kings_kilt import observation, scoring, turn

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame
    from clangames.kings_kilt.observation import KingsKiltObservation


@attrs.frozen(slots=True)
class KingsKiltState(State):
    """Where every card is, whose decision it is, and what has been triggered.

    Clans are indices into ``game.clans``; sets of clans and of seats are bitmasks.
    """

    game: KingsKiltGame = attrs.field(repr=False, metadata={"json": False})
    phase: Phase
    pyramid: tuple[int, ...]
    """Clan in each space (row 1 first, left to right), -1 when empty."""
    top: int
    """The face-up top card of the draw pile, -1 when the pile shows nothing."""
    leaders: Multiset
    """Clan Leaders not yet drawn: the top layer of the draw pile (public contents)."""
    members: Multiset
    """Setup: the Clan Member pool. Play: the draw pile's member layer (hidden)."""
    reshuffled: Multiset
    """Discards shuffled into a new draw pile once it ran out (public contents)."""
    family_deck: int
    """Setup step 1: the one-card-per-clan deck, as a clan bitmask, not yet dealt."""
    families: tuple[int, ...]
    """Each player's Clan Family as a clan bitmask."""
    from_deck: tuple[int, ...]
    """The part of each family dealt from the one-card-per-clan deck: its owner knows it,
    and no clan is in two players' parts (what ``resample`` must respect)."""
    revealed: tuple[int, ...]
    """The face-up part of each family."""
    hands: tuple[Multiset, ...]
    """Each player's Influence cards."""
    discards: Multiset
    """Influence cards spent on betrayals."""
    removed: Multiset
    """Betrayed cards: out of the game."""
    passed: int
    """Seats that have passed, as a bitmask."""
    crowned: bool
    """A card has reached the top row at some point: no more advancing."""
    nobles_triggered: bool
    guardians_triggered: bool
    actor: int
    """Whose turn it is (-1 during setup)."""
    vacancy: int
    """The space waiting to be filled, -1 if none."""
    reveal_queue: tuple[int, ...]
    """Seats that still owe a family reveal, first one deciding now."""
    dealt: int
    """Cards dealt so far in the current setup step."""
    turns: int
    """Turns begun so far."""

    # -- rules -----------------------------------------------------------------------------
    # The rule functions themselves are the methods: no extra call on the hot path.
    _legal = turn.legal_actions
    _apply = turn.apply
    _chance_weights = turn.chance_weights
    # Run on every state read from JSON, so also the function itself (before the method
    # ``observation`` below hides the module's name in this class body).
    check_consistency = observation.check_consistency
    # The re-deal itself, for the same reason: a search's root re-deals one state again
    # and again, and a method that only passed it on cost a call each time.
    resample = observation.resample

    def explain_illegal(self, action: Any, player: int) -> str:
        return turn.explain_illegal(self, action, player)

    # -- results ---------------------------------------------------------------------------
    def scores(self) -> tuple[int, ...]:
        """Family points per seat for the pyramid as it stands (final once over)."""
        return scoring.scores(self)

    def winners(self) -> tuple[int, ...]:
        """Most points; then most Influence cards left; still tied: all of them."""
        return scoring.winners(self) if self.is_terminal else ()

    # -- views -------------------------------------------------------------------------------
    def observation(self, player: int) -> KingsKiltObservation:
        return observation.observe(self, player)

    def public_observation(self) -> KingsKiltObservation:
        return observation.observe(self, None)

    def describe(self, action: Any) -> str:
        return turn.describe(self, action)

    def prompt(self) -> str:
        return turn.prompt(self)

    # -- conveniences for people and tests ----------------------------------------------------
    def card_at(self, row: int, index: int) -> str | None:
        """The clan name in space (row, index), or None if it is empty."""
        clan = self.pyramid[self.game.geo.at[(row, index)]]
        return None if clan < 0 else self.game.clans[clan]

    def family_of(self, player: int) -> tuple[str, ...]:
        """The clan names of a player's family (hidden information: for drivers/tests)."""
        fam = self.families[player]
        return tuple(name for c, name in enumerate(self.game.clans) if fam >> c & 1)

    def hand_of(self, player: int) -> tuple[str, ...]:
        """A player's Influence cards by clan name (hidden information)."""
        return tuple(self.game.clans[c] for c in self.hands[player])

    @property
    def draw_pile_size(self) -> int:
        """Cards in the draw pile, the face-up top card included."""
        size = len(self.leaders) + len(self.members) + len(self.reshuffled)
        return size + (self.top >= 0)


turn.bind_state_type(KingsKiltState)  # the moves thaw and freeze this class's drafts
# The fast path's moves, generated by bind_state_type for this class (see rollout.py).
setattr(KingsKiltState, "_apply_owned", turn.apply_owned)  # noqa: B010
setattr(KingsKiltState, "_apply_kept", turn.apply_kept)  # noqa: B010
setattr(KingsKiltState, "_kept_state", turn.kept_state)  # noqa: B010
