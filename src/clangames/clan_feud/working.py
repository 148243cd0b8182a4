"""Clan Feud's working copy: a state thawed into the kernel's draft, with the rules' helpers.

This module stays interpreted in the compiled build, and :mod:`rules`, which builds on
it, is compiled (setup.py): :class:`W` takes the state's class as its base at run time
and switches its instances' class, which a class compiled by mypyc cannot do. What W's
helpers need (the interned tasks, a few board constants) is defined here; :mod:`rules`
re-exports it, and defines the fast path's moves on a draft (``apply_owned``,
``apply_kept``) as compiled functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from clangames.clan_feud import drafts
from clangames.clan_feud.board import put
from clangames.clan_feud.rows import gain
from clangames.clan_feud.state import Battle, ClanFeudState, EnglishArmy, Task
from clangames.clan_feud.tasks import interned as interned
from clangames.clan_feud.tasks import set_top_a, set_top_data, update_top
from clangames.engine.draft import drafting
from clangames.engine.phases import Phase

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame

LEVEL = (1, 1, 2, 3, 3)
"""The level of each slot of a column (I-left, I-right, II, III-left, III-right)."""
FEUD_SLOTS = (0, 2, 3)
"""The Feud column's slots, lowest first."""
NO_TROOPS = drafts.NO_TROOPS
"""A row's troop totals when it holds none."""

# ---------------------------------------------------------------------------------------
# The working copy

_SEQUENCES = (
    "order",
    "events",
    "deck",
    "discards",
    "controller",
    "site",
    "towers",
    "moved",
    "money",
    "feud",
    "vp",
    "covered",
    "filled",
    "city_dice",
)
"""The flat tuple fields: a rule that writes one gets a list (:meth:`W.m`), made a tuple
again when the draft is frozen. A rule that replaces one whole assigns a tuple."""

_NESTED = drafts.NESTED
"""The tuple-of-rows fields: written row by row (:meth:`W.trow`, ``prow``, ``hrow``)."""


if TYPE_CHECKING:
    _WorkingBase = object
else:
    _WorkingBase = ClanFeudState


