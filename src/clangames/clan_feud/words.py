"""Clan Feud's sentence about a step (``state.describe``): what an action does in the
decision it answers, in plain words (what is recruited or moved where, which die is
raised, who is placed where in the turn order), never the action text followed by the
prompt. The narration of ``clangames play`` and ``replay``, ``explain N`` and the web
front-end read it.

The sentence is built from the state before the step and reads only what the decision
itself shows (the task on top, the battle, the board), so it never tells a seat more than
the step does.
"""

from __future__ import annotations

from typing import Any

from clangames.clan_feud import playing, war
from clangames.clan_feud.actions import (
    COLOURS,
    COLUMN_NAMES,
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
    PlayCard,
    Raise,
    Roll,
    Rolled,
    Seat,
    StartAt,
    Take,
    Total,
    ToThree,
    Word,
    dice_words,
)
from clangames.clan_feud.aftermath import aftermath
from clangames.clan_feud.effects import May, Primitive, Repeat
from clangames.clan_feud.playing import territory_name as _name
from clangames.clan_feud.rules import (
    BUILD,
    COST,
    PRICE,
    RECRUIT_STAGES,
    W,
    _roll_next,
    card_name,
    owned,
    recruit_money,
    working,
)
from clangames.clan_feud.rules import prompt as rules_prompt
from clangames.clan_feud.state import ENGLAND, ClanFeudState, Task
from clangames.clan_feud.working import FEUD_SLOTS
from clangames.engine.phases import CHANCE


def told(s: ClanFeudState, action: Any) -> str:
    """The narration of a step: :func:`describe`'s sentence, then what follows from it on
    its own (forced choices, England, a battle's outcome, an event's effects: see
    :mod:`aftermath`), which no other step of the narration would tell. Kept out of
    ``describe`` itself, which harnesses and front-ends call for every option: walking
    the aftermath costs some twenty steps of the rules."""
    said = describe(s, action)
    mover = _mover(s, action)
    if mover is None:
        return said
    then = aftermath(s, action, mover, describe)
    return f"{said}; then {'; '.join(then)}" if then else said


def describe(s: ClanFeudState, action: Any) -> str:
    """A sentence about what ``action`` itself does here."""
    said = playing.describe(s, action)
    if said is not None:
        return said
    task = s.tasks[-1] if s.tasks else None
    if task is not None:
        said = _in_context(s, working(s), task, action)
        if said is not None:
            return said
    return _plain(s, action)


def _mover(s: ClanFeudState, action: Any) -> int | None:
    """Who takes ``action`` now (CHANCE for an outcome), or None if it is not legal here
    or could be any of several seats' sealed commitments (then it sets nothing going: the
    others still owe theirs)."""
    if s.is_terminal:
        return None
    if s.is_chance:
        return CHANCE if any(a == action for a, _ in s.chance_weights()) else None
    if len(s.to_move) != 1:
        return None
    p = s.to_move[0]
    return p if action in s.legal_actions(p) else None


def prompt(s: ClanFeudState) -> str:
    """What is being decided now, with what the decision is about where the bare prompt
    leaves it out (where troops are recruited and at what price, which troops of which
    army, how much upkeep is owed): the prompt alone read "recruit troops" or "pay upkeep,
    or first remove troops" when paying was not even possible."""
    task = s.tasks[-1] if s.tasks else None
    if task is None or s.is_terminal or s.is_chance or task.kind != s.phase.name:
        return rules_prompt(s)
    said = _detail(s, working(s), task)
    if said is None:
        return rules_prompt(s)
    return ", ".join(f"player {p}" for p in s.to_move) + f": {said}"


