"""Clan Feud's two length bounds (decisions and chance nodes).

The step bound (``ClanFeudGame._length_bound``) charges every die the costliest column and
every battle the longest battle. Here the slots of a player board cap what each turn's dice
can do column by column, and three quantities are budgeted over the whole game instead of
per turn: the action cards drawn (which bound the cards played), the troops that ever come
onto the board (which bound the deaths) and with them the battle rounds.
:func:`length_bounds` has the argument; :func:`game_budget` its terms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import attrs

from clangames.engine.interop import LengthBounds

if TYPE_CHECKING:
    from clangames.clan_feud.cards import ActionCard
    from clangames.clan_feud.effects import Expr, Primitive
    from clangames.clan_feud.game import ClanFeudGame

ROUND_DECISIONS = 5
"""A battle round's decisions: the sealed cards (one simultaneous round), the sealed
tokens (another), the winner's roll, the attacker's and the defender's declarations."""
ROUND_CHANCE = 4
"""A battle round's chance nodes: artillery for each side, the casualty dice (one node,
one a side on a draw)."""
BATTLE_END = 1 + 4
"""Decisions once a battle: the defender's retreat territory (a retreat ends the battle),
and after it the Feud benefits of the two dice its claims can bring."""
START_TROOPS = 3
"""Each clan's troops at set-up (two infantry and a cavalry, ``rules._start_apply``)."""
FEUD_BENEFIT = 2
"""A Feud slot's decisions: tokens or a raise, then at III a second raise or stop."""
BUILD = 9
"""A Build slot's decisions: 2 x (slot + territory + a gained die's 2 Feud benefits) +
stop."""
ARMY_FIXED = 1 + 3 + 1 + 4
"""An army's decisions besides its steps: origin, three takes, the King, and the Feud
benefits of the two dice its arrival can bring (a city's black die, the gold die)."""
START_DICE = 3
"""Each clan's dice at set-up (three white): all it can roll in the first turn, when no
hand holds a card for a temporary die and a die gained joins the pool only next turn."""
RECRUIT = 4
"""A recruit's decisions: the territory and three takes."""


@attrs.frozen
class GameBudget:
    """The terms of the bounds (see :func:`length_bounds`)."""

    turns: int
    """T: the turns of a game."""
    dice: int
    """D: the most dice one player can hold."""
    draws: int
    """G: the most action cards drawn in a whole game (hence the most played)."""
    battles: int
    """NB: the most battles in a whole game."""
    deaths: int
    """X: the most troops that ever come onto the board (hence that can die)."""
    rounds: int
    """BR: the most battle rounds in a whole game, X + G."""
    decisions: int
    chance: int


def _most(e: Expr, value: Callable[[Primitive], int]) -> int:
    """The largest total of ``value`` over the primitives one resolution of ``e`` runs."""
    from clangames.clan_feud.effects import If, May, Or, Repeat, Seq

    if isinstance(e, Seq):
        return sum(_most(i, value) for i in e.items)
    if isinstance(e, Or):
        return max(_most(o, value) for o in e.options)
    if isinstance(e, (May, If)):
        return _most(e.body, value)
    if isinstance(e, Repeat):
        return e.times * _most(e.body, value)
    return value(e)


def _draws(p: Primitive) -> int:
    """Cards a primitive draws: ``draw_cards``, or a bonus Intrigue action (its level)."""
    from clangames.clan_feud.effects import LEVELS
    from clangames.clan_feud.interpret import _bound

    if p.name == "draw_cards":
        return _bound(p.args[0])
    if p.name == "bonus_action" and p.args[0] == "intrigue":
        return LEVELS.index(str(p.args[1])) + 1
    return 0


def _free_troops(p: Primitive) -> int:
    """Troops a primitive puts onto the board for free (``recruit``)."""
    return int(p.args[1]) if p.name == "recruit" else 0  # type: ignore[arg-type]


