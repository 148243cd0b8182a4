"""What follows a Clan Feud step on its own, in words: the steps nobody decides.

After a move the rules work the task stack until someone must decide (``rules.settle``):
a decision with a single option is taken at once, a chance node with one outcome too, and
the automatic tasks run (England's spawn and march, a battle round's strengths and
casualties, an event's effects, Income, the scoring). The narration of the move alone left
all of that out: a player saw the England track jump, or a battle vanish, with no line
saying why. :func:`aftermath` walks the same stack with the same handlers, one task at a
time, and says each of those steps: a forced choice by what it does, automatic work by the
public changes it made (:func:`changes`).

It says only what every seat sees: the board, the track, the English armies, the battle,
money, feud tokens and VP, never a card drawn or held (a draw is "an action card").
:func:`changes` reads only fields an observation has too, so the renderer tells the same
changes after a step the viewer cannot identify.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clangames.clan_feud.actions import TROOPS, DrawCard, Take, Word
from clangames.clan_feud.playing import program_source
from clangames.clan_feud.rules import _NESTED, _SEQUENCES, APPLY, HANDLERS, W
from clangames.clan_feud.state import ENGLAND, ClanFeudState
from clangames.clan_feud.working import _thaw_state, working
from clangames.engine.phases import CHANCE, Phase

_QUIET_KINDS = frozenset({"p1order", "p1cards", "p3cards", "assign"})
"""Card windows and phase 2's turns: a seat without a card to play, or without a die left,
passes there at every turn; saying so for each seat would bury the steps that matter."""


def aftermath(
    s: ClanFeudState, action: Any, player: int, say: Callable[[ClanFeudState, Any], str]
) -> list[str]:
    """The sentences for what ``action`` by ``player`` sets going on its own, in order
    (empty if nothing): ``say(state, action)`` words a forced choice or a lone chance
    outcome (the game's ``describe``)."""
    if s.is_terminal or not s.tasks:
        return []
    return walk(s, action, player, say)[0]


def walk(
    s: ClanFeudState, action: Any, player: int, say: Callable[[ClanFeudState, Any], str]
) -> tuple[list[str], ClanFeudState]:
    """:func:`aftermath`'s sentences and the table it walked to: the state ``s.apply``
    gives, but for its phase and cached options (a test holds the two walks equal)."""
    w = working(s)
    task = w.tasks[-1]
    APPLY[task.kind](w, task, action, player)
    # a decision's own words say what it does, not how a battle it settles came out, nor
    # that a march took a territory and King James with it
    now = _snapshot(w, Phase.over())
    begun = " attack" not in say(s, action)  # "... and attack player 1's army there"
    out: list[str] = _battle(s, now, s, begun) + _control(s, now, s)
    # automatic work is told by what it changed, a streak of tasks at once (an event's
    # line moving the track once per seat reads as one move), before the next forced step
    since: ClanFeudState | None = None
    scoring = False  # the streak being told scores an objective

    def told() -> None:
        nonlocal since, scoring
        if since is not None:
            now = _snapshot(w, Phase.over())
            out.extend(changes(since, now))
            finished = not any(task.kind == "prog" for task in w.tasks)
            if scoring and finished and since.vp == now.vp:
                out.append("nobody scores it")
            since = None
        scoring = False

    def lone(w: W, task: Any, option: Any) -> None:
        # a program takes an OR's one affordable way by itself, wherever the OR stands in
        # it; without this line its effects (a track step, a payment) would read as the
        # last mover's. With no affordable way it does nothing, which is said too: else
        # a card that asks a choice of every seat would seem to have skipped one
        nonlocal since
        told()
        if option is None:
            source = program_source(w.game, w.events, task)
            out.append(f"player {task.player} can take none of the options of {source}")
        else:
            phase = Phase.turn(task.kind, task.player)
            out.extend(_forced(w, task, option, task.player, phase, say))
        since = _snapshot(w, Phase.over())

    # the same loop as rules.settle, a task at a time (a test keeps the two in step)
    while w.tasks:
        task = w.tasks[-1]
        run, weights, together, options_of, ask, apply_ = HANDLERS[task.kind]
        if run is not None:
            if task.kind == "final":
                told()
                out.append("the game is over: the final count")
            if task.kind == "phase3" and task.a == 0 and w.events:
                # the VP that follow are the last event's objective, scored now
                told()
                name = w.game.events.regular[w.events[-1]].name
                out.append(f"phase 3 begins: the objective of {name} is scored")
                scoring = True
            if since is None:
                since = _snapshot(w, Phase.over())
            if run(w, task, lone) if task.kind == "prog" else run(w, task):
                continue
            task = w.tasks[-1]
        if weights is not None:
            outcomes = weights(w, task)
            if len(outcomes) != 1:
                break
            told()
            outcome = outcomes[0][0]
            out += _forced(w, task, outcome, CHANCE, Phase.chance(task.kind), say)
            apply_(w, task, outcome, CHANCE)
            continue
        if together is not None:
            if together(w, task):
                break
            w.tasks.pop()
            continue
        options = options_of(w, task)
        if len(options) != 1 or (ask is not None and ask(w, task)):
            break
        told()
        said = _forced(w, task, options[0], task.player, Phase.turn(task.kind, task.player), say)
        was = _snapshot(w, Phase.over())
        apply_(w, task, options[0], task.player)
        now = _snapshot(w, Phase.over())
        # what the choice came to where its words leave it open ("steal up to £3", recruits
        # that attack, a battle it ends); England's march and the troops it names, it says
        begun = not any(" attack" in line for line in said)
        out += said + _battle(was, now, was, begun) + _control(was, now, was) + _purse(was, now)
    told()
    return out, _snapshot(w, Phase.over())


def _forced(
    w: W,
    task: Any,
    action: Any,
    player: int,
    phase: Phase,
    say: Callable[[ClanFeudState, Any], str],
) -> list[str]:
    """A step taken because it was the only one, in words (none for a pass or an empty
    take that every seat makes all the time)."""
    if isinstance(action, Word) and action.word == "pass" and task.kind in _QUIET_KINDS:
        return []
    if isinstance(action, Take) and not action.count:
        return []  # "move no artillery": a troop type the army does not have
    if isinstance(action, DrawCard):
        # the card stays hidden: the others see only that one was taken
        if task.kind == "steal_card":
            return [f"player {task.player} takes an action card from player {task.a} at random"]
        return [f"player {task.player} draws an action card"]
    text = say(_snapshot(w, phase), action)
    if player == CHANCE:
        return [text]
    england = "decide for England that "
    if text.startswith(england):
        # England's way was the only one: it simply goes, whoever decides for it
        return [text.removeprefix(england)]
    # the option is worded for the seat that takes it; the narration names that seat
    return [f"player {player}'s only option: {text}"]


def _snapshot(w: W, phase: Phase) -> ClanFeudState:
    """A frozen copy of the draft as it stands (the draft goes on being worked)."""
    thaw: Any = _thaw_state  # it copies any object with the state's fields, a draft too
    c: Any = thaw(w)
    for name in _SEQUENCES:
        value = getattr(c, name)
        if type(value) is not tuple:
            setattr(c, name, tuple(value))
    for name in _NESTED:
        setattr(c, name, tuple(tuple(row) for row in getattr(c, name)))
    c.tasks = tuple(w.tasks)
    c.phase = phase
    c.options = None
    c.__class__ = ClanFeudState
    snap: ClanFeudState = c
    return snap


# ---------------------------------------------------------------------------------------
# Public changes


def _troops(counts: tuple[int, ...] | list[int]) -> str:
    parts = [f"{k} {TROOPS[i]}" for i, k in enumerate(counts) if k]
    if not parts:
        return "no troops"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _side(owner: int) -> str:
    return "England" if owner == ENGLAND else f"player {owner}"


def _amount(k: int, unit: str) -> str:
    if unit == "£":
        return f"£{k}"
    if unit == "VP":
        return f"{k} VP"
    return f"{k} {unit}{'' if k == 1 else 's'}"


def changes(before: Any, after: Any, game: Any = None) -> list[str]:
    """The public changes from ``before`` to ``after`` (two states, or two observations of
    one seat), in words: the England track, the English armies, a battle begun, a round
    won, a battle over, troops lost, control, the King, money, feud tokens and VP.
    ``game`` names the territories where the tables carry no game (observations)."""
    table = game if game is not None else before
    out: list[str] = []
    out += _track(before, after, table)
    out += _english(before, after, table)
    out += _battle(before, after, table)
    out += _losses(before, after, table)
    out += _control(before, after, table)
    out += _purse(before, after)
    return out


def _game_of(table: Any) -> Any:
    """The game of a state, or ``table`` itself (a game given for observations)."""
    return table if not hasattr(table, "game") else table.game


def _territory(table: Any, t: int) -> str:
    return str(_game_of(table).board.territories[t].name)


def _track(before: Any, after: Any, table: Any) -> list[str]:
    if before.england == after.england:
        return []
    track = _game_of(table).england
    was, now = track.at_war(before.england), track.at_war(after.england)
    said = f"the England track goes from {before.england} to {after.england}"
    if now and not was:
        said += ": England is at war"
    elif was and not now:
        said += ": England is at peace again"
    return [said]


def _english(before: Any, after: Any, table: Any) -> list[str]:
    old = {a.territory: a for a in before.english}
    new = {a.territory: a for a in after.english}
    out = []
    gone = [t for t in old if t not in new]
    fought = before.battle.territory if before.battle is not None else -1
    for t, army in new.items():
        was = old.get(t)
        if was is None and t == fought:
            continue  # an English attacker left standing: the battle's end says so
        where = _territory(table, t)
        level = f"level {army.level}"
        if was is None:
            source = next((g for g in gone if old[g].tokens == army.tokens), None)
            if source is not None:
                gone.remove(source)
                out.append(
                    f"the English army ({level}) marches from {_territory(table, source)}"
                    f" to {where}"
                )
            else:
                out.append(
                    f"a new English army ({level}: {_troops(army.troops)}) appears in {where}"
                )
        elif was.tokens != army.tokens:
            out.append(
                f"English troops join the army in {where}: now {level}, {_troops(army.troops)}"
            )
    for t in gone:
        out.append(f"the English army in {_territory(table, t)} is gone from the board")
    return out


def _battle(before: Any, after: Any, table: Any, begun: bool = True) -> list[str]:
    """A battle begun (if ``begun``: an attack says so itself), a round won, a side's
    casualties among the attackers (the defenders' are troops on the board), a battle
    over and who holds the territory."""
    b, a = before.battle, after.battle
    out = []
    if begun and a is not None and (b is None or b.territory != a.territory):
        attacker, defender = _side(a.owners[0]), _side(a.owners[1])
        out.append(
            f"a battle begins in {_territory(table, a.territory)}: {attacker} attacks {defender}"
        )
    same = b is not None and a is not None and b.territory == a.territory
    if same and a.roller != b.roller and a.roller >= 0:
        out.append(f"{_side(a.owners[a.roller])} wins battle round {a.rounds}")
    if same and b.attackers != a.attackers:
        lost = [max(0, x - y) for x, y in zip(b.attackers, a.attackers, strict=True)]
        if any(lost):
            where = _territory(table, a.territory)
            out.append(f"{_side(a.owners[0])} loses {_troops(lost)} attacking {where}")
    if b is not None and (a is None or a.territory != b.territory):
        lost = _attackers_lost(before, after, b)
        if any(lost):
            where = _territory(table, b.territory)
            out.append(f"{_side(b.owners[0])} loses {_troops(lost)} attacking {where}")
        out.append(_battle_over(after, b, table))
    return out


def _attackers_lost(before: Any, after: Any, b: Any) -> list[int]:
    """The attackers that fell in the battle's last round, ended in this step: those
    that neither stand in the territory now nor went back where they came from."""
    t, owner = b.territory, b.owners[0]
    back = [0, 0, 0]
    if owner == ENGLAND:
        army = next((x for x in after.english if x.territory == t), None)
        if army is not None and all(x.territory != t for x in before.english):
            back = list(army.troops)
    else:
        for place in (t, b.origin):
            if place >= 0:
                for k in range(3):
                    i = 3 * place + k
                    back[k] += max(0, after.troops[owner][i] - before.troops[owner][i])
    return [max(0, n - m) for n, m in zip(b.attackers, back, strict=True)]


def _battle_over(after: Any, b: Any, table: Any) -> str:
    """Who holds the territory once the battle there has ended."""
    t = b.territory
    where = _territory(table, t)
    holder = next((p for p, row in enumerate(after.troops) if any(row[3 * t : 3 * t + 3])), None)
    if holder is not None:
        return f"the battle in {where} is over: player {holder}'s army holds it"
    if any(army.territory == t for army in after.english):
        return f"the battle in {where} is over: the English army holds it"
    return f"the battle in {where} is over: no army is left there"


def _losses(before: Any, after: Any, table: Any) -> list[str]:
    out = []
    size = len(before.controller)
    for p, (old, new) in enumerate(zip(before.troops, after.troops, strict=True)):
        for t in range(size):
            lost = [max(0, old[3 * t + k] - new[3 * t + k]) for k in range(3)]
            gained = [max(0, new[3 * t + k] - old[3 * t + k]) for k in range(3)]
            if any(lost) and not any(gained) and _left(before, after, p, t, lost):
                out.append(f"player {p} loses {_troops(lost)} in {_territory(table, t)}")
    old_e = {a.territory: a for a in before.english}
    for army in after.english:
        was = old_e.get(army.territory)
        if was is not None and was.tokens == army.tokens and was.troops != army.troops:
            lost = [max(0, x - y) for x, y in zip(was.troops, army.troops, strict=True)]
            if any(lost):
                where = _territory(table, army.territory)
                out.append(f"England loses {_troops(lost)} in {where}")
    return out


def _left(before: Any, after: Any, p: int, t: int, lost: list[int]) -> bool:
    """Whether troops gone from ``t`` were lost, not moved (an army that marched out of a
    territory this step shows up elsewhere; a battle's attackers wait in the battle)."""
    b = after.battle
    if b is not None and b.owners[0] == p and before.battle is None:
        return False  # they left to attack
    total_before: int = sum(before.troops[p])
    total_after: int = sum(after.troops[p])
    if after.battle is not None and after.battle.owners[0] == p:
        total_after += sum(after.battle.attackers)
    if before.battle is not None and before.battle.owners[0] == p:
        total_before += sum(before.battle.attackers)
    return total_after < total_before


def _control(before: Any, after: Any, table: Any) -> list[str]:
    out = []
    for t, (old, new) in enumerate(zip(before.controller, after.controller, strict=True)):
        if old != new:
            where = _territory(table, t)
            out.append(
                f"player {new} takes control of {where}" if new >= 0 else f"{where} is free again"
            )
    if before.regent != after.regent:
        if after.regent >= 0:
            out.append(f"player {after.regent} holds King James")
        else:
            out.append("King James stands alone")
    return out


def _purse(before: Any, after: Any) -> list[str]:
    out = []
    for field, unit in (("money", "£"), ("feud", "feud token"), ("vp", "VP")):
        for p, (old, new) in enumerate(
            zip(getattr(before, field), getattr(after, field), strict=True)
        ):
            if new > old:
                verb = "scores" if unit == "VP" else "gains"
                out.append(f"player {p} {verb} {_amount(new - old, unit)}")
            elif new < old:
                out.append(f"player {p} loses {_amount(old - new, unit)}")
    return out
