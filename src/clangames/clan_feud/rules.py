"""Clan Feud's rules as a stack of tasks: set-up, the three phases of a turn, the end.

A state holds a stack of :class:`~clangames.clan_feud.state.Task` values, the last one on
top. :func:`settle` works the top task until someone must decide or chance must act: a
task either does automatic work (``RUN``), is a chance node (``WEIGHTS``), a simultaneous
sealed commitment (``TOGETHER``) or one player's decision (``OPTIONS``); a decision with a
single option is applied at once (the rulings' *Decisions*), except where the number of
options would tell others what a hidden hand holds (``ASK``).

Work is done on the state thawed into the kernel's draft (:class:`~working.W`, which
adds the rules' helpers) and frozen in place into the next state, so every rule reads like
the rulebook's sentence and the states stay immutable. The working class lives in
:mod:`working`, which stays interpreted, so that this module can be compiled (setup.py).

Task kinds and their fields (``a``, ``b``, ``c``, ``data``):

- ``start`` (chance) seat ``a`` gets a start territory; ``lot`` (chance) ``data`` = the
  first turn order so far; ``turn`` begins a turn (stays at the bottom of the stack).
- ``phase1`` gathers and recounts; ``tiebreak`` the regent names the setter among
  ``data``; ``order`` the setter places seats, ``data`` = placed so far; ``roll``
  (chance) ``data`` = dice still to roll, ``7 * seat + colour``.
- ``phase2`` ``a`` = the next place in turn order to ask; ``assign`` one die or pass.
- ``feud`` level ``a``, ``b`` 1 for Feud III's second raise, ``c`` = the raised die's pool
  index + 1; ``income``/``intrigue``/``military`` level ``a``; ``income_roll`` (chance)
  ``a`` black dice; ``draw`` (chance) ``a`` cards still to draw; ``build`` level ``a``,
  ``b`` Build-I options taken; ``place`` a building of kind ``a`` (0 tower house, 2
  castle); ``recruit`` level ``a``, territory ``b`` (-1 before), ``c`` troop stage,
  ``data`` = troops taken; ``move``/``army``/``step``: see :mod:`military`; battle tasks
  ``round``, ``bcards``, ``btokens``, ``breveal``, ``bart``, ``bstrength``, ``broll``,
  ``bhits``, ``bcas``, ``bloss``, ``bdeclare``, ``bdefend``, ``bretreat``: ditto.
- ``phase3`` stage ``a``; ``draw_event`` (chance); ``prog`` an effect program
  (:mod:`interpret`); ``upkeep`` territory ``a`` + 1 chosen for a removal, else 0;
  ``upkeep_pay`` the feud share; ``final`` the final count.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from math import comb, factorial
from typing import TYPE_CHECKING, Any

from clangames.clan_feud import drafts, interpret, military, war
from clangames.clan_feud.actions import (
    COLOURS,
    COLUMN_NAMES,
    ClanFeudAction,
    Discard,
    DrawCard,
    DrawEvent,
    Lose,
    Lot,
    PayFeud,
    Place,
    PlayAction,
    PlayCard,
    Raise,
    Rolled,
    Seat,
    StartAt,
    Total,
    Word,
)
from clangames.clan_feud.board import (
    occupied_by,
    owned_by,
    plus,
    plus_troops,
    put,
    troop_totals,
)
from clangames.clan_feud.rows import AMOUNT_CAP, gain
from clangames.clan_feud.state import (
    NONZERO,
    ClanFeudState,
    Task,
    new_task,
)
from clangames.clan_feud.tasks import set_top_a, set_top_data, update_top
from clangames.clan_feud.working import _NESTED as _NESTED
from clangames.clan_feud.working import _SEQUENCES as _SEQUENCES
from clangames.clan_feud.working import LEVEL as LEVEL
from clangames.clan_feud.working import NO_TROOPS as NO_TROOPS
from clangames.clan_feud.working import W as W
from clangames.clan_feud.working import _thaw_state as _thaw_state
from clangames.clan_feud.working import interned as interned
from clangames.clan_feud.working import kept_state as kept_state
from clangames.clan_feud.working import working as working
from clangames.engine.compiled import bind_compiled_rules
from clangames.engine.phases import CHANCE, Phase

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame

FEUD, INCOME, BUILD, INTRIGUE, MILITARY = range(5)
PRICE = (0, 3, 9, 12, 12)
"""The price of what covers each slot: the row's price."""
SLOTS_AT = ((), (0, 1), (2,), (3, 4))
"""The slots of each level, left first."""
EXISTS = ((1 << 25) - 1) & ~(1 << 1 | 1 << 4)
"""Every board slot: the Feud column has no I-right or III-right slot."""
INITIAL_COVER = sum(1 << (5 * col + slot) for col in range(1, 5) for slot in range(1, 5))
COLUMN_OF_COLOUR = {3: INCOME, 4: INTRIGUE, 5: MILITARY}
"""Green, purple and red dice go to one column only."""
DIE_OF_COLUMN = {INCOME: 3, BUILD: 0, INTRIGUE: 4, MILITARY: 5}
"""The coloured die under each column's III-right slot."""
COST = (1, 3, 8)
UPKEEP = (1, 2, 4)
SUPPLY = (10, 4, 2)
INTRIGUE_VP = (2, 3, 3)
FACES = ((3, 2, 1), (3, 3, 0), (3, 2, 1), (2, 2, 2), (2, 2, 2), (2, 2, 2), (3, 2, 1))
"""How many faces of each die colour show 1, 2 and 3."""
WHITE = 0
BLACK = 1
GOLD = 2


# ---------------------------------------------------------------------------------------
# Driving the stack

RUN: dict[str, Callable[[W, Task], bool]] = {}
"""Automatic work; returns False if the task turned out to need a decision or chance."""
OPTIONS: dict[str, Callable[[W, Task], tuple[ClanFeudAction, ...]]] = {}
WEIGHTS: dict[str, Callable[[W, Task], tuple[tuple[ClanFeudAction, int], ...]]] = {}
TOGETHER: dict[str, Callable[[W, Task], tuple[int, ...]]] = {}
"""Simultaneous nodes: the seats still owing a sealed commitment."""
SEALED: dict[str, Callable[[W, Task, int], tuple[ClanFeudAction, ...]]] = {}
"""Simultaneous nodes: a seat's options."""
APPLY: dict[str, Callable[[W, Task, Any, int], None]] = {}
ASK: dict[str, Callable[[W, Task], bool]] = {}
"""Decisions asked even with one option (their count would reveal a hidden hand)."""


