"""England at war (part 2): where English armies are kept, how they spawn, march, fight
and are defeated, and when they disband.

English armies live in the state's ``english`` tuple (one :class:`EnglishArmy` per
territory, by ascending territory); an attacking one waits in the battle's ``attackers``
and ``levels`` until the battle ends. The battle rules themselves are part 1's
(:mod:`military`, where a side owned by -1 is England); this module puts English armies
into battles and settles what a battle's end means for them.

Phase-3 tasks (pushed by :func:`begin_war` on top of the upkeep tasks, so they run first):

- ``espawn`` spawns this turn's armies (the flames crossed since the start of phase 3) as
  one combined army in the card's territory: a new army, a merge, or a battle with England
  attacking; then pushes ``emarch``.
- ``emarch`` (``a`` the card's moves, ``data`` the territories of armies that are done:
  spawned, moved or merged this turn) picks the next English army to march: the highest
  level first, a tie named by the decider (``territory t``); then pushes ``emove``.
- ``emove`` (``a`` the army's territory, ``b`` moves left, ``c`` 0 before its target is
  known, 1 after; ``data`` = (target,)) makes one move at a time: the decider names the
  target among the nearest clan armies, then the first step among the shortest paths'.

The decider of every English choice is the regent, else the first player in turn order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clangames.clan_feud import drafts
from clangames.clan_feud.actions import ClanFeudAction, Place
from clangames.clan_feud.board import occupied_by
from clangames.clan_feud.rows import gain
from clangames.clan_feud.state import (
    ENGLAND,
    Battle,
    EnglishArmy,
    Task,
    army_with,
    battle_with,
    new_task,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeAlias

    from clangames.clan_feud.rules import W
    from clangames.clan_feud.state import ClanFeudState

    Table: TypeAlias = W | ClanFeudState


# ---------------------------------------------------------------------------------------
# Storage


def army_at(w: Table, t: int) -> EnglishArmy | None:
    """The English army in territory ``t`` (on the board, not attacking), or None."""
    for army in w.english:
        if army.territory == t:
            return army
    return None


def holds(w: Any, t: int) -> bool:
    """Whether an English army stands in ``t``."""
    return any(army.territory == t for army in w.english)


def troops_at(w: Any, t: int) -> tuple[int, int, int]:
    """England's infantry, cavalry and artillery in ``t`` (zeros for none)."""
    army = army_at(w, t)
    return (0, 0, 0) if army is None else army.troops


def put(w: W, army: EnglishArmy) -> None:
    """Place ``army`` on the board (replacing any English army in its territory)."""
    rest = [a for a in w.english if a.territory != army.territory]
    rest.append(army)
    rest.sort(key=_territory)
    w.english = tuple(rest)


def remove(w: W, t: int) -> None:
    """Take the English army in ``t`` off the board."""
    w.english = tuple(a for a in w.english if a.territory != t)


def _territory(army: EnglishArmy) -> int:
    return army.territory


def merge(a: EnglishArmy, troops: tuple[int, int, int], tokens: tuple[int, ...]) -> EnglishArmy:
    """``a`` joined by ``troops`` carrying level ``tokens``: one army, levels summed."""
    return EnglishArmy(
        a.territory,
        (a.troops[0] + troops[0], a.troops[1] + troops[1], a.troops[2] + troops[2]),
        tuple(sorted(a.tokens + tokens)),
    )


def english_total(w: Any) -> tuple[int, int, int]:
    """England's troops of each type on the board, an attacking army included."""
    totals = [0, 0, 0]
    for army in w.english:
        for k in range(3):
            totals[k] += army.troops[k]
    b = w.battle
    if b is not None and b.owners[0] == ENGLAND:
        for k in range(3):
            totals[k] += b.attackers[k]
    return (totals[0], totals[1], totals[2])


def lose(w: W, t: int, kind: int, count: int) -> None:
    """A defending English army in ``t`` loses ``count`` troops of type ``kind``."""
    army = army_at(w, t)
    if army is None:
        raise RuntimeError(f"England lost troops in territory {t}, where it has no army")
    troops = list(army.troops)
    troops[kind] -= count
    put(w, army_with(army, troops=(troops[0], troops[1], troops[2])))


def yielding_loss(w: Any, p: int) -> int:
    """How many of ``p``'s territories hold an English army (they yield no Income)."""
    ctrl = w.controller
    return sum(1 for army in w.english if ctrl[army.territory] == p)


