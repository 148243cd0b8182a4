"""Military moves and battles, as tasks on the rules' stack (see :mod:`rules`).

Move tasks: ``move`` (level ``a``, ``b`` armies begun, ``c`` 1 once the King moved in this
action); ``army`` (origin ``a``, ``c`` the stage: 0 artillery, 1 cavalry, 2 infantry, 3 the
King; ``data`` troops taken as infantry, cavalry, artillery); ``step`` (position ``a``,
steps taken ``b``, speed left ``c``; ``data`` = infantry, cavalry, artillery, King 0/1,
origin, then the territories visited).

Battle tasks (the battle itself is ``state.battle``): ``round`` begins a round; ``bcards``
and ``btokens`` are the sealed simultaneous commitments; ``breveal`` shows them; ``bart``
(chance) side ``a``'s artillery; ``bstrength`` compares; ``broll`` the winner's number of
casualty dice (``a`` side, ``b`` most); ``bhits`` (chance) side ``a`` rolls ``b`` dice;
``bcas`` works out casualties; ``bloss`` side ``a`` removes them; ``bdeclare`` the
attacker continues or retreats; ``bdefend`` the defender does; ``bretreat`` where to.
A side's owner -1 is England (part 2): no commitments, casualties infantry first, the
most dice allowed, never retreats.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import sub
from typing import TYPE_CHECKING, Any

from clangames.clan_feud import drafts, war
from clangames.clan_feud.actions import (
    MAX_COMMIT,
    MAX_ROLL,
    ClanFeudAction,
    Commit,
    Hits,
    Lose,
    Place,
    PlayCard,
    Roll,
    Take,
    Total,
    Word,
)
from clangames.clan_feud.rows import gain
from clangames.clan_feud.state import (
    BATTLE_TASKS,
    ENGLAND,
    Battle,
    Task,
    battle_with,
    new_task,
    occupied,
)
from clangames.engine.simultaneous import Commitments

if TYPE_CHECKING:
    from clangames.clan_feud.rules import W

SPEED = (1, 2, 1)


def _cards() -> Any:
    """The action cards' module (part 3), imported late: it builds on the rules, which
    import this module. Only asked while a card's modifier or knowledge is pending."""
    from clangames.clan_feud import playing

    return playing


# ---------------------------------------------------------------------------------------
# Moving


def _unmoved(w: W, p: int, t: int) -> tuple[int, int, int]:
    row = w.troops[p]
    m = w.moved
    i = 3 * t
    return (row[i] - m[i], row[i + 1] - m[i + 1], row[i + 2] - m[i + 2])


def _move_run(w: W, task: Task) -> bool:
    if task.b >= task.a:
        w.moved = (0,) * len(w.moved)
        w.tasks.pop()
        return True
    return False


def _move_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p = task.player
    g = w.game
    out: list[ClanFeudAction] = [g.words["stop"]] if task.b else []
    # territories with unmoved troops of p's (moved never exceeds present)
    acts = g.place_actions
    out += [acts[t] for t in occupied(list(map(sub, w.troops[p], w.moved)))]
    return tuple(out)


def _move_apply(w: W, task: Task, action: Any, player: int) -> None:
    if isinstance(action, Word):
        w.update(b=task.a)
        return
    w.update(b=task.b + 1)
    w.tasks.append(new_task("army", task.player, action.territory, 0, 0, (0, 0, 0)))


def _king_can_go(w: W, p: int, t: int) -> bool:
    move = w.tasks[-2]
    return w.regent == p and w.king == t and not move.c and w.battle is None


def _army_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    p, t, stage = task.player, task.a, task.c
    g = w.game
    if stage == 3:
        words = g.words
        stays = sum(drafts.army(w, p, t)) > sum(task.data)
        return (words["king goes"], words["king stays"]) if stays else (words["king goes"],)
    kind = 2 - stage
    have = _unmoved(w, p, t)
    taken = sum(task.data)
    later = any(have[k] for k in range(kind))
    low = 1 if not taken and not later else 0
    return tuple([g.take_actions[kind][k] for k in range(low, have[kind] + 1)])