def _detail(s: ClanFeudState, w: W, task: Task) -> str | None:
    kind, p = task.kind, task.player
    if kind == "order":
        return (
            f"you have the fewest dice, so you set the turn order: who takes place"
            f" {len(task.data) + 1}?"
        )
    if kind == "place":
        building = "castle" if task.a == 2 else "tower house"
        return f"choose the territory of yours for the new {building}"
    if kind == "feud" and not task.b:
        # a black die that arrives mid-turn (a city taken, the Build slot's die) goes on
        # the Feud column at once: say why the benefit is offered now
        why = _gained_die(s)
        if why is not None:
            return (
                f"{why[0]} puts {why[1]} on your Feud column at level"
                f" {LEVEL_NAMES[task.a - 1]}: take {_tokens(task.a)} or raise a die"
            )
    if kind == "military":
        return f"use your level {LEVEL_NAMES[task.a - 1]} Military die to recruit or move"
    if kind == "recruit" and task.b >= 0:
        troop = RECRUIT_STAGES[task.a][task.c]
        return (
            f"recruit in {_name(s, task.b)}: how many {TROOPS[troop]}, at £{COST[troop]}"
            f" each (you have £{recruit_money(w, p)})"
        )
    if kind == "recruit":
        return "choose where to recruit: a territory of yours with a building"
    if kind == "army" and task.c < 3:
        troop = 2 - task.c
        return f"choose how many {TROOPS[troop]} of the army in {_name(s, task.a)} move"
    if kind == "army":
        return f"choose whether King James goes with the army from {_name(s, task.a)}"
    if kind == "step":
        stop = s.game.words["stop"] in s.legal_actions(p)
        return f"choose where the army in {_name(s, task.a)} marches next" + (
            ", or stop" if stop else ""
        )
    if kind == "upkeep":
        due = playing.upkeep_owed(w, p)
        held = f"you hold £{w.money[p]} and {_tokens(w.feud[p])}"
        if task.a:
            return (
                f"your upkeep is £{due} and {held}: choose which troop leaves"
                f" {_name(s, task.a - 1)}"
            )
        if w.money[p] + w.feud[p] < due:
            return f"your upkeep is £{due} and {held}: remove troops until you can pay"
        return f"your upkeep is £{due} and {held}: pay it, or first remove troops"
    if kind == "upkeep_pay":
        return f"pay the £{task.a} upkeep: choose how many feud tokens to use, the rest in £"
    return None


_GOLD = ("taking King James", "the gold die", "King James's gold die")


def _gained_die(s: ClanFeudState) -> tuple[str, str, str] | None:
    """Why a Feud benefit comes mid-turn, for a die not assigned but gained (a die
    assigned to the Feud column needs no reason: the assignment was narrated just
    before): what brought it, as the prompt tells the seat; the die; and the die as the
    narration names it for everyone. None for an assigned die, or one the stack does not
    tell apart (the Build I-right die bought at level I or II: the purchase's own
    sentence says where it goes)."""
    if len(s.tasks) < 2 or s.tasks[-1].kind != "feud":
        return None
    below, p = s.tasks[-2].kind, s.tasks[-1].player
    if below == "build":  # a level III Build, its second purchase still to come
        return ("your Build", "a black die", "the black die just bought with the Build die")
    if below == "feud":  # a city held by a lone King: its black die first, his gold on top
        return _GOLD
    if below not in ("move", "step"):
        return None
    # an army came to rest this move where it took a city or King James
    moved = s.moved
    cities = [
        t
        for t in owned(s, p)
        if s.site[t] == 1 and s.city_dice[p] >> t & 1 and any(moved[3 * t : 3 * t + 3])
    ]
    king = s.regent == p and any(moved[3 * s.king : 3 * s.king + 3])
    if king and not cities:
        return _GOLD
    city = f"taking {_name(s, cities[0])}" if len(cities) == 1 and not king else "a city taken"
    return ("the city you took", "a black die", f"the black die for {city}")


def _feud_benefit(s: ClanFeudState) -> str:
    """``(the Feud benefit)``, with the die it comes from when that die was not assigned
    but gained (a city's black die, King James's gold die): else the narration gives a
    benefit nobody can account for."""
    why = _gained_die(s)
    return f" (the Feud benefit of {why[2]})" if why is not None else " (the Feud benefit)"


def _troops(k: int, troop: int) -> str:
    """``2 infantry``, ``1 cavalry``, ``no artillery``: the troop names are their own
    plurals."""
    return f"{k} {TROOPS[troop]}" if k else f"no {TROOPS[troop]}"


def _tokens(k: int) -> str:
    return f"{k} feud token{'' if k == 1 else 's'}" if k else "no feud tokens"


def _casualty_dice(k: int) -> str:
    return f"{k} casualty di{'e' if k == 1 else 'ce'}"


def _count(k: int, thing: str) -> str:
    return f"{k} {thing}{'' if k == 1 else 's'}"