def decider(w: Table) -> int:
    """Who makes England's choices: the regent, else the first player in turn order."""
    return w.regent if w.regent >= 0 else int(w.order[0])


def clan_armies(w: Any) -> list[int]:
    """The territories holding a clan army, ascending."""
    found: set[int] = set()
    for row in w.troops:
        found.update(occupied_by(row))
    return sorted(found)


# ---------------------------------------------------------------------------------------
# The track


def track_moved(w: W) -> None:
    """After any move of the England track (an event, a defeat, and part 3's action cards
    through :func:`clangames.clan_feud.interpret.move_track`): at 10 or less every English
    army disbands at once."""
    if w.english and not w.game.england.at_war(w.england):
        w.english = ()


def _track_back(w: W, steps: int) -> None:
    w.england = w.game.england.clamp(w.england - steps)
    track_moved(w)


# ---------------------------------------------------------------------------------------
# Battles with England


def attack(w: W, army: EnglishArmy, t: int, defender: int) -> None:
    """``army`` (off the board: stepping out of its territory, or just spawned there)
    enters ``t``, held by ``defender``'s clan army: England attacks, its troops and level
    tokens waiting in the battle."""
    from clangames.clan_feud.military import _begin_battle as begin_battle

    begin_battle(w, t, ENGLAND, defender, army.territory, army.troops, False)
    b = w.battle
    if b is not None:
        w.battle = battle_with(b, levels=army.tokens)


def recruits_attack(w: W, p: int, t: int) -> None:
    """``p``'s troops just recruited into ``t``, where an English army stands, fight it at
    once as attackers with nowhere to retreat (origin -1). They are all of ``p``'s troops
    there: a clan army never rests beside an English one."""
    from clangames.clan_feud.military import _begin_battle as begin_battle

    row = drafts.troop_row(w, p)
    army = (row[3 * t], row[3 * t + 1], row[3 * t + 2])
    for k in range(3):
        row[3 * t + k] = 0
    begin_battle(w, t, p, ENGLAND, -1, army, False)


def battle_over(w: W, b: Battle, survivor: str) -> None:
    """A battle with England in it has ended (``survivor`` as in ``military._finish``).
    An English army wiped out pays its tokens' VP and £ to the clan whose army won (none if
    that army fell too) and moves the track back by its tokens' steps (no spawning; at 10 or
    less every English army disbands). A surviving English attacker stands in the
    territory; a King whose army it beat stays there alone (the caller frees him)."""
    t = b.territory
    england_side = 0 if b.owners[0] == ENGLAND else 1
    clan = b.owners[1 - england_side]
    if england_side == 0:
        tokens = b.levels
        if survivor == "attacker":
            put(w, EnglishArmy(t, b.attackers, tokens))
            return
        clan_alive = survivor == "defender"
    else:
        army = army_at(w, t)
        if army is None or any(army.troops):
            return  # it held out (the attacker retreated or fell)
        remove(w, t)
        tokens = army.tokens
        clan_alive = survivor == "attacker"
    track = w.game.england
    if clan_alive:
        w.vp = gain(w.vp, clan, sum(track.level(k).vp for k in tokens))
        w.money = gain(w.money, clan, sum(track.level(k).money for k in tokens))
    _track_back(w, sum(track.level(k).steps_back for k in tokens))


# ---------------------------------------------------------------------------------------
# Phase 3: spawning and marching


def begin_war(w: W) -> None:
    """Phase 3 after the event's top line: if England is at war, spawn, then march (pushed
    on top of the upkeep tasks)."""
    if w.game.england.at_war(w.england):
        w.tasks.append(new_task("espawn"))


def spawn_troops(w: Any) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    """This phase 3's spawn: the flames crossed since its start, in ascending order, each
    while England's supply still holds its level's whole army. Returns the troops and the
    level tokens (empty when nothing spawns)."""
    track = w.game.england
    free = [s - used for s, used in zip(track.supply, english_total(w), strict=True)]
    troops = [0, 0, 0]
    tokens: list[int] = []
    for flame in track.flames_crossed(w.track_start, w.england):
        need = track.level(flame.level).troops
        if any(need[k] > free[k] for k in range(3)):
            break
        for k in range(3):
            free[k] -= need[k]
            troops[k] += need[k]
        tokens.append(flame.level)
    return (troops[0], troops[1], troops[2]), tuple(tokens)