def _army_apply(w: W, task: Task, action: Any, player: int) -> None:
    p, t = task.player, task.a
    if isinstance(action, Take):
        data = list(task.data)
        data[action.troop] = action.count
        if task.c < 2 or (task.c == 2 and _king_can_go(w, p, t)):
            w.update(c=task.c + 1, data=tuple(data))
            return
        _begin_steps(w, p, t, tuple(data), False)
        return
    goes = action.word == "king goes"
    if goes:
        below = w.tasks[-2]
        w.tasks[-2] = new_task(below.kind, below.player, below.a, below.b, 1, below.data)
    _begin_steps(w, p, t, task.data, goes)


def _begin_steps(w: W, p: int, t: int, army: tuple[int, ...], king: bool) -> None:
    w.tasks.pop()
    speed = min(SPEED[k] for k in range(3) if army[k])
    if w.mods:  # an action card's move boost
        speed += _cards().speed_bonus(w, p, army)
    w.tasks.append(new_task("step", p, t, 0, speed, (*army, int(king), t, t)))


def _step_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    g = w.game
    board = g.board
    pos, steps = task.a, task.b
    visited = task.data[5:]
    out: list[ClanFeudAction] = [g.words["stop"]] if steps else []
    free = bool(w.mods) and _cards().ignores_mountains(w, task.player, task.data[:3])
    for n in board.neighbours[pos]:
        if n in visited:
            continue
        if steps and board.mountain_mask >> n & 1 and not free:
            continue
        out.append(g.place_actions[n])
    return tuple(out)


def _step_apply(w: W, task: Task, action: Any, player: int) -> None:
    p, pos = task.player, task.a
    army = task.data[:3]
    king = bool(task.data[3])
    origin = task.data[4]
    row = drafts.troop_row(w, p)
    if isinstance(action, Word):
        w.tasks.pop()
        _arrive(w, p, pos, army)
        return
    n = action.territory
    for k in range(3):
        row[3 * pos + k] -= army[k]
    board = w.game.board
    defender = drafts.occupant(w, n, p)
    if king:
        w.king = n
    if defender >= 0 or (w.english and war.holds(w, n)):
        w.tasks.pop()
        _begin_battle(w, n, p, defender, origin, army, king)  # -1: England defends
        return
    for k in range(3):
        row[3 * n + k] += army[k]
    speed = task.c - 1
    mountain = board.mountain_mask >> n & 1 or board.mountain_mask >> pos & 1
    if mountain and w.mods and _cards().ignores_mountains(w, p, army):
        mountain = 0
    if speed <= 0 or mountain:
        w.tasks.pop()
        _arrive(w, p, n, army)
    else:
        w.update(a=n, b=task.b + 1, c=speed, data=(*task.data, n))


def _arrive(w: W, p: int, t: int, army: tuple[int, ...]) -> None:
    """An army comes to rest: it has moved, and it claims the territory."""
    for k in range(3):
        drafts.writable(w, "moved")[3 * t + k] += army[k]
    w.claim(p, t)


# ---------------------------------------------------------------------------------------
# Battles


def _begin_battle(
    w: W, t: int, attacker: int, defender: int, origin: int, army: tuple[int, ...], king: bool
) -> None:
    if king:
        side = 0
    elif defender >= 0 and w.regent == defender and w.king == t:
        side = 1
    else:
        side = -1
    w.battle = Battle(
        territory=t,
        owners=(attacker, defender),
        origin=origin,
        attackers=(army[0], army[1], army[2]),
        king=side,
        cards=Commitments.open(2),
        tokens=Commitments.open(2),
    )
    w.tasks.append(new_task("round"))


def current_battle(w: W) -> Battle:
    """The battle being fought: battle tasks are on the stack only while there is one, so
    its absence is a broken state, reported as such rather than as an AttributeError."""
    b = w.battle
    if b is None:
        raise RuntimeError(f"a battle step ran with no battle in progress (tasks {w.tasks!r})")
    return b


