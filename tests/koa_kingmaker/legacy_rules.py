"""KOA Kingmaker's moves as they were before the fifth round of speed work (issue 11,
2026-11-29), kept as the oracle of tests/koa_kingmaker/test_fast_round.py: the rules'
legal actions, chance outcomes and moves must give the very same results on every state
of seeded games. Frozen: do not edit to follow the rules module."""

from __future__ import annotations

from typing import Any

from clangames.engine.data import replace_at
from clangames.engine.draft import drafting, maker
from clangames.engine.phases import Phase
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments
from clangames.koa_kingmaker.actions import Inherit, Nominate, Play, Recover, RecoverNothing, Seal
from clangames.koa_kingmaker.cards import (
    BANNER,
    CHARACTERS,
    FANATIC,
    GOLD,
    JESTER,
    KEEPERS,
    MARSHALS,
    NOMINATION,
    ROYALTY,
    SEER,
    THIEF,
)
from clangames.koa_kingmaker.state import KoaState

SEAL = Phase.chance("seal")
OVER = Phase.over()

_thaw, _freeze = drafting(KoaState)

_BANNER_BIT = 1 << BANNER
_GOLD_BIT = 1 << GOLD


def _add(cards: tuple[int, ...], house: int, bit: int) -> tuple[int, ...]:
    """``cards`` with ``bit`` added to ``house``'s set."""
    return replace_at(cards, house, cards[house] | bit)


def _take(cards: tuple[int, ...], house: int, bit: int) -> tuple[int, ...]:
    """``cards`` with ``bit`` taken out of ``house``'s set."""
    return replace_at(cards, house, cards[house] & ~bit)


# -- legal actions --------------------------------------------------------------------------
def playable(s: Any, house: int) -> int:
    """The cards ``house`` may commit now: its characters and its nominations of houses
    still in the game."""
    return s.hands[house] & (CHARACTERS | s.alive << NOMINATION)


def legal_actions(s: Any, player: int) -> tuple[Any, ...]:
    """The legal actions of a player who is to move, sorted by action id."""
    game = s.game
    name = s.phase.name
    if name == "commit":
        return game.play_actions(playable(s, player))
    if name == "return":
        return game.recover_actions(s.discards[player] & CHARACTERS)
    if name == "discard":
        return game.discard_actions(s.courts[player] & KEEPERS)
    return ()


# -- chance ----------------------------------------------------------------------------------
def sealing_house(s: Any) -> int:
    """The automated household whose card is sealed at this ``seal`` node."""
    table = s.table.ids
    alive = s.alive
    hands = s.hands
    for h in s.game.automated:
        if alive >> h & 1 and hands[h] and table[h] == NOT_COMMITTED:
            return h
    return -1


def chance_weights(s: Any) -> tuple[tuple[Any, int], ...]:
    """Inheritance deal: each number not yet dealt, equally likely. Seal: each card in the
    household's hand, equally likely (every card of a house is distinct)."""
    game = s.game
    name = s.phase.name
    if name == "seal":
        h = sealing_house(s)
        return game.seal_weights(s.hands[h])
    if name == "inherit":
        dealt = set(s.inheritance)
        return tuple(
            (game.inherit_action[k], 1) for k in range(1, game.max_number + 1) if k not in dealt
        )
    return ()


# -- transitions -----------------------------------------------------------------------------
def apply(s: Any, action: Any, player: int) -> KoaState:
    """The successor state for a legal action (checked by the kernel beforehand)."""
    return _freeze(_move(_thaw(s), action, player))


_table = maker(Commitments)


def _move(d: Any, action: Any, player: int) -> Any:
    """The draft edited by the move: every kind of action's rule."""
    kind = type(action)
    if kind is Play:
        commit(d, player, action.card)
    elif kind is Nominate:
        commit(d, player, NOMINATION + action.house)
    elif kind is Seal:
        h = sealing_house(d)
        # the house sealing is one still to commit (sealing_house): no second check
        d.table = _table(replace_at(d.table.ids, h, action.card))
        d.hands = _take(d.hands, h, 1 << action.card)
        next_commitment(d)
    elif kind is Inherit:
        deal_inheritance(d, action.number)
    elif kind is Recover:
        recover(d, action.card)
        settle(d)
    elif kind is RecoverNothing:
        d.recovering = d.recovering[1:]
        settle(d)
    else:
        discard_for_hit(d, action.card)
        settle(d)
    return d


