"""A game of KOA Kingmaker: the inheritance deal, the sealed commitments of each round and
the resolution of a round in the order of the rulings.

Flow of one round:

1. ``seal`` (chance, once per automated household with cards): the household's card,
   uniform over its hand, goes face down onto the table.
2. ``commit`` (simultaneous): every real player's house still in the game commits one
   card face down; nobody else's observation shows which until all are in.
3. The reveal resolves the deterministic steps at once (Jester and Banner to court,
   Fanatic, counting, Seer, hits, Marshals, Thief against Gold), then asks the owners of
   Golds and fed Thieves whether to take a card back (``return``), then each hit house
   which card it gives up (``discard``), then clears the table and starts the next round
   or ends the game.

This module is the hot path of search and simulation: legal actions come from shared
action objects, and a move edits a :class:`Draft` (the state thawed by the kernel) that is
frozen once at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from clangames.engine.data import replace_at
from clangames.engine.draft import drafting, kept_apply, maker, owned_apply
from clangames.engine.phases import Phase
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments
from clangames.koa_kingmaker.actions import (
    Discard,
    Inherit,
    KoaAction,
    Nominate,
    Play,
    Recover,
    RecoverNothing,
    Seal,
)
from clangames.koa_kingmaker.cards import (
    BANNER,
    CHARACTERS,
    GOLD,
    KEEPERS,
    MAX_HOUSES,
    NOMINATION,
    ROYALTY,
    card_name,
)

if TYPE_CHECKING:
    from clangames.koa_kingmaker.game import KoaGame
    from clangames.koa_kingmaker.state import KoaState

INHERIT = Phase.chance("inherit")
SEAL = Phase.chance("seal")
OVER = Phase.over()
PHASE_NAMES = ("inherit", "seal", "commit", "return", "discard", "over")

_BANNER_BIT = 1 << BANNER
_GOLD_BIT = 1 << GOLD


_thaw: Callable[[KoaState], Any]
_freeze: Callable[[Any], KoaState]
"""The move's thaw (a copy) and freeze, specialised to KoaState by
:func:`bind_state_type`."""

apply_owned: Callable[[KoaState, Any, int], KoaState]
""":func:`apply` on a state nobody else holds, which becomes its successor (the kernel's
fast path; see :mod:`clangames.engine.rollout`): no copy of its fields, and the thaw and
freeze inline (:func:`clangames.engine.draft.owned_apply` of :func:`_move`, made by
:func:`bind_state_type`)."""

apply_kept: Callable[[KoaState, Any, int], KoaState]
kept_state: Callable[[Any], KoaState]
"""The fast path's kept draft (:func:`clangames.engine.draft.kept_apply` of :func:`_move`,
made by :func:`bind_state_type`): :func:`apply_owned` without the freeze, the draft edited
from one move to the next and frozen once by ``kept_state`` when the playout ends."""


def bind_state_type(state_type: type[KoaState]) -> None:
    """Bind the moves' draft copier and freezer, and the fast path's moves, to the state
    class, once: the state module calls it right after defining the class (it imports
    this module, so this module cannot import the class at its own import time)."""
    global _thaw, _freeze, apply_owned, apply_kept, kept_state
    _thaw, _freeze = drafting(state_type)
    apply_owned = owned_apply(state_type, _move)
    apply_kept, kept_state = kept_apply(state_type, _move)


class Draft(Protocol):
    """A :class:`KoaState` thawed for editing by one move (the kernel's
    :mod:`clangames.engine.draft`): the same fields, assignable until it is frozen."""

    game: KoaGame
    phase: Phase
    round: int
    inheritance: tuple[int, ...]
    alive: int
    out_round: tuple[int, ...]
    hands: tuple[int, ...]
    courts: tuple[int, ...]
    discards: tuple[int, ...]
    centre: tuple[int, ...]
    table: Commitments
    played: tuple[int, ...]
    recovering: tuple[int, ...]
    hits: tuple[tuple[int, int], ...]
    scored: int


def _add(cards: tuple[int, ...], house: int, bit: int) -> tuple[int, ...]:
    """``cards`` with ``bit`` added to ``house``'s set."""
    return replace_at(cards, house, cards[house] | bit)


def _take(cards: tuple[int, ...], house: int, bit: int) -> tuple[int, ...]:
    """``cards`` with ``bit`` taken out of ``house``'s set."""
    return replace_at(cards, house, cards[house] & ~bit)