def side_troops(w: W, side: int) -> tuple[int, int, int]:
    b = current_battle(w)
    if side == 0:
        return b.attackers
    if b.owners[1] == ENGLAND:
        return war.troops_at(w, b.territory)
    return drafts.army(w, b.owners[1], b.territory)


def _round_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    w.battle = battle_with(
        b,
        cards=Commitments.open(2),
        tokens=Commitments.open(2),
        played=(-1, -1),
        spent=(0, 0),
        artillery=(0, 0),
        hits=(0, 0),
        losses=(0, 0),
        rounds=b.rounds + 1,
        roller=-1,
    )
    w.tasks.pop()
    w.tasks += _ROUND_TASKS
    return True


_ROUND_TASKS = tuple(
    Task(kind, a=a)
    for kind, a in (
        ("bdeclare", 0),
        ("bloss", 1),
        ("bloss", 0),
        ("bcas", 0),
        ("bstrength", 0),
        ("bart", 1),
        ("bart", 0),
        ("breveal", 0),
        ("btokens", 0),
        ("bcards", 0),
    )
)
"""A battle round's steps, last first (tasks are values: every round pushes these)."""


def _sides_of(w: W, player: int) -> int:
    b = current_battle(w)
    return 0 if b.owners[0] == player else 1


def _cards_together(w: W, task: Task) -> tuple[int, ...]:
    b = current_battle(w)
    return tuple(
        sorted(
            p
            for s, p in enumerate(b.owners)
            if p >= 0 and not b.cards.has_committed(s) and any(w.hands[p])
        )
    )


def _cards_sealed(w: W, task: Task, player: int) -> tuple[ClanFeudAction, ...]:
    g = w.game
    out: list[ClanFeudAction] = [g.words["no card"]]
    out += [g.card_actions[d] for d, n in enumerate(w.hands[player]) if n]
    return tuple(out)


def _cards_apply(w: W, task: Task, action: Any, player: int) -> None:
    b = current_battle(w)
    side = _sides_of(w, player)
    w.battle = battle_with(b, cards=b.cards.commit(side, w.game.action_id(action)))


def _tokens_together(w: W, task: Task) -> tuple[int, ...]:
    b = current_battle(w)
    return tuple(
        sorted(
            p
            for s, p in enumerate(b.owners)
            if p >= 0 and not b.tokens.has_committed(s) and w.feud[p]
        )
    )


def _tokens_sealed(w: W, task: Task, player: int) -> tuple[ClanFeudAction, ...]:
    acts = w.game.commit_actions
    return tuple([acts[k] for k in range(min(w.feud[player], MAX_COMMIT) + 1)])


def _tokens_apply(w: W, task: Task, action: Commit, player: int) -> None:
    b = current_battle(w)
    side = _sides_of(w, player)
    w.battle = battle_with(b, tokens=b.tokens.commit(side, w.game.action_id(action)))


def _reveal_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    g = w.game
    played = [-1, -1]
    spent = [0, 0]
    for side, p in enumerate(b.owners):
        if p < 0:
            continue
        if b.cards.has_committed(side):
            card = g.action_from_id(b.cards.ids[side])
            if isinstance(card, PlayCard):
                played[side] = card.design
                w.hrow(p)[card.design] -= 1
                if w.known:
                    _cards().forget(w, p, card.design)
                drafts.writable(w, "discards")[card.design] += 1
        if b.tokens.has_committed(side):
            k = g.action_from_id(b.tokens.ids[side]).k
            spent[side] = k
            drafts.writable(w, "feud")[p] -= k
    w.battle = battle_with(b, played=(played[0], played[1]), spent=(spent[0], spent[1]))
    w.tasks.pop()
    return True