def commit(d: Any, player: int, card: int) -> None:
    """Seal ``player``'s card; the last commitment reveals and resolves the round."""
    game = d.game
    # the rules offer only an uncommitted seat its own cards: Commitments.commit's checks
    # would be done twice at every commitment of every playout
    ids = replace_at(d.table.ids, player, card)
    d.table = _table(ids)
    d.hands = _take(d.hands, player, 1 << card)
    waiting = 0
    alive = d.alive
    for p in game.seats:
        if alive >> p & 1 and ids[p] == NOT_COMMITTED:
            waiting |= 1 << p
    if waiting:
        d.phase = game.commit_phase[waiting]
    else:
        reveal(d)


def deal_inheritance(d: Any, number: int) -> None:
    """The next house in the game without an inheritance card gets ``number``."""
    game = d.game
    house = d.inheritance.index(0)
    d.inheritance = replace_at(d.inheritance, house, number)
    if house + 1 >= game.houses:
        start_round(d)


def start_round(d: Any) -> None:
    """A new round: the table is clear; automated households seal first, then the real
    players commit."""
    d.round += 1
    d.table = _table((NOT_COMMITTED,) * len(d.table.ids))
    d.scored = 0
    next_commitment(d)


def next_commitment(d: Any) -> None:
    """Seal the next automated household's card, or open the players' commitments."""
    game = d.game
    alive = d.alive
    table = d.table.ids
    for h in game.automated:
        if alive >> h & 1 and d.hands[h] and table[h] == NOT_COMMITTED:
            d.phase = SEAL
            return
    d.phase = game.commit_phase[alive & game.real_mask]


def reveal(d: Any) -> None:
    """Turn every commitment face up and resolve the steps that need no decision."""
    game = d.game
    played = d.table.ids
    d.played = played
    table = list(played)
    courts = list(d.courts)
    discards = list(d.discards)
    houses = range(len(played))
    # 1. Jester and Banner join their owners' courts; then a Fanatic clears every Banner.
    fanatic = False
    golds = 0
    thieves = 0
    seers = 0
    marshals = 0
    for h in houses:
        c = played[h]
        if c < NOMINATION:
            if c in (JESTER, BANNER):
                courts[h] |= 1 << c
                table[h] = NOT_COMMITTED
            elif c == FANATIC:
                fanatic = True
            elif c == GOLD:
                golds |= 1 << h
            elif c == THIEF:
                thieves |= 1 << h
            elif c == SEER:
                seers |= 1 << h
            elif c == MARSHALS:
                marshals |= 1 << h
    if fanatic:
        for h in houses:
            if courts[h] & _BANNER_BIT:
                courts[h] &= ~_BANNER_BIT
                discards[h] |= _BANNER_BIT
    # 2. Count: 1 per nomination, 2 from a house with a Banner in court.
    counts = [0] * len(played)
    nominators = [0] * len(played)
    for h in houses:
        c = played[h]
        if c >= NOMINATION:
            t = c - NOMINATION
            counts[t] += 2 if courts[h] & _BANNER_BIT else 1
            nominators[t] |= 1 << h
    # 3-4. The Seer's count is removed; the highest remaining count (at least 1) is hit.
    best = 0
    for t in houses:
        if counts[t] > best and not seers >> t & 1:
            best = counts[t]
    hits: list[tuple[int, int]] = []
    counters: list[tuple[int, int]] = []
    if best:
        for t in houses:
            if counts[t] != best or seers >> t & 1:
                continue
            if marshals >> t & 1:
                # 5. Marshals block the hit and hit back every house that nominated them.
                for n in game.bits[nominators[t]]:
                    if not seers >> n & 1:
                        counters.append((n, t))
            else:
                hits.append((t, -1))
    hits += counters
    d.hits = tuple(hits)
    # 6. Each Thief discards every Gold; fed Thieves, or else unstolen Golds, may return a card.
    if golds and thieves:
        for g in game.bits[golds]:
            discards[g] |= _GOLD_BIT
            table[g] = NOT_COMMITTED
        d.recovering = game.bits[thieves]
    else:
        d.recovering = game.bits[golds]
    d.table = _table(tuple(table))
    d.courts = tuple(courts)
    d.discards = tuple(discards)
    settle(d)


