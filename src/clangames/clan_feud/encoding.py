"""Clan Feud for learning frameworks: the observation encoding, the chance actions and
the two length bounds (declared to :mod:`clangames.engine.interop`).

This is the one place to extend when the state gains fields (England at war, card
actions): :class:`~clangames.engine.encoding.Fields` refuses an observation class whose
fields are not all laid out, and the conformance harness checks every bound below.

Bounds: seats, territories, card designs and copies, the track and the board slots come
from the game's data. The running totals (ducats, Feud, victory points, troops, tower
houses) and the task stack's progress values have no bound that the rules give directly;
they are declared caps (:data:`CAPS`) far above what games reach, which the harness checks
along every game and the saved-state check enforces (the encoding itself, on the hot path,
checks no bound). Amounts cannot pass theirs: the rules stop a gain at the cap
(:data:`~clangames.clan_feud.rows.AMOUNT_CAP`), since a user's data files may give any.
Phase and task names are laid out as characters, so that new kinds need no change here.
"""

from __future__ import annotations

from string import ascii_lowercase, digits
from typing import TYPE_CHECKING

from clangames.clan_feud.actions import (
    MAX_COMMIT,
    MAX_ROLL,
    DrawCard,
    DrawEvent,
    Hits,
    Lot,
    Rolled,
    StartAt,
    Total,
)
from clangames.clan_feud.observation import ClanFeudObservation
from clangames.clan_feud.rows import AMOUNT_CAP
from clangames.clan_feud.state import Battle, EnglishArmy, Task
from clangames.engine.encoding import (
    Bits,
    Chars,
    Fields,
    Flag,
    Int,
    Maybe,
    ObservationSpec,
    Tuple,
    Upto,
)
from clangames.engine.interop import GameFacts, Interop, LengthBounds, declare
from clangames.engine.simultaneous import Commitments

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame

NAME = Chars(16, ascii_lowercase + digits + "_")
"""Phase and task kinds (lower-case identifiers)."""

SLOTS = 25
"""Board slots per seat: 5 columns of 5 (``5 * column + slot``)."""

CAPS = {
    "amount": AMOUNT_CAP,  # ducats, Feud, victory points (the rules stop gains there)
    "troops": 99,  # troops of one type in one territory, tower houses
    "tasks": 40,  # depth of the task stack (phase 3 at war: 2 a seat + a march + a battle)
    "task_data": 48,  # length of a task's data
    "task_value": 4095,  # a task's progress values (indices, counters)
    "dice": 30,  # dice of one colour and value in a pool
}
"""Declared caps for values the rules bound only loosely (see the module docstring)."""


def highest_task_value(game: ClanFeudGame) -> int:
    """The largest value a task's counters and data may hold (the lowest is -1): the
    declared cap, or more where a program node, a commitment or a roll needs it."""
    return max(CAPS["task_value"], len(game.nodes), MAX_COMMIT, MAX_ROLL)