def _recruits(p: Primitive) -> int:
    """1 for a primitive that puts free troops onto the board (a battle if English-held)."""
    return int(p.name == "recruit")


def _boost(key: str) -> Callable[[Primitive], int]:
    """A move boost's extra ``armies`` or ``speed`` (E17)."""

    def extra(p: Primitive) -> int:
        return int(p.option(key) or 0) if p.name == "boost_move" else 0

    return extra


def _top(values: Iterable[int], count: int) -> int:
    """The sum of the ``count`` largest values."""
    return sum(sorted(values, reverse=True)[:count])


def _slot_columns() -> list[tuple[int, int]]:
    """Every slot of a player board as (column, level)."""
    from clangames.clan_feud.rules import EXISTS, LEVEL

    return [(c, LEVEL[s]) for c in range(5) for s in range(5) if EXISTS >> (5 * c + s) & 1]


def _per_turn(designs: Iterable[ActionCard], dice: int, value: Callable[[Primitive], int]) -> int:
    """The most of ``value`` one player's phase-2 cards can yield in a turn: one card with
    each die assigned, a card whose filter names a column only with a die in that column's
    slots, so at most the ``dice`` largest slot values."""
    from clangames.clan_feud.actions import COLUMN_NAMES

    best = [0] * 5
    for d in designs:
        if d.timing.window != "P2.assign":
            continue
        column = d.timing.get("column")
        got = _most(d.action, value)
        for c in range(5):
            if column is None or column.value == COLUMN_NAMES[c]:
                best[c] = max(best[c], got)
    return _top((best[c] for c, _ in _slot_columns()), dice)


