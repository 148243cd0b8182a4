"""The Kilt Castle state: an immutable snapshot of the table.

The rules live in :mod:`setup` (the start lay-out), :mod:`turn` (relocate, build, roofs,
ducat days, the end), :mod:`scoring` and :mod:`observation`; this class holds the data and
wires the kernel's methods to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.kilt_castle import observation, scoring, setup, turn
from clangames.kilt_castle.actions import KiltCastleAction
from clangames.kilt_castle.board import letter_floor

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.observation import KiltCastleObservation


@attrs.frozen(slots=True)
class KiltCastleState(State):
    """Where every card, floor, roof and ducat is, and how far the current turn has got.

    Cards are indexed by their slot in ``game.cards`` (the cards in play); colours index
    ``game.board.colours``; a floor kind is the int ``colour * 3 + crests``, written in a
    tower string as one letter (``a`` + kind: ``a``/``b``/``c`` the first colour with 0/1/2
    crests, ``d``/``e``/``f`` the second, ...); spaces are ``row * cols + col``.
    """

    game: KiltCastleGame = attrs.field(repr=False, metadata={"json": False})
    phase: Phase
    positions: tuple[int, ...]
    """Each card's position around the board, -1 while it is still to be laid out."""
    inner: tuple[int, ...]
    """Each card's colour facing the board (a single card's only colour)."""
    towers: tuple[str, ...]
    """Each space's floors as letters, bottom first ("" when empty; water stays empty)."""
    roofed: int
    """Spaces with a roof on top, as a bitmask."""
    supply: Multiset
    """Floors not yet built, by kind ``colour * 3 + crests``."""
    money: tuple[int, ...]
    """Each seat's ducats."""
    from_bank: int
    """Ducats the bank has paid out so far (ducat days and the final pay-out)."""
    actor: int
    """Whose turn it is (-1 during the lay-out)."""
    card: int
    """The card relocated this turn, -1 before the relocation."""
    builders: tuple[int, ...]
    """Colours still to build this turn, the first one building now."""
    first_space: int
    """Where the first floor of this turn went, -1 if none yet."""
    ducat_day: bool
    """This turn's relocation emptied a card row: a ducat day follows the building."""
    ending: bool
    """A colour's last floor is built: this turn is the last."""
    turns: int
    """Turns begun so far."""
    idle: int
    """Completed turns in a row in which no floor was built."""
    options: tuple[KiltCastleAction, ...] | None = attrs.field(
        default=None, eq=False, repr=False, metadata={"json": False, "cache": True}
    )
    """The builder's options, kept from working out whether to ask (a cache, not data)."""
    _consistent: bool = attrs.field(
        init=False, default=False, eq=False, repr=False, metadata={"json": False, "cache": True}
    )
    """Set once :meth:`check_consistency` has passed (the state never changes)."""

    # -- rules -----------------------------------------------------------------------------
    # The rule functions themselves are the methods: no extra call on the hot path.
    _legal = turn.legal_actions
    _apply = turn.apply
    _chance_weights = setup.chance_weights

    def explain_illegal(self, action: Any, player: int) -> str:
        """Why ``action`` is not legal for ``player`` here (which rule forbids it)."""
        return turn.explain_illegal(self, action, player)

    # -- results ---------------------------------------------------------------------------
    def scores(self) -> tuple[int, ...]:
        """Each seat's ducats (final once the game is over)."""
        return self.money

    def winners(self) -> tuple[int, ...]:
        """Most ducats; then most floors built; still tied: all of them."""
        return scoring.winners(self) if self.is_terminal else ()

    # -- views -------------------------------------------------------------------------------
    def observation(self, player: int) -> KiltCastleObservation:
        """The whole table (perfect information), as seen by ``player``."""
        return observation.observe(self, player)

    def public_observation(self) -> KiltCastleObservation:
        """The whole table, for onlookers."""
        return observation.observe(self, None)

    def resample(self, player: int, rng: Rng) -> KiltCastleState:
        """The state itself: Kilt Castle has no hidden information."""
        return self

    def describe(self, action: Any) -> str:
        """A sentence for people about what ``action`` does here."""
        return turn.describe(self, action)

    def prompt(self) -> str:
        """What is being decided now, in words."""
        return turn.prompt(self)

    def check_consistency(self) -> None:
        """Raise StateDecodeError naming the field if this (decoded) state could not occur."""
        if not self._consistent:
            observation.check_consistency(self)
            object.__setattr__(self, "_consistent", True)

    # -- conveniences for people and tests ----------------------------------------------------
    def tower(self, row: int, col: int) -> tuple[int, ...]:
        """The floors on space (row, col), bottom first (``colour * 3 + crests`` each)."""
        return tuple(letter_floor(ch) for ch in self.towers[self.game.board.space(row, col)])

    def has_roof(self, row: int, col: int) -> bool:
        """True if the tower on (row, col) carries a roof."""
        return bool(self.roofed >> self.game.board.space(row, col) & 1)

    def floors_built(self, seat: int) -> int:
        """Floors of ``seat``'s colour(s) on the board."""
        return scoring.floors_built(self, seat)

    def card_row(self, position: int) -> tuple[str, ...]:
        """The names of the cards at a card position, in card order."""
        game = self.game
        return tuple(game.card_names[i] for i, p in enumerate(self.positions) if p == position)


turn.bind_state_type(KiltCastleState)  # the moves thaw and freeze this class's drafts
# The fast path's moves, generated by bind_state_type for this class (see rollout.py).
setattr(KiltCastleState, "_apply_owned", turn.apply_owned)  # noqa: B010
setattr(KiltCastleState, "_apply_kept", turn.apply_kept)  # noqa: B010
setattr(KiltCastleState, "_kept_state", turn.kept_state)  # noqa: B010