def _battle_side(s: ClanFeudState, side: int) -> str:
    """``player 1's`` or ``England's`` side of the battle being fought."""
    b = s.battle
    owner = b.owners[side] if b is not None else -1
    return "England's" if owner == ENGLAND else f"player {owner}'s"


def _in_context(s: ClanFeudState, w: W, task: Task, action: Any) -> str | None:
    """The sentence that needs the decision on top (None: the action alone says it)."""
    kind = task.kind
    if isinstance(action, Place):
        return _place(s, w, task, action.territory)
    if isinstance(action, Word):
        return _word(s, w, task, action.word)
    if isinstance(action, Take):
        return _take(s, w, task, action)
    if isinstance(action, Seat):
        if kind == "order":
            return f"put player {action.seat} in place {len(task.data) + 1} of this turn's order"
        if kind == "tiebreak":
            return f"name player {action.seat}, of those tied for fewest dice, to set the order"
        return None
    if isinstance(action, (Raise, ToThree)):
        value = 1 if isinstance(action, ToThree) else action.value
        die = f"an unassigned {COLOURS[action.colour]} {value}"
        change = "into a 3" if isinstance(action, ToThree) else f"to {value + 1}"
        verb = "turn" if isinstance(action, ToThree) else "raise"
        return f"{verb} {die} {change}" + (_feud_benefit(s) if kind == "feud" else "")
    if isinstance(action, BuildSlot) and kind == "build":
        return _plain(s, action) + _die_bought(w, task.player, action)
    if isinstance(action, Lose):
        return _lose(s, w, task, action.troop)
    if isinstance(action, PayFeud):
        due, k = task.a, action.k
        if not k:
            return f"pay the £{due} upkeep all in £"
        rest = f" and £{due - k}" if due > k else ""
        return f"pay the £{due} upkeep with {_tokens(k)}{rest}"
    if isinstance(action, Total):
        if kind == "income_roll":
            return (
                f"player {task.player}'s {task.a} black Income dice total {action.k}:"
                f" £{action.k} to player {task.player}"
            )
        if kind == "bart":
            return f"{_battle_side(s, task.a)} artillery adds {action.k} to its strength"
        return None
    if isinstance(action, Hits):
        if kind != "bhits":
            return None
        roller, other = _battle_side(s, task.a), _battle_side(s, 1 - task.a)
        return (
            f"{roller} {_casualty_dice(task.b)}:"
            f" {_count(action.loser, 'hit')} on {other} side, {action.winner} on its own"
        )
    if isinstance(action, DrawCard) and kind == "steal_card":
        card = s.game.deck.designs[action.design]
        return f"player {task.player} takes {card.name} at random from player {task.a}"
    if isinstance(action, DrawCard) and kind == "draw":
        return f"player {task.player} draws {s.game.deck.designs[action.design].name}"
    if isinstance(action, StartAt) and kind == "start":
        return f"player {task.a} starts in {_name(s, action.territory)}"
    if isinstance(action, Lot) and kind == "lot":
        return f"player {action.seat} takes place {len(task.data) + 1} of the first turn order"
    if isinstance(action, Rolled) and kind == "roll":
        seat = _roll_next(task) // 7
        faces = (action.ones, action.twos, action.threes)
        dice = ", ".join(dice_words(action.colour, faces))
        return f"player {seat}'s {COLOURS[action.colour]} dice are rolled: {dice}"
    if isinstance(action, Option):
        said = playing.option_text(s.game, task, action.k)
        if said is not None:
            return f"{said} ({s.game.action_text(action)} of {_source(s, task)})"
    return None


def _die_bought(w: W, p: int, action: BuildSlot) -> str:
    """Where a die bought with a Build goes, said with the purchase: its Feud benefit is
    the next thing narrated, and that line cannot tell a bought die from an assigned one."""
    if not (action.column == BUILD and action.slot == 1) and action.slot != 4:
        return ""
    free = [k for k, slot in enumerate(FEUD_SLOTS) if not w.filled[p] >> slot & 1]
    if not free:
        return "; the Feud column has no free slot, so the die brings no Feud benefit"
    level = LEVEL_NAMES[free[0]]
    return f"; the die goes on the Feud column at level {level} at once, for its Feud benefit"