def effects(w: W | Any, b: Battle) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
    """Each side's combat effect this round after cancels, as (kind, amount) or None."""
    designs = w.game.deck.designs
    raw = [None if d < 0 else designs[d].combat for d in b.played]
    out: list[tuple[str, int] | None] = [None, None]
    for s in range(2):
        mine, theirs = raw[s], raw[1 - s]
        if mine is None or mine.kind == "cancel":
            continue
        if theirs is not None and theirs.kind == "cancel":
            continue
        out[s] = (mine.kind, mine.amount)
    return out[0], out[1]


def _art_run(w: W, task: Task) -> bool:
    if side_troops(w, task.a)[2]:
        return False
    w.tasks.pop()
    return True


def _art_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    return w.game.white_sums[2 * side_troops(w, task.a)[2]]


def _art_apply(w: W, task: Task, action: Total, player: int) -> None:
    b = current_battle(w)
    art = list(b.artillery)
    art[task.a] = action.k
    w.battle = battle_with(b, artillery=(art[0], art[1]))
    w.tasks.pop()


def strengths(w: W | Any, b: Battle) -> tuple[int, int]:
    """Both sides' combat strength this round (after the reveal and the artillery)."""
    eff = effects(w, b)
    out = []
    for side in range(2):
        troops = side_troops(w, side)
        cs = troops[0] + 2 * troops[1] + b.artillery[side] + b.spent[side]
        if b.king == side and b.owners[side] >= 0:
            cs += 1
        e = eff[side]
        if e is not None and e[0] == "cs":
            cs += e[1]
        if side == 1 and not b.attackers[2]:
            cs += (0, 1, 2)[w.site[b.territory]]
        out.append(cs)
    return out[0], out[1]


def _strength_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    att, dfd = strengths(w, b)
    w.tasks.pop()
    if att == dfd:
        w.battle = battle_with(b, roller=-1)
        w.tasks.append(new_task("bhits", a=1, b=1))
        w.tasks.append(new_task("bhits", a=0, b=1))
        return True
    winner = 0 if att > dfd else 1
    w.battle = battle_with(b, roller=winner)
    most = min(abs(att - dfd), MAX_ROLL)
    owner = b.owners[winner]
    if owner == ENGLAND:
        # England rolls the most dice allowed, at most the losing troops + 3.
        most = min(most, sum(side_troops(w, 1 - winner)) + 3)
        w.tasks.append(new_task("bhits", a=winner, b=most))
    else:
        w.tasks.append(new_task("broll", owner, winner, most))
    return True


def _roll_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    acts = w.game.roll_actions
    return tuple([acts[k] for k in range(1, task.b + 1)])


def _roll_apply(w: W, task: Task, action: Roll, player: int) -> None:
    w.tasks.pop()
    w.tasks.append(new_task("bhits", a=task.a, b=action.k))


def two_is_three(w: W | Any, b: Battle) -> bool:
    return any(e is not None and e[0] == "two_is_three" for e in effects(w, b))


def _hits_weights(w: W, task: Task) -> tuple[tuple[ClanFeudAction, int], ...]:
    b = current_battle(w)
    return w.game.hit_table(task.b, two_is_three(w, b))


def _hits_apply(w: W, task: Task, action: Hits, player: int) -> None:
    b = current_battle(w)
    hits = list(b.hits)
    hits[1 - task.a] += action.loser
    hits[task.a] += action.winner
    w.battle = battle_with(b, hits=(hits[0], hits[1]))
    w.tasks.pop()


def _cas_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    eff = effects(w, b)
    losses = []
    for side in range(2):
        n = b.hits[side]
        theirs, mine = eff[1 - side], eff[side]
        if theirs is not None and theirs[0] == "skulls+":
            n += theirs[1]
        if mine is not None and mine[0] == "skulls-":
            n -= mine[1]
        losses.append(min(max(n, 0), sum(side_troops(w, side))))
    w.battle = battle_with(b, losses=(losses[0], losses[1]))
    w.tasks.pop()
    return True