_Handlers = tuple[Any, Any, Any, Any, Any, Any]
HANDLERS: dict[str, _Handlers] = {}
"""Per task kind: (run, weights, together, options, ask, apply), filled by ``_register``
so that ``settle`` looks a kind up once per turn of its loop."""


def settle(w: W, kept: bool = False) -> ClanFeudState:
    """Work the stack until someone must act, and freeze the result. ``kept``: leave it the
    fast path's kept draft instead (see :func:`apply_kept`): its sequences
    tuples again and its phase and options set, but its task stack a list and its class
    ``W``, for the next move to go on editing."""
    tasks = w.tasks
    handlers = HANDLERS
    phase: Any
    options: Any
    while True:
        if not tasks:
            phase, options = Phase.over(), ()
            break
        task = tasks[-1]
        kind = task.kind
        run, weights, together, options_of, ask, apply_ = handlers[kind]
        if run is not None:
            if run(w, task):
                tasks = w.tasks  # a run may replace the whole stack (the final count)
                continue
            task = tasks[-1]  # the run may have set the task's counters
        if weights is not None:
            options = weights(w, task)
            if len(options) == 1:
                apply_(w, task, options[0][0], CHANCE)
                continue
            phase = _CHANCE_OF.get(kind)
            if phase is None:
                phase = _CHANCE_OF[kind] = Phase.chance(kind)
            break  # the weights, kept
        if together is not None:
            players = together(w, task)
            if not players:
                w.tasks.pop()
                continue
            phase, options = Phase.together(kind, players), None
            break
        options = options_of(w, task)
        if len(options) == 1 and (ask is None or not ask(w, task)):
            apply_(w, task, options[0], task.player)
            continue
        seats = _DECIDING.get(kind)
        if seats is None:
            seats = _DECIDING[kind] = [None] * MAX_SEATS
        phase = seats[task.player]
        if phase is None:
            phase = seats[task.player] = Phase.turn(kind, task.player)
        break
    # W.freeze, inline (a call fewer on every step)
    if w.options is not None:
        drafts.tuples_again(w)
    w.phase = phase
    w.options = options
    if kept:
        return w  # type: ignore[return-value]
    w.tasks = tuple(w.tasks)  # type: ignore[assignment]
    w.__class__ = ClanFeudState  # type: ignore[assignment]
    state: ClanFeudState = w  # type: ignore[assignment]
    return state


_CHANCE_OF: dict[str, Phase] = {}
_DECIDING: dict[str, list[Phase | None]] = {}
"""The phase of each task kind's chance node and, per seat, of its decision by that seat
(a look-up is cheaper than the kernel's call that shares them)."""
MAX_SEATS = 5
"""The most seats a game has."""


def legal_actions(s: ClanFeudState | W, player: int) -> tuple[ClanFeudAction, ...]:
    """The legal actions of a player to move (sorted by id). ``s`` may be the fast path's
    kept draft (:func:`apply_kept`), whose task stack is a list."""
    top = s.tasks[-1]
    kind = top.kind
    if kind in TOGETHER:
        return SEALED[kind](working(s), top, player)
    if s.options is not None:
        return s.options  # type: ignore[return-value]
    return OPTIONS[kind](working(s), top)


def chance_weights(s: ClanFeudState | W) -> tuple[tuple[ClanFeudAction, int], ...]:
    """The chance outcomes with integer weights (sorted by id); ``s`` may be a kept draft."""
    if s.options is not None:
        return s.options  # type: ignore[return-value]  # worked out when it was made
    top = s.tasks[-1]
    return WEIGHTS[top.kind](working(s), top)


def apply(s: ClanFeudState, action: Any, player: int) -> ClanFeudState:
    """The state after a checked legal action."""
    w = _thaw_state(s)  # working(s), inline: one call fewer on every step
    tasks = w.tasks = list(w.tasks)
    task = tasks[-1]
    APPLY[task.kind](w, task, action, player)
    return settle(w)


# A move is this function itself: the state's ``_apply`` method stays as the class's
# declaration (the kernel's abstract method) and this replaces it once the rules are
# loaded, so a playout step makes one Python call fewer. Compiled, ``apply`` is a C
# function, which does not bind as a method: the kernel's shim gives it one. (``setattr``:
# mypyc compiles no assignment to another module's class attribute.)
def legal(s: ClanFeudState | W, player: int) -> tuple[ClanFeudAction, ...]:
    """The state's ``_legal``: the options worked out when it was made, else
    :func:`legal_actions` (the options are never set at a simultaneous node)."""
    options = s.options
    if options is not None:
        return options  # type: ignore[return-value]
    return legal_actions(s, player)


setattr(ClanFeudState, "_apply", apply)  # noqa: B010
# The kernel's hooks for the legal actions and chance weights likewise: the state's
# methods of those names stay its declarations; compiled, the fast path's loop calls these
# functions directly (engine/rollout_loops.py), so a step runs no interpreted frame for them.
setattr(ClanFeudState, "_legal", legal)  # noqa: B010
setattr(ClanFeudState, "_chance_weights", chance_weights)  # noqa: B010
bind_compiled_rules(ClanFeudState)


_set_attribute = object.__setattr__
"""Switches a (frozen) state's class to :class:`W` in place."""


def apply_owned(s: ClanFeudState, action: Any, player: int) -> ClanFeudState:
    """:func:`apply` for a state nobody else holds (the kernel's fast path calls it on the
    states its playout made, see :mod:`clangames.engine.rollout`): the state itself becomes
    the draft, in place (its class switched to :class:`W`, its cache fields reset as the
    kernel's copier resets them: ``_memo`` and ``options``, which a test keeps equal to the
    kernel's list), instead of a copy of its 36 fields. A function of this compiled module
    rather than code generated at run time, so that a step spends no interpreted frame."""
    w: Any = s
    _set_attribute(w, "__class__", W)
    w._memo = None
    w.options = None
    tasks = w.tasks = list(w.tasks)
    task = tasks[-1]
    APPLY[task.kind](w, task, action, player)
    return settle(w)


def apply_kept(s: Any, action: Any, player: int) -> ClanFeudState:
    """The fast path's move on a draft kept from one step to the next (the kernel's
    ``_apply_kept`` hook, :mod:`clangames.engine.rollout`): the first move makes the
    playout's own state its draft in place, as :func:`apply_owned` does, and the draft
    stays one, its task stack a list, until the playout ends, when :func:`kept_state`
    freezes it. Between moves it answers the kernel as a state does (its phase, its
    options or chance weights, its sequences tuples again, so the rules' memos keyed by a
    tuple's identity still find them): each step is spared the class switch each way and
    the task stack's copy each way. What it returns is that draft (typed as the state it
    stands for)."""
    if type(s) is not W:
        _set_attribute(s, "__class__", W)
        s.tasks = list(s.tasks)
    s._memo = None
    s.options = None
    task = s.tasks[-1]
    APPLY[task.kind](s, task, action, player)
    return settle(s, True)


