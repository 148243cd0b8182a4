"""The Clan Feud state: an immutable snapshot of the table and of what the turn still owes.

The rules live in :mod:`rules` (the flow as a stack of tasks), :mod:`military` (moves and
battles), :mod:`interpret` (event effects), :mod:`scoring` and :mod:`observation`; this
class holds the data and wires the kernel's methods to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from clangames.clan_feud.board import NONZERO as NONZERO  # re-exported: the rules use it
from clangames.clan_feud.board import occupied as occupied  # re-exported (tests, rules)
from clangames.engine.draft import evolver
from clangames.engine.phases import Phase
from clangames.engine.rng import Rng
from clangames.engine.simultaneous import Commitments
from clangames.engine.state import State

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame
    from clangames.clan_feud.observation import ClanFeudObservation


@attrs.frozen(slots=True)
class Task:
    """One thing the game still owes, on a stack (the last one is done first).

    ``kind`` names it (``assign``, ``build``, ``step``, ``prog``, ...), ``player`` is who
    it concerns (-1 for nobody), ``a``/``b``/``c`` and ``data`` its progress, whose meaning
    each kind documents in :mod:`rules`.
    """

    kind: str
    player: int = -1
    a: int = 0
    b: int = 0
    c: int = 0
    data: tuple[int, ...] = ()


BATTLE_TASKS = frozenset(
    {
        "round",
        "bcards",
        "btokens",
        "breveal",
        "bart",
        "bstrength",
        "broll",
        "bhits",
        "bcas",
        "bloss",
        "bdeclare",
        "bdefend",
        "bretreat",
    }
)
"""The task kinds of a battle round: on the stack exactly while a battle is fought."""


class _TaskDraft(Task):
    """A mutable twin of :class:`Task` (no slots of its own, plain assignment), the way
    :func:`new_task` builds one: the frozen constructor sets each field through
    ``object.__setattr__`` and costs five times as much, and the rules make a task with
    data at most steps (a die rolled, an effect program stepped on)."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__
    __init__ = object.__init__


def new_task(
    kind: str, player: int = -1, a: int = 0, b: int = 0, c: int = 0, data: tuple[int, ...] = ()
) -> Task:
    """``Task(kind, player, a, b, c, data)``, made as a draft and frozen in place (the
    kernel's way with states, :mod:`clangames.engine.draft`): the same value, cheaper."""
    t: Any = _TaskDraft()
    t.kind = kind
    t.player = player
    t.a = a
    t.b = b
    t.c = c
    t.data = data
    t.__class__ = Task
    made: Task = t
    return made


ENGLAND = -1
"""The owner of England's side in a battle (the clans are seats 0..n-1)."""


@attrs.frozen(slots=True)
class EnglishArmy:
    """An English army on the board (part 2): its ``territory``, its ``troops`` (infantry,
    cavalry, artillery) and its level ``tokens`` (one per army that spawned into it,
    ascending). Its level is the tokens' sum, whatever troops it has lost."""

    territory: int
    troops: tuple[int, int, int]
    tokens: tuple[int, ...]

    @property
    def level(self) -> int:
        """The sum of its level tokens (marching order)."""
        return sum(self.tokens)


@attrs.frozen(slots=True)
class Battle:
    """A battle in progress in ``territory``. Side 0 attacks, side 1 defends; a side's
    ``owners`` entry is a seat, or -1 for England (no commitments, fixed casualty order).

    The attacker's troops stand in ``attackers`` (infantry, cavalry, artillery) until the
    battle ends; the defender's are the troops in the territory. ``cards`` and ``tokens``
    are the sealed commitments of the round (seat 0 attacker, 1 defender, action ids);
    ``played``/``spent`` what the reveal showed (design or -1, tokens)."""

    territory: int
    owners: tuple[int, int]
    origin: int
    """Where the attacker's move began: its retreat goes there."""
    attackers: tuple[int, int, int]
    king: int
    """The side the King fights with (0 or 1), or -1."""
    cards: Commitments
    tokens: Commitments
    played: tuple[int, int] = (-1, -1)
    spent: tuple[int, int] = (0, 0)
    artillery: tuple[int, int] = (0, 0)
    """This round's rolled artillery strength per side."""
    hits: tuple[int, int] = (0, 0)
    """Casualty dice hits suffered per side this round."""
    losses: tuple[int, int] = (0, 0)
    """Casualties each side still has to remove this round."""
    rounds: int = 0
    roller: int = -1
    """The side that won the round (-1 a draw, before the dice)."""
    levels: tuple[int, ...] = ()
    """An attacking English army's level tokens (it stands in ``attackers`` meanwhile)."""


army_with = evolver(EnglishArmy)
"""``attrs.evolve`` of an :class:`EnglishArmy` (see :func:`clangames.engine.draft.evolver`)."""
battle_with = evolver(Battle)
"""``attrs.evolve`` of a :class:`Battle` (see :func:`clangames.engine.draft.evolver`): a
battle changes at every step of its rounds."""