# -- legal actions --------------------------------------------------------------------------
def legal_actions(s: KoaState, player: int) -> tuple[KoaAction, ...]:
    """The legal actions of a player who is to move, sorted by action id."""
    game = s.game
    name = s.phase.name
    if name == "commit":
        # the house's characters and its nominations of houses still in the game, looked
        # up in play_actions' memo inline: this runs at every commitment of a playout
        cards = s.hands[player] & (CHARACTERS | s.alive << NOMINATION)
        found = game.play_memo.get(cards)
        return game.play_actions(cards) if found is None else found
    if name == "return":
        return game.recover_actions(s.discards[player] & CHARACTERS)
    if name == "discard":
        return game.discard_actions(s.courts[player] & KEEPERS)
    return ()


# -- chance ----------------------------------------------------------------------------------
def sealing_house(s: KoaState | Draft) -> int:
    """The automated household whose card is sealed at this ``seal`` node."""
    table = s.table.ids
    alive = s.alive
    hands = s.hands
    for h in s.game.automated:
        if alive >> h & 1 and hands[h] and table[h] == NOT_COMMITTED:
            return h
    return -1


def chance_weights(s: KoaState) -> tuple[tuple[Any, int], ...]:
    """Inheritance deal: each number not yet dealt, equally likely. Seal: each card in the
    household's hand, equally likely (every card of a house is distinct)."""
    game = s.game
    name = s.phase.name
    if name == "seal":
        # sealing_house() and seal_weights() inline: this runs at every seal of a playout
        table = s.table.ids
        alive = s.alive
        hands = s.hands
        for h in game.automated:
            if alive >> h & 1 and hands[h] and table[h] == NOT_COMMITTED:
                found = game.seal_memo.get(hands[h])
                return game.seal_weights(hands[h]) if found is None else found
        return game.seal_weights(hands[sealing_house(s)])
    if name == "inherit":
        dealt = set(s.inheritance)
        return tuple(
            (game.inherit_action[k], 1) for k in range(1, game.max_number + 1) if k not in dealt
        )
    return ()


# -- transitions -----------------------------------------------------------------------------
def apply(s: KoaState, action: Any, player: int) -> KoaState:
    """The successor state for a legal action (checked by the kernel beforehand)."""
    return _freeze(_move(_thaw(s), action, player))


_table = maker(Commitments)
"""``Commitments(ids)`` without attrs' ``__init__``: the table changes at every commitment
of every playout."""

_CLEAR = Commitments.open(MAX_HOUSES)
"""The cleared table: one value that every new round and every game's end share."""


def _move(d: Draft, action: Any, player: int) -> Draft:
    """The draft edited by the move: every kind of action's rule."""
    kind = type(action)
    if kind is Play:
        commit(d, player, action.card)
    elif kind is Seal:
        seal(d, action.card)
    elif kind is Nominate:
        commit(d, player, NOMINATION + action.house)
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


def commit(d: Draft, player: int, card: int) -> None:
    """Seal ``player``'s card; the last commitment reveals and resolves the round."""
    game = d.game
    # the rules offer only an uncommitted seat its own cards: Commitments.commit's checks
    # would be done twice at every commitment of every playout
    ids = replace_at(d.table.ids, player, card)
    d.table = _table(ids)
    hands = d.hands
    d.hands = replace_at(hands, player, hands[player] & ~(1 << card))
    waiting = 0
    alive = d.alive
    for p in game.seats:
        if alive >> p & 1 and ids[p] == NOT_COMMITTED:
            waiting |= 1 << p
    if waiting:
        d.phase = game.commit_phase[waiting]
    else:
        reveal(d)


def seal(d: Draft, card: int) -> None:
    """The automated household sealing now puts ``card`` face down; then the next one
    seals, or the players commit. (:func:`sealing_house` and :func:`next_commitment` in
    one pass over the households: this runs at every seal of every playout.)"""
    game = d.game
    alive = d.alive
    hands = d.hands
    ids = d.table.ids
    h = -1
    for a in game.automated:
        if alive >> a & 1 and hands[a] and ids[a] == NOT_COMMITTED:
            if h >= 0:  # a later household still has to seal
                d.phase = SEAL
                break
            h = a
            # the house sealing is one still to commit: no second check of the table
            d.table = _table(replace_at(ids, h, card))
            d.hands = replace_at(hands, h, hands[h] & ~(1 << card))
    else:
        if h < 0:  # no household to seal (a state the rules never make): as the rules read
            h = sealing_house(d)
            d.table = _table(replace_at(ids, h, card))
            d.hands = _take(hands, h, 1 << card)
            next_commitment(d)
        else:
            d.phase = game.commit_phase[alive & game.real_mask]