setattr(ClanFeudState, "_apply_owned", apply_owned)  # noqa: B010
setattr(ClanFeudState, "_apply_kept", apply_kept)  # noqa: B010
setattr(ClanFeudState, "_kept_state", kept_state)  # noqa: B010


def initial_state(game: ClanFeudGame) -> ClanFeudState:
    """The table before the start territories and the first turn order are drawn."""
    board = game.board
    n = game.num_players
    size = board.size
    kinds = {"plain": 0, "city": 1, "castle": 2}
    empty = ClanFeudState(
        game=game,
        phase=Phase.chance("start"),
        turn=0,
        order=tuple(range(n)),
        england=game.england_start,
        track_start=game.england_start,
        at_war=game.england.at_war(game.england_start),
        events=(),
        deck=tuple(d.copies for d in game.deck.designs),
        discards=(0,) * len(game.deck.designs),
        controller=(-1,) * size,
        site=tuple(kinds[t.kind] for t in board.territories),
        towers=(0,) * size,
        troops=((0,) * (3 * size),) * n,
        moved=(0,) * (3 * size),
        king=board.king_start,
        regent=-1,
        gold_out=False,
        money=(4,) * n,
        feud=(1,) * n,
        vp=(0,) * n,
        covered=(INITIAL_COVER,) * n,
        filled=(0,) * n,
        pool=((0,) * 21,) * n,
        hands=((0,) * len(game.deck.designs),) * n,
        passed=0,
        city_dice=(0,) * n,
        tasks=(new_task("turn"), new_task("lot"), new_task("start")),
        battle=None,
    )
    return settle(working(empty))


# ---------------------------------------------------------------------------------------
# Set-up


def _start_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    starts = w.game.board.starts(w.game.seat_count)
    acts = w.game.start_actions
    return tuple([(acts[t], 1) for t in sorted(starts) if w.controller[t] < 0])


def _start_apply(w: W, task: Task, action: StartAt, player: int) -> None:
    p, t = task.a, action.territory
    drafts.writable(w, "controller")[t] = p
    drafts.writable(w, "site")[t] = 2
    row = drafts.troop_row(w, p)
    row[3 * t] = 2
    row[3 * t + 1] = 1
    if p + 1 == w.game.seat_count:
        w.tasks.pop()
    else:
        set_top_a(w, p + 1)


def _lot_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    acts = w.game.lot_actions
    return tuple([(acts[s], 1) for s in range(w.game.seat_count) if s not in task.data])


def _lot_apply(w: W, task: Task, action: Lot, player: int) -> None:
    data = (*task.data, action.seat)
    if len(data) == w.game.seat_count:
        w.order = data
        w.tasks.pop()
    else:
        set_top_data(w, data)


def _turn_run(w: W, task: Task) -> bool:
    w.turn += 1
    w.tasks.append(interned("phase3"))
    w.tasks.append(interned("phase2"))
    w.tasks.append(interned("roll"))
    w.tasks.append(interned("phase1"))
    return True


# ---------------------------------------------------------------------------------------
# Phase 1


def mine(w: W | ClanFeudState, p: int) -> list[int]:
    """The territories ``p`` controls, in order (see :func:`board.held`)."""
    return list(owned(w, p))


def owned(w: W | ClanFeudState, p: int) -> tuple[int, ...]:
    """The territories ``p`` controls, in order (:func:`mine` as a tuple; see
    :func:`board.owned_by`)."""
    return owned_by(w.controller, p)


def dice_owned(w: W | ClanFeudState, p: int) -> tuple[int, ...]:
    """The dice ``p`` gathers, by colour: the rulings' recount."""
    bought = ~w.covered[p]  # a bought slot's bit is set
    site = w.site
    cities = sum([site[t] == 1 for t in owned_by(w.controller, p)])
    return (
        3 + (bought >> (5 * BUILD + 4) & 1),
        (bought >> (5 * BUILD + 1) & 1) + cities,
        1 if w.regent == p else 0,
        bought >> (5 * INCOME + 4) & 1,
        bought >> (5 * INTRIGUE + 4) & 1,
        bought >> (5 * MILITARY + 4) & 1,
        0,
    )


DICE_SLOTS = sum(1 << (5 * column + 4) for column in (BUILD, INCOME, INTRIGUE, MILITARY)) | (
    1 << (5 * BUILD + 1)
)
"""The slots whose purchase gives a die (:func:`dice_owned`): each column's III-right
slot but Feud's, and the Build column's I-right one."""


def dice_total(w: W | ClanFeudState, p: int) -> int:
    """How many dice ``p`` gathers (``sum(dice_owned(w, p))``, without the colours): who
    sets the turn order compares these."""
    site = w.site
    cities = sum([site[t] == 1 for t in owned_by(w.controller, p)])
    return 3 + (~w.covered[p] & DICE_SLOTS).bit_count() + cities + (w.regent == p)


def _phase1_run(w: W, task: Task) -> bool:
    n = w.game.seat_count
    counts: list[int] = []
    w.filled = (0,) * n
    w.pool = ((0,) * len(DIE_INDEXES),) * n
    for p in range(n):
        counts.extend(dice_owned(w, p))
    w.passed = 0
    w.city_dice = (0,) * n
    w.tasks.pop()
    # The roll task below waits for the counts; card window P1.after_roll (part 3) comes
    # after it, before phase 2.
    set_top_data(w, tuple(counts))
    k = len(COLOURS)  # dice_owned's counts per seat
    _order_setter(w, [sum(counts[k * p : k * p + k]) for p in range(n)])
    return True


def _order_setter(w: W, sizes: list[int]) -> None:
    """Push the turn-order decision for this turn (none on turn 1); ``sizes``: each
    seat's dice, just recounted."""
    if w.turn == 1:
        return
    if not playing.begin_before_order(w):  # P1.before_order: a turn-order card first
        push_order_setter(w, sizes)


def push_order_setter(w: W, sizes: list[int] | None = None) -> None:
    """The fewest-dice player (or the regent's tie-break) sets the order. ``sizes``: each
    seat's dice if the recount was just made (after a card window, counted again)."""
    n = w.game.seat_count
    if sizes is None:
        sizes = [dice_total(w, p) for p in range(n)]
    fewest = min(sizes)
    tied = tuple(p for p in range(n) if sizes[p] == fewest)
    if len(tied) == 1:
        w.tasks.append(interned("order", tied[0]))
    elif w.regent >= 0:
        w.tasks.append(new_task("tiebreak", w.regent, data=tied))
    else:
        low = min(w.vp[p] for p in tied)
        least = [p for p in tied if w.vp[p] == low]
        if len(least) == 1:
            w.tasks.append(interned("order", least[0]))