@attrs.frozen(slots=True)
class ClanFeudState(State):
    """Where every troop, building, die, card and pound is, and the tasks still owed.

    Territories index the board's list; per-territory troops are flat tuples
    ``3 * t + type`` (infantry, cavalry, artillery); a player's dice pool counts
    unassigned dice by ``3 * colour + value - 1``; board slots are bits
    ``5 * column + slot`` (slot 0 I-left, 1 I-right, 2 II, 3 III-left, 4 III-right).
    """

    game: ClanFeudGame = attrs.field(repr=False, metadata={"json": False})
    phase: Phase
    turn: int
    order: tuple[int, ...]
    """Seats in turn order."""
    england: int
    track_start: int
    """The track's position when this turn's phase 3 began (spawning compares with it)."""
    at_war: bool
    """England was at war after the last event's top line (then English armies spawn, march)."""
    events: tuple[int, ...]
    """Regular events drawn, in order; the last one's objective is active."""
    deck: tuple[int, ...]
    """Action cards per design in the draw pile (hidden)."""
    discards: tuple[int, ...]
    controller: tuple[int, ...]
    """Each territory's controlling seat, -1 while free."""
    site: tuple[int, ...]
    """Each territory's castle-or-city: 0 none, 1 a city, 2 a castle."""
    towers: tuple[int, ...]
    """Tower houses per territory."""
    troops: tuple[tuple[int, ...], ...]
    moved: tuple[int, ...]
    """Troops of the acting clan that moved in the current Military action."""
    king: int
    regent: int
    """The seat with King James, or -1 when he stands alone."""
    gold_out: bool
    """King James has been claimed once (the gold die went to a Feud column)."""
    money: tuple[int, ...]
    feud: tuple[int, ...]
    vp: tuple[int, ...]
    covered: tuple[int, ...]
    """Board slots still covered by a building or a die, per seat (bitmask)."""
    filled: tuple[int, ...]
    """Board slots holding a die this turn, per seat (bitmask)."""
    pool: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    """Action cards per design in each hand (hidden from the others)."""
    passed: int
    """Seats that have passed in phase 2 (bitmask)."""
    city_dice: tuple[int, ...]
    """Cities (bitmask of territories) whose black die each seat gained this turn."""
    tasks: tuple[Task, ...]
    battle: Battle | None
    options: tuple[Any, ...] | None = attrs.field(
        default=None, eq=False, repr=False, metadata={"json": False, "cache": True}
    )
    """The decision's legal actions (a chance node's weighted outcomes) as worked out when
    the state was made (a cache)."""
    mods: tuple[int, ...] = ()
    """Part 3: what the action card played with the die being resolved changes in that
    die's action (see :mod:`playing`, ``MOD_*``); empty when no card is pending."""
    upkeep_cut: tuple[int, ...] = ()
    """Part 3: each seat's upkeep reduction from cards this phase 3 (empty: none)."""
    known: tuple[tuple[int, int, int], ...] = ()
    """Part 3: (taker, victim, design) for each stolen card the victim knows the taker
    holds (hidden from everyone else), until the taker loses a card of that design or
    is stolen from."""
    english: tuple[EnglishArmy, ...] = ()
    """The English armies on the board, by ascending territory (at most one a territory;
    an attacking one waits in ``battle`` instead). Replaced whole, never edited."""

    # -- rules -----------------------------------------------------------------------------
    # The rules' functions themselves replace these three once rules.py is loaded (see its
    # ``setattr`` lines): they declare the kernel's hooks and say where the rules are.
    def _legal(self, player: int) -> tuple[Any, ...]:
        return rules.legal(self, player)

    def _apply(self, action: Any, player: int) -> ClanFeudState:
        return rules.apply(self, action, player)

    def _chance_weights(self) -> tuple[tuple[Any, int], ...]:
        return rules.chance_weights(self)

    # -- results ---------------------------------------------------------------------------
    def scores(self) -> tuple[int, ...]:
        """VP at the end; before it, VP plus the final count of the current position."""
        return scoring.scores(self)

    def winners(self) -> tuple[int, ...]:
        """Most VP; tied players share the win. Empty before the end."""
        return scoring.winners(self) if self.is_terminal else ()

    # -- views -------------------------------------------------------------------------------
    def observation(self, player: int) -> ClanFeudObservation:
        """Everything public plus ``player``'s hand and own sealed commitments."""
        return observation.observe(self, player)

    def public_observation(self) -> ClanFeudObservation:
        """Everything public."""
        return observation.observe(self, None)

    def resample(self, player: int, rng: Rng) -> ClanFeudState:
        """Other hands re-dealt from the cards ``player`` cannot see, other sealed
        commitments chosen again."""
        return observation.resample(self, player, rng)

    def describe(self, action: Any) -> str:
        """A sentence for people about what ``action`` does here."""
        # imported here, as explain_illegal: the words build on every rules module
        from clangames.clan_feud.words import describe

        return describe(self, action)

    def explain_illegal(self, action: Any, player: int) -> str:
        """Why ``action`` is not legal for ``player`` now: the rule, card or piece that
        stops it (what ``player`` may see only)."""
        # imported here: it builds on every rules module, which import this one
        from clangames.clan_feud.explain import explain_illegal

        return explain_illegal(self, action, player)

    def _why_not_to_move(self, player: int) -> str:
        """What a side of the battle round has done already (or cannot do), else the
        kernel's words: whose move it is."""
        from clangames.clan_feud.explain import battle_wait

        return battle_wait(self, player) or State._why_not_to_move(self, player)

    def prompt(self) -> str:
        """What is being decided now, in words (with what it is about: see
        :func:`words.prompt`)."""
        from clangames.clan_feud import words  # words reads the rules, which import this

        return words.prompt(self)

    def check_consistency(self) -> None:
        """Raise StateDecodeError naming the field if this state could not occur."""
        observation.check_consistency(self)

    # -- conveniences for people and tests ----------------------------------------------------
    def troops_at(self, seat: int, territory: int) -> tuple[int, int, int]:
        """``seat``'s infantry, cavalry and artillery in ``territory``."""
        row = self.troops[seat]
        i = 3 * territory
        return (row[i], row[i + 1], row[i + 2])

    def buildings(self, territory: int) -> int:
        """Buildings in ``territory`` (a city or castle counts one, plus tower houses)."""
        return (self.site[territory] > 0) + self.towers[territory]


# The rules modules import this one for its classes; imported last, they find them defined.
from clangames.clan_feud import observation, rules, scoring  # noqa: E402