def deal_inheritance(d: Draft, number: int) -> None:
    """The next house in the game without an inheritance card gets ``number``."""
    game = d.game
    house = d.inheritance.index(0)
    d.inheritance = replace_at(d.inheritance, house, number)
    if house + 1 >= game.houses:
        start_round(d)


def start_round(d: Draft) -> None:
    """A new round: the table is clear; automated households seal first, then the real
    players commit."""
    d.round += 1
    d.table = _CLEAR
    d.scored = 0
    next_commitment(d)


def next_commitment(d: Draft) -> None:
    """Seal the next automated household's card, or open the players' commitments."""
    game = d.game
    alive = d.alive
    table = d.table.ids
    for h in game.automated:
        if alive >> h & 1 and d.hands[h] and table[h] == NOT_COMMITTED:
            d.phase = SEAL
            return
    d.phase = game.commit_phase[alive & game.real_mask]


_NOMINATORS_AT = tuple(MAX_HOUSES * t for t in range(MAX_HOUSES))
"""Where a count's key (:func:`count_hits`) holds the houses that nominated house ``t``."""

_BANNERS_AT = MAX_HOUSES * MAX_HOUSES
_SEERS_AT = _BANNERS_AT + MAX_HOUSES
_MARSHALS_AT = _SEERS_AT + MAX_HOUSES
"""Where a count's key holds the nominating houses with a Banner in court, the Seers and
the Marshals (after each house's nominators)."""

_FIELD = (1 << MAX_HOUSES) - 1
"""A mask of every house: one field of a count's key."""

HITS_MEMO_LIMIT = 1 << 15
"""Counts kept in a game's memo of hits before it is emptied."""


def reveal(d: Draft) -> None:
    """Turn every commitment face up and resolve the steps that need no decision.

    One pass over the table finds the houses that played each character and packs the
    nominations into the key of the count, whose hits come from the game's memo
    (:func:`count_hits`): the same counts recur in every playout."""
    game = d.game
    played = d.table.ids
    d.played = played
    courts = d.courts
    roles = [0] * NOMINATION  # per character kind, the houses that played it
    key = 0
    h = 0
    for c in played:  # a counter costs less than enumerate's pairs here
        if c >= NOMINATION:
            key |= 1 << _NOMINATORS_AT[c - NOMINATION] + h
            # A nominating house played no Banner this round: its court is as it was.
            if courts[h] & _BANNER_BIT:
                key |= 1 << _BANNERS_AT + h
        elif c >= 0:
            roles[c] |= 1 << h
        h += 1  # noqa: SIM113
    # the character kinds are numbered 0..6 in this order (cards.py)
    jesters, seers, marshals, golds, thieves, banners, fanatics = roles
    table = played
    discards = d.discards
    # 1. Jester and Banner join their owners' courts; then a Fanatic clears every Banner.
    joined = jesters | banners
    if joined or fanatics:
        in_court = list(courts)
        if joined:
            left = list(played)
            for h in game.bits[joined]:
                in_court[h] |= 1 << played[h]
                left[h] = NOT_COMMITTED
            table = tuple(left)
        if fanatics:
            discarded = list(discards)
            for h, court in enumerate(in_court):
                if court & _BANNER_BIT:
                    in_court[h] = court & ~_BANNER_BIT
                    discarded[h] |= _BANNER_BIT
            discards = tuple(discarded)
            key &= ~(_FIELD << _BANNERS_AT)
        d.courts = tuple(in_court)
    # 2-5. The count and its hits.
    if key:
        key |= seers << _SEERS_AT | marshals << _MARSHALS_AT
        memo = game.hits_memo
        hits = memo.get(key)
        if hits is None:
            if len(memo) >= HITS_MEMO_LIMIT:
                memo.clear()
            hits = memo[key] = count_hits(game, key)
        d.hits = hits
    else:
        d.hits = ()
    # 6. Each Thief discards every Gold; fed Thieves, or else unstolen Golds, may return a card.
    if golds and thieves:
        left = list(table)
        discarded = list(discards)
        for g in game.bits[golds]:
            discarded[g] |= _GOLD_BIT
            left[g] = NOT_COMMITTED
        table = tuple(left)
        discards = tuple(discarded)
        d.recovering = game.bits[thieves]
    else:
        d.recovering = game.bits[golds]
    if table is not played:
        d.table = _table(table)
    d.discards = discards
    settle(d)


