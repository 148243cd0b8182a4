"""Clan Feud's two length bounds (decisions and chance nodes).

The step bound (``ClanFeudGame._length_bound``) charges every Military die three battles
and every card play one, each as long as the longest battle (troops + cards rounds of 13
steps). Here the battle rounds of a whole turn share one budget instead, the troops that
can die in it, and each kind of step is counted where it can occur: decision, chance node
or either. :func:`length_bounds` has the argument; :func:`turn_budget` its terms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from clangames.engine.interop import LengthBounds

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame

ROUND_DECISIONS = 6
"""A battle round's decisions: the sealed cards (one simultaneous round), the sealed
tokens (another), the winner's roll, the attacker's and the defender's declarations, the
defender's retreat territory."""
ROUND_CHANCE = 4
"""A battle round's chance nodes: artillery for each side, the casualty dice (one node,
one a side on a draw)."""
CLAIMS = 4
"""Decisions after a battle: the Feud benefits of the dice its claims bring."""


@attrs.frozen
class TurnBudget:
    """The terms of one turn's bounds (see :func:`length_bounds`)."""

    dice: int
    """D: the most dice one player can hold."""
    plays: int
    """P: the most cards played (for their action or in battle) in a turn."""
    battles: int
    """NB: the most battles in a turn."""
    deaths: int
    """X: the most troops that can die in a turn."""
    rounds: int
    """BR: the most battle rounds in a turn, X + P."""
    decisions: int
    chance: int


def turn_budget(game: ClanFeudGame) -> TurnBudget:
    """One turn's terms and its decision and chance bounds (steps 1-6 of
    :func:`length_bounds`)."""
    from clangames.clan_feud.actions import max_dice
    from clangames.clan_feud.interpret import max_decisions
    from clangames.clan_feud.playing import card_steps
    from clangames.clan_feud.rules import SUPPLY

    n = game.num_players
    designs = game.deck.designs
    dice = sum(max_dice(game.board))
    copies = sum(d.copies for d in designs)
    program = max(max_decisions(e) for e in game.nodes) + 10
    p2_draws = max(
        [max_decisions(d.action) for d in designs if d.timing.window == "P2.assign"], default=0
    )
    drawn = n * dice * (3 + p2_draws) + 2 * n * program
    plays = n * dice + copies + drawn
    flames = len(game.england.flames)
    moves = max(card.moves for card in game.events.regular)
    clan, england = sum(SUPPLY), sum(game.england.supply)

    # 2. Battles: three a Military die, one a card play, the spawn, one per English army.
    battles = 3 * n * dice + plays + 1 + flames
    # 3. Deaths: the troops on the board when the turn starts and every troop that comes
    # onto it during the turn: a recruit die and its card at most a clan's supply each,
    # England's spawn at most its supply.
    deaths = n * clan + england + 2 * clan * n * dice + england
    rounds = deaths + plays
    battle_decisions = ROUND_DECISIONS * rounds + deaths + CLAIMS * battles
    battle_chance = ROUND_CHANCE * rounds

    # 5. Everything else, as the step bound counts it, split by kind.
    phase1 = (n + 1, 7 * n)  # the order and its tie-break; one roll per seat and colour
    army = 1 + 3 + 1 + 2 + 1 + 4  # origin, takes, King, steps, stop, two dice's benefits
    military = 1 + max(4, 1 + 3 * army + 1)
    per_die = 1 + max(2, 9, military)  # the assignment and Feud / Build / Military
    phase2 = (n * (dice * per_die + 1), n * dice * 3)  # Income 1, Intrigue 3 draws
    phase3 = (
        2 * n * program + n * (2 * 16 + 2) + flames * (1 + 2 * moves),
        2 * n * program + 1,
    )
    steps = 1 + max(card_steps(d.action, n) for d in designs)
    cards = (plays * (steps + 1 + n) + 3 * n + n * dice, plays * (steps + 1))
    decisions = battle_decisions + phase1[0] + phase2[0] + phase3[0] + cards[0]
    chance = battle_chance + phase1[1] + phase2[1] + phase3[1] + cards[1]
    return TurnBudget(dice, plays, battles, deaths, rounds, decisions, chance)


