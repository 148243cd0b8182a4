"""Why a Clan Feud action is not legal now, in words: the rule, card or piece that stops it.

:func:`explain_illegal` is the state's ``explain_illegal`` (the terminal front-end, the web
server and :class:`~clangames.engine.errors.IllegalActionError` show it). It finds the
decision on top of the task stack and asks that decision's explainer, which reads the
position through the same helpers as the decision's ``OPTIONS`` handler in :mod:`rules`,
:mod:`military`, :mod:`playing`, :mod:`interpret` and :mod:`war` (``build_options``'
checks, ``recruit_possible``, ``card_assignments``, ``changes``, ``available``,
``retreats``, ``nearest``...), so the words cannot drift from the rules.

:func:`obstacle` is the reason alone, or None when it finds nothing in the way: the tests
hold it to the legal actions both ways (None for every legal action, a reason for every
illegal one). It reads only what the asking seat may see: its own hand, the public board,
hand sizes, never another hand, a sealed commitment or the deck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clangames.clan_feud import playing, war
from clangames.clan_feud.actions import (
    COLOURS,
    COLUMN_NAMES,
    FACE_MAX,
    LEVEL_NAMES,
    SLOT_NAMES,
    TROOPS,
    Assign,
    BuildSlot,
    Commit,
    Discard,
    DrawCard,
    DrawEvent,
    Hits,
    Lose,
    Lot,
    Option,
    PayFeud,
    Place,
    PlayAction,
    PlayCard,
    Raise,
    Reroll,
    Roll,
    Rolled,
    Seat,
    StartAt,
    Take,
    Total,
    ToThree,
    Word,
)
from clangames.clan_feud.effects import Expr, If, May, Or, Primitive, Repeat, Seq
from clangames.clan_feud.interpret import amount, available, holds
from clangames.clan_feud.military import _king_can_go, _unmoved, retreats, side_troops
from clangames.clan_feud.phases import phase_words
from clangames.clan_feud.playing import territory_name as _name
from clangames.clan_feud.rules import (
    BLACK,
    BUILD,
    COLUMN_OF_COLOUR,
    COST,
    EXISTS,
    MILITARY,
    PRICE,
    RECRUIT_STAGES,
    SLOTS_AT,
    SUPPLY,
    W,
    _build_possible,
    has_building,
    military_ready,
    owned,
    recruit_money,
    recruit_possible,
    working,
)
from clangames.clan_feud.state import ClanFeudState, Task

CHANCE_OUTCOMES = (StartAt, Lot, Rolled, Total, Hits, DrawCard, DrawEvent)
"""The action kinds only chance takes."""

WHEN = {
    "P1.before_order": f"before the turn order is set ({phase_words('p1order')})",
    "P1.after_roll": f"after the dice are rolled ({phase_words('p1cards')})",
    "P2.assign": "when you assign a die",
    "P3.upkeep": f"just before your upkeep ({phase_words('p3cards')})",
}
"""Each card timing window, as the sentence says when a card of it is played."""

WINDOW_OF_TASK = {"p1order": "P1.before_order", "p1cards": "P1.after_roll", "p3cards": "P3.upkeep"}
"""The decisions that are a card window of their own."""

WORD_USE = {
    "pass": "passing answers a card window, or ends your turns of assigning dice"
    f" ({phase_words('assign')}) when no die can be assigned",
    "tokens": "taking feud tokens is a Feud slot's benefit",
    "stop": "stop ends a choice already under way (a second purchase or raise, an army's"
    " steps, a move's armies, a card's picks)",
    "recruit": "recruit or move is what a Military die does",
    "move": "recruit or move is what a Military die does",
    "king goes": "whether the King goes is asked when an army leaves his territory",
    "king stays": "whether the King goes is asked when an army leaves his territory",
    "continue": "continuing or retreating is declared after a battle round",
    "retreat": "continuing or retreating is declared after a battle round",
    "accept": "accepting or declining answers the optional part of an event or card",
    "decline": "accepting or declining answers the optional part of an event or card",
    "no card": "no card is a battle round's sealed choice",
    "pay upkeep": f"upkeep is paid at the end of the turn ({phase_words('upkeep')})",
}
"""What each one-word decision is for (said when it is not what is decided now)."""

KIND_USE: dict[type, str] = {
    Assign: f"assigning a die comes at your turn ({phase_words('assign')})",
    Raise: "raising a die is a Feud slot's benefit or an action card's change",
    ToThree: "turning a 1 into a 3 is the Feud III benefit or an action card's change",
    BuildSlot: "buying from your player board is a Build die's choice",
    Take: "taking troops is part of a recruit or of an army's move",
    Option: "an option is picked when an event or card offers a choice",
    PlayCard: "an action card is committed face down in a battle round",
    Discard: "a card is discarded when an event asks for it",
    Commit: "feud tokens are committed in a battle round",
    Roll: "casualty dice are rolled by a battle round's winner",
    Lose: "a troop is lost to battle casualties, upkeep or an event",
    PayFeud: "feud tokens pay toward upkeep once you pay it",
    Reroll: "picking a die to reroll is an action card's step",
    Seat: "naming a player is for the turn order, its tie-break, or an action card's target",
    Place: "naming a territory is for a building, recruits, a move, a retreat or a removal",
}
"""What each kind of action is for (said when it is not what is decided now)."""

Expected = tuple[tuple[type, ...], tuple[str, ...], str]
"""The action kinds a decision takes, its words, and how to say so."""

EXPECTED: dict[str, Expected] = {
    "tiebreak": ((Seat,), (), "seat <n>, one of the tied players"),
    "order": ((Seat,), (), "seat <n>"),
    "assign": (
        (Assign, PlayAction),
        ("pass",),
        "assign <colour> <value> to <column> <level>, play <card>, or pass",
    ),
    "feud": (
        (Raise, ToThree),
        ("tokens", "stop"),
        "tokens, raise <colour> <value>, <colour> 1 to 3",
    ),
    "build": ((BuildSlot,), ("stop",), "build <column> <slot>"),
    "place": ((Place,), (), "territory <id>"),
    "military": ((), ("recruit", "move"), "recruit or move"),
    "recruit": ((Place, Take), (), "territory <id>, then take <n> <type>"),
    "move": ((Place,), ("stop",), "territory <id>, or stop"),
    "army": ((Take,), ("king goes", "king stays"), "take <n> <type>, king goes, king stays"),
    "step": ((Place,), ("stop",), "territory <id>, or stop"),
    "bcards": ((PlayCard,), ("no card",), "card <id> or no card"),
    "btokens": ((Commit,), (), "commit <n>"),
    "broll": ((Roll,), (), "roll <n>"),
    "bloss": ((Lose,), (), "lose <type>"),
    "bdeclare": ((), ("continue", "retreat"), "continue or retreat"),
    "bdefend": ((), ("continue", "retreat"), "continue or retreat"),
    "bretreat": ((Place,), (), "territory <id>"),
    "upkeep": ((Place, Lose), ("pay upkeep",), "pay upkeep, or territory <id> and lose <type>"),
    "upkeep_pay": ((PayFeud,), (), "pay <n> feud"),
    "p1order": ((PlayAction,), ("pass",), "play <card> or pass"),
    "p1cards": ((PlayAction,), ("pass",), "play <card> or pass"),
    "p3cards": ((PlayAction,), ("pass",), "play <card> or pass"),
    "steal": ((Seat,), (), "seat <n>"),
    "modify": ((Raise, ToThree), ("stop",), "raise <colour> <value>, <colour> 1 to 3, or stop"),
    "reroll": ((Seat, Reroll), ("stop",), "seat <n>, reroll <colour> <value>, or stop"),
    "th1": ((BuildSlot, Place), (), "build <column> I-right, then territory <id>"),
    "free_recruit": ((Take,), (), "take <n> <type>"),
    "emarch": ((Place,), (), "territory <id>"),
    "emove": ((Place,), (), "territory <id>"),
}
"""Per decision: the action kinds and words it takes, and how to say so."""


# ---------------------------------------------------------------------------------------
# Words


def _card(s: ClanFeudState | W, d: int) -> str:
    card = s.game.deck.designs[d]
    return f"{card.name} ({card.id})"


def _column(column: int) -> str:
    return COLUMN_NAMES[column].capitalize()


def _die(colour: int, value: int) -> str:
    return f"{COLOURS[colour]} die showing {value}"


def _dice(pool: Sequence[int]) -> str:
    """A pool's unassigned dice in words (``white 1, white 3 x2``), or ``none``."""
    out = []
    for i, n in enumerate(pool):
        if n:
            colour, v0 = divmod(i, 3)
            out.append(f"{COLOURS[colour]} {v0 + 1}" + (f" x{n}" if n > 1 else ""))
    return ", ".join(out) or "none"