def settle(d: Any) -> None:
    """Carry the resolution forward until a player must decide: returns first, then the
    hits; automated households decide by their fixed rule; a choice with one option is
    made at once."""
    game = d.game
    automated = game.automated_mask
    while d.recovering:
        h = d.recovering[0]
        options = d.discards[h] & CHARACTERS
        if not options:
            d.recovering = d.recovering[1:]
            continue
        if automated >> h & 1:
            recover(d, game.auto_recover(options))
            continue
        d.phase = game.return_phase[h]
        return
    while d.hits:
        h = d.hits[0][0]
        options = d.courts[h] & KEEPERS
        if not options:  # already out this round: nothing left to hit
            d.hits = d.hits[1:]
            continue
        if automated >> h & 1 or not options & (options - 1):
            discard_for_hit(d, game.auto_discard(options))
            continue
        d.phase = game.discard_phase[h]
        return
    end_round(d)


def recover(d: Any, card: int) -> None:
    """The house deciding now takes ``card`` back from its discard pile into its hand."""
    h = d.recovering[0]
    d.discards = _take(d.discards, h, 1 << card)
    d.hands = _add(d.hands, h, 1 << card)
    d.recovering = d.recovering[1:]


def discard_for_hit(d: Any, card: int) -> None:
    """The house taking the first pending hit gives up ``card``: a Royal goes to the
    centre pile, the Jester to its own discard pile. Losing the last one puts it out."""
    h, source = d.hits[0]
    d.hits = d.hits[1:]
    bit = 1 << card
    d.courts = _take(d.courts, h, bit)
    if bit & ROYALTY:
        d.centre = _add(d.centre, h, bit)
    else:
        d.discards = _add(d.discards, h, bit)
    if not d.courts[h] & KEEPERS:
        eliminate(d, h, source)


def eliminate(d: Any, house: int, source: int) -> None:
    """``house`` is out. Whoever scored the last hit keeps its nomination of ``house`` in
    court: every house that nominated it (hit of the count) or the Marshals house, from
    its hand if it holds that card (counter-attack)."""
    d.alive &= ~(1 << house)
    d.out_round = replace_at(d.out_round, house, d.round)
    card = NOMINATION + house
    if source < 0:
        for n, c in enumerate(d.played):
            if c == card:
                d.scored |= 1 << n
    elif d.hands[source] >> card & 1:
        d.hands = _take(d.hands, source, 1 << card)
        d.courts = _add(d.courts, source, 1 << card)


def end_round(d: Any) -> None:
    """Nominations go back to hand (or to court for the last hit on an eliminated
    house), characters to their owners' discard pile; then the next round, unless two or
    fewer houses are left. (There are at most two automated households, so a game whose
    real players are all out ends here too.)"""
    hands = list(d.hands)
    courts = list(d.courts)
    discards = list(d.discards)
    for h, c in enumerate(d.table.ids):
        if c < 0:
            continue
        bit = 1 << c
        if c >= NOMINATION:
            if d.scored >> h & 1:
                courts[h] |= bit
            else:
                hands[h] |= bit
        else:
            discards[h] |= bit
    d.hands = tuple(hands)
    d.courts = tuple(courts)
    d.discards = tuple(discards)
    d.recovering = ()
    d.hits = ()
    if d.alive.bit_count() <= 2:
        d.table = _table((NOT_COMMITTED,) * len(hands))
        d.phase = OVER
        return
    start_round(d)  # which clears the table
