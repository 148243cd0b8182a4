"""One small interpreter of the card-effect vocabulary, for event cards and the final count.

An effect program is a ``prog`` task on the rules' stack: ``player`` acts, ``data`` is a
stack of frames, pairs (node, counter), the last pair on top. A node is an index into the
game's table of expression nodes (every sub-expression of every event field, numbered
once at load), so a state stores numbers, never syntax trees. ``counter`` is -1 for a
frame not begun; a ``repeat`` keeps the repetitions left, ``discard_cards`` the cards
left, ``remove_troops`` ``64 * left + territory + 1`` (0 before the territory is named).

The interpreter executes E1 gain_money, E2 pay_money, E3 gain_feud, E4 pay_feud, E5
gain_vp, E6 draw_cards, E7 discard_cards, E19 england_track, E20 remove_troops and every
combinator itself; the action cards' primitives (E8-E18) it hands to :mod:`playing`,
which pushes their decisions or sets their modifiers. Action cards run here too: a card
played for its action is a ``prog`` task over its action's node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from clangames.clan_feud import drafts
from clangames.clan_feud.actions import ClanFeudAction, Discard, Lose, Option, Place, Word
from clangames.clan_feud.board import occupied_by, owned_by, plus, put, troop_totals
from clangames.clan_feud.effects import (
    And,
    Compare,
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
)
from clangames.clan_feud.rows import gain

if TYPE_CHECKING:
    from clangames.clan_feud.rules import W
    from clangames.clan_feud.state import Task

TROOP_INDEX = {"infantry": 0, "cavalry": 1, "artillery": 2}


def _task(kind: str, player: int, a: int = 0, data: tuple[int, ...] = ()) -> Task:
    from clangames.clan_feud.state import new_task  # the state module imports the rules

    return new_task(kind, player, a, data=data)


def program(player: int, node: int, card: bool = False) -> Task:
    """A task that runs expression ``node`` with ``player`` acting (one shared task per
    player and node: tasks are values, and events and cards start programs often).
    ``card``: an action card played for its action (``a`` = ``node`` + 1), which must act,
    so an action that is itself a ``may`` or a ``repeat`` makes its first step unasked."""
    found = _PROGRAMS.get((player, node, card))
    if found is None:
        found = _task("prog", player, node + 1 if card else 0, data=(node, -1))
        if len(_PROGRAMS) < _PROGRAMS_MAX:
            _PROGRAMS[player, node, card] = found
    return found


_PROGRAMS: dict[tuple[int, int, bool], Task] = {}
_PROGRAMS_MAX = 1 << 14
"""The shared program tasks kept (a game has five seats and some hundred nodes)."""


def move_track(w: W, steps: int) -> None:
    """E19: the England track moves, held within the track (never past 17). At 10 or less
    every English army disbands at once, even partway through an event's top line."""
    from clangames.clan_feud.war import track_moved  # war imports the state, which imports us

    w.england = w.game.england.clamp(w.england + steps)
    track_moved(w)


# ---------------------------------------------------------------------------------------
# Quantities and conditions


def quantity(w: Any, p: int, q: Quantity) -> int:
    """The value of ``q`` for seat ``p`` (``w`` is a state or a working copy)."""
    name = q.name
    ctrl = w.controller
    if name == "territories":
        return ctrl.count(p)  # type: ignore[no-any-return]
    if name == "cities":
        site = w.site
        return sum([site[t] == 1 for t in owned_by(ctrl, p)])
    if name == "castles":
        site = w.site
        return sum([site[t] == 2 for t in owned_by(ctrl, p)])
    if name == "tower_houses":
        towers = w.towers
        return sum([towers[t] for t in owned_by(ctrl, p)])
    if name == "troops":
        totals = troop_totals(w.troops[p])
        b = w.battle
        if q.args:
            kind = TROOP_INDEX[q.args[0]]
            n = totals[kind]
            return n + (b.attackers[kind] if b is not None and b.owners[0] == p else 0)
        n = sum(totals)
        # a battle's attackers stand outside the territories until it ends
        return n + (sum(b.attackers) if b is not None and b.owners[0] == p else 0)
    if name == "feud":
        return int(w.feud[p])
    if name == "money":
        return int(w.money[p])
    if name == "hand":
        return sum(w.hands[p])
    board = w.game.board
    if name == "territories_in":
        return sum(1 for n in q.args if ctrl[board.spawns[n]] == p)
    if name == "troops_in":
        row = w.troops[p]
        return sum(sum(row[3 * board.index[t] : 3 * board.index[t] + 3]) for t in q.args)
    if name == "controls":
        return int(ctrl[board.index[q.args[0]]] == p)
    return int(w.regent == p)  # is_regent