def _tiebreak_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    return tuple([w.game.seat_actions[s] for s in task.data])


def _tiebreak_apply(w: W, task: Task, action: Seat, player: int) -> None:
    w.tasks.pop()
    w.tasks.append(interned("order", action.seat))


def _order_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    acts = w.game.seat_actions
    return tuple([acts[s] for s in range(w.game.seat_count) if s not in task.data])


def _order_apply(w: W, task: Task, action: Seat, player: int) -> None:
    n = w.game.seat_count
    data = (*task.data, action.seat)
    if len(data) == n - 1:
        data = (*data, *(s for s in range(n) if s not in data))
    if len(data) == n:
        w.order = data
        w.tasks.pop()
    else:
        set_top_data(w, data)


def roll_weights(colour: int, n: int) -> tuple[tuple[int, int, int, int], ...]:
    """(ones, twos, threes, weight) for ``n`` dice of ``colour``, in action-id order."""
    f1, f2, f3 = FACES[colour]
    out = []
    for ones in range(n, -1, -1):
        for twos in range(n - ones, -1, -1):
            threes = n - ones - twos
            if threes and not f3:
                continue
            ways = factorial(n) // (factorial(ones) * factorial(twos) * factorial(threes))
            out.append((ones, twos, threes, ways * f1**ones * f2**twos * f3**threes))
    return tuple(out)


def _roll_next(task: Task) -> int:
    """The first dice-count entry still to roll, or -1 (found in C: counts are small).
    The last answer is kept with its data: a roll step asks three times of one task (the
    run, the weights, and the apply of the outcome)."""
    global _ROLL_LAST
    data = task.data
    last = _ROLL_LAST
    if last[0] is data:
        return last[1]
    i = bytes(data).translate(NONZERO).find(1)
    _ROLL_LAST = (data, i)  # one assignment: threads see a whole pair
    return i


_ROLL_LAST: tuple[tuple[int, ...] | None, int] = (None, -1)
"""The data of the roll task last asked about, and its answer."""


def _roll_run(w: W, task: Task) -> bool:
    if _roll_next(task) < 0:
        w.tasks.pop()
        if not task.a:  # phase 1's roll, not a card's: P1.after_roll cards come next
            playing.begin_after_roll(w)
        return True
    return False


def _roll_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    i = _roll_next(task)
    return w.game.roll_table[i % 7][task.data[i]]


def _roll_apply(w: W, task: Task, action: Rolled, player: int) -> None:
    i = _roll_next(task)
    p, c = divmod(i, 7)
    pool = list(w.pool[p])
    pool[3 * c] += action.ones
    pool[3 * c + 1] += action.twos
    pool[3 * c + 2] += action.threes
    w.pool = put(w.pool, p, tuple(pool))
    set_top_data(w, put(task.data, i, 0))


# ---------------------------------------------------------------------------------------
# Phase 2


_PHASE2_TASKS = tuple(interned("phase2", -1, a) for a in range(5))
_ASSIGN_TASKS = tuple(interned("assign", p) for p in range(5))
_COLUMN_TASKS = tuple(
    tuple(tuple(interned(name, p, level) for level in range(4)) for p in range(5))
    for name in COLUMN_NAMES
)
"""Phase 2's tasks, interned ahead: the die-by-die cycle is a third of a game's steps."""


def _phase2_run(w: W, task: Task) -> bool:
    a, order, passed = task.a, w.order, w.passed
    key = (tuple(order), a, passed)
    idx = _NEXT_SEAT.get(key)
    if idx is None:
        idx = next_to_assign(*key)
        if len(_NEXT_SEAT) < MEMO_LIMIT:
            _NEXT_SEAT[key] = idx
    if idx < 0:
        w.tasks.pop()
        return True
    n = len(order)
    if task is _PHASE2_TASKS[a % 5]:
        w.tasks[-1] = _PHASE2_TASKS[(idx + 1) % n]
    else:  # a task decoded from JSON: the same fields, not the shared object
        set_top_a(w, (idx + 1) % n)
    w.tasks.append(_ASSIGN_TASKS[order[idx]])
    return True


def next_to_assign(order: tuple[int, ...], a: int, passed: int) -> int:
    """The place in turn ``order``, from place ``a`` on and round, of the first seat that
    has not passed (``passed`` a bitmask of seats), or -1 when all have."""
    n = len(order)
    for k in range(n):
        idx = (a + k) % n
        if not passed >> order[idx] & 1:
            return idx
    return -1


_NEXT_SEAT: dict[tuple[tuple[int, ...], int, int], int] = {}
""":func:`next_to_assign` per (order, place, passed): a phase-2 turn asks it at every die."""


def build_options(w: W, p: int, level: int, second: bool) -> list[tuple[int, int]]:
    """The (column, slot) purchases ``p`` can make with a Build die at ``level``."""
    out = []
    cov = w.covered[p]
    money = w.money[p] + playing.discount(w, p) if w.mods else w.money[p]
    tower_ok = castle_ok = False
    for t in owned(w, p):
        if drafts.buildings(w, t) < 2:
            tower_ok = True
            if w.site[t] == 0:
                castle_ok = True
    slots = (1, 2) if level == 1 or second else (1, 2, 3, 4)
    for column in range(1, 5):
        base = 5 * column
        for slot in slots:
            if not cov >> (base + slot) & 1 or PRICE[slot] > money:
                continue
            if slot >= 3 and cov >> (base + 2) & 1:
                continue  # the column's II tower house comes first
            if slot == 3 and not castle_ok:
                continue
            if slot in (1, 2) and not (column == BUILD and slot == 1) and not tower_ok:
                continue
            out.append((column, slot))
    return out


def recruit_money(w: W, p: int) -> int:
    """The £ ``p`` has for a recruit: its pounds and what its card takes off the price
    (E14). The one reckoning of both the Military die's choice (:func:`recruit_possible`)
    and the recruit step's options, so that they cannot disagree."""
    return w.money[p] + playing.discount(w, p) if w.mods else w.money[p]


def recruit_possible(w: W, p: int, level: int) -> bool:
    """Whether a level ``level`` recruit can take a troop: one of a type the level allows
    is affordable (:func:`recruit_money`) and left in the supply, and ``p`` has a
    building to recruit at."""
    money = recruit_money(w, p)
    for k in range(level):
        if money >= COST[k] and drafts.troop_total(w, p, k) < SUPPLY[k]:
            break
    else:
        return False
    return has_building(w, p)  # a place to recruit in