def _place(s: ClanFeudState, w: W, task: Task, t: int) -> str | None:
    kind, name = task.kind, _name(s, t)
    if kind == "place":
        return f"put the new {'castle' if task.a == 2 else 'tower house'} in {name}"
    if kind == "recruit":
        return f"recruit in {name}"
    if kind == "move":
        return f"move an army from {name}"
    if kind == "step":
        here = _name(s, task.a)
        defender = w.occupant(t, task.player)
        if defender >= 0:
            return f"march from {here} into {name} and attack player {defender}'s army there"
        if w.english and war.holds(w, t):
            return f"march from {here} into {name} and attack the English army there"
        return f"march from {here} into {name}"
    if kind == "bretreat" and s.battle is not None:
        return f"retreat the defending army from {_name(s, s.battle.territory)} to {name}"
    if kind == "upkeep":
        return f"remove troops from {name} before paying upkeep"
    if kind == "prog":
        return f"remove a troop from {name} ({_source(s, task)})"
    if kind == "th1":
        return f"place the free tower house in {name}"
    # England's choices are made for it by the regent or the first player: say so, or the
    # narration reads as if that player's own army marched
    if kind == "emarch":
        return f"decide for England that the English army in {name} marches next"
    if kind == "emove":
        army = f"decide for England that the English army in {_name(s, task.a)} marches"
        if task.c == 0:
            target = w.occupant(t, ENGLAND)
            whose = f"player {target}'s army" if target >= 0 else "the army"
            return f"{army} on {whose} in {name}"
        return f"{army} to {name}"
    return None


def _word(s: ClanFeudState, w: W, task: Task, word: str) -> str | None:
    kind = task.kind
    b = s.battle
    if word == "tokens" and kind == "feud":  # its level: how many tokens
        return f"take {_tokens(task.a)}{_feud_benefit(s)}"
    if word == "pass" and kind == "assign":
        return "pass: no die of yours can be assigned this phase"
    if word in ("recruit", "move") and kind == "military":
        level = LEVEL_NAMES[task.a - 1]
        if word == "recruit":
            return f"recruit troops with the level {level} Military die"
        n = task.a + playing.extra_armies(w, task.player)
        return f"move up to {n} arm{'y' if n == 1 else 'ies'} with the level {level} Military die"
    if word in ("king goes", "king stays") and kind == "army":
        where = _name(s, task.a)
        if word == "king goes":
            return f"King James goes with the army from {where}"
        return f"King James stays in {where}"
    if word in ("continue", "retreat") and kind in ("bdeclare", "bdefend") and b is not None:
        where = _name(s, b.territory)
        if word == "continue":
            return f"fight another round in {where}"
        if kind == "bdeclare":
            return f"retreat from {where}: the attacking army goes back to {_name(s, b.origin)}"
        return f"retreat from {where} (where to comes next)"
    if word == "no card" and kind == "bcards":
        return "commit no action card to this battle round"
    if word == "pay upkeep" and kind == "upkeep":
        due = playing.upkeep_owed(w, task.player)
        if not due:  # a card took it all off
            return "pay no upkeep: nothing is owed"
        return f"pay the £{due} upkeep (in £, feud tokens or both)"
    if word in ("accept", "decline") and kind == "prog":
        e = s.game.nodes[task.data[-2]]
        body = e.body if isinstance(e, (May, Repeat)) else e
        what = playing.card_text(body, board=s.game.board)
        verb = "choose to" if word == "accept" else "decline to"
        return f"{verb} {what} ({_source(s, task)})"
    if word == "stop":
        return _stop(s, task)
    return None


def _stop(s: ClanFeudState, task: Task) -> str | None:
    """``stop`` ends a choice under way: what it leaves as it is."""
    kind = task.kind
    if kind == "feud":
        return "raise no second die" + _feud_benefit(s)
    if kind == "build":
        return "buy nothing more with this Build die"
    if kind == "move":
        return "move no more armies"
    if kind == "step":
        return f"end the move in {_name(s, task.a)}"
    if kind == "modify":
        return "change no more dice"
    if kind == "reroll":
        n = len(task.data)
        return f"reroll the {n} di{'e' if n == 1 else 'ce'} picked"
    return None