def game_budget(game: ClanFeudGame) -> GameBudget:
    """The terms and the two bounds (steps 1-8 of :func:`length_bounds`)."""
    from clangames.clan_feud.actions import max_dice
    from clangames.clan_feud.interpret import max_decisions
    from clangames.clan_feud.military import SPEED
    from clangames.clan_feud.playing import card_steps
    from clangames.clan_feud.rules import BUILD as BUILD_COLUMN
    from clangames.clan_feud.rules import FEUD, INCOME, INTRIGUE, MILITARY, SUPPLY

    n = game.num_players
    turns = game.deck_size + 1
    designs = game.deck.designs
    # No phase (1) or (3) card draws (a bonus Intrigue action included): the game's
    # load refuses one (game._check_card_draws), so plays there cannot repeat without end.
    dice = sum(max_dice(game.board))
    slots = _slot_columns()
    more_armies = max(_most(d.action, _boost("armies")) for d in designs)
    more_speed = max(_most(d.action, _boost("speed")) for d in designs)
    army = ARMY_FIXED + max(SPEED) + more_speed + 1
    program = max(max_decisions(e) for e in game.nodes) + 10
    event_draws = max(
        _most(e, _draws) for card in game.events.regular for e in (card.each_player, card.objective)
    )
    england = sum(game.england.supply)
    english_armies = min(england, turns)
    moves = max(card.moves for card in game.events.regular)

    # 2. Cards drawn, hence played (the draw check above is step 2's).
    intrigue = sum(lvl for c, lvl in slots if c == INTRIGUE)
    draws = turns * n * (intrigue + _per_turn(designs, dice, _draws) + 2 * event_draws)
    # 3. Troops that come onto the board and battles, apart from the Military dice's.
    card_battles = min(turns * n * _per_turn(designs, dice, _recruits), draws)
    free = min(
        turns * n * _per_turn(designs, dice, _free_troops),
        card_battles * max([_most(d.action, _free_troops) for d in designs], default=0),
    )
    other_deaths = START_TROOPS * n + turns * england + free
    other_battles = turns * (1 + english_armies) + card_battles
    other_rounds = other_deaths  # step 1: a round per troop (cards in step 6)
    # 5. A slot's decisions and chance nodes in a turn, its die's battles included.
    death = (1 + ROUND_DECISIONS, ROUND_CHANCE)
    decided = {FEUD: 1 + FEUD_BENEFIT, INCOME: 1, BUILD_COLUMN: 1 + BUILD, INTRIGUE: 1}

    def recruit(lvl: int) -> tuple[int, int]:
        troops = sum(SUPPLY[:lvl])
        return (2 + RECRUIT + troops * death[0] + BATTLE_END, troops * death[1])

    def move(lvl: int) -> int:
        armies = lvl + more_armies
        return 2 + armies * (army + BATTLE_END) + 1

    slot_decisions = [
        max(recruit(lvl)[0], move(lvl)) if c == MILITARY else decided[c] for c, lvl in slots
    ]
    slot_chance = [
        recruit(lvl)[1] if c == MILITARY else int(c == INCOME and lvl == 2) for c, lvl in slots
    ]
    # 6. Card plays.
    steps = 1 + max(card_steps(d.action, n) for d in designs)
    cards = (
        draws * max(steps + 1 + n, ROUND_DECISIONS),
        draws * max(steps + 1, ROUND_CHANCE),
    )

    # 7. Each turn's phases; the first turn's phase 2 with the starting dice only.
    def phases(held: int) -> tuple[int, int]:
        phase1 = (n + 1, 7 * n)
        phase2 = (n * (_top(slot_decisions, held) + 1), n * _top(slot_chance, held))
        phase3 = (
            2 * n * program + n * (2 * sum(SUPPLY) + 2) + english_armies * (1 + 2 * moves),
            2 * n * program + 1,
        )
        windows = 3 * n + n * held
        return (
            phase1[0] + phase2[0] + phase3[0] + windows,
            phase1[1] + phase2[1] + phase3[1],
        )

    first, later = phases(min(START_DICE, dice)), phases(dice)
    # 8. Total.
    decisions = (
        first[0]
        + (turns - 1) * later[0]
        + ROUND_DECISIONS * other_rounds
        + other_deaths
        + BATTLE_END * other_battles
        + cards[0]
    )
    chance = 2 * n + first[1] + (turns - 1) * later[1] + draws + ROUND_CHANCE * other_rounds
    chance += cards[1]
    military_slots = [lvl for c, lvl in slots if c == MILITARY]
    battles = other_battles + turns * n * sum(lvl + more_armies for lvl in military_slots)
    deaths = other_deaths + turns * n * sum(sum(SUPPLY[:lvl]) for lvl in military_slots)
    rounds = deaths + draws
    return GameBudget(turns, dice, draws, battles, deaths, rounds, decisions, chance)


