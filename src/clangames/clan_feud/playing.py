"""Action cards played for their actions (part 3): the four timing windows, the die
filters, the primitives that need a decision, and what a card changes in its die's action.

A card's action is an expression of the cards' vocabulary, run by the one interpreter of
:mod:`interpret` (a ``prog`` task), so a new card is a data entry. This module adds:

- the windows, as tasks: ``p1order`` (``P1.before_order``, asked in the previous turn's
  order, ``a`` = the next place to ask), ``p1cards`` (``P1.after_roll``, rounds in the new
  order, ``a`` = the next place, ``b`` = passes in succession), ``P2.assign`` (``play
  <design>`` among a player's assignments; the ``assign`` task's ``a`` is then the design
  + 1 and only assignments matching the card's filter are offered) and ``p3cards``
  (``P3.upkeep``, just before the player's upkeep). A player with no card is not asked; a
  player with cards is always asked (``pass`` alone included), so the flow never tells
  the others whether a hand holds a playable card.
- the primitives with decisions or chance: ``steal`` (name the victim; ``steal_card``
  draws at random from their hand), ``modify`` (E9, ``a`` dice left, ``b`` 1 for 1to3,
  ``data`` the pool indices already changed), ``reroll`` (E10, ``a`` dice left, ``b`` the
  seat whose dice, -1 before it is named, ``data`` the picked dice's colours; the picks
  are rolled by the rules' ``roll`` task with ``a`` = 1), ``th1`` (E15, ``a`` the column
  whose LVL I tower house moves, 0 before it is picked) and ``free_recruit`` (E16, over
  the ``recruit`` task once its territory is named).
- the modifiers a card leaves on its die's action, in ``state.mods`` (``MOD_*`` below):
  discounts (E14), free troops (E16), move boosts (E17), the move/recruit mode; a
  ``cardend`` task under the die's column task clears them. Upkeep cuts (E18) are kept
  per seat in ``state.upkeep_cut`` until the next phase 3's upkeep.
- the knowledge a stolen card creates (``state.known``), for the observation and
  ``resample``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from operator import itemgetter
from types import FunctionType
from typing import TYPE_CHECKING, Any, Final

from clangames.clan_feud import drafts, war
from clangames.clan_feud.actions import (
    COLOURS,
    COLUMN_NAMES,
    FACE_MAX,
    LEVEL_NAMES,
    TROOPS,
    Assign,
    BuildSlot,
    ClanFeudAction,
    DrawCard,
    PlayAction,
    Reroll,
    Seat,
    Take,
    ToThree,
    Word,
)
from clangames.clan_feud.board import occupied_by, plus, put, troop_totals
from clangames.clan_feud.cards import CardInfo as CardInfo  # attrs: kept there (setup.py)
from clangames.clan_feud.effects import (
    And,
    CombatEffect,
    Condition,
    Const,
    Expr,
    Fewest,
    If,
    May,
    Most,
    Or,
    Primitive,
    Quantity,
    Repeat,
    Scaled,
    Seq,
    Truth,
    _numeral_text,
)
from clangames.clan_feud.interpret import COST_PRIMITIVES, amount, available, holds, program
from clangames.clan_feud.military import SPEED
from clangames.clan_feud.phases import phase_words
from clangames.clan_feud.rows import gain
from clangames.clan_feud.rules import (
    BLACK,
    BUILD,
    COST,
    DIE_INDEXES,
    DIE_OF_COLUMN,
    EXISTS,
    GOLD,
    INCOME,
    INTRIGUE,
    MILITARY,
    NO_TROOPS,
    SALE_ANYWHERE,
    SALE_NONE,
    SALE_TOWER,
    SUPPLY,
    _build_possible,
    build_sale,
    interned,
    owned,
    territories_yielding,
    upkeep_due,
)
from clangames.clan_feud.state import Task, new_task
from clangames.clan_feud.tasks import set_top_a, update_top

if TYPE_CHECKING:
    from clangames.clan_feud.board import Board
    from clangames.clan_feud.cards import ActionCard
    from clangames.clan_feud.rules import W
    from clangames.clan_feud.state import ClanFeudState

TEMPORARY = 6
"""The pool colour of the temporary white die (E11): white faces, returned at phase 1."""
COLUMNS = {name: i for i, name in enumerate(COLUMN_NAMES)}
LEVEL_OF = {"I": 1, "II": 2, "III": 3}
TYPE_OF = {name: i for i, name in enumerate(TROOPS)}
COLOUR_OF = {name: i for i, name in enumerate(COLOURS)}
TH1_COLUMNS = (INCOME, INTRIGUE, MILITARY)
"""The columns whose LVL I-right slot holds a tower house (Build's holds the black die)."""

(
    MOD_PLAYER,
    MOD_DESIGN,
    MOD_COLUMN,
    MOD_LEVEL,
    MOD_MODE,
    MOD_DISCOUNT,
    MOD_FREE_TYPE,
    MOD_FREE_N,
    MOD_ARMIES,
    MOD_SPEED,
    MOD_MOUNTAINS,
    MOD_CAVALRY,
) = range(12)
"""Fields of ``state.mods``: who played which card with the die assigned to which column
and level; the mode (0 any, 1 move, 2 recruit); the discount left; free troops (type,
number left); extra armies; extra speed; 1 to ignore mountains; 1 if the speed and
mountain parts apply only to armies made only of cavalry."""
MOD_FIELDS = MOD_CAVALRY + 1
"""How many fields ``state.mods`` has while a card is pending."""
MODE_MOVE, MODE_RECRUIT = 1, 2


def _primitives(e: Expr) -> list[Primitive]:
    if isinstance(e, Primitive):
        return [e]
    if isinstance(e, Seq):
        return [p for i in e.items for p in _primitives(i)]
    if isinstance(e, Or):
        return [p for o in e.options for p in _primitives(o)]
    return _primitives(e.body)


def card_info(card: ActionCard, node: int) -> CardInfo:
    """The rules' summary of ``card`` whose action is expression node ``node``."""
    t = card.timing
    kw: dict[str, Any] = {}
    for item in t.filter:
        if item.key == "column":
            kw["column"] = COLUMNS[str(item.value)]
        elif item.key == "colour":
            kw["colour"] = COLOUR_OF[str(item.value)]
        elif item.key == "value":
            kw["value"] = int(item.value)
        elif item.key == "level":
            kw["level"] = LEVEL_OF[str(item.value)]
            kw["level_at_least"] = item.op == ">="
        else:
            kw["mode"] = MODE_MOVE if item.value == "move" else MODE_RECRUIT
    for prim in _primitives(card.action):
        if prim.name == "choose_turn_order":
            kw["orders"] = True
        elif prim.name == "boost_move" and prim.option("only") == "cavalry":
            kw["cavalry_only"] = True
    # the help a die's action is judged with (cards spec 1.1: the assignment legal after
    # the card) counts only what the card surely does: its lone primitive or a plain
    # sequence's; a discount, free troops or a free tower house under may, if, OR or
    # repeat may not come, and the die would then be left with no legal move
    sure = card.action.items if isinstance(card.action, Seq) else (card.action,)
    for prim in [e for e in sure if isinstance(e, Primitive)]:
        if prim.name == "discount":
            kw["discount"] = kw.get("discount", 0) + int(prim.args[0])  # type: ignore[arg-type]
        elif prim.name == "recruit":
            kw["free_type"] = TYPE_OF[str(prim.args[0])]
            kw["free_n"] = kw.get("free_n", 0) + int(prim.args[1])  # type: ignore[arg-type]
        elif prim.name == "place_building":
            kw["places"] = True
    a = card.action
    if isinstance(a, Primitive) and a.name == "boost_move":
        kw["more_armies_only"] = not (a.option("speed") or a.option("ignore_mountains"))
    gains = [e.args[0] for e in sure if isinstance(e, Primitive) and e.name == "gain_money"]
    gains += [
        LEVEL_OF[str(e.args[1])]  # Intrigue's action at LVL L pays £L
        for e in sure
        if isinstance(e, Primitive) and e.name == "bonus_action" and e.args[0] == "intrigue"
    ]
    if any(isinstance(e, Primitive) and e.name == "pay_money" for e in sure):
        gains = []  # a price paid too: judged on the money held, never on more
    return CardInfo(t.window, node, gains=tuple(gains), **kw)


# ---------------------------------------------------------------------------------------
# Would an action change anything?


def _th1_left(w: Any, p: int) -> list[int]:
    cov = w.covered[p]
    return [c for c in TH1_COLUMNS if cov >> (5 * c + 1) & 1]


def _th1_places(w: Any, p: int) -> list[int]:
    return [t for t in owned(w, p) if (w.site[t] > 0) + w.towers[t] < 2]


def _modify_targets(w: Any, p: int, e: Primitive, used: tuple[int, ...] = ()) -> list[int]:
    """Pool indices of ``p``'s unassigned dice that ``modify_die`` ``e`` may change."""
    pool = w.pool[p]
    colour = e.option("colour")
    value = e.option("value")
    want_colour = -1 if colour is None else COLOUR_OF[str(colour)]
    want_value = -1 if value is None else int(value)
    up = e.args[1] == "+1"
    out = []
    for i in compress(DIE_INDEXES, pool):  # the dice held, in pool order
        if used and pool[i] - used.count(i) <= 0:
            continue
        c, v = divmod(i, 3)
        v += 1
        if (want_colour >= 0 and want_colour != c) or (want_value >= 0 and want_value != v):
            continue
        if (up and v < FACE_MAX[c]) or (not up and v == 1 and c != BLACK):
            out.append(i)
    return out


def _supply_left(w: Any, p: int, kind: int) -> int:
    n = troop_totals(w.troops[p])[kind]
    b = w.battle
    if b is not None and b.owners[0] == p:
        n += b.attackers[kind]
    return SUPPLY[kind] - n


def _has_building(w: Any, p: int) -> bool:
    site, towers = w.site, w.towers
    return any([site[t] or towers[t] for t in owned(w, p)])


def _temp_die_ok(w: Any, p: int, colour: str) -> bool:
    if colour == "white":
        return not any(w.pool[p][3 * TEMPORARY : 3 * TEMPORARY + 3])
    if colour == "gold":
        # the one gold die: in the supply only while nobody is regent
        return w.regent < 0 and not any(any(row[3 * GOLD : 3 * GOLD + 3]) for row in w.pool)
    return True


def _reach(w: Any, start: int, speed: int, free: bool, blocked: int) -> set[int]:
    """Where an army leaving ``start`` can end a move of ``speed`` steps, by the move's
    step rules (``military._step_options``, ``_step_apply``): a step into a territory of
    ``blocked`` (another clan's or an English army: :func:`_blocked`) is a battle and ends
    the move; unless ``free`` (a boost's mountain freedom) only the first step may enter a
    mountain, and a step into or out of one ends the move. Breadth first: whether a
    territory lets an army go on depends on the territory alone, so the shortest way to
    each is the one to follow."""
    board = w.game.board
    neighbours = board.neighbours
    mountains = 0 if free else board.mountain_mask
    stops = blocked | mountains  # no going on from these
    seen = {start}
    frontier = [start]
    for step in range(speed):
        after = []
        for pos in frontier:
            for n in neighbours[pos]:
                if n in seen or (step and mountains >> n & 1):
                    continue
                seen.add(n)
                if not (stops >> n & 1 or mountains >> pos & 1):
                    after.append(n)
        frontier = after
    return seen


def _blocked(w: Any, p: int) -> int:
    """The territories where a step of ``p``'s army would be a battle (the move's own test,
    ``military._step_apply``: another clan's troops or an English army), as a bitmask."""
    mask = 0
    for q, row in enumerate(w.troops):
        if q != p:
            for t in occupied_by(row):
                mask |= 1 << t
    for army in w.english:
        mask |= 1 << army.territory
    return mask


def _speed_helps(w: Any, p: int, bonus: int, free: bool, cavalry_only: bool) -> bool:
    """Whether a move boost of ``bonus`` speed (and mountain freedom if ``free``) lets some
    army of ``p``'s end its move somewhere it could not without it (cards spec 1.1: a card
    that would change nothing is combat-only). An army moves at its slowest troop's speed,
    and a move may split off any troops, so each kind of troop is tried alone where it
    stands (only cavalry for a cavalry-only boost)."""
    row = w.troops[p]
    kinds = (1,) if cavalry_only else (0, 1, 2)
    blocked = -1  # worked out at the first army
    for t in occupied_by(row):
        speeds = {SPEED[k] for k in kinds if row[3 * t + k]}
        for speed in speeds:
            if blocked < 0:
                blocked = _blocked(w, p)
            if _reach(w, t, speed + bonus, free, blocked) != _reach(w, t, speed, False, blocked):
                return True
    return False


def changes(w: Any, p: int, e: Expr) -> bool:
    """Whether ``e``, played by ``p`` now, would change the game (a card that would not
    may be used only in combat). Die-dependent parts (a Build still possible, free
    troops' territory) are judged with the assignment, in :func:`_die_ok`."""
    if type(e) is Primitive:  # most card actions: one look-up of the primitive's test
        return _CHANGES.get(e.name, _changes_always)(w, p, e)
    if isinstance(e, Seq):
        return available(w, p, e) and any(changes(w, p, i) for i in e.items)
    if isinstance(e, Or):
        return any(available(w, p, o) and changes(w, p, o) for o in e.options)
    if isinstance(e, (May, Repeat)):
        return available(w, p, e.body) and changes(w, p, e.body)
    if isinstance(e, If):
        return holds(w, p, e.condition) and changes(w, p, e.body)
    return _CHANGES.get(e.name, _changes_always)(w, p, e)


def _changes_always(w: Any, p: int, e: Primitive) -> bool:
    return True  # choose_turn_order, discount


def _changes_gain(w: Any, p: int, e: Primitive) -> bool:
    return amount(w, p, e.args[0]) != 0


def _changes_draw(w: Any, p: int, e: Primitive) -> bool:
    return amount(w, p, e.args[0]) > 0 and bool(any(w.deck) or any(w.discards))


def _changes_cost(w: Any, p: int, e: Primitive) -> bool:
    return available(w, p, e)


def _changes_steal(w: Any, p: int, e: Primitive) -> bool:
    seats = range(len(w.money))
    if e.args[0] == "money":
        return any(w.money[q] for q in seats if q != p)
    return any(any(w.hands[q]) for q in seats if q != p)


def _changes_modify(w: Any, p: int, e: Primitive) -> bool:
    return bool(_modify_targets(w, p, e))


def _changes_reroll(w: Any, p: int, e: Primitive) -> bool:
    if e.args[1] == "self":
        return any(w.pool[p])
    return any(any(w.pool[q]) for q in range(len(w.money)) if q != p)


def _changes_temp_die(w: Any, p: int, e: Primitive) -> bool:
    return _temp_die_ok(w, p, str(e.args[0]))


def _changes_bonus(w: Any, p: int, e: Primitive) -> bool:
    if e.args[0] == "income":
        return territories_yielding(w, p) > 0
    return True


def _changes_place(w: Any, p: int, e: Primitive) -> bool:
    return bool(_th1_left(w, p)) and bool(_th1_places(w, p))


def _changes_recruit(w: Any, p: int, e: Primitive) -> bool:
    return _supply_left(w, p, TYPE_OF[str(e.args[0])]) > 0 and _has_building(w, p)


def _changes_boost(w: Any, p: int, e: Primitive) -> bool:
    if e.option("armies"):
        return True  # extra armies are judged with the die (:func:`_die_ok`)
    return _speed_helps(
        w,
        p,
        int(e.option("speed") or 0),
        bool(e.option("ignore_mountains")),
        e.option("only") == "cavalry",
    )


def _changes_upkeep(w: Any, p: int, e: Primitive) -> bool:
    cut = w.upkeep_cut[p] if w.upkeep_cut else 0
    return amount(w, p, e.args[0]) > 0 and upkeep_due(w, p) > cut


def _changes_track(w: Any, p: int, e: Primitive) -> bool:
    return bool(w.game.england.clamp(w.england + int(e.args[0])) != w.england)  # type: ignore[arg-type]


_CHANGES: dict[str, Callable[[Any, int, Primitive], bool]] = {
    "gain_money": _changes_gain,
    "gain_feud": _changes_gain,
    "gain_vp": _changes_gain,
    "draw_cards": _changes_draw,
    "pay_money": _changes_cost,
    "pay_feud": _changes_cost,
    "discard_cards": _changes_cost,
    "remove_troops": _changes_cost,
    "steal": _changes_steal,
    "modify_die": _changes_modify,
    "reroll_dice": _changes_reroll,
    "take_temp_die": _changes_temp_die,
    "bonus_action": _changes_bonus,
    "place_building": _changes_place,
    "recruit": _changes_recruit,
    "boost_move": _changes_boost,
    "reduce_upkeep": _changes_upkeep,
    "england_track": _changes_track,
}
"""Per primitive, whether it changes the game now (:func:`changes`); any other
(``choose_turn_order``, ``discount``) always does."""


def held_of(designs: tuple[int, ...]) -> Callable[[Sequence[int]], list[int]]:
    """A function giving the designs among ``designs`` (one window's, ascending) that a
    hand (counts per design) holds, in order. It picks and filters the counts in C: a
    window has up to 20 designs and a hand holds one or two, so a loop over the window
    cost more than the rest of a card offer."""
    if not designs:
        return lambda hand: []
    if len(designs) == 1:
        (d,) = designs
        return lambda hand: [d] if hand[d] else []
    if _COMPILED:
        return lambda hand: _held(designs, hand)
    counts = itemgetter(*designs)
    return lambda hand: list(compress(designs, counts(hand)))


def _held(designs: tuple[int, ...], hand: Sequence[int]) -> list[int]:
    """The designs among ``designs`` that ``hand`` holds, by a loop: compiled, a native
    loop over a tuple's counts costs a quarter of the picking and filtering in C that the
    interpreted build does (the arguments boxed, an iterator per call); a hand is a tuple
    but while a move writes it."""
    if isinstance(hand, tuple):
        row: tuple[int, ...] = hand
        return [d for d in designs if row[d]]
    return [d for d in designs if hand[d]]


_COMPILED: Final = not isinstance(_held, FunctionType)
"""Whether this module runs compiled (then :func:`held_of` loops in :func:`_held`)."""


_GAINS = frozenset({"gain_money", "gain_feud", "gain_vp"})


def always_changes(e: Expr) -> bool:
    """Whether :func:`changes` holds for ``e`` in every position, seen from its syntax
    alone (False when it depends on the position, or cannot be told that simply): a gain
    of a constant other than 0, a bonus action other than Income, a move boost not only
    for cavalry, a discount, the turn order, or a sequence of primitives without costs
    holding one of those. Worked out once per design at load."""
    if isinstance(e, Seq):
        items = e.items
        return all(
            isinstance(i, Primitive) and i.name not in COST_PRIMITIVES for i in items
        ) and any(always_changes(i) for i in items)
    if not isinstance(e, Primitive):
        return False
    name = e.name
    if name in _GAINS:
        a = e.args[0]
        return (isinstance(a, Const) and a.value != 0) or (type(a) is int and a != 0)
    if name == "bonus_action":
        return e.args[0] != "income"
    if name == "boost_move":
        return bool(e.option("armies"))  # speed and mountains: only where an army gains
    return name in ("choose_turn_order", "discount")


def plays(w: Any, p: int, window: str) -> list[ClanFeudAction]:
    """``play <design>`` for each design ``p`` holds whose window is ``window`` and whose
    action would change something now (P2 designs: also with some assignment)."""
    g = w.game
    held = g.window_held[window](w.hands[p])
    if not held:
        return []
    out: list[ClanFeudAction] = []
    if window == "P2.assign":
        pool = w.pool[p]
        dice = [i for i in range(len(pool)) if pool[i]]
        for d in held:
            # the die first: most phase-(2) cards fail on it, cheaply
            if card_playable(w, p, d, dice) and (
                g.always_changes[d] or changes(w, p, g.nodes[g.card_info[d].node])
            ):
                out.append(g.play_actions[d])
        return out
    for d in held:
        if g.always_changes[d] or changes(w, p, g.nodes[g.card_info[d].node]):
            out.append(g.play_actions[d])
    return out


def die_only_plays(
    infos: tuple[CardInfo, ...], candidates: tuple[tuple[tuple[Any, ...], ...], ...]
) -> tuple[tuple[frozenset[int], bool] | None, ...]:
    """Per design, worked out once at load: for a phase-(2) design whose die needs nothing
    from the card (no discount, free building, free troops or £ gained first), the ids of
    every assignment its filter allows and whether the die must move troops (a Military
    card in move mode); None for the others.

    Such a card goes with exactly the die's own possible assignments that its filter
    allows: its die acts as part 1's die does (a Build a paid build, a Military die a
    recruit or a move; in move mode a move, and then the player has troops, so part 1's
    die could act too), so :func:`card_assignments` would find what the player's own
    assignment options already hold. Ids, not the actions: the table's actions are the
    options' very objects, and a set of ids is tested against a list in C."""
    out: list[tuple[frozenset[int], bool] | None] = []
    for info, per_die in zip(infos, candidates, strict=True):
        helped = info.places or info.discount or info.free_type >= 0 or info.gains
        helped = helped or info.more_armies_only
        moves = info.mode == MODE_MOVE and info.column == MILITARY
        if info.window != "P2.assign" or helped or (info.mode and not moves):
            out.append(None)
        else:
            out.append((frozenset(id(c[3]) for row in per_die for c in row), moves))
    return tuple(out)


def plays_with_dice(w: Any, p: int, assignable: list[ClanFeudAction]) -> list[ClanFeudAction]:
    """:func:`plays` at ``P2.assign``, given ``assignable``, ``p``'s own assignment options
    (part 1's, without a card): a card whose die needs nothing from it is tested against
    them (see :func:`die_only_plays`), the others as :func:`plays` tests them."""
    g = w.game
    held = g.window_held["P2.assign"](w.hands[p])
    if not held:
        return []
    out: list[ClanFeudAction] = []
    dice: list[int] | None = None
    die_only = g.die_only
    for d in held:
        only = die_only[d]
        if only is not None:
            allowed, moves = only
            if moves and troop_totals(w.troops[p]) == NO_TROOPS:
                continue
            if allowed.isdisjoint(map(id, assignable)):
                continue
        else:
            if dice is None:
                dice = list(compress(DIE_INDEXES, w.pool[p]))
            if not card_playable(w, p, d, dice):
                continue
        if g.always_changes[d] or changes(w, p, g.nodes[g.card_info[d].node]):
            out.append(g.play_actions[d])
    return out


# ---------------------------------------------------------------------------------------
# Phase 2: a card with a die


def _matches(info: CardInfo, colour: int, value: int, column: int, level: int) -> bool:
    if info.column >= 0 and info.column != column:
        return False
    # the temporary die is white
    if info.colour >= 0 and info.colour != (0 if colour == TEMPORARY else colour):
        return False
    if info.value and info.value != value:
        return False
    if info.level:
        if info.level_at_least and level < info.level:
            return False
        if not info.level_at_least and level != info.level:
            return False
    return True


def _money_before_die(w: Any, p: int, info: CardInfo) -> int:
    """What the card's discount and its sure gains add to ``p``'s £ for its die."""
    return info.discount + sum(amount(w, p, a) for a in info.gains)


def _build_ok_with(w: Any, p: int, level: int, info: CardInfo) -> bool:
    before = _money_before_die(w, p, info)
    if not info.places:
        return _build_possible(w, p, level, before)
    # the card's free tower house first: any column's, in any territory with room
    columns = _th1_left(w, p)
    places = _th1_places(w, p) if columns else []
    if not places:
        return False
    money, cov = w.money[p] + before, w.covered[p]
    for column in columns:
        sale = build_sale(cov & ~(1 << (5 * column + 1)), money, level)
        if sale == SALE_ANYWHERE:
            return True
        if sale != SALE_NONE and any([_room_after_house(w, places, t, sale) for t in places]):
            return True
    return False


def _room_after_house(w: Any, places: list[int], t: int, sale: int) -> bool:
    """Whether a purchase of kind ``sale`` (``rules.build_sale``) still finds a territory
    once a card's free tower house stands in ``t``: the territories with room are
    ``places`` (``t`` among them), and ``t`` keeps room only if it had no building; a
    castle needs one with no castle or city."""
    site, towers = w.site, w.towers
    tower = sale == SALE_TOWER
    return any(
        [(u != t or (site[u] > 0) + towers[u] == 0) and (tower or site[u] == 0) for u in places]
    )


def _recruit_ok_with(w: Any, p: int, level: int, info: CardInfo) -> bool:
    if not _has_building(w, p):
        return False
    if info.free_type >= 0 and _supply_left(w, p, info.free_type) > 0:
        return True
    money = w.money[p] + _money_before_die(w, p, info)
    return any(money >= COST[k] and _supply_left(w, p, k) > 0 for k in range(level))


def _die_ok(w: Any, p: int, info: CardInfo, column: int, level: int) -> bool:
    """Whether a die assigned to ``column`` at ``level`` can carry out its action with
    the card's help (a Build a real paid build; a Military die its card's mode)."""
    if column == BUILD:
        return _build_ok_with(w, p, level, info)
    if column == MILITARY:
        moves = troop_totals(w.troops[p]) != NO_TROOPS
        if info.more_armies_only:  # an army more than the level: one troop more at least
            return sum(troop_totals(w.troops[p])) > level
        if info.mode == MODE_MOVE:
            return moves
        recruits = _recruit_ok_with(w, p, level, info)
        return recruits if info.mode == MODE_RECRUIT else recruits or moves
    return True


def card_candidates(
    info: CardInfo, assign_candidates: tuple[tuple[tuple[int, Any], ...], ...]
) -> tuple[tuple[tuple[int, int, int, Any], ...], ...]:
    """Per dice-pool index, the assignments a card's filter allows, worked out once at
    load: (the level's slots, column, level, action), in action-id order."""
    out = []
    for i, candidates in enumerate(assign_candidates):
        colour, v0 = divmod(i, 3)
        out.append(
            tuple(
                (bits, action.column, action.level, action)
                for bits, action in candidates
                if _matches(info, colour, v0 + 1, action.column, action.level)
            )
        )
    return tuple(out)


CardMasks = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
"""Per dice-pool index: the slots of the assignments a card's filter allows in the columns
that can always act, and per (Build or Military, level) key ``4 * column + level`` the
slots of those at that level (see :func:`card_masks`)."""


def card_masks(candidates: tuple[tuple[tuple[int, int, int, Any], ...], ...]) -> CardMasks:
    """A design's :func:`card_candidates` folded into slot masks, worked out once at load:
    per die, what :func:`card_playable` tests in a few ``&`` where
    :func:`card_assignments` walks each candidate."""
    out = []
    for per_die in candidates:
        always = 0
        gated: dict[int, int] = {}
        for bits, column, level, _ in per_die:
            if column in (BUILD, MILITARY):
                key = 4 * column + level
                gated[key] = gated.get(key, 0) | bits
            else:
                always |= bits
        out.append((always, tuple(gated.items())))
    return tuple(out)


def card_playable(w: Any, p: int, design: int, held: list[int]) -> bool:
    """Whether ``p`` may make some assignment with card ``design`` (``held``: the pool
    indices of ``p``'s unassigned dice): ``bool(card_assignments(w, p, design, held,
    first=True))``, from the design's slot masks (:func:`card_masks`). A card offer asks
    only this, for every phase-(2) card in hand whose die needs the card's help."""
    free = EXISTS & ~(w.covered[p] | w.filled[p])
    masks = w.game.card_masks[design]
    ready: dict[int, bool] | None = None
    for i in held:
        always, gated = masks[i]
        if free & always:
            return True
        for key, bits in gated:
            if free & bits:
                if ready is None:
                    ready = {}
                ok = ready.get(key)
                if ok is None:
                    ok = ready[key] = _die_ok(w, p, w.game.card_info[design], key >> 2, key & 3)
                if ok:
                    return True
    return False


def card_assignments(
    w: Any, p: int, design: int, held: list[int] | None = None, first: bool = False
) -> list[ClanFeudAction]:
    """The assignments ``p`` may make with card ``design``: free slots, the die filter,
    and a die action that can be carried out with the card (in action-id order).
    ``held``: the pool indices of ``p``'s unassigned dice, if already known; ``first``:
    stop at the first (whether there is one is all a play needs)."""
    g = w.game
    free = EXISTS & ~(w.covered[p] | w.filled[p])
    if held is None:
        held = [i for i, n in enumerate(w.pool[p]) if n]
    per_die = g.card_candidates[design]
    ready: dict[int, bool] = {}
    out: list[ClanFeudAction] = []
    for i in held:
        for bits, column, level, action in per_die[i]:
            if not free & bits:
                continue
            if column in (BUILD, MILITARY):  # the others can always act
                key = 4 * column + level
                ok = ready.get(key)
                if ok is None:
                    ok = ready[key] = _die_ok(w, p, g.card_info[design], column, level)
                if not ok:
                    continue
            out.append(action)
            if first:
                return out
    return out


def pending_assignments(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    """The ``assign`` decision after ``play <design>``: the card's assignments."""
    return tuple(card_assignments(w, task.player, task.a - 1))


def play_card(w: W, p: int, design: int) -> None:
    """``p`` plays a card of ``design`` for its action: it leaves the hand, face up."""
    w.hands = put(w.hands, p, plus(w.hands[p], design, -1))
    w.discards = plus(w.discards, design, 1)
    forget(w, p, design)


def play_at_assign(w: W, task: Task, action: PlayAction) -> None:
    """``play <design>`` at an assignment turn: the same turn now asks for the die."""
    play_card(w, task.player, action.design)
    set_top_a(w, action.design + 1)


def assign_with_card(w: W, p: int, design: int, action: Assign, column_task: Task) -> None:
    """The die is assigned with a card: the card's action resolves first, then the die's
    with the card's modifiers, then ``cardend`` clears them."""
    info: CardInfo = w.game.card_info[design]
    w.tasks.append(interned("cardend", p))
    w.tasks.append(column_task)
    w.mods = (p, design, action.column, action.level, info.mode, 0, -1, 0, 0, 0, 0, 0)
    w.tasks.append(program(p, info.node, card=True))


def _set_mod(w: W, **fields: int) -> None:
    """Set fields of ``state.mods`` by name (``discount=3`` sets ``MOD_DISCOUNT``)."""
    mods = list(w.mods)
    for key, value in fields.items():
        mods[globals()["MOD_" + key.upper()]] = value
    w.mods = tuple(mods)


def _cardend_run(w: W, task: Task) -> bool:
    w.mods = ()
    w.tasks.pop()
    return True


def discount(w: Any, p: int) -> int:
    """The discount ``p``'s card gives the current Build or recruit (0 without one)."""
    mods = w.mods
    return int(mods[MOD_DISCOUNT]) if mods and mods[MOD_PLAYER] == p else 0


def spend(w: W, p: int, price: int) -> None:
    """``p`` pays ``price`` less the card's discount. The discount is off the whole
    action's price (E14; one discount per Build action, even a LVL III double build), so
    what a first purchase leaves of it comes off the second."""
    left = discount(w, p)
    cut = min(left, price)
    if cut:
        _set_mod(w, discount=left - cut)
    w.money = plus(w.money, p, cut - price)


def forced_mode(w: Any, p: int) -> str | None:
    """``move`` or ``recruit`` when ``p``'s card says how its Military die is used."""
    mods = w.mods
    if not mods or mods[MOD_PLAYER] != p or not mods[MOD_MODE]:
        return None
    return "move" if mods[MOD_MODE] == MODE_MOVE else "recruit"


def extra_armies(w: Any, p: int) -> int:
    """Armies a card's boost adds to ``p``'s move (E17 ``armies=+a``)."""
    mods = w.mods
    return mods[MOD_ARMIES] if mods and mods[MOD_PLAYER] == p else 0


def _boosted(w: Any, p: int, army: tuple[int, ...]) -> bool:
    mods = w.mods
    if not mods or mods[MOD_PLAYER] != p:
        return False
    # cavalry-only boosts: the army's troops only cavalry (King James ignored)
    return not mods[MOD_CAVALRY] or (not army[0] and not army[2] and army[1] > 0)


def speed_bonus(w: Any, p: int, army: tuple[int, ...]) -> int:
    """Extra speed a card's boost gives this army of ``p``'s move."""
    return w.mods[MOD_SPEED] if _boosted(w, p, army) else 0


def ignores_mountains(w: Any, p: int, army: tuple[int, ...]) -> bool:
    """Whether this army of ``p``'s move may step into and out of mountains freely."""
    return _boosted(w, p, army) and bool(w.mods[MOD_MOUNTAINS])


def after_recruit_place(w: W, p: int, t: int) -> None:
    """The recruit's territory is named: the card's free troops come first."""
    mods = w.mods
    if mods and mods[MOD_PLAYER] == p and mods[MOD_FREE_N] > 0:
        w.tasks.append(new_task("free_recruit", p, mods[MOD_FREE_TYPE], mods[MOD_FREE_N], t))


def free_troops_arrive(w: W, p: int, t: int, kind: int, k: int) -> None:
    """E16's ``k`` free troops of ``kind`` arrive in ``p``'s recruit territory ``t``.

    They join the die's recruits there: where an English army stands, the recruit step
    that follows (it always does) sends them all to fight it (``war.recruits_attack``), and
    they take a lone King only if they win (part 2's ruling 21)."""
    drafts.troop_row(w, p)[3 * t + kind] += k
    if w.regent < 0 and w.king == t and not (w.english and war.holds(w, t)):
        w.set_regent(p)  # troops at rest beside a lone King take him (part 1's ruling 12)


def _free_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    kind = task.a
    most = min(task.b, _supply_left(w, task.player, kind))
    return tuple(w.game.take_actions[kind][k] for k in range(1 if most else 0, most + 1))


def _free_apply(w: W, task: Task, action: Take, player: int) -> None:
    p, t, kind, k = task.player, task.c, task.a, action.count
    w.tasks.pop()
    _set_mod(w, free_n=0)
    if not k:
        return
    free_troops_arrive(w, p, t, kind, k)
    # the recruit below counts them: it may then buy no paid troop
    recruit = w.tasks[-1]
    w.tasks[-1] = new_task(recruit.kind, recruit.player, recruit.a, recruit.b, recruit.c, (k,))


# ---------------------------------------------------------------------------------------
# Phase 1 and phase 3 windows


def begin_before_order(w: W) -> bool:
    """Open ``P1.before_order`` if a player holds a card; False if nobody does."""
    if not any(any(h) for h in w.hands):
        return False
    w.tasks.append(interned("p1order", -1, 0))
    return True


def _p1order_run(w: W, task: Task) -> bool:
    n = w.game.seat_count
    for idx in range(task.a, n):
        q = w.order[idx]
        if any(w.hands[q]):
            if q != task.player or idx != task.a:
                update_top(w, player=q, a=idx)
            return False
    w.tasks.pop()
    from clangames.clan_feud.rules import push_order_setter

    push_order_setter(w)
    return True


def _p1order_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    return (w.game.words["pass"], *plays(w, task.player, "P1.before_order"))


def _p1order_apply(w: W, task: Task, action: Any, player: int) -> None:
    if isinstance(action, Word):
        set_top_a(w, task.a + 1)
        return
    d = action.design
    play_card(w, player, d)
    if w.game.card_info[d].orders:
        # the first turn-order card played wins the turn: no other may follow
        w.tasks.pop()
    else:
        set_top_a(w, task.a + 1)
    w.tasks.append(program(player, w.game.card_info[d].node, card=True))


def begin_after_roll(w: W) -> None:
    """Open ``P1.after_roll`` (under nothing else: the roll task has just finished)."""
    if any(any(h) for h in w.hands):
        w.tasks.append(interned("p1cards", -1, 0, 0))


def _p1cards_run(w: W, task: Task) -> bool:
    n = w.game.seat_count
    a, b = task.a, task.b
    while b < n:
        q = w.order[a % n]
        if any(w.hands[q]):
            if q != task.player or a != task.a or b != task.b:
                update_top(w, player=q, a=a % n, b=b)
            return False
        a, b = a + 1, b + 1  # no card: a pass
    w.tasks.pop()
    return True


def _p1cards_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    return (w.game.words["pass"], *plays(w, task.player, "P1.after_roll"))


def _p1cards_apply(w: W, task: Task, action: Any, player: int) -> None:
    n = w.game.seat_count
    if isinstance(action, Word):
        update_top(w, a=(task.a + 1) % n, b=task.b + 1)
        return
    play_card(w, player, action.design)
    update_top(w, a=(task.a + 1) % n, b=0)
    w.tasks.append(program(player, w.game.card_info[action.design].node, card=True))


def p3_task(p: int) -> Task:
    """The ``P3.upkeep`` window of seat ``p`` (pushed over its upkeep task)."""
    return interned("p3cards", p)


def _p3cards_run(w: W, task: Task) -> bool:
    if any(w.hands[task.player]):
        return False
    w.tasks.pop()
    return True


def _p3cards_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    return (w.game.words["pass"], *plays(w, task.player, "P3.upkeep"))


def _p3cards_apply(w: W, task: Task, action: Any, player: int) -> None:
    if isinstance(action, Word):
        w.tasks.pop()
        return
    play_card(w, player, action.design)
    w.tasks.append(program(player, w.game.card_info[action.design].node, card=True))


def upkeep_owed(w: Any, p: int) -> int:
    """``p``'s upkeep after this phase's card cuts (E18), never below 0."""
    due = upkeep_due(w, p)
    if w.upkeep_cut:
        return max(0, due - int(w.upkeep_cut[p]))
    return due


def _ask_window(w: W, task: Task) -> bool:
    return True  # asked whenever a hand holds a card: see the module's docstring


# ---------------------------------------------------------------------------------------
# The primitives with decisions


def primitive(w: W, p: int, e: Primitive) -> None:
    """Start a card primitive (the interpreter has taken it off the program)."""
    name = e.name
    g = w.game
    if name == "steal":
        w.tasks.append(new_task("steal", p, int(e.args[0] == "card"), int(e.args[1])))  # type: ignore[arg-type]
    elif name == "modify_die":
        count, to_three = int(e.args[0]), int(e.args[1] == "1to3")  # type: ignore[arg-type]
        w.tasks.append(new_task("modify", p, count, to_three, g.node_index[e]))
    elif name == "reroll_dice":
        target = p if e.args[1] == "self" else -1
        w.tasks.append(new_task("reroll", p, int(e.args[0]), target))  # type: ignore[arg-type]
    elif name == "take_temp_die":
        colour = str(e.args[0])
        if _temp_die_ok(w, p, colour):
            c = TEMPORARY if colour == "white" else COLOUR_OF[colour]
            counts = [0] * (7 * g.seat_count)
            counts[7 * p + c] = 1
            w.tasks.append(new_task("roll", -1, 1, data=tuple(counts)))
    elif name == "choose_turn_order":
        w.tasks.append(interned("order", p))
    elif name == "bonus_action":
        column, level = str(e.args[0]), LEVEL_OF[str(e.args[1])]
        w.tasks.append(interned(column, p, level))
    elif name == "discount":
        _set_mod(w, discount=discount(w, p) + int(e.args[0]))  # type: ignore[arg-type]
    elif name == "place_building":
        if _th1_left(w, p) and _th1_places(w, p):
            w.tasks.append(interned("th1", p))
    elif name == "recruit":
        _set_mod(w, free_type=TYPE_OF[str(e.args[0])], free_n=int(e.args[1]))  # type: ignore[arg-type]
    elif name == "boost_move":
        mods = w.mods
        armies = int(e.option("armies") or 0)
        speed = int(e.option("speed") or 0)
        _set_mod(
            w,
            armies=mods[MOD_ARMIES] + armies,
            speed=mods[MOD_SPEED] + speed,
            mountains=int(bool(e.option("ignore_mountains")) or bool(mods[MOD_MOUNTAINS])),
            cavalry=int(e.option("only") == "cavalry"),
        )
    elif name == "reduce_upkeep":
        cut = list(w.upkeep_cut) if w.upkeep_cut else [0] * g.seat_count
        cut[p] += amount(w, p, e.args[0])
        w.upkeep_cut = tuple(cut)
    else:
        raise TypeError(f"expected an action card primitive, got {e.name!r}")


# -- steal (E8)


def _steal_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p = task.player
    seats = w.game.seat_actions
    if task.a:
        return tuple(seats[q] for q in range(w.game.seat_count) if q != p and any(w.hands[q]))
    return tuple(seats[q] for q in range(w.game.seat_count) if q != p and w.money[q])


def _steal_run(w: W, task: Task) -> bool:
    if _steal_options(w, task):
        return False
    w.tasks.pop()  # nobody left to steal from (the card was judged with a victim)
    return True


def _steal_apply(w: W, task: Task, action: Seat, player: int) -> None:
    p, q = task.player, action.seat
    w.tasks.pop()
    if task.a:
        w.tasks.append(new_task("steal_card", p, q, task.b))
        return
    k = min(task.b, w.money[q])
    w.money = gain(plus(w.money, q, -k), p, k)


def _steal_card_run(w: W, task: Task) -> bool:
    if task.b <= 0 or not any(w.hands[task.a]):
        w.tasks.pop()
        return True
    return False


def _steal_card_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    hand = w.hands[task.a]
    return tuple(zip(compress(w.game.draw_actions, hand), filter(None, hand), strict=True))


def _steal_card_apply(w: W, task: Task, action: DrawCard, player: int) -> None:
    p, q, d = task.player, task.a, action.design
    # a random steal from q ends what anyone knew of q's hand; p now knows what q lost
    w.known = tuple(k for k in w.known if k[0] != q)
    w.hrow(q)[d] -= 1
    w.hrow(p)[d] += 1
    w.known = (*w.known, (p, q, d))
    update_top(w, b=task.b - 1)


def forget(w: W, p: int, design: int) -> None:
    """A card of ``design`` left ``p``'s hand: nobody may assume ``p`` still holds one."""
    if w.known:
        w.known = tuple(k for k in w.known if k[0] != p or k[2] != design)


# -- modify_die (E9)


def _modify_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p = task.player
    e = w.game.nodes[task.c]
    if not isinstance(e, Primitive):
        raise TypeError(f"expected a modify_die node, got {e!r}")
    used = task.data
    g = w.game
    out: list[ClanFeudAction] = [g.words["stop"]] if used else []
    for i in _modify_targets(w, p, e, used):
        c, v = divmod(i, 3)
        out.append(g.three_actions[c] if task.b else g.raise_actions[c, v + 1])
    return tuple(out)


def _modify_run(w: W, task: Task) -> bool:
    if task.a <= 0 or not _modify_options(w, task):
        w.tasks.pop()
        return True
    return False


def _modify_apply(w: W, task: Task, action: Any, player: int) -> None:
    p = task.player
    if isinstance(action, Word):
        w.tasks.pop()
        return
    pool = w.prow(p)
    if isinstance(action, ToThree):
        i, j = 3 * action.colour, 3 * action.colour + 2
    else:
        i = 3 * action.colour + action.value - 1
        j = i + 1
    pool[i] -= 1
    pool[j] += 1
    update_top(w, a=task.a - 1, data=(*task.data, j))


# -- reroll_dice (E10)


def _reroll_run(w: W, task: Task) -> bool:
    target = task.b
    if target >= 0 and (task.a <= 0 or not any(w.pool[target])):
        _reroll_done(w, task)
        return True
    if target < 0 and not _reroll_options(w, task):
        w.tasks.pop()  # no opponent has an unassigned die left
        return True
    return False


def _reroll_done(w: W, task: Task) -> None:
    w.tasks.pop()
    if task.data:
        counts = [0] * (7 * w.game.seat_count)
        for c in task.data:
            counts[7 * task.b + c] += 1
        w.tasks.append(new_task("roll", -1, 1, data=tuple(counts)))


def _reroll_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    g = w.game
    p = task.player
    if task.b < 0:
        return tuple(g.seat_actions[q] for q in range(g.seat_count) if q != p and any(w.pool[q]))
    out: list[ClanFeudAction] = [g.words["stop"]] if task.data else []
    picks = g.reroll_actions
    out += [a for i, n in enumerate(w.pool[task.b]) if n and (a := picks[i]) is not None]
    return tuple(out)


def _reroll_apply(w: W, task: Task, action: Any, player: int) -> None:
    if isinstance(action, Seat):
        update_top(w, b=action.seat)
        return
    if isinstance(action, Word):
        _reroll_done(w, task)
        return
    # the picked die leaves the pool until it is rolled again: it cannot be picked twice
    w.prow(task.b)[3 * action.colour + action.value - 1] -= 1
    update_top(w, a=task.a - 1, data=(*task.data, action.colour))


# -- place_building (E15)


def _th1_territories(w: Any, p: int, column: int) -> list[int]:
    """Where ``p`` may put the LVL I tower house of ``column`` for free: its territories
    with room, and, with a Build die, only where a paid Build stays possible after."""
    mods = w.mods
    if not (mods and mods[MOD_PLAYER] == p and mods[MOD_COLUMN] == BUILD):
        return _th1_places(w, p)
    cov = w.covered[p] & ~(1 << (5 * column + 1))
    sale = build_sale(cov, w.money[p] + mods[MOD_DISCOUNT], mods[MOD_LEVEL])
    places = _th1_places(w, p)
    if sale == SALE_ANYWHERE:
        return places
    if sale == SALE_NONE:
        return []
    return [t for t in places if _room_after_house(w, places, t, sale)]


def _th1_run(w: W, task: Task) -> bool:
    if _th1_options(w, task):
        return False
    w.tasks.pop()  # nothing left to place (judged possible when the card was played)
    return True


def _th1_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p = task.player
    g = w.game
    if not task.a:
        columns = [c for c in _th1_left(w, p) if _th1_territories(w, p, c)]
        return tuple(g.build_actions[c, 1] for c in columns)
    return tuple(g.place_actions[t] for t in _th1_territories(w, p, task.a))


def _th1_apply(w: W, task: Task, action: Any, player: int) -> None:
    p = task.player
    if isinstance(action, BuildSlot):
        set_top_a(w, action.column)
        return
    drafts.writable(w, "covered")[p] &= ~(1 << (5 * task.a + 1))  # the slot is free at once
    drafts.writable(w, "towers")[action.territory] += 1
    w.tasks.pop()


# ---------------------------------------------------------------------------------------
# Words


PROMPTS = {
    "p1order": "play a turn-order card before the turn order is set, or pass",
    "p1cards": f"play an action card, or pass ({phase_words('p1cards')})",
    "p3cards": f"play an action card, or pass ({phase_words('p3cards')})",
    "steal": "name the player to steal from",
    "steal_card": "a card is taken at random",
    "modify": "choose a die to change",
    "reroll": "choose the dice to reroll",
    "th1": "place a free level I tower house",
    "free_recruit": "place the card's free troops",
}


def _units(n: int, unit: str) -> str:
    """``n`` of ``unit`` in words: ``£3``, ``1 VP``, ``2 feud tokens``, ``1 action card``."""
    if unit == "£":
        return f"£{n}"
    if unit == "VP" or abs(n) == 1:
        return f"{n} {unit}"
    return f"{n} {unit}s"


def _place_names(ids: Sequence[str], board: Board | None) -> str:
    """Territories named on a card, by the map's names (``Edinburgh or Edinburgh
    Castle``); without a board, their ids as words."""
    names = [
        board.territories[board.index[i]].name
        if board is not None and i in board.index
        else i.replace("_", " ").title()
        for i in ids
    ]
    return " or ".join(names)


def _counted(q: Quantity, board: Board | None) -> tuple[str, str, str, str]:
    """How a quantity is said: the verb, the thing counted in the singular and the
    plural, and what follows the count (``control``, ``city``, ``cities``, ``""``;
    ``have``, ``cavalry``, ``cavalry``, `` on the board``)."""
    name, args = q.name, q.args
    if name == "troops":
        kind = args[0] if args else ""
        return ("have", kind or "troop", kind or "troops", " on the board")
    if name == "troops_in":
        return ("have", "troop", "troops", " in " + _place_names(args, board))
    if name == "territories_in":
        numerals = _numeral_text(args).replace("..", " to ")
        return ("control", "territory", "territories", f" numbered {numerals}")
    if name == "feud":
        return ("hold", "feud token", "feud tokens", "")
    if name == "money":
        return ("hold", "£", "money", "")
    if name == "hand":
        return ("hold", "action card", "action cards", " in hand")
    singular = {"territories": "territory", "cities": "city", "castles": "castle"}
    plural = name.replace("_", " ")
    return ("control", singular.get(name, plural[:-1]), plural, "")


def _per(a: Any, unit: str, board: Board | None = None) -> str:
    """An amount in words: a constant, or so many per counted thing."""
    if isinstance(a, Const):
        return _units(a.value, unit)
    if isinstance(a, Scaled):
        verb, one, many, tail = _counted(a.quantity, board)
        each = _units(a.factor, unit)
        if verb == "control":
            tail = " you control" + tail
        if one == "£":
            return f"{each} per £{a.divisor}"
        if a.divisor > 1:
            return f"{each} per {a.divisor} {many}{tail}"
        return f"{each} per {one}{tail}"
    return f"{a}"


def _how_many(op: str, k: int, one: str, many: str) -> str:
    """``at least 3 cavalry``, ``at most 1 feud token``, ``no troops``, ``at least £5``."""
    if one == "£":
        count = f"£{k}" if k else "no money"
    else:
        count = f"{k} {one if k == 1 else many}" if k else f"no {many}"
    if op == ">=":
        return f"at least {count}"
    if op == "<=":
        return f"at most {count}"
    return count if not k else f"exactly {count}"


def condition_text(c: Condition, board: Board | None = None) -> str:
    """A card's condition in words about the acting player: ``you hold at most 1 feud
    token``, ``no one controls more castles than you and you control at least 1 castle``
    (the most, ties too, but not none), ``you control Stirling``. ``board`` names the
    territories a condition names (else their ids)."""
    if isinstance(c, And):
        return " and ".join(condition_text(x, board) for x in c.parts)
    if isinstance(c, Truth):
        if c.quantity.name == "controls":
            return f"you control {_place_names(c.quantity.args, board)}"
        return "you are regent"
    verb, one, many, tail = _counted(c.quantity, board)
    # said without brackets: the sentence often sits in brackets itself (an objective)
    theirs = {"have": "has"}.get(verb, verb + "s")
    more = "more money" if one == "£" else f"more {many}{tail}"
    if isinstance(c, Most):
        least = _how_many(">=", 1, one, many)
        return f"no one {theirs} {more} than you and you {verb} {least}{tail}"
    if isinstance(c, Fewest):
        fewer = "less money" if one == "£" else f"fewer {many}{tail}"
        return f"no one {theirs} {fewer} than you"
    return f"you {verb} {_how_many(c.op, c.value, one, many)}{tail}"


def card_text(e: Expr, victim: int = -1, board: Board | None = None) -> str:
    """An expression read like a card's text (``victim``: the named opponent, if any;
    ``board``: the map, whose names a condition's territories are given by)."""
    if isinstance(e, Seq):
        return ", then ".join(card_text(i, victim, board) for i in e.items)
    if isinstance(e, Or):
        return " or ".join(card_text(o, victim, board) for o in e.options)
    if isinstance(e, May):
        return "you may " + card_text(e.body, victim, board)
    if isinstance(e, If):
        return f"if {condition_text(e.condition, board)}, {card_text(e.body, victim, board)}"
    if isinstance(e, Repeat):
        return f"up to {e.times} times: {card_text(e.body, victim, board)}"
    name, args = e.name, e.args
    someone = f"player {victim}" if victim >= 0 else "an opponent"
    if name == "gain_money":
        return "gain " + _per(args[0], "£", board)
    if name == "pay_money":
        return "pay " + _per(args[0], "£", board)
    if name == "gain_feud":
        return "take " + _per(args[0], "feud token", board)
    if name == "pay_feud":
        return "return " + _per(args[0], "feud token", board)
    if name == "gain_vp":
        return "score " + _per(args[0], "VP", board)
    if name == "draw_cards":
        return "draw " + _per(args[0], "action card", board)
    if name == "discard_cards":
        return "discard " + _per(args[0], "action card", board)
    if name == "steal":
        if args[0] == "money":
            return f"steal up to £{args[1]} from {someone}"
        return f"take {_units(int(args[1]), 'action card')} at random from {someone}"  # type: ignore[arg-type]
    if name == "modify_die":
        n = int(args[0])  # type: ignore[arg-type]
        which = "one of your unassigned dice" if n == 1 else f"up to {n} of your unassigned dice"
        return f"raise {which} by 1" if args[1] == "+1" else f"turn {which} showing 1 into a 3"
    if name == "reroll_dice":
        whose = "your" if args[1] == "self" else f"{someone}'s"
        return f"reroll up to {args[0]} of {whose} unassigned dice"
    if name == "take_temp_die":
        return f"take a {args[0]} die from the supply for this turn and roll it"
    if name == "choose_turn_order":
        return "set this turn's order yourself"
    if name == "bonus_action":
        return f"take the {str(args[0]).capitalize()} column's level {args[1]} action without a die"
    if name == "discount":
        return f"this action costs £{args[0]} less"
    if name == "place_building":
        return "place one of your level I tower houses free in a territory you control"
    if name == "recruit":
        return f"recruit up to {args[1]} {args[0]} free with this action"
    if name == "boost_move":
        parts = []
        if e.option("armies"):
            parts.append(f"move {_units(int(e.option('armies') or 0), 'more army')}")
        if e.option("speed"):
            parts.append(f"armies move {e.option('speed')} further")
        if e.option("ignore_mountains"):
            parts.append("ignoring mountains")
        text = ", ".join(parts)
        return text + (" (armies of cavalry only)" if e.option("only") == "cavalry" else "")
    if name == "reduce_upkeep":
        return "reduce your upkeep by " + _per(args[0], "£", board).lstrip("£")
    if name == "england_track":
        n = int(args[0])  # type: ignore[arg-type]
        return f"move the England track {_units(abs(n), 'step')} {'down' if n < 0 else 'up'}"
    if name == "remove_troops":
        return f"remove {_units(int(args[0]), 'troop')} of yours"  # type: ignore[arg-type]
    return str(e)


def _under(game: Any, root: int, node: int) -> bool:
    """Whether expression ``node`` is ``root`` or one of its sub-expressions."""
    todo = [root]
    while todo:
        at = todo.pop()
        if at == node:
            return True
        todo.extend(game.node_children[at])
    return False


def program_source(game: Any, events: Sequence[int], task: Task) -> str:
    """What a ``prog`` task is resolving, in words a player knows the card by: ``the event
    Pacification of Perth``, ``the objective of Pacification of Perth``, ``the action card
    Forty Days' Service``. Only public things are read (the task and the events drawn),
    so a seat's observation serves as well as the state."""
    if task.a:  # an action card played for its action: ``a`` is its node + 1
        for card in game.deck.designs:
            if game.node_index[card.action] == task.a - 1:
                return f"the action card {card.name}"
    node = task.data[-2] if task.data else -1
    if events and node >= 0:
        event = events[-1]
        name = game.events.regular[event].name
        if _under(game, game.each_player_nodes[event], node):
            return f"the event {name}"
        if _under(game, game.objective_nodes[event], node):
            return f"the objective of {name}"
    return "the card"


def program_text(game: Any, task: Task) -> str:
    """What a ``prog`` task asks about now, read like card text (its current node)."""
    if not task.data:
        return ""
    return card_text(game.nodes[task.data[-2]], board=game.board)


def option_text(game: Any, task: Task, k: int) -> str | None:
    """What ``option k`` of the OR a ``prog`` task stands at does (None: not at an OR)."""
    if task.kind != "prog" or not task.data:
        return None
    e = game.nodes[task.data[-2]]
    if not isinstance(e, Or) or not 1 <= k <= len(e.options):
        return None
    return card_text(e.options[k - 1], board=game.board)


def objective_text(game: Any, event: int) -> str:
    """A regular event's objective (scored in the next turn's phase 3) as card text."""
    return card_text(game.events.regular[event].objective, board=game.board)


def territory_name(s: ClanFeudState | W, t: int) -> str:
    """Territory ``t``'s name on ``s``'s map, as every sentence of the game names it."""
    return str(s.game.board.territories[t].name)


def slot_cover(column: int, slot: int) -> str:
    """What covers a board slot until a Build buys it (and what buying it gives)."""
    if slot == 1 and column == BUILD:
        return "the black die"
    if slot in (1, 2):
        return "a tower house"
    if slot == 3:
        return "a castle"
    return f"the {COLOURS[DIE_OF_COLUMN[column]]} die"


def combat_text(effect: CombatEffect) -> str:
    """A card's combat effect in words (``+2 strength``, ``1 more casualty for the enemy``),
    not the card file's notation (``cs+2``, ``skulls+1``)."""
    k = effect.amount
    if effect.kind == "cs":
        return f"+{k} strength"
    casualties = "casualty" if k == 1 else "casualties"
    if effect.kind == "skulls+":
        return f"{k} more {casualties} for the enemy"
    if effect.kind == "skulls-":
        return f"{k} fewer {casualties} of your own"
    if effect.kind == "cancel":
        return "cancels the other side's card"
    return "casualty dice rolling 2 count as 3"


def card_use(game: Any, design: int) -> str:
    """What an action card is good for, by its name: its action and, in battle, its
    combat effect (``Voyage to the Isles: take ...; in battle +1 strength``)."""
    card = game.deck.designs[design]
    return f"{card_text(card.action, board=game.board)}; in battle {combat_text(card.combat)}"


def filter_text(info: CardInfo, assigned: bool = True, verb: str = "assigned") -> str:
    """A card's die filter in words: ``a black die``, ``a die assigned to the Build column
    at level II or above`` (``assigned``: else ``a die to the ...``, after "assign";
    ``verb``: the words between the die and its column)."""
    die = "a die"
    if info.colour >= 0:
        die = f"a {COLOURS[info.colour]} die"
    if info.value:
        die += f" showing {info.value}"
    where = ""
    if info.column >= 0:
        column = COLUMN_NAMES[info.column].capitalize()
        where = (f" {verb}" if assigned else "") + f" to the {column} column"
    if info.level:
        level = LEVEL_NAMES[info.level - 1]
        where += f" at level {level}" + (" or above" if info.level_at_least else "")
    if info.mode:
        where += ", to move" if info.mode == MODE_MOVE else ", to recruit"
    return die + where


def _with_die(game: Any, design: int) -> str:
    """For a card that goes with a die assigned after it: which die (``, with a die you
    assign next to the Military column``), so that playing it says what comes next."""
    info = game.card_info[design]
    if info.window != "P2.assign":
        return ""
    text = filter_text(info, verb="you assign next")
    if info.column < 0:  # no column named: the verb goes after the die
        die, _, rest = text.partition(",")
        text = f"{die} you assign next" + (f",{rest}" if rest else "")
    return f", with {text}"


def describe(s: ClanFeudState, action: Any) -> str | None:
    """Words for the card actions (None: not a card action)."""
    g = s.game
    task = s.tasks[-1] if s.tasks else None
    if isinstance(action, PlayAction):
        card = g.deck.designs[action.design]
        what = card_text(card.action, board=g.board)
        return f"play {card.name} ({what}){_with_die(g, action.design)}"
    if task is None:
        return None
    if task.kind == "steal" and isinstance(action, Seat):
        what = f"£{task.b}" if not task.a else f"{_units(task.b, 'action card')} at random"
        lead = "steal up to" if not task.a else "take"
        return f"{lead} {what} from player {action.seat}"
    if task.kind == "reroll" and isinstance(action, Seat):
        return f"reroll dice of player {action.seat}"
    if isinstance(action, Reroll):
        return f"reroll a {COLOURS[action.colour]} die showing {action.value}"
    if task.kind == "th1" and isinstance(action, BuildSlot):
        column = COLUMN_NAMES[action.column]
        return f"take the {column} column's level I tower house (its slot is free at once)"
    if task.kind in ("p1order", "p1cards", "p3cards") and isinstance(action, Word):
        return "play no card now"
    return None


def register(
    run: dict[str, Callable[..., bool]],
    options: dict[str, Callable[..., tuple[ClanFeudAction, ...]]],
    weights: dict[str, Callable[..., tuple[tuple[ClanFeudAction, int], ...]]],
    apply: dict[str, Callable[..., None]],
    ask: dict[str, Callable[..., bool]],
) -> None:
    """Add the card tasks to the rules' tables."""
    run.update(
        {
            "cardend": _cardend_run,
            "p1order": _p1order_run,
            "p1cards": _p1cards_run,
            "p3cards": _p3cards_run,
            "steal": _steal_run,
            "steal_card": _steal_card_run,
            "modify": _modify_run,
            "reroll": _reroll_run,
            "th1": _th1_run,
        }
    )
    options.update(
        {
            "p1order": _p1order_options,
            "p1cards": _p1cards_options,
            "p3cards": _p3cards_options,
            "steal": _steal_options,
            "modify": _modify_options,
            "reroll": _reroll_options,
            "th1": _th1_options,
            "free_recruit": _free_options,
        }
    )
    weights["steal_card"] = _steal_card_weights
    apply.update(
        {
            "p1order": _p1order_apply,
            "p1cards": _p1cards_apply,
            "p3cards": _p3cards_apply,
            "steal": _steal_apply,
            "steal_card": _steal_card_apply,
            "modify": _modify_apply,
            "reroll": _reroll_apply,
            "th1": _th1_apply,
            "free_recruit": _free_apply,
        }
    )
    for kind in ("p1order", "p1cards", "p3cards"):
        ask[kind] = _ask_window


# ---------------------------------------------------------------------------------------
# Bounds


def draws_cards(e: Expr) -> bool:
    """Whether expression ``e`` can draw action cards: ``draw_cards``, or a bonus Intrigue
    action (the column's action draws)."""
    return any(
        p.name == "draw_cards" or (p.name == "bonus_action" and p.args[0] == "intrigue")
        for p in _primitives(e)
    )


_FIXED_STEPS = {
    "take_temp_die": 1,
    "place_building": 2,
    "recruit": 1,
    "bonus_action": 4,
}
"""Steps of a card primitive that do not depend on its count: the temporary die's roll;
the tower house's column and territory; the free troops' number; a bonus column action
(Feud: two decisions; Income II: one roll; Intrigue III: three draws)."""


def card_steps(e: Expr, players: int) -> int:
    """The most steps (decisions and chance outcomes) one card's action can take."""
    from clangames.clan_feud.interpret import max_decisions

    if isinstance(e, Seq):
        return sum(card_steps(i, players) for i in e.items)
    if isinstance(e, Or):
        return 1 + max(card_steps(o, players) for o in e.options)
    if isinstance(e, May):
        return 1 + card_steps(e.body, players)
    if isinstance(e, If):
        return card_steps(e.body, players)
    if isinstance(e, Repeat):
        return e.times * (1 + card_steps(e.body, players)) + 1
    name = e.name
    if name == "steal":
        return 1 + int(e.args[1])  # type: ignore[arg-type]
    if name == "modify_die":
        return int(e.args[0]) + 1  # type: ignore[arg-type]
    if name == "reroll_dice":
        return 2 * int(e.args[0]) + 2  # type: ignore[arg-type]
    if name == "choose_turn_order":
        return players
    return _FIXED_STEPS.get(name, 0) + max_decisions(e)