def observation_spec(game: ClanFeudGame) -> ObservationSpec:
    """The layout of :class:`ClanFeudObservation` for ``game``'s data and seats."""
    n = game.num_players
    size = game.board.size
    designs = len(game.deck.designs)
    copies = max((d.copies for d in game.deck.designs), default=0)
    cards = len(game.deck.cards)
    steps = game.england.last_step
    seat = Int(-1, n - 1)
    england_troops = sum(game.england.supply)
    level = Int(1, max(1, len(game.england.levels)))
    amount = Tuple(n, Int(0, CAPS["amount"]))
    troops = Int(0, CAPS["troops"])
    value = Int(-1, highest_task_value(game))
    task = Fields(
        Task,
        {
            "kind": NAME,
            "player": seat,
            "a": value,
            "b": value,
            "c": value,
            "data": Upto(CAPS["task_data"], value),
        },
    )
    sides = Tuple(2, Int(0, CAPS["troops"] * 3 * size))
    sealed = Fields(Commitments, {"ids": Tuple(2, Int(-1, len(game.actions) - 1))})
    battle = Fields(
        Battle,
        {
            "territory": Int(0, size - 1),
            "owners": Tuple(2, seat),
            "origin": Int(-1, size - 1),
            "attackers": Tuple(3, troops),
            "king": Int(-1, 1),
            "cards": sealed,
            "tokens": sealed,
            "played": Tuple(2, Int(-1, designs - 1)),
            "spent": Tuple(2, Int(0, MAX_COMMIT)),
            "artillery": sides,
            "hits": sides,
            "losses": sides,
            "rounds": Int(0, CAPS["task_value"]),
            "roller": Int(-1, 1),
            # part 2: an attacking English army's level tokens (each spawn puts at least
            # one troop from England's supply on the board, so there are no more tokens
            # than troops in it)
            "levels": Upto(england_troops, level),
        },
    )
    english = Fields(
        EnglishArmy,
        {
            "territory": Int(0, size - 1),
            "troops": Tuple(3, troops),
            "tokens": Upto(england_troops, level),
        },
    )
    layout = Fields(
        ClanFeudObservation,
        {
            "viewer": seat,
            "phase": NAME,
            "to_move": Upto(n, seat),
            "turn": Int(0, game.deck_size + 1),
            "order": Upto(n, Int(0, n - 1)),
            "england": Int(0, steps),
            "track_start": Int(0, steps),
            "at_war": Flag(),
            "events": Upto(game.deck_size + 1, Int(0, len(game.events.regular) - 1)),
            "deck_size": Int(0, cards),
            "discards": Tuple(designs, Int(0, copies)),
            "controller": Tuple(size, seat),
            "site": Tuple(size, Int(0, 2)),
            "towers": Tuple(size, troops),
            "troops": Tuple(n, Tuple(3 * size, troops)),
            "moved": Tuple(3 * size, troops),
            "king": Int(-1, size - 1),
            "regent": seat,
            "gold_out": Flag(),
            "money": amount,
            "feud": amount,
            "vp": Tuple(n, Int(-CAPS["amount"], CAPS["amount"])),  # penalties go below 0
            "covered": Tuple(n, Bits(SLOTS)),
            "filled": Tuple(n, Bits(SLOTS)),
            "pool": Tuple(n, Tuple(21, Int(0, CAPS["dice"]))),
            "hand": Upto(designs, Int(0, copies)),
            "hand_sizes": Tuple(n, Int(0, cards)),
            "passed": Bits(n),
            "city_dice": Tuple(n, Bits(size)),
            "tasks": Upto(CAPS["tasks"], task),
            "battle": Maybe(battle),
            # part 3: the pending card's modifiers (playing.MOD_*), upkeep cuts, and
            # stolen cards as (taker, victim, design), the design -1 for the others
            "mods": Upto(12, Int(-1, CAPS["task_value"])),
            "upkeep_cut": Upto(n, Int(0, CAPS["amount"])),
            "known": Upto(cards, Tuple(3, Int(-1, max(n, designs)))),
            # part 2: the English armies, public, at most one a territory
            "english": Upto(size, english),
        },
    )
    private = ("viewer", "hand", "battle", "known")
    return ObservationSpec(layout, [f for f in layout.layouts if f not in private])


def length_bounds(game: ClanFeudGame) -> LengthBounds:
    """Decisions and chance nodes of any game, each bounded on its own: a turn's battle
    rounds share the budget of the troops that can die in it (the argument is in
    :func:`clangames.clan_feud.bounds.length_bounds`)."""
    from clangames.clan_feud.bounds import length_bounds as derived

    return derived(game)


INTEROP = declare(
    "clan_feud",
    Interop(
        facts=GameFacts(has_chance=True, has_simultaneous_moves=True, has_hidden_information=True),
        chance_actions=(StartAt, Lot, Rolled, Total, Hits, DrawCard, DrawEvent),
        observation_spec=observation_spec,
        length_bounds=length_bounds,
    ),
)