def _spawn_run(w: W, task: Task) -> bool:
    g = w.game
    card = g.events.regular[w.events[-1]]
    t = g.board.spawns[card.spawn]
    troops, tokens = spawn_troops(w)
    w.tasks.pop()
    w.tasks.append(new_task("emarch", a=card.moves, data=(t,) if tokens else ()))
    if not tokens:
        return True
    army = EnglishArmy(t, troops, tokens)
    there = army_at(w, t)
    defender = drafts.occupant(w, t, ENGLAND)
    if there is not None:
        put(w, merge(there, troops, tokens))
    elif defender >= 0:
        attack(w, army, t, defender)
    else:
        put(w, army)
    return True


def _marchers(w: Any, task: Task) -> list[EnglishArmy]:
    """The armies still to march, those of the highest level among them."""
    done = task.data
    waiting = [a for a in w.english if a.territory not in done]
    if not waiting:
        return []
    top = max(a.level for a in waiting)
    return [a for a in waiting if a.level == top]


def _march_run(w: W, task: Task) -> bool:
    marchers = _marchers(w, task)
    if not marchers or task.a <= 0:
        w.tasks.pop()
        return True
    if len(marchers) == 1:
        w.tasks.append(new_task("emove", -1, marchers[0].territory, task.a))
        return True
    w.update(player=decider(w))
    return False


def _march_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    acts = w.game.place_actions
    return tuple([acts[a.territory] for a in _marchers(w, task)])


def _march_apply(w: W, task: Task, action: Place, player: int) -> None:
    w.tasks.append(new_task("emove", -1, action.territory, task.a))


def _done(w: W, t: int) -> None:
    """The marching army ends its turn in ``t``: pop its task and note ``t`` as done."""
    w.tasks.pop()
    march = w.tasks[-1]
    if march.kind != "emarch":
        raise RuntimeError(f"an English move ended with no march beneath it: {w.tasks!r}")
    if t not in march.data:
        data = tuple(sorted((*march.data, t)))
        w.tasks[-1] = new_task(march.kind, march.player, march.a, march.b, march.c, data)


def nearest(w: Any, t: int) -> list[int]:
    """The clan armies' territories nearest to ``t`` by steps (land edges and sea lanes)."""
    armies = clan_armies(w)
    if not armies:
        return []
    row = w.game.board.distances[t]
    best = min(row[a] for a in armies)
    return [a for a in armies if row[a] == best]


def _move_run(w: W, task: Task) -> bool:
    if task.b <= 0 or not clan_armies(w):
        _done(w, task.a)
        return True
    w.update(player=decider(w))
    return False


def _move_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    acts = w.game.place_actions
    if task.c == 0:
        return tuple([acts[t] for t in nearest(w, task.a)])
    return tuple([acts[n] for n in w.game.board.toward(task.a, task.data[0])])


def _move_apply(w: W, task: Task, action: Place, player: int) -> None:
    if task.c == 0:
        w.update(c=1, data=(action.territory,))
        return
    pos, n = task.a, action.territory
    army = army_at(w, pos)
    if army is None:
        raise RuntimeError(f"no English army in territory {pos} to move")
    there = army_at(w, n)
    defender = drafts.occupant(w, n, ENGLAND)
    if there is not None:
        remove(w, pos)
        put(w, merge(there, army.troops, army.tokens))
        _done(w, n)
    elif defender >= 0:
        remove(w, pos)
        _done(w, n)
        attack(w, army, n, defender)
    else:
        remove(w, pos)
        put(w, army_with(army, territory=n))
        w.tasks[-1] = new_task("emove", -1, n, task.b - 1)


PROMPTS = {
    "espawn": "English armies spawn",
    "emarch": "name the English army of the highest level that marches next",
    "emove": "choose the English army's target among the nearest clan armies, or its step",
}


def prompt_of(kind: str, task: Task | None) -> str | None:
    """The prompt of an English decision (the move's two stages read differently)."""
    if kind == "emove" and task is not None:
        if task.c == 0:
            return "choose which of the nearest clan armies the English army marches on"
        return "choose the English army's next territory on a shortest path to its target"
    return PROMPTS.get(kind)


def register(
    run: dict[str, Callable[..., bool]],
    options: dict[str, Callable[..., tuple[ClanFeudAction, ...]]],
    apply: dict[str, Callable[..., None]],
) -> None:
    """Add England's phase-3 tasks to the rules' tables."""
    run.update({"espawn": _spawn_run, "emarch": _march_run, "emove": _move_run})
    options.update({"emarch": _march_options, "emove": _move_options})
    apply.update({"emarch": _march_apply, "emove": _move_apply})