def _lose(w: W, side: int, kind: int, count: int = 1) -> None:
    b = current_battle(w)
    owner = b.owners[side]
    if side == 0:
        army = list(b.attackers)
        army[kind] -= count
        b = battle_with(b, attackers=(army[0], army[1], army[2]))
    elif owner == ENGLAND:
        war.lose(w, b.territory, kind, count)
    else:
        drafts.troop_row(w, owner)[3 * b.territory + kind] -= count
    losses = list(b.losses)
    losses[side] -= count
    w.battle = battle_with(b, losses=(losses[0], losses[1]))
    if owner >= 0:
        w.feud = gain(w.feud, owner, count)


def _loss_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    side = task.a
    due = b.losses[side]
    troops = side_troops(w, side)
    if due and due >= sum(troops):
        for k in range(3):
            if troops[k]:
                _lose(w, side, k, troops[k])
        due = 0
    elif due and b.owners[side] == ENGLAND:
        for k in range(3):
            take = min(due, side_troops(w, side)[k])
            if take:
                _lose(w, side, k, take)
                due -= take
    if not due:
        w.tasks.pop()
        return True
    w.update(player=b.owners[side])
    return False


def _loss_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    troops = side_troops(w, task.a)
    acts = w.game.lose_actions
    return tuple([acts[k] for k in range(3) if troops[k]])


def _loss_apply(w: W, task: Task, action: Lose, player: int) -> None:
    _lose(w, task.a, action.troop)


def retreats(w: W, b: Battle) -> tuple[int, ...]:
    """Where the defender may retreat: adjacent territories it controls, else free ones,
    never one holding another clan's army or an English army."""
    d = b.owners[1]
    board = w.game.board
    own, free = [], []
    for n in board.neighbours[b.territory]:
        if drafts.occupant(w, n, d) >= 0 or (w.english and war.holds(w, n)):
            continue
        if w.controller[n] == d:
            own.append(n)
        elif w.controller[n] < 0:
            free.append(n)
    return tuple(own or free)


def _declare_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    att, dfd = sum(b.attackers), sum(side_troops(w, 1))
    # England never retreats; nor do recruits fighting on arrival (no origin to go back to)
    if not att or not dfd or b.owners[0] == ENGLAND or b.origin < 0:
        if att and dfd:
            w.tasks.pop()
            w.tasks.append(new_task("bdefend", b.owners[1]))
            return True
        _finish(w, "attacker" if att else ("defender" if dfd else "none"))
        return True
    w.update(player=b.owners[0])
    return False


def _declare_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    words = w.game.words
    return (words["continue"], words["retreat"])


def _declare_apply(w: W, task: Task, action: Word, player: int) -> None:
    b = current_battle(w)
    if action.word == "retreat":
        _finish(w, "defender", attacker_retreats=True)
        return
    w.tasks.pop()
    w.tasks.append(new_task("bdefend", b.owners[1]))


def _defend_run(w: W, task: Task) -> bool:
    b = current_battle(w)
    if b.owners[1] == ENGLAND or not retreats(w, b):
        w.tasks.pop()
        w.tasks.append(new_task("round"))
        return True
    return False


def _defend_apply(w: W, task: Task, action: Word, player: int) -> None:
    w.tasks.pop()
    if action.word == "retreat":
        w.tasks.append(new_task("bretreat", player))
    else:
        w.tasks.append(new_task("round"))


def _retreat_options(w: W, task: Task) -> tuple[ClanFeudAction, ...]:
    b = current_battle(w)
    acts = w.game.place_actions
    return tuple([acts[n] for n in retreats(w, b)])


def _retreat_apply(w: W, task: Task, action: Place, player: int) -> None:
    b = current_battle(w)
    d, t, n = b.owners[1], b.territory, action.territory
    row = drafts.troop_row(w, d)
    for k in range(3):
        row[3 * n + k] += row[3 * t + k]
        row[3 * t + k] = 0
    _finish(w, "attacker", retreat_to=n)