def _take(s: ClanFeudState, w: W, task: Task, action: Take) -> str | None:
    kind, k, troop = task.kind, action.count, action.troop
    if kind == "recruit" and task.b >= 0:
        where = _name(s, task.b)
        if not k:
            return f"recruit {_troops(0, troop)} in {where}"
        price = k * COST[troop]
        cut = min(playing.discount(w, task.player), price)
        paid = f"£{price - cut}" + (f" (£{cut} off with the card)" if cut else "")
        return f"recruit {_troops(k, troop)} in {where} for {paid}"
    if kind == "army":
        return f"move {_troops(k, troop)} from {_name(s, task.a)}"
    if kind == "free_recruit":
        return f"take {_troops(k, troop)} free in {_name(s, task.c)} (the card's gift)"
    return None


def _lose(s: ClanFeudState, w: W, task: Task, troop: int) -> str | None:
    kind = task.kind
    if kind == "bloss":
        return f"lose one {TROOPS[troop]} as a battle casualty"
    if kind == "upkeep" and task.a:  # ``a``: the territory chosen + 1
        return f"remove one {TROOPS[troop]} from {_name(s, task.a - 1)} (no upkeep for it)"
    if kind == "prog" and _removing(s, task) and task.data[-1] % 64:  # territory chosen + 1
        where = _name(s, task.data[-1] % 64 - 1)
        return f"remove one {TROOPS[troop]} from {where} ({_source(s, task)})"
    return None


def _removing(s: ClanFeudState, task: Task) -> bool:
    """True if the program on top stands at a ``remove_troops`` (only then does its
    counter hold a territory: a loss asked about elsewhere is told plainly)."""
    if len(task.data) < 2:
        return False
    node = s.game.nodes[task.data[-2]]
    return isinstance(node, Primitive) and node.name == "remove_troops"


def _source(s: ClanFeudState, task: Task) -> str:
    return playing.program_source(s.game, s.events, task)


def _plain(s: ClanFeudState, action: Any) -> str:
    """The sentences that need no decision's context (or an action out of its
    decision): the action and what it names, in words."""
    g = s.game
    text = g.action_text(action)
    board = g.board
    if isinstance(action, Place):
        return f"choose {board.territories[action.territory].name}"
    if isinstance(action, StartAt):
        return f"the next seat starts in {board.territories[action.territory].name}"
    if isinstance(action, Assign):
        return (
            f"put a {COLOURS[action.colour]} {action.value} on the"
            f" {COLUMN_NAMES[action.column]} column, level {LEVEL_NAMES[action.level - 1]}"
        )
    if isinstance(action, BuildSlot):
        return (
            f"pay £{PRICE[action.slot]} for the {COLUMN_NAMES[action.column]} column's"
            f" {SLOT_NAMES[action.slot]} slot and {playing.slot_cover(action.column, action.slot)}"
            " on it"
        )
    if isinstance(action, Take):
        return f"take {_troops(action.count, action.troop)}"
    if isinstance(action, Lose):
        return f"remove one {TROOPS[action.troop]}"
    if isinstance(action, Commit):
        return f"commit {_tokens(action.k)} to this battle round, sealed"
    if isinstance(action, Roll):
        return f"roll {_casualty_dice(action.k)}"
    if isinstance(action, DrawEvent):
        event = g.events.regular[action.event]
        each = playing.card_text(event.each_player, board=board)
        # the card's own track move comes first: the narration's "then the England track
        # goes from 3 to 4" would otherwise have no cause
        steps = event.england
        track = (
            f" it moves the England track {abs(steps)} step{'' if abs(steps) == 1 else 's'}"
            f" {'up' if steps > 0 else 'down'};"
            if steps
            else ""
        )
        return (
            f"the event {event.name} is drawn;{track} each player: {each};"
            f" next turn's objective: {playing.objective_text(g, action.event)}"
        )
    if isinstance(action, PlayCard):
        card = g.deck.designs[action.design]
        combat = playing.combat_text(card.combat)
        return f"commit {card.name} to the battle round for its combat effect ({combat})"
    if isinstance(action, Discard):
        return f"discard {g.deck.designs[action.design].name}"
    if isinstance(action, DrawCard):
        return f"draw {g.deck.designs[action.design].name}"
    name = card_name(g, action)
    if name is not None:
        return f"{text} ({name})"
    return text