SALE_NONE, SALE_ANYWHERE, SALE_TOWER, SALE_CASTLE = range(4)
"""What a Build die may buy, before territories are looked at (:func:`build_sale`)."""


def build_sale(cov: int, money: int, level: int) -> int:
    """What a Build die at ``level`` may buy with ``money`` while the slots ``cov`` are
    still covered, as bitmasks of the board: SALE_ANYWHERE something that needs no
    territory (a coloured die, or the Build column's black die), SALE_TOWER a tower house
    (a territory with room), SALE_CASTLE only a castle (a territory with room and no
    castle or city), SALE_NONE nothing. :func:`_build_possible` and the cards that put a
    tower house down first (``playing._build_ok_with``) then look for the territory."""
    tower = (cov & ROW_BITS[1] if money >= PRICE[1] else 0) | (
        cov & ROW_BITS[2] if money >= PRICE[2] else 0
    )
    castle = 0
    if level > 1 and money >= PRICE[3]:
        # a row-III slot is for sale once its column's row-II tower house is bought
        if cov & ROW_BITS[4] & ~(cov << 2):
            return SALE_ANYWHERE  # a coloured die
        castle = cov & ROW_BITS[3] & ~(cov << 1)
    if tower & BUILD_DIE_BIT:
        return SALE_ANYWHERE  # the Build column's I-right slot gives a die
    if tower:
        return SALE_TOWER
    return SALE_CASTLE if castle else SALE_NONE


def _build_possible(w: W, p: int, level: int, discount: int = 0) -> bool:
    """Whether ``build_options(w, p, level, False)`` is not empty, without listing them:
    what is for sale first (:func:`build_sale`); the territories only if it needs a place
    to stand. ``discount``: £ an action card takes off the price (judging the card before
    it is played)."""
    sale = build_sale(w.covered[p], w.money[p] + discount, level)
    if sale < SALE_TOWER:
        return sale == SALE_ANYWHERE
    site, towers = w.site, w.towers
    tower = sale == SALE_TOWER
    return any(
        [
            (site[t] > 0) + towers[t] < 2 and (tower or site[t] == 0)
            for t in owned_by(w.controller, p)
        ]
    )


ROW_BITS = tuple(sum(1 << (5 * column + slot) for column in range(1, 5)) for slot in range(5))
"""Per slot, its bit in every column but Feud's."""
BUILD_DIE_BIT = 1 << (5 * BUILD + 1)
"""The Build column's I-right slot: bought, it gives a black die, not a building."""


def _military_possible(w: W, p: int) -> tuple[bool, bool, bool]:
    """Whether a Military die of level I, II and III can act: ``p`` has troops to move,
    or ``recruit_possible`` at that level (its board scan done once for all three).
    Without troops every supply has room, so a recruit needs only the price of a troop
    of a type the level allows, and a building."""
    ready = military_ready(w, p)
    return (ready, ready, ready)


def military_ready(w: W, p: int) -> bool:
    """Whether a Military die of any level can act (then of every level: see
    :func:`_military_possible`)."""
    if troop_totals(w.troops[p]) != NO_TROOPS:  # W.has_troops, inline
        return True
    b = w.battle
    if b is not None and b.owners[0] == p and any(b.attackers):
        return True
    return w.money[p] >= COST[0] and has_building(w, p)


def has_building(w: W | ClanFeudState, p: int) -> bool:
    """Whether ``p`` controls a territory with a building (a place to recruit in)."""
    site, towers = w.site, w.towers
    return any([site[t] or towers[t] for t in owned_by(w.controller, p)])


LEVEL_BITS = tuple(
    tuple(sum(1 << (5 * col + slot) for slot in SLOTS_AT[lvl]) & EXISTS for lvl in range(4))
    for col in range(5)
)
"""The board slots of each column at each level, as bitmasks."""
ALL_COLUMNS = (0, 1, 2, 3, 4)


def _assign_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p = task.player
    if task.a:  # a card was played: its filter and help decide
        return playing.pending_assignments(w, task)
    open_slots = EXISTS & ~(w.covered[p] | w.filled[p])
    # Build and Military may be unable to act at a level: their open slots at such a level
    # are closed first (each worked out only where a slot is open; the other columns can
    # always act), so that a die's options are one look at its slots each.
    # (a Build die's purchases differ only between level I and the levels above it)
    low = open_slots & BUILD_LOW
    if low and not _build_possible(w, p, 1):
        open_slots &= ~low
    high = open_slots & BUILD_HIGH
    if high and not _build_possible(w, p, 2):
        open_slots &= ~high
    if open_slots & MILITARY_BITS and not military_ready(w, p):
        open_slots &= ~MILITARY_BITS
    g = w.game
    known = g.assign_memo
    reach = DIE_SLOTS
    out: list[ClanFeudAction] = []
    for i in compress(DIE_INDEXES, w.pool[p]):  # the dice held, found in C
        key = (open_slots & reach[i]) << 5 | i
        found = known.get(key)
        if found is None:
            found = die_assignments(g, i, open_slots)
        out += found
    if any(w.hands[p]):
        # the P2 card plays after the dice's own assignments; a player who can assign
        # only with a card's help may still pass
        return tuple((out or [g.words["pass"]]) + playing.plays_with_dice(w, p, out))
    if not out:
        return (g.words["pass"],)
    return tuple(out)