def length_bounds(game: ClanFeudGame) -> LengthBounds:
    """Decision and chance-node bounds of any Clan Feud game, adversarial play included.

    The game lasts T = deck + 1 turns (9/8/7/7: the last event ends it); set-up has 2n
    chance nodes (start territories, turn-order lots). Per turn, with D the most dice a
    player can hold (15 on the bundled map) and P the cards that can be played (for an
    action or in battle: every card held, at most the 50, plus every card drawn this turn,
    as ``ClanFeudGame._card_bound`` counts them):

    1. **A battle round** asks 6 decisions (sealed cards and sealed tokens, each one
       simultaneous round; the winner's roll; the two declarations; the defender's retreat
       territory) and has 4 chance nodes (each side's artillery, the casualty dice: one
       node, or one a side on a draw). Each casualty chosen is a decision; after a battle,
       at most 4 Feud benefits for the dice its claims bring.
    2. **Battles a turn** (NB): at most 3 a Military die (a move of up to three armies, or
       one recruit into English land), one a card play (its free troops into English
       land), the spawn's and one per English army (one per flame): 3nD + P + 1 + F.
    3. **Troops that die in a turn** (X): every troop on the board when the turn starts
       (a clan's supply 10/4/2, England's 16/8/2) and every troop brought onto it during
       the turn: a recruit die brings at most a clan's supply, its card's free troops as
       many again, and England's spawn at most England's supply (rulings: supplies are
       limits; ``recruit`` is legal only with a recruit die). X <= 16n + 26 + 32nD + 26.
    4. **Battle rounds a turn** (BR): every round kills a troop unless a card with
       ``skulls-X`` absorbs every casualty (rulings, *Battle*: every white die face hits
       someone), and each card is used once, so BR <= X + P. Battles then ask at most
       6 BR + X + 4 NB decisions and have at most 4 BR chance nodes.
    5. **The rest of a turn**, as the step bound counts it, each step put where it can
       occur: phase 1, n + 1 order decisions and 7n rolls; phase 2, per die one assignment
       and at most 9 Build or 39 Military decisions (the recruit's territory and takes,
       or three armies' origin, takes, King, steps, stop and two gained dice's benefits)
       or 1 Income and 3 Intrigue chance nodes, plus one pass a player; phase 3, the
       objective and each player's line (their most decisions or draws + 10, counted as
       either), the event (chance), upkeep (16 removals of two decisions and two payments
       a player) and each English army's order and moves; cards, per play its steps and
       its end (either) and a pass per seat, plus the windows' asks.
    6. **Total.** Decisions <= T x (steps 4-5 decisions), chance <= 2n + T x (steps 4-5
       chance): 133,344 / 174,616 / 203,336 / 255,353 decisions and 71,833 / 92,142 /
       105,379 / 130,133 chance nodes for 2 / 3 / 4 / 5 players, with the bundled files
       (the step bound, which gave both, is 4.0M / 5.1M / 5.8M / 7.1M).

    Still about 600 times what random games take (about 215 / 270 / 300 / 350
    decisions): the bound lets every die be a Military move into three battles and every
    card drawn be played, and lets every troop that can exist die once per recruit, where
    a real turn has a handful of battles. Tighter needs a per-turn bound on money (which
    pays for recruits and cards) that the rulings do not give in closed form.
    """
    turn = turn_budget(game)
    turns = game.deck_size + 1
    n = game.num_players
    return LengthBounds(decisions=turns * turn.decisions, chance=2 * n + turns * turn.chance)


__all__ = ["TurnBudget", "length_bounds", "turn_budget"]