def count_hits(game: KoaGame, key: int) -> tuple[tuple[int, int], ...]:
    """Steps 2-5 of a reveal: the hits in the order they are taken, for a count's ``key``
    (MAX_HOUSES bits per field: the houses that nominated each house, then the nominating
    houses with a Banner in court, the Seers and the Marshals)."""
    banners = key >> _BANNERS_AT & _FIELD
    seers = key >> _SEERS_AT & _FIELD
    marshals = key >> _MARSHALS_AT & _FIELD
    houses = range(MAX_HOUSES)
    # 2. Count: 1 per nomination, 2 from a house with a Banner in court.
    nominators = [key >> _NOMINATORS_AT[t] & _FIELD for t in houses]
    counts = [n.bit_count() + (n & banners).bit_count() for n in nominators]
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
    return (*hits, *counters)


def settle(d: Draft) -> None:
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


def recover(d: Draft, card: int) -> None:
    """The house deciding now takes ``card`` back from its discard pile into its hand."""
    h = d.recovering[0]
    d.discards = _take(d.discards, h, 1 << card)
    d.hands = _add(d.hands, h, 1 << card)
    d.recovering = d.recovering[1:]


def discard_for_hit(d: Draft, card: int) -> None:
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


def eliminate(d: Draft, house: int, source: int) -> None:
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


def end_round(d: Draft) -> None:
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
        d.table = _CLEAR
        d.phase = OVER
        return
    start_round(d)  # which clears the table


# -- words -------------------------------------------------------------------------------------
def describe(s: KoaState, action: Any) -> str:
    """A sentence about what ``action`` does in ``s``."""
    if isinstance(action, Play):
        return f"puts the {card_name(action.card)} face down"
    if isinstance(action, Nominate):
        return f"puts the attack nomination of house {action.house} face down"
    if isinstance(action, Seal):
        return f"automated household {sealing_house(s)} puts the {card_name(action.card)} face down"
    if isinstance(action, Inherit):
        # told only to whoever may know the number (narration checks that): said plainly;
        # once every house holds its card (the action asked about out of its turn) no
        # house is named
        dealt = f"house {s.inheritance.index(0)}" if 0 in s.inheritance else "a house"
        return f"{dealt} is dealt inheritance number {action.number} face down"
    if isinstance(action, Recover):
        who = s.recovering[0] if s.recovering else "the deciding house"
        return f"house {who} takes its {card_name(action.card)} back from its discard pile"
    if isinstance(action, RecoverNothing):
        return "take nothing back from the discard pile"
    if isinstance(action, Discard):
        where = "the centre pile" if (1 << action.card) & ROYALTY else "its discard pile"
        who = s.hits[0][0] if s.hits else "the hit house"
        return f"house {who} gives up its {card_name(action.card)} to {where}"
    return repr(action)


def prompt(s: KoaState) -> str:
    """What is being decided now."""
    name = s.phase.name
    if name == "commit":
        if len(s.to_move) == 1:  # the last one still choosing
            return f"round {s.round}: player {s.to_move[0]}: put one card face down"
        players = ", ".join(str(p) for p in s.to_move)
        return f"round {s.round}: players {players} put one card face down each"
    if name == "return":
        return f"player {s.recovering[0]}: take one character back from your discard pile, or not"
    if name == "discard":
        return f"player {s.hits[0][0]}: you are hit; give up a Royal or your Jester"
    if name == "seal":
        return f"chance: automated household {sealing_house(s)} puts a card face down"
    if name == "inherit":
        return f"chance: house {s.inheritance.index(0)} is dealt an inheritance card"
    return "the game is over"


def explain_illegal(s: KoaState, action: Any, player: int) -> str:
    """Why a well-formed action is not legal here, as specifically as the rules allow."""
    game = s.game
    text = game.action_text(action)
    here = f"{text!r} is not legal for player {player}: "
    name = s.phase.name
    if name == "commit" and isinstance(action, (Play, Nominate)):
        if isinstance(action, Nominate):
            if action.house == player:
                return here + "a house holds no nomination of itself"
            if not s.alive >> action.house & 1:
                return here + f"house {action.house} is not in the game"
            card = NOMINATION + action.house
        else:
            card = action.card
        return here + f"the {card_name(card)} is not in your hand"
    if name == "return" and isinstance(action, Recover):
        return here + f"your {card_name(action.card)} is not in your discard pile"
    if name == "discard" and isinstance(action, Discard):
        return here + f"your {card_name(action.card)} is not in your court"
    # The front-ends list the legal actions themselves: this says only why not.
    return here + f"that is not a move of this step ({prompt(s)})"