def _finish(w: W, survivor: str, attacker_retreats: bool = False, retreat_to: int = -1) -> None:
    """End the battle: ``survivor`` is the side left in the territory (``attacker``,
    ``defender`` or ``none``). Pops the battle's remaining tasks."""
    b = current_battle(w)
    while w.tasks and w.tasks[-1].kind in BATTLE_TASKS:
        w.tasks.pop()
    p, d, t = b.owners[0], b.owners[1], b.territory
    w.battle = None
    army = b.attackers
    if attacker_retreats:
        row = drafts.troop_row(w, p)
        for k in range(3):
            row[3 * b.origin + k] += army[k]
            drafts.writable(w, "moved")[3 * b.origin + k] += army[k]
    if retreat_to >= 0 and d >= 0:
        w.claim(d, retreat_to)
    if ENGLAND in b.owners:
        war.battle_over(w, b, survivor)  # England's army kept or paid for; the track
    if survivor == "attacker" and p == ENGLAND:
        # England never takes control nor the King (he stays there, unclaimed)
        if b.king == 1:
            w.set_regent(-1)
    elif survivor == "attacker":
        row = drafts.troop_row(w, p)
        for k in range(3):
            row[3 * t + k] += army[k]
            drafts.writable(w, "moved")[3 * t + k] += army[k]
        if b.king == 0:
            w.king = t
        elif b.king == 1:
            w.set_regent(p)
        w.claim(p, t)
    elif survivor == "defender":
        if b.king == 0:
            w.set_regent(d)  # left behind (or his army fell): the defender takes him
    elif b.king >= 0:
        w.set_regent(-1)  # both sides gone: the King stands alone
    if b.origin < 0:
        w.moved = (0,) * len(w.moved)  # recruits, not a move: nothing is marked moved


PROMPTS = {
    "move": "choose an army to move (its territory), or stop",
    "army": "choose the troops that move",
    "step": "choose the next territory, or stop",
    "round": "a battle round begins",
    "bcards": "commit an action card for the battle round, sealed",
    "btokens": "commit feud tokens for the battle round, sealed",
    "bart": "the artillery is rolled",
    "broll": "choose how many casualty dice to roll",
    "bhits": "casualty dice are rolled",
    "bloss": "choose which troop is lost",
    "bdeclare": "attacker: continue the battle or retreat",
    "bdefend": "defender: continue the battle or retreat",
    "bretreat": "defender: choose where to retreat",
}


def register(
    run: dict[str, Callable[..., bool]],
    options: dict[str, Callable[..., tuple[ClanFeudAction, ...]]],
    weights: dict[str, Callable[..., Any]],
    together: dict[str, Callable[..., tuple[int, ...]]],
    sealed: dict[str, Callable[..., tuple[ClanFeudAction, ...]]],
    apply: dict[str, Callable[..., None]],
) -> None:
    """Add the military tasks to the rules' tables."""
    run.update(
        {
            "move": _move_run,
            "round": _round_run,
            "breveal": _reveal_run,
            "bart": _art_run,
            "bstrength": _strength_run,
            "bcas": _cas_run,
            "bloss": _loss_run,
            "bdeclare": _declare_run,
            "bdefend": _defend_run,
        }
    )
    options.update(
        {
            "move": _move_options,
            "army": _army_options,
            "step": _step_options,
            "broll": _roll_options,
            "bloss": _loss_options,
            "bdeclare": _declare_options,
            "bdefend": _declare_options,
            "bretreat": _retreat_options,
        }
    )
    weights.update({"bart": _art_weights, "bhits": _hits_weights})
    together.update({"bcards": _cards_together, "btokens": _tokens_together})
    sealed.update({"bcards": _cards_sealed, "btokens": _tokens_sealed})
    apply.update(
        {
            "move": _move_apply,
            "army": _army_apply,
            "step": _step_apply,
            "bcards": _cards_apply,
            "btokens": _tokens_apply,
            "bart": _art_apply,
            "broll": _roll_apply,
            "bhits": _hits_apply,
            "bloss": _loss_apply,
            "bdeclare": _declare_apply,
            "bdefend": _defend_apply,
            "bretreat": _retreat_apply,
        }
    )