def amount(w: Any, p: int, a: Any) -> int:
    if isinstance(a, Const):
        return a.value
    if isinstance(a, Scaled):
        return a.factor * (quantity(w, p, a.quantity) // a.divisor)
    return int(a)


def holds(w: Any, p: int, c: Condition) -> bool:
    """Whether condition ``c`` holds for seat ``p``."""
    if isinstance(c, And):
        return all(holds(w, p, part) for part in c.parts)
    if isinstance(c, Compare):
        v = quantity(w, p, c.quantity)
        return v >= c.value if c.op == ">=" else v <= c.value if c.op == "<=" else v == c.value
    if isinstance(c, Truth):
        return quantity(w, p, c.quantity) > 0
    everyone = [quantity(w, q, c.quantity) for q in range(w.game.seat_count)]
    mine = everyone[p]
    if isinstance(c, Most):
        return mine >= 1 and mine == max(everyone)
    if not isinstance(c, Fewest):
        raise TypeError(f"expected a Fewest node, got {c!r}")
    return mine == min(everyone)


def _costs(w: Any, p: int, items: tuple[Expr, ...]) -> bool:
    """Whether the costs among ``items`` (done in order) can all be paid."""
    money = feud = hand = 0
    troops: dict[str, int] | None = None
    for e in items:
        if isinstance(e, Primitive):
            name = e.name
            if name == "pay_money":
                money += amount(w, p, e.args[0])
            elif name == "pay_feud":
                feud += amount(w, p, e.args[0])
            elif name == "discard_cards":
                hand += amount(w, p, e.args[0])
            elif name == "remove_troops":
                kind = str(e.option("type") or "any")
                troops = troops or {}
                troops[kind] = troops.get(kind, 0) + amount(w, p, e.args[0])
        elif not available(w, p, e):
            return False
    if (money and w.money[p] < money) or (feud and w.feud[p] < feud):
        return False
    if hand and sum(w.hands[p]) < hand:
        return False
    for kind, v in (troops or {}).items():
        q = Quantity("troops", () if kind == "any" else (kind,))
        if quantity(w, p, q) < v:
            return False
    return True


COST_PRIMITIVES = frozenset({"pay_money", "pay_feud", "discard_cards", "remove_troops"})
"""The primitives that are costs (what :func:`_costs` adds up); any other is always payable."""


def available(w: Any, p: int, e: Expr) -> bool:
    """Whether ``e``'s costs can be paid in full now (so it may be chosen)."""
    if isinstance(e, Primitive):
        return e.name not in COST_PRIMITIVES or _costs(w, p, (e,))
    if isinstance(e, Seq):
        return _costs(w, p, e.items)
    if isinstance(e, Or):
        return any(available(w, p, o) for o in e.options)
    if isinstance(e, If):
        return not holds(w, p, e.condition) or available(w, p, e.body)
    return True  # may and repeat are optional


def evaluate(w: Any, p: int, e: Expr) -> int:
    """The VP an automatic expression (the final count) gives ``p``; used by ``scores``."""
    if isinstance(e, Primitive):
        return amount(w, p, e.args[0]) if e.name == "gain_vp" else 0
    if isinstance(e, Seq):
        return sum(evaluate(w, p, i) for i in e.items)
    if isinstance(e, If):
        return evaluate(w, p, e.body) if holds(w, p, e.condition) else 0
    return 0


# ---------------------------------------------------------------------------------------
# The task


def _frames(task: Task) -> tuple[int, int]:
    return task.data[-2], task.data[-1]


def _set_top(w: W, task: Task, counter: int) -> None:
    w.set_data((*task.data[:-1], counter))


def _stop(w: W) -> None:
    """An unpayable cost outside any choice: the rest of the program does nothing."""
    w.tasks.pop()


def _run(w: W, task: Task, lone: Callable[[W, Task, Any], None] | None = None) -> bool:
    """Step the program on until it needs a decision (False) or has pushed other work or
    ended (True). The steps that need nothing from the stack (combinators, gains and
    payments) run in this loop on a local copy of the frames, which is written to the task
    only when the loop stops: each step a trip through ``settle`` with a new task cost
    more than the step itself. ``lone(w, task, option)``, if given, hears of each OR of
    several ways that the seat can afford only one of, which the loop takes by itself, or
    none of (``option`` None), which it skips; the task then stands at that OR (the
    narration words the way taken from it, or that none could be)."""
    data = written = task.data
    p = task.player
    g = w.game
    nodes, children = g.nodes, g.node_children
    tasks = w.tasks
    while True:
        if not data:
            tasks.pop()
            return True
        node, counter = data[-2], data[-1]
        e = nodes[node]
        rest = data[:-2]
        if isinstance(e, Primitive):
            name = e.name
            if name in _PLAIN:
                if not _primitive(w, p, e):
                    _stop(w)
                    return True
                data = rest
                continue
            if name == "discard_cards":
                if counter < 0:
                    n = amount(w, p, e.args[0])
                    if sum(w.hands[p]) < n:
                        _stop(w)
                        return True
                    counter = n
                    data = (*rest, node, n)
                if counter == 0:
                    data = rest
                    continue
                break
            if name == "remove_troops":
                if counter < 0:
                    if not available(w, p, e):
                        _stop(w)
                        return True
                    counter = 64 * amount(w, p, e.args[0])
                    data = (*rest, node, counter)
                if counter < 64:
                    data = rest
                    continue
                break
            # a primitive that may push work (a draw, a card's decision) or move the
            # track: the task holds the rest of the program first, and if anything was
            # pushed, that comes first
            w.set_data(rest)
            written = data = rest
            top, size = tasks[-1], len(tasks)
            _primitive(w, p, e)  # never a payment: it does not fail
            if len(tasks) != size or tasks[-1] is not top:
                return True
            continue
        if isinstance(e, Seq):
            frames: list[int] = []
            for item in reversed(children[node]):
                frames += [item, -1]
            data = (*rest, *frames)
            continue
        if isinstance(e, If):
            data = (*rest, children[node][0], -1) if holds(w, p, e.condition) else rest
            continue
        if isinstance(e, Or):
            ok = [k for k, o in enumerate(e.options) if available(w, p, o)]
            if len(ok) > 1:
                break
            if lone is not None and len(ok) < len(e.options):
                w.set_data(data)
                lone(w, tasks[-1], g.option_actions[ok[0] + 1] if ok else None)
            data = (*rest, children[node][ok[0]], -1) if ok else rest
            continue
        if isinstance(e, May):
            if available(w, p, e.body):
                break
            data = rest
            continue
        if not isinstance(e, Repeat):
            raise TypeError(f"expected a Repeat node, got {e!r}")
        if counter < 0:
            counter = e.times
            data = (*rest, node, counter)
        if counter == 0 or not available(w, p, e.body):
            data = rest
            continue
        break
    if data is not written:
        w.set_data(data)
    return False


_PLAIN = frozenset(("gain_money", "pay_money", "gain_feud", "pay_feud", "gain_vp"))
"""The automatic primitives that change only a seat's £, feud tokens or VP, never the
task stack (a payment that cannot be made stops the program)."""


_AMOUNT_FIRST = frozenset(
    ("gain_money", "pay_money", "gain_feud", "pay_feud", "gain_vp", "draw_cards")
)
"""The automatic primitives whose first argument is an amount."""


def _primitive(w: W, p: int, e: Primitive) -> bool:
    """Do an automatic primitive; False if it is a cost that cannot be paid."""
    name = e.name
    n = amount(w, p, e.args[0]) if name in _AMOUNT_FIRST else 0
    if name == "gain_money":
        w.money = gain(w.money, p, n)
    elif name == "pay_money":
        if w.money[p] < n:
            return False
        w.money = plus(w.money, p, -n)
    elif name == "gain_feud":
        w.feud = gain(w.feud, p, n)
    elif name == "pay_feud":
        if w.feud[p] < n:
            return False
        w.feud = plus(w.feud, p, -n)
    elif name == "gain_vp":
        w.vp = gain(w.vp, p, n)
    elif name == "draw_cards":
        w.tasks.append(_task("draw", p, n))
    elif name == "england_track":
        move_track(w, int(e.args[0]))  # type: ignore[arg-type]
    else:  # the action cards' primitives (part 3)
        from clangames.clan_feud import playing

        playing.primitive(w, p, e)
    return True


def _options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    node, counter = _frames(task)
    e = w.game.nodes[node]
    g = w.game
    p = task.player
    if isinstance(e, Primitive):
        if e.name == "discard_cards":
            return tuple([g.discard_actions[d] for d, n in enumerate(w.hands[p]) if n])
        kind = e.option("type")
        kinds = range(3) if kind in (None, "any") else (TROOP_INDEX[str(kind)],)
        t = counter % 64 - 1
        if t < 0:
            # the territories holding such a troop, in order: the occupied ones (remembered
            # per row) rather than a scan of the whole board
            row = w.troops[p]
            places = g.place_actions
            if len(kinds) == 3:
                return tuple([places[x] for x in occupied_by(row)])
            k = kinds[0]
            return tuple([places[x] for x in occupied_by(row) if row[3 * x + k]])
        return tuple([g.lose_actions[k] for k in kinds if w.troops[p][3 * t + k]])
    if isinstance(e, Or):
        return tuple(g.option_actions[i + 1] for i, o in enumerate(e.options) if available(w, p, o))
    # an action card's whole action is this choice: played for its action, it acts
    first = isinstance(e, May) or (isinstance(e, Repeat) and counter == e.times)
    if first and task.a == node + 1 and len(task.data) == 2:
        return (g.words["accept"],)
    return (g.words["accept"], g.words["decline"])


def _apply(w: W, task: Task, action: Any, player: int) -> None:
    node, counter = _frames(task)
    e = w.game.nodes[node]
    p = task.player
    rest = task.data[:-2]
    if isinstance(action, Discard):
        d = action.design
        w.hands = put(w.hands, p, plus(w.hands[p], d, -1))
        w.discards = plus(w.discards, d, 1)
        if w.known:  # what a victim knew of this hand may be gone
            from clangames.clan_feud import playing

            playing.forget(w, p, action.design)
        _set_top(w, task, counter - 1)
    elif isinstance(action, Place):
        _set_top(w, task, (counter // 64) * 64 + action.territory + 1)
    elif isinstance(action, Lose):
        t = counter % 64 - 1
        drafts.remove_troop(w, p, t, action.troop)
        w.check_king(p)
        _set_top(w, task, (counter // 64 - 1) * 64)
    elif isinstance(action, Option):
        if not isinstance(e, Or):
            raise TypeError(f"expected a Or node, got {e!r}")
        w.set_data((*rest, w.game.node_children[node][action.k - 1], -1))
    elif isinstance(action, Word) and action.word == "decline":
        w.set_data(rest)
    elif isinstance(e, May):
        w.set_data((*rest, w.game.node_children[node][0], -1))
    else:
        if not isinstance(e, Repeat):
            raise TypeError(f"expected a Repeat node, got {e!r}")
        w.set_data((*rest, node, counter - 1, w.game.node_children[node][0], -1))


def _ask(w: W, task: Task) -> bool:
    # Which designs a hand holds is hidden: a discard is always asked, so the flow does
    # not tell the others whether the hand held one design or several.
    e = w.game.nodes[task.data[-2]]
    return isinstance(e, Primitive) and e.name == "discard_cards"


PROMPTS = {"prog": "resolve the card"}


def register(
    run: dict[str, Callable[..., bool]],
    options: dict[str, Callable[..., tuple[ClanFeudAction, ...]]],
    apply: dict[str, Callable[..., None]],
    ask: dict[str, Callable[..., bool]],
) -> None:
    """Add the ``prog`` task to the rules' tables."""
    run["prog"] = _run
    options["prog"] = _options
    apply["prog"] = _apply
    ask["prog"] = _ask


def number_nodes(exprs: list[Expr]) -> tuple[list[Expr], dict[Expr, int]]:
    """Every sub-expression of ``exprs`` numbered once (equal nodes share a number)."""
    nodes: list[Expr] = []
    index: dict[Expr, int] = {}

    def visit(e: Expr) -> None:
        if e in index:
            return
        index[e] = len(nodes)
        nodes.append(e)
        if isinstance(e, Seq):
            for i in e.items:
                visit(i)
        elif isinstance(e, Or):
            for o in e.options:
                visit(o)
        elif isinstance(e, (May, If, Repeat)):
            visit(e.body)

    for e in exprs:
        visit(e)
    return nodes, index


def child_nodes(nodes: list[Expr], index: dict[Expr, int]) -> tuple[tuple[int, ...], ...]:
    """Per node number, its sub-expressions' numbers in order (a sequence's items, an OR's
    options, the body of MAY, IF and REPEAT): the interpreter steps into a child by number,
    where looking an expression up would hash its whole subtree."""
    out = []
    for e in nodes:
        if isinstance(e, Seq):
            children: tuple[Expr, ...] = e.items
        elif isinstance(e, Or):
            children = e.options
        elif isinstance(e, (May, If, Repeat)):
            children = (e.body,)
        else:
            children = ()
        out.append(tuple(index[c] for c in children))
    return tuple(out)


def max_decisions(e: Expr) -> int:
    """The most decisions (and card draws) an expression can ask of one player."""
    if isinstance(e, Primitive):
        if e.name in ("discard_cards", "draw_cards"):
            return _bound(e.args[0])
        if e.name == "remove_troops":
            return 2 * _bound(e.args[0])
        return 0
    if isinstance(e, Seq):
        return sum(max_decisions(i) for i in e.items)
    if isinstance(e, Or):
        return 1 + max(max_decisions(o) for o in e.options)
    if isinstance(e, May):
        return 1 + max_decisions(e.body)
    if isinstance(e, If):
        return max_decisions(e.body)
    if not isinstance(e, Repeat):
        raise TypeError(f"expected a Repeat node, got {e!r}")
    return e.times * (1 + max_decisions(e.body)) + 1


def _bound(a: Any) -> int:
    """An upper bound of an amount: a scaled quantity counts at most 100 of anything."""
    if isinstance(a, Const):
        return a.value
    if isinstance(a, Scaled):
        return abs(a.factor) * 100
    return int(a)