def _count(n: int, thing: str) -> str:
    """``n`` of ``thing`` in words: ``1 feud token``, ``2 feud tokens``."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"player {q}" for q in seats)


def _places(s: ClanFeudState | W, places: Sequence[int]) -> str:
    return ", ".join(_name(s, t) for t in places) or "none"


_cover = playing.slot_cover


# ---------------------------------------------------------------------------------------
# The entry points


def explain_illegal(s: ClanFeudState, action: Any, player: int) -> str:
    """Why ``action`` is not legal for ``player`` now, naming the action once and then
    what stops it; where nothing more specific can be said, that it is not a move of the
    decision being taken (the front-ends list the legal actions themselves, once)."""
    text = s.game.action_text(action)
    reason = obstacle(s, action, player)
    if reason is None:
        reason = f"that is not a move of this step ({s.prompt()})"
    return f"{text!r} is not legal: {reason}"


def obstacle(s: ClanFeudState, action: Any, player: int) -> str | None:
    """What stops ``player`` taking ``action`` now, or None when nothing does (the action
    is legal). Only what ``player`` may see is read."""
    if player not in s.to_move:
        # the game over, chance, another seat's turn: the words every game's state uses
        return s._why_not_to_move(player)
    if isinstance(action, CHANCE_OUTCOMES):
        return "it is a chance outcome: no player chooses it"
    task = s.tasks[-1]
    w = working(s)
    expected = _expected(w, task)
    types, words, _ = expected
    if isinstance(action, PlayAction) and PlayAction not in types:
        return _card_elsewhere(s, action.design, player)
    if isinstance(action, Word):
        if action.word not in words:
            return _wrong_kind(s, action, expected)
    elif not isinstance(action, types):
        return _wrong_kind(s, action, expected)
    return EXPLAIN[task.kind](w, task, action, player)


def battle_wait(s: ClanFeudState, player: int) -> str | None:
    """Why ``player``, a side of the battle round under way but not to move, cannot act:
    its card or feud tokens are committed already, or it has none to commit; None outside
    such a round (the kernel's words say whose move it is)."""
    b = s.battle
    kind = s.phase.name
    if b is None or player not in b.owners:
        return None
    if kind == "bcards":
        if not any(s.hands[player]):
            return "you hold no action card to commit to this battle round"
        return "you have already committed your card for this battle round"
    if kind == "btokens":
        if not s.feud[player]:
            return "you hold no feud tokens to commit to this battle round"
        return "you have already committed your feud tokens for this battle round"
    return None


def _expected(w: W, task: Task) -> Expected:
    """The kinds, words and description of what the decision on top takes."""
    if task.kind != "prog":
        return EXPECTED[task.kind]
    e = w.game.nodes[task.data[-2]]
    if isinstance(e, Primitive) and e.name == "discard_cards":
        return ((Discard,), (), "discard <card>")
    if isinstance(e, Primitive):
        return ((Place, Lose), (), "territory <id>, then lose <type>")
    if isinstance(e, Or):
        return ((Option,), (), f"option <k>, from 1 to {len(e.options)}")
    return ((), ("accept", "decline"), "accept or decline")


def _wrong_kind(s: ClanFeudState, action: Any, expected: Expected) -> str:
    """The action is not of the kind the decision takes: what it is for, and what is
    decided now."""
    if isinstance(action, Word):
        use = WORD_USE.get(action.word, "that word is not a decision of this game")
    else:
        use = KIND_USE.get(type(action), "it is not a decision of this game")
    return f"{use}; now {s.prompt()} (that takes {expected[2]})"


# ---------------------------------------------------------------------------------------
# Action cards


def _when(s: ClanFeudState | W, d: int) -> str:
    info = s.game.card_info[d]
    if info.window == "P2.assign":
        return f"when you assign {playing.filter_text(info, assigned=False)}"
    return WHEN[info.window]


def _card_elsewhere(s: ClanFeudState, d: int, p: int) -> str:
    """A card played for its action at a decision that is no card window."""
    if not s.hands[p][d]:
        return f"you hold no {_card(s, d)}"
    said = f"{_card(s, d)} is played {_when(s, d)}; now {s.prompt()}"
    if s.phase.name == "bcards":  # what the player may mean: its combat effect
        said += f" (in battle it is committed as card {s.game.deck.designs[d].id})"
    return said


def _play(w: W, task: Task, d: int, p: int, window: str) -> str | None:
    """Why ``p`` may not play design ``d`` for its action in ``window`` now (the checks of
    :func:`playing.plays`), or None."""
    g = w.game
    if not w.hands[p][d]:
        return f"you hold no {_card(w, d)}"
    info = g.card_info[d]
    if info.window != window:
        return f"{_card(w, d)} is played {_when(w, d)}, not {WHEN[window]}"
    if window == "P2.assign":
        why = _no_card_die(w, p, d)
        if why is not None:
            return why
    if g.always_changes[d]:
        return None
    e = g.nodes[info.node]
    if playing.changes(w, p, e):
        return None
    return f"{_card(w, d)} would change nothing now: {_unchanged(w, p, e)}"


def _no_card_die(w: W, p: int, d: int) -> str | None:
    """Why no die of ``p``'s can go with card ``d`` now (``card_assignments`` finds
    none), or None when one can."""
    if playing.card_assignments(w, p, d, first=True):
        return None
    g = w.game
    info = g.card_info[d]
    name = _card(w, d)
    held = [i for i, n in enumerate(w.pool[p]) if n]
    fits = [c for i in held for c in g.card_candidates[d][i]]
    if not held:
        return f"{name} goes with a die you assign, and you have no unassigned die"
    if not fits:
        return (
            f"{name} goes with {playing.filter_text(info)}, and none of your dice"
            f" ({_dice(w.pool[p])}) can go there"
        )
    free = EXISTS & ~(w.covered[p] | w.filled[p])
    open_fits = [c for c in fits if free & c[0]]
    if not open_fits:
        return (
            f"{name} goes with {playing.filter_text(info)}, and no slot there that your dice could"
            " fill is free"
        )
    column, level = open_fits[0][1], open_fits[0][2]
    return f"with {name}, {_die_cannot_act(w, p, info, column, level)}"


def _die_cannot_act(w: W, p: int, info: playing.CardInfo, column: int, level: int) -> str:
    """Why a die at ``column``/``level`` could not act with the card (``_die_ok`` fails)."""
    lvl = LEVEL_NAMES[level - 1]
    if column == BUILD:
        return f"a level {lvl} Build die could not make a paid purchase even with the card"
    if info.more_armies_only:
        return (
            f"you have no more troops than a level {lvl} move could move anyway, so an"
            " extra army changes nothing"
        )
    if info.mode == playing.MODE_MOVE:
        return "the Military die must move, and you have no troops on the board"
    if not has_building(w, p):
        return "the Military die must recruit, and you control no building to recruit at"
    return "the Military die must recruit, and you could not recruit even with the card"


def _unchanged(w: W, p: int, e: Expr) -> str:
    """Why card action ``e`` would change nothing for ``p`` now (``changes`` is False)."""
    if isinstance(e, Seq) and not available(w, p, e):
        return _unpayable(w, p, e)
    if isinstance(e, (Seq, Or)):
        # nothing in it changes the game (an option must also be payable): the first says why
        first = e.items[0] if isinstance(e, Seq) else e.options[0]
        return _unchanged(w, p, first) if available(w, p, first) else _unpayable(w, p, first)
    if isinstance(e, (May, Repeat)):
        if not available(w, p, e.body):
            return _unpayable(w, p, e.body)
        return _unchanged(w, p, e.body)
    if isinstance(e, If):
        if not holds(w, p, e.condition):
            cond = playing.condition_text(e.condition, w.game.board)
            return f"it acts only if {cond}, which is not so now"
        return _unchanged(w, p, e.body)
    return _primitive_unchanged(w, p, e)


def _primitive_unchanged(w: W, p: int, e: Primitive) -> str:
    """Why one primitive would change nothing (the cases of ``playing.changes``)."""
    name = e.name
    if name in ("gain_money", "gain_feud", "gain_vp"):
        return f"it would {playing.card_text(e, board=w.game.board)}, which comes to 0 for you"
    if name == "draw_cards":
        return "the draw pile and the discard pile are both empty"
    if name in ("pay_money", "pay_feud", "discard_cards", "remove_troops"):
        return _unpayable(w, p, e)
    if name == "steal":
        if e.args[0] == "money":
            return "no other player holds any £"
        return "no other player holds an action card"
    if name == "modify_die":
        if e.args[1] == "+1":
            return "none of your unassigned dice it may change can go higher"
        return "none of your unassigned dice it may change is a non-black die showing 1"
    if name == "reroll_dice":
        if e.args[1] == "self":
            return "you have no unassigned dice"
        return "no other player has an unassigned die"
    if name == "take_temp_die":
        if e.args[0] == "white":
            return "you already have a temporary die this turn"
        return f"no {e.args[0]} die is left in the supply"
    if name == "bonus_action":
        return "none of your territories yields Income (you control none free of English armies)"
    if name == "place_building":
        if not playing._th1_left(w, p):
            return "all your level I tower houses are built"
        return "no territory of yours has room for a tower house"
    if name == "recruit":
        kind = str(e.args[0])
        if playing._supply_left(w, p, playing.TYPE_OF[kind]) <= 0:
            return f"all your {kind} are on the board"
        return "you control no building to recruit at"
    if name == "boost_move":
        return "none of your armies could end a move anywhere new with it"
    if name == "reduce_upkeep":
        if amount(w, p, e.args[0]) <= 0:
            return f"it would {playing.card_text(e, board=w.game.board)}, which comes to 0 for you"
        return "you owe no upkeep to reduce"
    if name == "england_track":
        return f"the England track is at {w.england} and cannot move that way"
    return "it would not change the game"


def _unpayable(w: W, p: int, e: Expr) -> str:
    """Which cost of ``e`` (available returns False) ``p`` cannot pay, in words."""
    costs = _cost_items(e)
    money = sum(amount(w, p, c.args[0]) for c in costs if c.name == "pay_money")
    feud = sum(amount(w, p, c.args[0]) for c in costs if c.name == "pay_feud")
    cards = sum(amount(w, p, c.args[0]) for c in costs if c.name == "discard_cards")
    troops = sum(amount(w, p, c.args[0]) for c in costs if c.name == "remove_troops")
    if money > w.money[p]:
        return f"it costs £{money} and you have £{w.money[p]}"
    if feud > w.feud[p]:
        return f"it costs {_count(feud, 'feud token')} and you hold {w.feud[p]}"
    if cards > sum(w.hands[p]):
        return f"it needs {_count(cards, 'action card')} discarded and you hold {sum(w.hands[p])}"
    if troops:
        return f"it needs {_count(troops, 'troop')} of yours removed, and you have too few"
    return f"its cost ({playing.card_text(e, board=w.game.board)}) cannot be paid now"


def _cost_items(e: Expr) -> list[Primitive]:
    """The cost primitives ``e`` pays up front (a sequence's, or its own)."""
    items = e.items if isinstance(e, Seq) else (e,)
    return [i for i in items if isinstance(i, Primitive)]


# ---------------------------------------------------------------------------------------
# Phase 1


def _tiebreak(w: W, task: Task, action: Seat, p: int) -> str | None:
    if action.seat not in task.data:
        return (
            f"player {action.seat} is not among the players tied for fewest dice"
            f" ({_seats(task.data)})"
        )
    return None


def _order(w: W, task: Task, action: Seat, p: int) -> str | None:
    n = w.game.seat_count
    if action.seat >= n:
        return f"there is no player {action.seat} in this {n}-player game"
    if action.seat in task.data:
        place = task.data.index(action.seat) + 1
        return f"player {action.seat} already has place {place} of the turn order"
    return None


# ---------------------------------------------------------------------------------------
# Phase 2: assigning a die


def _assign(w: W, task: Task, action: Any, p: int) -> str | None:
    design = task.a - 1
    if isinstance(action, Word):  # pass
        if design >= 0:
            return f"you played {_card(w, design)}: a die it goes with must be assigned now"
        if any(_assign_reason(w, p, a) is None for a in _assignable(w, p)):
            return "passing is allowed only when none of your dice can be assigned, and some can"
        return None
    if isinstance(action, PlayAction):
        if design >= 0:
            return f"one action card goes with a die, and you played {_card(w, design)} already"
        return _play(w, task, action.design, p, "P2.assign")
    if design >= 0:
        return _card_assign_reason(w, p, design, action)
    return _assign_reason(w, p, action)


def _assignable(w: W, p: int) -> list[Assign]:
    """Every assignment of a die ``p`` holds, legal or not (the candidates of the rules'
    table, which :func:`rules._assign_options` filters)."""
    g = w.game
    out: list[Assign] = []
    for i, n in enumerate(w.pool[p]):
        if n:
            out += [a for _, a in g.assign_candidates[i] if isinstance(a, Assign)]
    return out


def _die_reason(w: W, p: int, a: Assign) -> str | None:
    """Whether ``p`` holds the die and it may go to that column and level."""
    if not w.pool[p][3 * a.colour + a.value - 1]:
        return (
            f"you hold no unassigned {_die(a.colour, a.value)} (your unassigned dice:"
            f" {_dice(w.pool[p])})"
        )
    only = COLUMN_OF_COLOUR.get(a.colour)
    if only is not None and a.column != only:
        return f"a {COLOURS[a.colour]} die goes only to the {_column(only)} column"
    if a.level > a.value:
        lvl = LEVEL_NAMES[a.value - 1]
        return f"a die showing {a.value} goes only to a slot of level {lvl} or below"
    return None


def _slot_reason(w: W, p: int, column: int, level: int) -> str | None:
    """Why no slot of ``column`` at ``level`` is free for ``p`` (covered or filled), or
    None when one is."""
    slots = [sl for sl in SLOTS_AT[level] if EXISTS >> (5 * column + sl) & 1]
    states = []
    for sl in slots:
        bit = 1 << (5 * column + sl)
        if w.covered[p] & bit:
            when = ""
            if sl >= 3 and w.covered[p] >> (5 * column + 2) & 1:
                when = " once the column's II tower house is built"
            price = f"a Build buys it for £{PRICE[sl]}{when}"
            states.append(f"is still covered by {_cover(column, sl)} ({price})")
        elif w.filled[p] & bit:
            states.append("already holds a die this turn")
        else:
            return None
    lvl = LEVEL_NAMES[level - 1]
    if len(slots) == 1:
        return f"your {_column(column)} level {lvl} slot {states[0]}"
    pairs = zip(slots, states, strict=True)
    named = ", and ".join(f"the {SLOT_NAMES[sl]} one {st}" for sl, st in pairs)
    return f"both your {_column(column)} level {lvl} slots are taken: {named}"


def _assign_reason(w: W, p: int, a: Assign) -> str | None:
    """Why ``p`` may not assign ``a`` without a card (the checks of
    :func:`rules._assign_options`), or None."""
    why = _die_reason(w, p, a) or _slot_reason(w, p, a.column, a.level)
    if why is not None:
        return why
    if a.column == BUILD and not _build_possible(w, p, min(a.level, 2)):
        lvl = LEVEL_NAMES[a.level - 1]
        return f"a level {lvl} Build could buy nothing: {_no_build(w, p, a.level)}"
    if a.column == MILITARY and not military_ready(w, p):
        return f"a Military die could neither move nor recruit: {_no_military(w, p)}"
    return None


def _card_assign_reason(w: W, p: int, design: int, a: Assign) -> str | None:
    """Why ``p`` may not assign ``a`` with the card ``design`` just played (the checks of
    :func:`playing.card_assignments`), or None."""
    why = _die_reason(w, p, a)
    if why is not None:
        return why
    info = w.game.card_info[design]
    colour = a.colour
    if not playing._matches(info, colour, a.value, a.column, a.level):
        return f"{_card(w, design)} goes only with {playing.filter_text(info)}"
    why = _slot_reason(w, p, a.column, a.level)
    if why is not None:
        return why
    if a.column in (BUILD, MILITARY) and not playing._die_ok(w, p, info, a.column, a.level):
        return f"with {_card(w, design)}, {_die_cannot_act(w, p, info, a.column, a.level)}"
    return None


def _no_build(w: W, p: int, level: int) -> str:
    """Why a Build die at ``level`` can buy nothing (``_build_possible`` is False)."""
    cov = w.covered[p]
    money = w.money[p] + (playing.discount(w, p) if w.mods else 0)
    slots = (1, 2) if level == 1 else (1, 2, 3, 4)
    for_sale = [
        (column, slot)
        for column in range(1, 5)
        for slot in slots
        if cov >> (5 * column + slot) & 1 and not (slot >= 3 and cov >> (5 * column + 2) & 1)
    ]
    if not for_sale:
        rows = "rows I and II" if level == 1 else "your board"
        return f"nothing is left to buy in {rows} of what it may buy"
    cheapest = min(PRICE[slot] for _, slot in for_sale)
    if cheapest > money:
        return f"the cheapest purchase open to it costs £{cheapest}, and you have £{money}"
    if not owned(w, p):
        return "what you can afford is a building, and you control no territory to put it in"
    afford = {slot for _, slot in for_sale if PRICE[slot] <= money}
    if afford & {1, 2}:
        return "what you can afford is a building, and each territory you control holds 2 already"
    return (
        "what you can afford is a castle, and each territory you control has a castle or"
        " city or 2 buildings already"
    )


def _no_military(w: W, p: int) -> str:
    """Why a Military die can neither move nor recruit (``military_ready`` is False)."""
    if not has_building(w, p):
        return "you have no troops on the board, and no building to recruit at"
    return f"you have no troops on the board, and £{w.money[p]}: an infantry costs £{COST[0]}"


# ---------------------------------------------------------------------------------------
# Phase 2: the columns' actions


def _feud(w: W, task: Task, action: Any, p: int) -> str | None:
    level, second = task.a, bool(task.b)
    pool = list(w.pool[p])
    if task.c:
        pool[task.c - 1] -= 1  # the die raised first cannot be raised again
    if isinstance(action, Word):
        if action.word == "tokens" and second:
            return "you raised a die already: raise a second one, or stop"
        if action.word == "stop" and not second:
            return "stop ends Feud III's second raise; first take tokens or raise a die"
        return None
    if isinstance(action, ToThree):
        if level < 3:
            return "only the Feud III slot turns a 1 into a 3"
        if second:
            return "the second choice of Feud III is a raise by 1, or stop"
        if action.colour == BLACK:
            return "a black die never turns into a 3"
        if not pool[3 * action.colour]:
            return f"you hold no unassigned {_die(action.colour, 1)}"
        return None
    i = 3 * action.colour + action.value - 1
    if level == 1 and action.value != 1:
        return "a Feud I slot raises only a die showing 1 (to a 2)"
    if action.value >= FACE_MAX[action.colour]:
        return f"a {COLOURS[action.colour]} die shows at most {FACE_MAX[action.colour]}"
    if not pool[i]:
        if task.c == i + 1 and w.pool[p][i]:
            die = _die(action.colour, action.value)
            return f"that {die} is the die you just raised: a die rises once"
        return f"you hold no unassigned {_die(action.colour, action.value)}"
    return None


def _build(w: W, task: Task, action: Any, p: int) -> str | None:
    level, second = task.a, bool(task.b)
    if isinstance(action, Word):
        if not second:
            return "stop declines a Build III's second purchase; first choose what to buy"
        return None
    column, slot = action.column, action.slot
    cov = w.covered[p]
    what = _cover(column, slot)
    if not cov >> (5 * column + slot) & 1:
        return f"your {_column(column)} column's {SLOT_NAMES[slot]} slot is bought already"
    if slot >= 3 and second:
        return "a Build III's second purchase is a row I or II one (a tower house or the black die)"
    if slot >= 3 and level == 1:
        return "a level I Build buys only from rows I and II (a tower house or the black die)"
    if slot >= 3 and cov >> (5 * column + 2) & 1:
        return f"the {_column(column)} column's II tower house must be built before its row III"
    money = w.money[p] + (playing.discount(w, p) if w.mods else 0)
    if PRICE[slot] > money:
        off = playing.discount(w, p) if w.mods else 0
        card = f" (£{off} off with your card included)" if off else ""
        return f"{what} there costs £{PRICE[slot]}, and you have £{money}{card}"
    places = [t for t in owned(w, p) if w.buildings(t) < 2]
    if slot == 3 and not any(w.site[t] == 0 for t in places):
        return (
            "a castle needs a territory of yours without a castle or city and with room,"
            " and you have none"
        )
    if slot in (1, 2) and not (column == BUILD and slot == 1) and not places:
        return (
            "a tower house needs a territory of yours with room (at most 2 buildings),"
            " and you have none"
        )
    return None


def _where_owned(w: W, p: int, t: int) -> str | None:
    """Why ``t`` is not ``p``'s, or None."""
    owner = w.controller[t]
    if owner == p:
        return None
    if owner < 0:
        return f"you do not control {_name(w, t)} (nobody does)"
    return f"you do not control {_name(w, t)} (player {owner} does)"


def _place(w: W, task: Task, action: Place, p: int) -> str | None:
    t = action.territory
    why = _where_owned(w, p, t)
    if why is not None:
        return why
    if w.buildings(t) >= 2:
        return f"{_name(w, t)} already holds 2 buildings, the most a territory takes"
    if task.a == 2 and w.site[t]:
        kind = "city" if w.site[t] == 1 else "castle"
        return f"{_name(w, t)} already has a {kind}, and a territory takes one castle or city"
    return None


def _military(w: W, task: Task, action: Word, p: int) -> str | None:
    level = task.a
    forced = playing.forced_mode(w, p) if w.mods else None
    if forced is not None:
        if action.word != forced:
            card = _card(w, w.mods[playing.MOD_DESIGN])
            return f"{card} was played with this die: it must {forced}"
        return None
    if action.word == "recruit":
        return None if recruit_possible(w, p, level) else _no_recruit(w, p, level)
    if not w.has_troops(p):
        return "you have no troops on the board to move"
    return None


def _no_recruit(w: W, p: int, level: int) -> str:
    """Why a level ``level`` recruit is impossible (``recruit_possible`` is False)."""
    if not has_building(w, p):
        return "you control no territory with a building to recruit at"
    blocks = []
    for k in range(level):
        if w.troop_total(p, k) >= SUPPLY[k]:
            blocks.append(f"all your {TROOPS[k]} are on the board")
        else:
            blocks.append(f"{TROOPS[k]} cost £{COST[k]} each")
    lvl = LEVEL_NAMES[level - 1]
    money = recruit_money(w, p)
    off = money - w.money[p]
    card = f" (£{off} off with your card included)" if off else ""
    return f"a level {lvl} recruit can take no troop: you have £{money}{card}; " + "; ".join(blocks)


def _recruit(w: W, task: Task, action: Any, p: int) -> str | None:
    level = task.a
    if task.b < 0:
        if isinstance(action, Take):
            return "first choose the territory (one with your building) the recruits go to"
        t = action.territory
        why = _where_owned(w, p, t)
        if why is not None:
            return why
        if not w.buildings(t):
            return f"{_name(w, t)} has no building to recruit at"
        return None
    if isinstance(action, Place):
        return f"the recruits go to {_name(w, task.b)}; now choose how many troops"
    stages = RECRUIT_STAGES[level]
    kind = stages[task.c]
    if action.troop not in stages:
        allowed = " and ".join(TROOPS[k] for k in sorted(stages))
        return f"a level {LEVEL_NAMES[level - 1]} recruit takes only {allowed}"
    if action.troop != kind:
        if stages.index(action.troop) < task.c:
            return f"the {TROOPS[action.troop]} were chosen already; now the {TROOPS[kind]}"
        return f"troops are recruited artillery, cavalry, infantry: now the {TROOPS[kind]}"
    left = SUPPLY[kind] - w.troop_total(p, kind)
    money = recruit_money(w, p)
    off = money - w.money[p]
    k = action.count
    if k > left:
        return f"your supply holds only {left} more {TROOPS[kind]}"
    if k * COST[kind] > money:
        card = f" (£{off} off with your card included)" if off else ""
        return f"{k} {TROOPS[kind]} cost £{k * COST[kind]}, and you have £{money}{card}"
    later = stages[task.c + 1 :]
    if (
        not k
        and not sum(task.data)
        and not any(money >= COST[j] and SUPPLY[j] - w.troop_total(p, j) > 0 for j in later)
    ):
        return "a recruit takes at least one troop, and none can be taken after these"
    return None


# ---------------------------------------------------------------------------------------
# Moves


def _move(w: W, task: Task, action: Any, p: int) -> str | None:
    if isinstance(action, Word):
        return None if task.b else "choose at least one army to move before stopping"
    t = action.territory
    if not any(w.army(p, t)):
        return f"you have no troops in {_name(w, t)}"
    if not any(_unmoved(w, p, t)):
        return f"your troops in {_name(w, t)} have already moved in this action"
    return None


def _army(w: W, task: Task, action: Any, p: int) -> str | None:
    t, stage = task.a, task.c
    if isinstance(action, Word):
        if stage != 3:
            if w.regent != p or w.king != t:
                return f"the King is not with your troops in {_name(w, t)}"
            if not _king_can_go(w, p, t):
                return "the King has moved in this action already"
            return "the troops are chosen first; then whether the King goes"
        if action.word == "king stays" and sum(w.army(p, t)) <= sum(task.data):
            return "every troop there moves, and the King is never left alone"
        return None
    if stage == 3:
        return "the troops are chosen; now whether the King goes with them"
    kind = 2 - stage
    if action.troop != kind:
        if action.troop > kind:
            return f"the {TROOPS[action.troop]} were chosen already; now the {TROOPS[kind]}"
        return f"troops are chosen artillery, cavalry, infantry: now the {TROOPS[kind]}"
    have = _unmoved(w, p, t)
    if action.count > have[kind]:
        return f"you have {have[kind]} {TROOPS[kind]} in {_name(w, t)} that have not moved yet"
    if not action.count and not sum(task.data) and not any(have[k] for k in range(kind)):
        return "an army takes at least one troop, and none of another type is left to take"
    return None


def _step(w: W, task: Task, action: Any, p: int) -> str | None:
    pos, steps = task.a, task.b
    if isinstance(action, Word):
        return None if steps else "the army must take a step before it can stop"
    board = w.game.board
    n = action.territory
    if n == pos:
        return f"the army stands in {_name(w, n)} now: it steps to a neighbour, or stops"
    if n in task.data[5:]:  # the territories visited, its origin first
        if n == task.data[4]:
            return f"{_name(w, n)} is where this move began, and a move never returns"
        return f"this move has been in {_name(w, n)} already, and never enters it twice"
    if n not in board.neighbours[pos]:
        return f"{_name(w, n)} is not next to {_name(w, pos)} by land or sea lane"
    free = bool(w.mods) and playing.ignores_mountains(w, p, task.data[:3])
    if steps and board.is_mountain(n) and not free:
        return f"{_name(w, n)} is mountainous: a step into a mountain must be a move's only step"
    return None


# ---------------------------------------------------------------------------------------
# Battles


def _bcards(w: W, task: Task, action: Any, p: int) -> str | None:
    if isinstance(action, Word):  # no card
        return None
    return None if w.hands[p][action.design] else f"you hold no {_card(w, action.design)}"


def _btokens(w: W, task: Task, action: Commit, p: int) -> str | None:
    if action.k > w.feud[p]:
        return f"you hold {_count(w.feud[p], 'feud token')}"
    return None


def _broll(w: W, task: Task, action: Roll, p: int) -> str | None:
    if action.k > task.b:
        return f"you may roll 1 to {task.b} casualty dice (your winning margin, at most 30)"
    return None


def _bloss(w: W, task: Task, action: Lose, p: int) -> str | None:
    if not side_troops(w, task.a)[action.troop]:
        return f"your side has no {TROOPS[action.troop]} left in this battle"
    return None


def _bdeclare(w: W, task: Task, action: Word, p: int) -> str | None:
    return None


def _bretreat(w: W, task: Task, action: Place, p: int) -> str | None:
    b = w.battle
    n = action.territory
    if b is None:
        return "no battle is being fought"
    ways = retreats(w, b)
    if n in ways:
        return None
    if n not in w.game.board.neighbours[b.territory]:
        return f"{_name(w, n)} is not next to {_name(w, b.territory)}"
    if w.occupant(n, p) >= 0 or (w.english and war.holds(w, n)):
        return f"{_name(w, n)} holds another army"
    if w.controller[n] >= 0 and w.controller[n] != p:
        return f"{_name(w, n)} is controlled by player {w.controller[n]}"
    return (
        f"a retreat goes to a territory you control when there is one ({_places(w, ways)}),"
        " and only otherwise to a free one"
    )


# ---------------------------------------------------------------------------------------
# Phase 3: effect programs, upkeep


def _prog(w: W, task: Task, action: Any, p: int) -> str | None:
    g = w.game
    node, counter = task.data[-2], task.data[-1]
    e = g.nodes[node]
    if isinstance(e, Primitive) and e.name == "discard_cards":
        d = action.design
        return None if w.hands[p][d] else f"you hold no {_card(w, d)}"
    if isinstance(e, Primitive):  # remove_troops
        kind = e.option("type")
        kinds = range(3) if kind in (None, "any") else (playing.TYPE_OF[str(kind)],)
        troops = "troops" if len(kinds) == 3 else str(kind)
        t = counter % 64 - 1
        if isinstance(action, Lose):
            if t < 0:
                return "first name the territory the troop leaves"
            if action.troop not in kinds:
                return f"this removes {troops} only"
            if not w.army(p, t)[action.troop]:
                return f"you have no {TROOPS[action.troop]} in {_name(w, t)}"
            return None
        if t >= 0:
            return f"a troop leaves {_name(w, t)}; now choose its type"
        here = w.army(p, action.territory)
        if not any(here[k] for k in kinds):
            return f"you have no {troops} in {_name(w, action.territory)}"
        return None
    if isinstance(e, Or):
        k = action.k
        if k > len(e.options):
            return f"this choice has only {len(e.options)} options"
        o = e.options[k - 1]
        if not available(w, p, o):
            what = playing.card_text(o, board=w.game.board)
            return f"option {k} ({what}) cannot be paid: {_unpayable(w, p, o)}"
        return None
    first = isinstance(e, May) or (isinstance(e, Repeat) and counter == e.times)
    if action.word == "decline" and first and task.a == node + 1 and len(task.data) == 2:
        return "the card was played for its action, so its first step cannot be declined"
    return None


def _upkeep(w: W, task: Task, action: Any, p: int) -> str | None:
    if task.a:
        t = task.a - 1
        if not isinstance(action, Lose):
            return f"a troop is leaving {_name(w, t)}: choose its type"
        if not w.army(p, t)[action.troop]:
            return f"you have no {TROOPS[action.troop]} in {_name(w, t)}"
        return None
    if isinstance(action, Lose):
        return "first name the territory the troop leaves"
    if isinstance(action, Place):
        if not any(w.army(p, action.territory)):
            return f"you have no troops in {_name(w, action.territory)}"
        return None
    owed = playing.upkeep_owed(w, p)
    if w.money[p] + w.feud[p] < owed:
        return (
            f"you owe {owed} in upkeep and hold £{w.money[p]} and"
            f" {_count(w.feud[p], 'feud token')}:"
            " remove troops until you can pay"
        )
    return None


def _upkeep_pay(w: W, task: Task, action: PayFeud, p: int) -> str | None:
    due, k = task.a, action.k
    if k > due:
        return f"only {due} is due"
    if k > w.feud[p]:
        return f"you hold {_count(w.feud[p], 'feud token')}"
    if k < due - w.money[p]:
        return f"you have £{w.money[p]}, so at least {due - w.money[p]} must be paid in feud tokens"
    return None


# ---------------------------------------------------------------------------------------
# Card windows and the card primitives' decisions


def _window(w: W, task: Task, action: Any, p: int) -> str | None:
    if isinstance(action, Word):
        return None
    return _play(w, task, action.design, p, WINDOW_OF_TASK[task.kind])


def _steal(w: W, task: Task, action: Seat, p: int) -> str | None:
    q = action.seat
    n = w.game.seat_count
    if q >= n:
        return f"there is no player {q} in this {n}-player game"
    if q == p:
        return "you cannot steal from yourself"
    if task.a and not any(w.hands[q]):
        return f"player {q} holds no action card"
    if not task.a and not w.money[q]:
        return f"player {q} holds no £"
    return None


def _modify(w: W, task: Task, action: Any, p: int) -> str | None:
    e = w.game.nodes[task.c]
    if isinstance(action, Word):
        return None if task.data else "change at least one die before stopping"
    if isinstance(action, ToThree) != bool(task.b):
        if task.b:
            return "this card turns a die showing 1 into a 3"
        return "this card raises a die by 1"
    value = 1 if isinstance(action, ToThree) else action.value
    i = 3 * action.colour + value - 1
    if not isinstance(e, Primitive) or i in playing._modify_targets(w, p, e, task.data):
        return None
    if w.pool[p][i] - task.data.count(i) <= 0:
        if w.pool[p][i]:
            return f"that {_die(action.colour, value)} was changed by this card already"
        return f"you hold no unassigned {_die(action.colour, value)}"
    colour, only = e.option("colour"), e.option("value")
    if colour is not None and COLOURS[action.colour] != colour:
        return f"this card changes only a {colour} die"
    if only is not None and int(only) != value:
        return f"this card changes only a die showing {only}"
    if isinstance(action, ToThree):
        return "a black die never turns into a 3"
    return f"a {COLOURS[action.colour]} die shows at most {FACE_MAX[action.colour]}"


def _reroll(w: W, task: Task, action: Any, p: int) -> str | None:
    target = task.b
    n = w.game.seat_count
    if isinstance(action, Seat):
        q = action.seat
        if target >= 0:
            return f"the dice to reroll are player {target}'s; now pick one, or stop"
        if q >= n:
            return f"there is no player {q} in this {n}-player game"
        if q == p:
            return "this card rerolls an opponent's dice: name another player"
        if not any(w.pool[q]):
            return f"player {q} has no unassigned dice"
        return None
    if target < 0:
        return "first name the player whose dice are rerolled"
    if isinstance(action, Word):
        return None if task.data else "pick at least one die before stopping"
    if not w.pool[target][3 * action.colour + action.value - 1]:
        whose = "you have" if target == p else f"player {target} has"
        return f"{whose} no unassigned {_die(action.colour, action.value)} left to reroll"
    return None


def _th1(w: W, task: Task, action: Any, p: int) -> str | None:
    if not task.a:
        if isinstance(action, Place):
            return "first choose which column's level I tower house to place"
        column, slot = action.column, action.slot
        if slot != 1:
            return "this card places a level I tower house (a column's I-right slot)"
        if column not in playing.TH1_COLUMNS:
            return "the Build column's I-right slot holds the black die, not a tower house"
        if not w.covered[p] >> (5 * column + 1) & 1:
            return f"your {_column(column)} column's level I tower house is built already"
        if not playing._th1_territories(w, p, column):
            return _th1_nowhere(w, p)
        return None
    if isinstance(action, BuildSlot):
        return f"the {_column(task.a)} column's tower house is chosen; now its territory"
    t = action.territory
    if t in playing._th1_territories(w, p, task.a):
        return None
    why = _where_owned(w, p, t)
    if why is not None:
        return why
    if w.buildings(t) >= 2:
        return f"{_name(w, t)} already holds 2 buildings, the most a territory takes"
    return f"with the tower house in {_name(w, t)} your Build die could buy nothing"


def _th1_nowhere(w: W, p: int) -> str:
    if not playing._th1_places(w, p):
        return "no territory of yours has room for a tower house"
    return "wherever it went, your Build die could then buy nothing"


def _free_recruit(w: W, task: Task, action: Take, p: int) -> str | None:
    kind = task.a
    if action.troop != kind:
        return f"the card gives free {TROOPS[kind]} only"
    left = playing._supply_left(w, p, kind)
    if action.count > min(task.b, left):
        most = min(task.b, left)
        return f"you may take at most {most} (the card gives {task.b}, your supply holds {left})"
    if not action.count and min(task.b, left):
        return "take at least one of the card's free troops"
    return None


# ---------------------------------------------------------------------------------------
# England's marches


def _emarch(w: W, task: Task, action: Place, p: int) -> str | None:
    t = action.territory
    if not war.holds(w, t):
        return f"no English army stands in {_name(w, t)}"
    if t in task.data:
        return f"the English army in {_name(w, t)} has marched already"
    marchers = war._marchers(w, task)
    if all(a.territory != t for a in marchers):
        top = max(a.level for a in marchers)
        return f"the highest level still to march is {top}: its armies march first"
    return None


def _emove(w: W, task: Task, action: Place, p: int) -> str | None:
    board = w.game.board
    n = action.territory
    if task.c == 0:
        best = war.nearest(w, task.a)
        if n in best:
            return None
        if n not in war.clan_armies(w):
            return f"no clan army stands in {_name(w, n)}"
        far = board.distances[task.a][n]
        near = board.distances[task.a][best[0]]
        return (
            f"the clan army in {_name(w, n)} is {far} steps away; the nearest are {near}"
            f" ({_places(w, best)})"
        )
    if n in board.toward(task.a, task.data[0]):
        return None
    if n == task.a:
        return f"the English army stands in {_name(w, n)}: it steps to a neighbour"
    if n not in board.neighbours[task.a]:
        return f"{_name(w, n)} is not next to the English army in {_name(w, task.a)}"
    return f"{_name(w, n)} is not on a shortest way to its target, {_name(w, task.data[0])}"


EXPLAIN: dict[str, Callable[[W, Task, Any, int], str | None]] = {
    "tiebreak": _tiebreak,
    "order": _order,
    "assign": _assign,
    "feud": _feud,
    "build": _build,
    "place": _place,
    "military": _military,
    "recruit": _recruit,
    "move": _move,
    "army": _army,
    "step": _step,
    "bcards": _bcards,
    "btokens": _btokens,
    "broll": _broll,
    "bloss": _bloss,
    "bdeclare": _bdeclare,
    "bdefend": _bdeclare,
    "bretreat": _bretreat,
    "prog": _prog,
    "upkeep": _upkeep,
    "upkeep_pay": _upkeep_pay,
    "p1order": _window,
    "p1cards": _window,
    "p3cards": _window,
    "steal": _steal,
    "modify": _modify,
    "reroll": _reroll,
    "th1": _th1,
    "free_recruit": _free_recruit,
    "emarch": _emarch,
    "emove": _emove,
}
"""Per decision (task kind), the explainer of an action of a kind it takes."""