class W(_WorkingBase):
    """A state thawed into the kernel's draft (:mod:`clangames.engine.draft`) for one
    move, with the rules' helpers: ``W(state)`` thaws, the rules edit it, :meth:`freeze`
    freezes the very same object into the next state.

    At run time W is the kernel's draft class of :class:`ClanFeudState` (given to
    :func:`~clangames.engine.draft.drafting`): a mutable twin that adds no slots, only the
    rules' helpers, so a move copies the fields once into a W and switches its class once,
    back to the state's, to freeze. A sequence field stays the old state's tuple until a
    rule writes it (:meth:`m`), rows of the nested fields likewise (:meth:`trow`,
    :meth:`prow`, :meth:`hrow`); the task stack is a list while the draft is worked.

    The annotations below restate every state field (a test keeps them equal to the
    state's) with the types the rules see while working: this class is the game's
    ``Draft`` description for mypy.
    """

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    game: ClanFeudGame
    phase: Phase
    turn: int
    order: Sequence[int]
    england: int
    track_start: int
    at_war: bool
    events: Sequence[int]
    deck: Sequence[int]
    discards: Sequence[int]
    controller: Sequence[int]
    site: Sequence[int]
    towers: Sequence[int]
    troops: Sequence[Any]
    moved: Sequence[int]
    king: int
    regent: int
    gold_out: bool
    money: Sequence[int]
    feud: Sequence[int]
    vp: Sequence[int]
    covered: Sequence[int]
    filled: Sequence[int]
    pool: Sequence[Any]
    hands: Sequence[Any]
    passed: int
    city_dice: Sequence[int]
    tasks: list[Task]
    battle: Battle | None
    options: list[str] | None
    """While the draft is worked: the sequence fields made lists so far (None: none),
    for :meth:`freeze`; the state's options are set only there."""
    mods: tuple[int, ...]
    upkeep_cut: tuple[int, ...]
    known: tuple[tuple[int, int, int], ...]
    english: tuple[EnglishArmy, ...]

    def __new__(cls, s: ClanFeudState) -> W:
        return working(s)

    def __init__(self, s: ClanFeudState) -> None:
        """Made by :func:`working` (``__new__``); nothing left to set."""

    def m(self, name: str) -> list[int]:
        """The sequence field ``name``, made writable (:func:`drafts.writable`)."""
        return drafts.writable(self, name)

    def freeze(self, phase: Phase, options: tuple[Any, ...] | None) -> ClanFeudState:
        """This draft, as the state it describes (frozen in place: no copy, no
        constructor). The draft must not be used afterwards."""
        # The sequences written (named in ``options`` while the draft is worked) become
        # tuples again; only those are visited: checking all 17 cost more than most rules.
        if self.options is not None:
            _tuples_again(self)
        self.phase = phase
        self.options = options  # type: ignore[assignment]
        self.tasks = tuple(self.tasks)  # type: ignore[assignment]
        # The kernel's freeze of its drafting pair, inline (a call fewer on every step):
        # the draft becomes the state by switching class, in place.
        self.__class__ = ClanFeudState  # type: ignore[assignment]
        state: ClanFeudState = self  # type: ignore[assignment]
        return state

    # -- rows written in place -------------------------------------------------------------
    def trow(self, p: int) -> list[int]:
        """``p``'s troop row, made writable (:func:`drafts.troop_row`)."""
        return drafts.troop_row(self, p)

    def prow(self, p: int) -> list[int]:
        """``p``'s dice pool, made writable."""
        rows = self.pool
        if type(rows) is tuple:
            rows = self.pool = list(rows)
            names = self.options
            if names is None:
                self.options = ["pool"]
            else:
                names.append("pool")
        row = rows[p]
        if type(row) is tuple:
            row = rows[p] = list(row)  # type: ignore[index]
        return row  # type: ignore[no-any-return]

    def hrow(self, p: int) -> list[int]:
        """``p``'s hand, made writable."""
        rows = self.hands
        if type(rows) is tuple:
            rows = self.hands = list(rows)
            names = self.options
            if names is None:
                self.options = ["hands"]
            else:
                names.append("hands")
        row = rows[p]
        if type(row) is tuple:
            row = rows[p] = list(row)  # type: ignore[index]
        return row  # type: ignore[no-any-return]

    # -- task stack ------------------------------------------------------------------------
    def top(self) -> Task:
        return self.tasks[-1]

    def update(
        self,
        *,
        player: int | None = None,
        a: int | None = None,
        b: int | None = None,
        c: int | None = None,
        data: tuple[int, ...] | None = None,
    ) -> None:
        """Change fields of the top task (:func:`tasks.update_top`)."""
        update_top(self, player=player, a=a, b=b, c=c, data=data)

    def set_data(self, data: tuple[int, ...]) -> None:
        """Replace the top task's data (:func:`tasks.set_top_data`)."""
        set_top_data(self, data)

    def set_a(self, a: int) -> None:
        """Replace the top task's ``a`` (:func:`tasks.set_top_a`)."""
        set_top_a(self, a)

    # -- facts -----------------------------------------------------------------------------
    def buildings(self, t: int) -> int:
        """The buildings in ``t`` (:func:`drafts.buildings`)."""
        return drafts.buildings(self, t)

    def army(self, p: int, t: int) -> tuple[int, int, int]:
        """``p``'s troops in ``t`` (:func:`drafts.army`)."""
        return drafts.army(self, p, t)

    def troop_total(self, p: int, kind: int | None = None) -> int:
        """``p``'s troops on the board (:func:`drafts.troop_total`)."""
        return drafts.troop_total(self, p, kind)

    def has_troops(self, p: int) -> bool:
        """Whether ``p`` has troops on the board (:func:`drafts.has_troops`)."""
        return drafts.has_troops(self, p)

    def occupant(self, t: int, other_than: int) -> int:
        """A seat other than ``other_than`` with troops in ``t``, or -1
        (:func:`drafts.occupant`)."""
        return drafts.occupant(self, t, other_than)

    # -- shared effects ----------------------------------------------------------------------
    def gain_die(self, p: int) -> None:
        """A die gained now goes to the lowest free Feud slot and gives its benefit."""
        for slot in FEUD_SLOTS:
            bit = 1 << slot
            if not self.filled[p] & bit:
                self.filled = put(self.filled, p, self.filled[p] | bit)
                self.tasks.append(interned("feud", p, LEVEL[slot]))
                return

    def set_regent(self, new: int) -> None:
        """King James passes to ``new`` (-1: he stands alone); the loser gets a feud
        token; the first claim of the game puts the gold die in the claimer's Feud column."""
        old = self.regent
        if old == new:
            return
        if old >= 0:
            self.feud = gain(self.feud, old, 1)
        self.regent = new
        if new >= 0 and not self.gold_out:
            self.gold_out = True
            self.gain_die(new)

    def claim(self, p: int, t: int) -> None:
        """``p``'s army comes to rest in ``t``: control, the old controller's feud tokens,
        a city's black die (once per city per turn), a lone King."""
        old = self.controller[t]
        if old != p:
            if old >= 0:
                self.feud = gain(self.feud, old, self.buildings(t))
            self.controller = put(self.controller, t, p)
            if self.site[t] == 1 and not self.city_dice[p] >> t & 1:
                self.city_dice = put(self.city_dice, p, self.city_dice[p] | 1 << t)
                self.gain_die(p)
        if self.regent < 0 and self.king == t:
            self.set_regent(p)

    def check_king(self, p: int) -> None:
        """After ``p`` lost troops outside a battle: a King left alone loses his regent."""
        if self.regent == p and not any(self.army(p, self.king)):
            b = self.battle
            if b is None or b.king < 0:
                self.set_regent(-1)

    def remove_troop(self, p: int, t: int, kind: int) -> None:
        """One of ``p``'s troops leaves ``t`` (:func:`drafts.remove_troop`)."""
        drafts.remove_troop(self, p, t, kind)


_tuples_again = drafts.tuples_again
"""The sequences a draft made writable, tuples again (:func:`drafts.tuples_again`)."""


_thaw_state, _ = drafting(ClanFeudState, W)
"""The kernel's copier of a state into a new W (cache fields reset): W is the state class's
draft class, so every thaw of a ClanFeudState makes one."""


def working(s: ClanFeudState | W) -> W:
    """``s`` thawed into a :class:`W` (its cache fields empty), its task stack a list (a
    new one: ``s`` may be the fast path's kept draft, itself a W)."""
    w: W = _thaw_state(s)  # type: ignore[arg-type]
    w.tasks = list(w.tasks)
    return w


def kept_state(s: Any) -> ClanFeudState:
    """The state a kept draft describes (its task stack a tuple, its class the state's);
    a state given is returned as it is."""
    if s.__class__ is W:
        s.tasks = tuple(s.tasks)  # type: ignore[assignment]
        s.__class__ = ClanFeudState  # type: ignore[assignment]
    state: ClanFeudState = s
    return state