DIE_INDEXES = tuple(range(3 * len(COLOURS)))
"""Every dice-pool index (``3 * colour + value - 1``)."""
DIE_SLOTS = tuple(
    sum(LEVEL_BITS[column][level] for column in range(5) for level in range(1, i % 3 + 2))
    if divmod(i, 3)[0] not in COLUMN_OF_COLOUR
    else sum(LEVEL_BITS[COLUMN_OF_COLOUR[i // 3]][level] for level in range(1, i % 3 + 2))
    for i in DIE_INDEXES
)
"""Per dice-pool index, every board slot a die there may go to."""
BUILD_LOW = LEVEL_BITS[BUILD][1]
BUILD_HIGH = LEVEL_BITS[BUILD][2] | LEVEL_BITS[BUILD][3]
"""The Build column's slots at level I, and at levels II and III."""
MEMO_LIMIT = 1 << 16
"""The most entries a memo of the rules (:func:`die_assignments`' per game, the next seat
to assign) keeps."""


def die_assignments(g: ClanFeudGame, i: int, open_slots: int) -> tuple[ClanFeudAction, ...]:
    """The assignments of a die at pool index ``i`` given the board slots that are open
    (those of levels whose column cannot act closed), in action-id order. Remembered in
    ``g.assign_memo`` under the open slots the die can reach: a die's options are then
    one look-up in most assignments, where checking each of its up to 15 (column, level)
    slots cost more than the rest of the decision."""
    found = tuple([action for slots, action in g.assign_candidates[i] if open_slots & slots])
    if len(g.assign_memo) < MEMO_LIMIT:
        g.assign_memo[(open_slots & DIE_SLOTS[i]) << 5 | i] = found
    return found


MILITARY_BITS = sum(LEVEL_BITS[MILITARY])
"""Every slot of the Military column."""


def assign_candidates(
    assign_table: tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...],
) -> tuple[tuple[tuple[int, ClanFeudAction], ...], ...]:
    """Per dice-pool index (``3 * colour + value - 1``), the assignments a die there may
    make, in action-id order, each with the slots of its column's level (one of them open:
    the assignment is possible, unless its column cannot act at that level)."""
    out = []
    for i in range(3 * len(COLOURS)):
        colour, v0 = divmod(i, 3)
        only = COLUMN_OF_COLOUR.get(colour)
        row = assign_table[colour][v0]
        out.append(
            tuple(
                (LEVEL_BITS[column][level], row[column][level])
                for column in (ALL_COLUMNS if only is None else (only,))
                for level in range(1, v0 + 2)
            )
        )
    return tuple(out)


def _assign_apply(w: W, task: Task, action: Any, player: int) -> None:
    p = task.player
    if type(action) is PlayAction:
        playing.play_at_assign(w, task, action)
        return
    w.tasks.pop()
    if isinstance(action, Word):
        w.passed |= 1 << p
        return
    plan = w.game.assign_plans.get(id(action))
    i, slots, after = assign_plan(action) if plan is None else plan
    # The die leaves the pool and fills the first free slot at its level.
    w.pool = put(w.pool, p, plus(w.pool[p], i, -1))
    filled = w.filled[p]
    taken = w.covered[p] | filled
    for bit in slots:
        if not taken & bit:
            break
    else:
        bit = 1 << (5 * action.column - 1)  # (no free slot: not reached by a legal action)
    w.filled = put(w.filled, p, filled | bit)
    if task.a:  # the card's action resolves first, then the die's
        playing.assign_with_card(w, p, task.a - 1, action, after[p])
        return
    w.tasks.append(after[p])


AssignPlan = tuple[int, tuple[int, ...], tuple[Task, ...]]
"""What an assignment does, worked out once per action: the die's pool index, the bits of
its level's slots that exist (left first) and, per seat, the column's task it pushes."""


def assign_plan(action: Any) -> AssignPlan:
    """The :data:`AssignPlan` of an assignment action."""
    column, level = action.column, action.level
    bits = [1 << (5 * column + slot) for slot in SLOTS_AT[level]]
    return (
        3 * action.colour + action.value - 1,
        tuple([bit for bit in bits if bit & EXISTS]),
        tuple([_COLUMN_TASKS[column][p][level] for p in range(MAX_SEATS)]),
    )


def assign_plans(
    assign_candidates: tuple[tuple[tuple[int, Any], ...], ...],
) -> dict[int, AssignPlan]:
    """Every assignment action's plan, by the action's identity (the game keeps the
    actions, so no other object takes their ids); another equal action is planned when
    it is applied."""
    return {id(action): assign_plan(action) for row in assign_candidates for _, action in row}


def _feud_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p, level = task.player, task.a
    pool = w.pool[p]
    if task.c:
        pool = plus(pool, task.c - 1, -1)  # the die raised first cannot be raised again
    g = w.game
    out: list[ClanFeudAction] = [g.words["stop" if task.b else "tokens"]]
    # the raises of the dice held, in pool order (a level I raise only lifts a 1)
    out += filter(None, compress(g.raise_by_die[level > 1], pool))
    if level == 3 and not task.b:
        out += filter(None, compress(g.three_by_die, pool))
    return tuple(out)


def _feud_apply(w: W, task: Task, action: Any, player: int) -> None:
    p, level = task.player, task.a
    if isinstance(action, Word):
        if action.word == "tokens":
            w.feud = gain(w.feud, p, level)
        w.tasks.pop()
    elif isinstance(action, Raise):
        i = 3 * action.colour + action.value - 1
        pool = list(w.pool[p])
        pool[i] -= 1
        pool[i + 1] += 1
        w.pool = put(w.pool, p, tuple(pool))
        if level == 3 and not task.b:
            update_top(w, b=1, c=i + 2)
        else:
            w.tasks.pop()
    else:
        i = 3 * action.colour
        pool = list(w.pool[p])
        pool[i] -= 1
        pool[i + 2] += 1
        w.pool = put(w.pool, p, tuple(pool))
        w.tasks.pop()


def territories_yielding(w: W, p: int) -> int:
    """Territories ``p`` controls that count for Income (not those holding an English army)."""
    n = w.controller.count(p)
    return n - war.yielding_loss(w, p) if w.english else n


def _income_run(w: W, task: Task) -> bool:
    p, level = task.player, task.a
    n = territories_yielding(w, p)
    w.tasks.pop()
    if level == 2:
        if n:
            w.tasks.append(interned("income_roll", p, n))
    else:
        w.money = gain(w.money, p, n * (1 if level == 1 else 2))
    return True


def _income_roll_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    n = task.a
    totals = w.game.total_actions
    return tuple([(totals[n + twos], comb(n, twos)) for twos in range(n + 1)])


def _income_roll_apply(w: W, task: Task, action: Total, player: int) -> None:
    w.money = gain(w.money, task.player, action.k)
    w.tasks.pop()


def _intrigue_run(w: W, task: Task) -> bool:
    p, level = task.player, task.a
    w.money = gain(w.money, p, level)
    w.vp = gain(w.vp, p, INTRIGUE_VP[level - 1])
    w.tasks.pop()
    w.tasks.append(interned("draw", p, level))
    return True


def _draw_run(w: W, task: Task) -> bool:
    if task.a <= 0:
        w.tasks.pop()
        return True
    if not any(w.deck):
        if not any(w.discards):
            w.tasks.pop()
            return True
        w.deck, w.discards = tuple(w.discards), (0,) * len(w.discards)
        return True
    return False


def _draw_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    deck = w.deck
    return tuple(zip(compress(w.game.draw_actions, deck), filter(None, deck), strict=True))


def _draw_apply(w: W, task: Task, action: DrawCard, player: int) -> None:
    d, p = action.design, task.player
    w.deck = plus(w.deck, d, -1)
    w.hands = put(w.hands, p, plus(w.hands[p], d, 1))
    set_top_a(w, task.a - 1)


def _build_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    acts = w.game.build_actions
    out: list[ClanFeudAction] = [w.game.words["stop"]] if task.b else []
    out += [acts[k] for k in build_options(w, task.player, task.a, bool(task.b))]
    return tuple(out)


def _build_apply(w: W, task: Task, action: Any, player: int) -> None:
    p, level = task.player, task.a
    w.tasks.pop()
    if isinstance(action, Word):
        return
    column, slot = action.column, action.slot
    if w.mods:
        playing.spend(w, p, PRICE[slot])
    else:
        w.money = plus(w.money, p, -PRICE[slot])
    w.covered = put(w.covered, p, w.covered[p] & ~(1 << (5 * column + slot)))
    if level == 3 and slot in (1, 2) and not task.b:
        w.tasks.append(interned("build", p, 3, 1))
    if (column == BUILD and slot == 1) or slot == 4:
        w.gain_die(p)
    else:
        w.tasks.append(interned("place", p, 2 if slot == 3 else 0))


def _place_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p, castle = task.player, task.a == 2
    acts = w.game.place_actions
    site = w.site
    return tuple(
        [acts[t] for t in owned(w, p) if drafts.buildings(w, t) < 2 and not (castle and site[t])]
    )


def _place_apply(w: W, task: Task, action: Place, player: int) -> None:
    t = action.territory
    if task.a == 2:
        w.site = put(w.site, t, 2)
    else:
        w.towers = plus(w.towers, t, 1)
    w.tasks.pop()


def _military_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p, level = task.player, task.a
    words = w.game.words
    out = []
    forced = playing.forced_mode(w, p) if w.mods else None
    if forced is not None:
        return (words[forced],)
    if recruit_possible(w, p, level):
        out.append(words["recruit"])
    if drafts.has_troops(w, p):
        out.append(words["move"])
    return tuple(out)


def _military_apply(w: W, task: Task, action: Word, player: int) -> None:
    p, level = task.player, task.a
    w.tasks.pop()
    if action.word == "recruit":
        w.tasks.append(interned("recruit", p, level, -1))
    else:
        w.tasks.append(interned("move", p, level + playing.extra_armies(w, p)))


RECRUIT_STAGES = ((), (0,), (1, 0), (2, 1, 0))
"""Troop types asked in a recruit of each level: artillery, then cavalry, then infantry."""


def _recruit_limits(w: W, p: int) -> list[int]:
    return [SUPPLY[k] - drafts.troop_total(w, p, k) for k in range(3)]


def _recruit_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p, level = task.player, task.a
    if task.b < 0:
        acts = w.game.place_actions
        return tuple([acts[t] for t in owned(w, p) if drafts.buildings(w, t)])
    stages = RECRUIT_STAGES[level]
    kind = stages[task.c]
    later = stages[task.c + 1 :]
    taken = sum(task.data)
    left = _recruit_limits(w, p)
    money = recruit_money(w, p)
    most = min(left[kind], money // COST[kind])
    need = not taken and not any(money >= COST[k] and left[k] > 0 for k in later)
    takes = w.game.take_actions
    return tuple([takes[kind][k] for k in range(1 if need else 0, most + 1)])


def _recruit_apply(w: W, task: Task, action: Any, player: int) -> None:
    p, level = task.player, task.a
    if isinstance(action, Place):
        update_top(w, b=action.territory, c=0, data=())
        if w.mods:
            playing.after_recruit_place(w, p, action.territory)
        return
    t = task.b
    kind, k = action.troop, action.count
    if w.mods:
        playing.spend(w, p, k * COST[kind])
    else:
        w.money = plus(w.money, p, -k * COST[kind])
    w.troops = put(w.troops, p, plus_troops(w.troops[p], 3 * t + kind, k))
    english = bool(w.english) and war.holds(w, t)
    if task.c + 1 == len(RECRUIT_STAGES[level]):
        w.tasks.pop()
        if english:
            # Part 3's free recruits (E16) join here: add them to the row before this call.
            war.recruits_attack(w, p, t)
    else:
        update_top(w, c=task.c + 1, data=(*task.data, k))
    if k and w.regent < 0 and w.king == t and not english:
        # Recruits at rest beside a lone King take him, as any army would; last, as the
        # first claim pushes the gold die's Feud task, which the recruit's own end must
        # not take for its own.
        w.set_regent(p)


# ---------------------------------------------------------------------------------------
# Phase 3


def _phase3_run(w: W, task: Task) -> bool:
    g = w.game
    order = w.order
    stage = task.a
    set_top_a(w, stage + 1)
    if stage == 0:
        w.track_start = w.england
        if w.events:
            node = g.objective_nodes[w.events[-1]]
            for p in reversed(order):
                w.tasks.append(interpret.program(p, node))
    elif stage == 1:
        if len(w.events) == g.deck_size:
            w.tasks = [new_task("final")]
        else:
            w.tasks.append(interned("draw_event"))
    elif stage == 2:
        card = g.events.regular[w.events[-1]]
        interpret.move_track(w, card.england)
        node = g.each_player_nodes[w.events[-1]]
        for p in reversed(order):
            w.tasks.append(interpret.program(p, node))
    elif stage == 3:
        w.at_war = g.england.at_war(w.england)
        w.upkeep_cut = ()
        # window P3.upkeep: each player's cards just before their payment
        for p in reversed(order):
            w.tasks.append(interned("upkeep", p))
            if any(w.hands[p]):
                w.tasks.append(playing.p3_task(p))
        war.begin_war(w)  # spawning and marching, on top: before the upkeep
    else:
        w.tasks.pop()
    return True


def _draw_event_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    outcomes = w.game.event_outcomes
    left = [True] * len(outcomes)
    for e in w.events:
        left[e] = False
    return tuple(compress(outcomes, left))


def _draw_event_apply(w: W, task: Task, action: DrawEvent, player: int) -> None:
    w.events = (*w.events, action.event)
    w.tasks.pop()


def upkeep_due(w: W | ClanFeudState, p: int) -> int:
    infantry, cavalry, artillery = troop_totals(w.troops[p])
    return infantry * UPKEEP[0] + cavalry * UPKEEP[1] + artillery * UPKEEP[2]


def _upkeep_run(w: W, task: Task) -> bool:
    # nothing due (counts are >= 0)
    if task.a == 0 and troop_totals(w.troops[task.player]) == NO_TROOPS:
        w.tasks.pop()
        return True
    return False


def _upkeep_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p = task.player
    g = w.game
    if task.a:
        t = task.a - 1
        army = drafts.army(w, p, t)
        return tuple([g.lose_actions[k] for k in range(3) if army[k]])
    out: list[ClanFeudAction] = []
    if w.money[p] + w.feud[p] >= playing.upkeep_owed(w, p):
        out.append(g.words["pay upkeep"])
    acts = g.place_actions
    out += [acts[t] for t in occupied_by(w.troops[p])]
    return tuple(out)


def _upkeep_apply(w: W, task: Task, action: Any, player: int) -> None:
    p = task.player
    if isinstance(action, Place):
        set_top_a(w, action.territory + 1)
    elif isinstance(action, Lose):
        drafts.remove_troop(w, p, task.a - 1, action.troop)
        w.check_king(p)
        set_top_a(w, 0)
    else:
        due = playing.upkeep_owed(w, p)
        w.tasks.pop()
        lo, hi = max(0, due - w.money[p]), min(w.feud[p], due)
        if lo == hi:
            w.feud = plus(w.feud, p, -lo)
            w.money = plus(w.money, p, lo - due)
        else:
            w.tasks.append(interned("upkeep_pay", p, due))


def _upkeep_pay_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p, due = task.player, task.a
    lo, hi = max(0, due - w.money[p]), min(w.feud[p], due)
    return tuple([w.game.pay_actions[k] for k in range(lo, hi + 1)])


def _upkeep_pay_apply(w: W, task: Task, action: PayFeud, player: int) -> None:
    p, due = task.player, task.a
    w.feud = plus(w.feud, p, -action.k)
    w.money = plus(w.money, p, action.k - due)
    w.tasks.pop()


def _final_run(w: W, task: Task) -> bool:
    from clangames.clan_feud.scoring import final_count

    vp = drafts.writable(w, "vp")
    for p in w.order:
        # the final count may take VP away: a total stays within the cap either way
        vp[p] = max(-AMOUNT_CAP, min(AMOUNT_CAP, vp[p] + final_count(w, p)))
    w.tasks = []
    return True


from clangames.clan_feud import playing  # noqa: E402  (it builds on the rules above)


def _register() -> None:
    RUN.update(
        {
            "turn": _turn_run,
            "phase1": _phase1_run,
            "roll": _roll_run,
            "phase2": _phase2_run,
            "income": _income_run,
            "intrigue": _intrigue_run,
            "draw": _draw_run,
            "phase3": _phase3_run,
            "upkeep": _upkeep_run,
            "final": _final_run,
        }
    )
    WEIGHTS.update(
        {
            "start": _start_weights,
            "lot": _lot_weights,
            "roll": _roll_weights,
            "income_roll": _income_roll_weights,
            "draw": _draw_weights,
            "draw_event": _draw_event_weights,
        }
    )
    OPTIONS.update(
        {
            "tiebreak": _tiebreak_options,
            "order": _order_options,
            "assign": _assign_options,
            "feud": _feud_options,
            "build": _build_options,
            "place": _place_options,
            "military": _military_options,
            "recruit": _recruit_options,
            "upkeep": _upkeep_options,
            "upkeep_pay": _upkeep_pay_options,
        }
    )
    APPLY.update(
        {
            "start": _start_apply,
            "lot": _lot_apply,
            "roll": _roll_apply,
            "income_roll": _income_roll_apply,
            "draw": _draw_apply,
            "draw_event": _draw_event_apply,
            "tiebreak": _tiebreak_apply,
            "order": _order_apply,
            "assign": _assign_apply,
            "feud": _feud_apply,
            "build": _build_apply,
            "place": _place_apply,
            "military": _military_apply,
            "recruit": _recruit_apply,
            "upkeep": _upkeep_apply,
            "upkeep_pay": _upkeep_pay_apply,
        }
    )
    military.register(RUN, OPTIONS, WEIGHTS, TOGETHER, SEALED, APPLY)
    interpret.register(RUN, OPTIONS, APPLY, ASK)
    playing.register(RUN, OPTIONS, WEIGHTS, APPLY, ASK)
    war.register(RUN, OPTIONS, APPLY)
    for kind in set(RUN) | set(WEIGHTS) | set(TOGETHER) | set(OPTIONS):
        HANDLERS[kind] = (
            RUN.get(kind),
            WEIGHTS.get(kind),
            TOGETHER.get(kind),
            OPTIONS.get(kind),
            ASK.get(kind),
            APPLY.get(kind),
        )


_register()


# ---------------------------------------------------------------------------------------
# Words for people

PROMPTS = {
    "start": "chance deals the start territories",
    "lot": "chance draws the first turn order",
    "tiebreak": "the regent names which tied player sets the turn order",
    "order": "the player with the fewest dice sets the turn order, first place first",
    "roll": "the dice are rolled",
    "assign": "assign a die to a free slot of your board",
    "feud": "take the Feud benefit: feud tokens or raising dice",
    "income_roll": "black dice are rolled for Income",
    "draw": "an action card is drawn",
    "build": "choose what to build",
    "place": "choose the territory for the new building",
    "military": "recruit or move",
    "recruit": "recruit troops",
    "draw_event": "the next event is drawn",
    "upkeep": "pay upkeep, or first remove troops",
    "upkeep_pay": "choose how much of the upkeep to pay in feud tokens",
    "over": "the game is over",
}


def prompt(s: ClanFeudState) -> str:
    """What is being decided now, in words."""
    name = s.phase.name
    text = (
        PROMPTS.get(name)
        or military.PROMPTS.get(name)
        or interpret.PROMPTS.get(name)
        or playing.PROMPTS.get(name)
        or war.prompt_of(name, s.tasks[-1] if s.tasks else None)
    )
    if text is None:
        text = name
    if name == "prog" and s.tasks:
        # say which card is resolved and what it asks, not only "resolve the card"
        task = s.tasks[-1]
        what = playing.program_text(s.game, task)
        text = f"resolve {playing.program_source(s.game, s.events, task)}" + (
            f": {what}" if what else ""
        )
    elif text.endswith(", or stop") and not _may_stop(s):
        text = text.removesuffix(", or stop")
    if s.is_terminal or s.is_chance:
        return text[0].upper() + text[1:]
    who = ", ".join(f"player {p}" for p in s.to_move)
    return f"{who}: {text}"


def _may_stop(s: ClanFeudState) -> bool:
    """Whether ``stop`` is among the options now (a prompt offers it only then)."""
    stop = s.game.words["stop"]
    return any(stop in s.legal_actions(p) for p in s.to_move if p >= 0)


def card_name(g: ClanFeudGame, action: Any) -> str | None:
    """The name of the card an action names by its id (``play AC29``, ``event EV10``), so
    that words around the action text can name it as the hand does; None for others."""
    if isinstance(action, (PlayAction, PlayCard, Discard, DrawCard)):
        return g.deck.designs[action.design].name
    if isinstance(action, DrawEvent):
        return g.events.regular[action.event].name
    return None