def length_bounds(game: ClanFeudGame) -> LengthBounds:
    """Decision and chance-node bounds of any Clan Feud game, adversarial play included.

    The game lasts T = deck + 1 turns (9/8/7/7: the last event ends it); set-up has 2n
    chance nodes (start territories, turn-order lots). D is the most dice a player can hold
    (15 on the bundled map, ``actions.max_dice``). A player board has 23 slots (Feud I, II,
    III; each other column I, I, II, III, III); a slot takes one die a turn and dice come
    back only in phase 1, and one card at most rides each die assigned (rulebook, *Action
    Cards*). Whole-game budgets replace the per-turn worst cases for cards and troops:

    1. **A battle round** asks 5 decisions (sealed cards and sealed tokens, each one
       simultaneous round; the winner's roll; the two declarations) and has 4 chance nodes
       (each side's artillery; the casualty dice, one node or one a side on a draw). A
       battle asks once the defender's retreat territory (a retreat ends it) and afterwards
       at most 4 Feud benefits for the dice its claims bring: 5 decisions a battle. Each
       casualty is one decision. Every round removes a troop unless a ``skulls-X`` card
       absorbs every casualty (rulings, *Battle*), and a card played is discarded: the
       rounds of the whole game are at most the troops that ever die plus the cards
       played in battle.
    2. **Cards drawn** (G). Hands start empty and a card enters a hand only by a draw (a
       steal moves one): every card played was drawn, so at most G are played. Draws a
       player-turn: the Intrigue slots' levels (1 + 1 + 2 + 3 + 3), one phase-2 card a die
       (a card whose filter names a column only in that column's slots: the D best slots,
       each worth the most a card allowed there draws, a bonus Intrigue action its level),
       and the event's two lines (their most draws each). Phase-1 and phase-3 cards never
       draw (a drawing one, a bonus Intrigue action included, could be played again
       and again, so no bound would exist: loading refuses such an actions file).
    3. **Troops that ever come onto the board** (X) each die at most once: each clan's 3
       at set-up; per turn England's spawn, at most its supply (26); free troops of card
       plays, at most one such card a die in the slots its filter allows and at most G;
       and the Military dice's recruits (step 5). Battles besides the Military dice's: per
       turn the spawn's and one per English army (at most one spawns a turn, each holds
       one of England's 26 troops, so min(26, T) armies; one that has attacked stops, so
       each fights once), and one per card that places free troops (into English land).
    4. Money (£ pays recruits) does not bound X more tightly: Income pays up to £8 a
       turn per territory held (I, I £1; II two black pips at most; III, III £2), and a
       clan may hold most of the board (44 territories on the bundled map): far more than
       the £118 that recruiting a full supply at every Military slot costs. The supply and
       the slots bound X instead.
    5. **A slot's worth** in a turn, its die's battles included. Feud 1 + 2, Income 1
       (and one chance node, the LVL II roll), Intrigue 1 (its draws are in G), Build 1 +
       9 (2 x (slot + territory + a gained die's 2 benefits) + stop). A Military die of
       level L (the choice recruit / move counted with the assignment) either recruits,
       4 decisions and at most the troops that level allows (10 / 14 / 16 with the supply
       10/4/2, rulings), each later costing its round (5 + 4 chance) and its casualty (1),
       plus one battle; or moves L + b armies (b, the cards' most extra armies), each
       origin, 3 takes, King, at most speed + 1 steps (speed 2 + the cards' most extra),
       2 dice's benefits and one battle, then stop. It is charged the costlier. A turn's
       phase 2 is then the D most costly slots + a pass, a player; in the first turn a
       player holds only the 3 starting dice (no card is held for a temporary die, and a
       die gained joins the pool next turn).
    6. **A card** is used once, for its action or in battle: each of the G is charged the
       costlier of a round (step 1) and its play (its steps, ``playing.card_steps``, its
       ``play``, and a pass of each seat in phase 1).
    7. **The rest of a turn**, as the step bound counts it: phase 1, n + 1 order
       decisions and 7n rolls; phase 3, the objective and each player's line (their most
       decisions or draws + 10, counted as either), the event (chance), upkeep (16
       removals of two decisions and two payments a player) and each English army's order
       and moves; the windows' asks (3n + n dice).
    8. **Total.** Decisions <= T x (steps 5, 7) + steps 1 and 3's rounds, casualties and
       battles + step 6; chance <= 2n + T x (steps 5, 7) + G + the same rounds + step 6:
       18,614 / 24,057 / 27,842 / 35,072 decisions and 10,927 / 14,127 / 16,203 / 20,070
       chance nodes for 2 / 3 / 4 / 5 players with the bundled files (the previous
       per-turn argument gave 133k-255k decisions; the step bound 4.0M-7.1M steps).

    85-100 times what random games take (about 215 / 270 / 290 / 355 decisions): the
    bound lets every Military die recruit a full level's supply that then dies one troop a
    round, every die carry a drawing card and every card be played for its costliest
    action, where a real turn has a few battles of a few rounds.
    """
    budget = game_budget(game)
    return LengthBounds(decisions=budget.decisions, chance=budget.chance)


__all__ = ["GameBudget", "game_budget", "length_bounds"]
