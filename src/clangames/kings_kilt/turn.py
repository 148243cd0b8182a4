"""A turn of King's Kilt: advance or betray (or, once a King is crowned, pass), then fill
every vacancy, then any family reveals the move triggered.

This module is the hot path of search and simulation: legal actions come from shared
action objects indexed by position, and a move edits a :class:`Draft` (the state thawed
by the kernel) that is frozen once at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any, Protocol

from clangames.engine.data import plus, replace_at
from clangames.engine.draft import drafting, kept_apply, maker, owned_apply
from clangames.engine.phases import Phase
from clangames.engine.piles import KIND_BITS, Multiset
from clangames.engine.seats import clockwise_from, next_seat, right_of
from clangames.kings_kilt.actions import Advance, Betray, Draw, Fill, KingsKiltAction, Pass, Reveal
from clangames.kings_kilt.components import PLAYER_COUNTS
from clangames.kings_kilt.pyramid import EMPTY

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame
    from clangames.kings_kilt.state import KingsKiltState

REVEAL_TOP = Phase.chance("reveal_top")
OVER = Phase.over()
TURN, FILL, REVEAL = (
    tuple(Phase.turn(name, seat) for seat in range(max(PLAYER_COUNTS)))
    for name in ("turn", "fill", "reveal")
)
"""Each seat's phases of a turn, made once (the kernel's shared instances)."""


_thaw: Callable[[KingsKiltState], Any]
_freeze: Callable[[Any], KingsKiltState]
"""The move's thaw (a copy) and freeze, specialised to KingsKiltState by
:func:`bind_state_type`."""

apply_owned: Callable[[KingsKiltState, Any, int], KingsKiltState]
""":func:`apply` on a state nobody else holds, which becomes its successor (the kernel's
fast path; see :mod:`clangames.engine.rollout`): no copy of its fields, and the thaw and
freeze inline (:func:`clangames.engine.draft.owned_apply` of :func:`_move`, made by
:func:`bind_state_type`)."""

apply_kept: Callable[[KingsKiltState, Any, int], KingsKiltState]
kept_state: Callable[[Any], KingsKiltState]
"""The fast path's kept draft (:func:`clangames.engine.draft.kept_apply` of :func:`_move`,
made by :func:`bind_state_type`): :func:`apply_owned` without the freeze, the draft edited
from one move to the next and frozen once by ``kept_state`` when the playout ends."""


def bind_state_type(state_type: type[KingsKiltState]) -> None:
    """Bind the moves' draft copier and freezer, and the fast path's moves, to the state
    class, once: the state module calls it right after defining the class (it imports
    this module, so this module cannot import the class at its own import time)."""
    global _thaw, _freeze, apply_owned, apply_kept, kept_state
    _thaw, _freeze = drafting(state_type)
    apply_owned = owned_apply(state_type, _move)
    apply_kept, kept_state = kept_apply(state_type, _move)


class Draft(Protocol):
    """A :class:`KingsKiltState` thawed for editing by one move (the kernel's
    :mod:`clangames.engine.draft`): the same fields, assignable until it is frozen."""

    game: KingsKiltGame
    phase: Phase
    pyramid: tuple[int, ...]
    top: int
    leaders: Multiset
    members: Multiset
    reshuffled: Multiset
    family_deck: int
    families: tuple[int, ...]
    from_deck: tuple[int, ...]
    revealed: tuple[int, ...]
    hands: tuple[Multiset, ...]
    discards: Multiset
    removed: Multiset
    passed: int
    crowned: bool
    nobles_triggered: bool
    guardians_triggered: bool
    actor: int
    vacancy: int
    reveal_queue: tuple[int, ...]
    dealt: int
    turns: int


def move_up(d: Draft, source: int, target: int) -> None:
    """The card at ``source`` moves to ``target``, leaving ``source`` empty."""
    pyramid = list(d.pyramid)
    pyramid[target] = pyramid[source]
    pyramid[source] = EMPTY
    d.pyramid = tuple(pyramid)


# -- legal actions --------------------------------------------------------------------------
def legal_actions(s: KingsKiltState, player: int) -> tuple[KingsKiltAction, ...]:
    """The legal actions of the player to move, sorted by action id."""
    name = s.phase.name
    game = s.game
    if name == "turn":
        return _turn_actions(s, player)
    if name == "fill":
        below_left, below_right = game.geo.beneath[s.vacancy]
        return (game.fill_action[below_left], game.fill_action[below_right])  # type: ignore[return-value]
    if name == "reveal":
        hidden = s.families[player] & ~s.revealed[player]
        return tuple(game.reveal_action[c] for c in game.bits[hidden])
    return ()


def _turn_actions(s: KingsKiltState, player: int) -> tuple[KingsKiltAction, ...]:
    game = s.game
    geo = game.geo
    pyr = s.pyramid
    out: list[KingsKiltAction] = []
    if not s.crowned:
        # Advance: the target space is empty and the neighbour on that side supports it.
        advance = game.advance_action
        up_left = geo.up_left
        up_right = geo.up_right
        for pos in range(geo.size - 1):
            if pyr[pos] < 0:
                continue
            ul = up_left[pos]
            if ul >= 0 and pyr[ul] < 0 and pyr[pos - 1] >= 0:
                out.append(advance[pos][0])  # type: ignore[arg-type]
            ur = up_right[pos]
            if ur >= 0 and pyr[ur] < 0 and pyr[pos + 1] >= 0:
                out.append(advance[pos][1])  # type: ignore[arg-type]
    # the hand's clans as a bitmask: Multiset.kind_mask without the method call (a
    # components file holds at most 16 clans)
    hand_mask = sum(compress(KIND_BITS, s.hands[player].counts))
    if hand_mask:
        betray = game.betray_by_mask  # [pos][clan mask] -> the betrayals, sorted
        neighbours = geo.neighbours
        top_from = game.top_from_pos  # positions from here on are in the top three rows
        for pos in range(top_from):
            if pyr[pos] < 0:
                continue
            for q in neighbours[pos]:
                if pyr[q] >= 0:  # someone next to it can betray it: any Influence card
                    out += betray[pos][hand_mask]
                    break
        by_traitor = game.betray_by_traitor
        for pos in range(top_from, geo.size):
            clan = pyr[pos]
            if clan < 0:
                continue
            near = 0  # clans of the cards next to it: the possible traitors
            for q in neighbours[pos]:
                cq = pyr[q]
                if cq >= 0:
                    near |= 1 << cq
            if near:
                out += betray[pos][hand_mask & (near if by_traitor else 1 << clan)]
    if s.crowned or not out:
        out.append(game.pass_action)
    return tuple(out)


# -- transitions -----------------------------------------------------------------------------
def apply(s: KingsKiltState, action: Any, player: int) -> KingsKiltState:
    """The successor state for a legal action (checked by the kernel beforehand)."""
    return _freeze(_move(_thaw(s), action, player))


def _move(d: Draft, action: Any, player: int) -> Draft:
    """The draft edited by the move: every kind of action's rule."""
    kind = type(action)
    geo = d.game.geo
    if kind is Draw:
        _draw(d, action.clan)
    elif kind is Advance:
        advance(d, geo.at[(action.row, action.index)], action.direction, player)
    elif kind is Betray:
        betray(d, geo.at[(action.row, action.index)], action.influence, player)
    elif kind is Fill:
        fill(d, geo.at[(action.row, action.index)])
    elif kind is Reveal:
        reveal(d, action.clan, player)
    else:
        pass_turn(d, player)
    return d


def advance(d: Draft, pos: int, direction: str, player: int) -> None:
    """Move a card diagonally up; a first entry into the Noblemen's or the Guardians' row
    triggers the family reveal, an entry into the top row crowns a King."""
    geo = d.game.geo
    target = geo.up_left[pos] if direction == "left" else geo.up_right[pos]
    move_up(d, pos, target)
    row = geo.row[target]
    if row == geo.nobleman_row and not d.nobles_triggered:
        d.nobles_triggered = True
        d.reveal_queue = reveal_queue(d, player, guardians=False)
    elif row == geo.guardian_row and not d.guardians_triggered:
        d.guardians_triggered = True
        d.reveal_queue = reveal_queue(d, player, guardians=True)
    elif row == geo.king_row:
        d.crowned = True
    d.vacancy = pos
    settle(d)


def betray(d: Draft, pos: int, influence: int, player: int) -> None:
    """Spend an Influence card; the betrayed card leaves the game and leaves a vacancy."""
    d.hands = replace_at(d.hands, player, _less(d.hands[player], influence))
    d.discards = _more(d.discards, influence)
    d.removed = _more(d.removed, d.pyramid[pos])
    d.pyramid = replace_at(d.pyramid, pos, EMPTY)
    d.vacancy = pos
    settle(d)


def fill(d: Draft, source: int) -> None:
    """The chosen card beneath moves up into the vacancy, leaving its own."""
    move_up(d, source, d.vacancy)
    d.vacancy = source
    settle(d)


def reveal(d: Draft, clan: int, player: int) -> None:
    """Turn one face-down family card face up."""
    d.revealed = replace_at(d.revealed, player, d.revealed[player] | 1 << clan)
    d.reveal_queue = d.reveal_queue[1:]
    settle(d)


def pass_turn(d: Draft, player: int) -> None:
    """Out for the rest of the game."""
    d.passed |= 1 << player
    end_turn(d)


def reveal_queue(d: Draft, trigger: int, guardians: bool) -> tuple[int, ...]:
    """Who reveals, in order. 3-4 players: everyone clockwise from the trigger except the
    player just before them. 2 players: Noblemen, the trigger reveals one card; Guardians,
    the trigger reveals until one card stays face down."""
    n = d.game.num_players
    if n == 2:
        if not guardians:
            return (trigger,)
        hidden = d.families[trigger] & ~d.revealed[trigger]
        return (trigger,) * max(0, hidden.bit_count() - 1)
    skip = right_of(trigger, n)
    return tuple(p for p in clockwise_from(trigger, n) if p != skip)


def settle(d: Draft) -> None:
    """Carry the turn forward until someone must decide: fill vacancies (asking only when
    there are two cards beneath), keep the pile's top card face up, run the reveals, then
    hand the turn on."""
    game = d.game
    geo = game.geo
    while True:
        v = d.vacancy
        if v < 0:
            break
        if geo.row[v] == 1:
            if d.top >= 0:
                d.pyramid = replace_at(d.pyramid, v, d.top)
                d.top = EMPTY
                d.vacancy = EMPTY
            elif any(d.leaders.counts) or any(d.members.counts) or any(d.reshuffled.counts):
                d.phase = REVEAL_TOP
                return
            elif d.discards:
                # The pile ran out: the discards are shuffled into a new one.
                d.reshuffled = d.discards
                d.discards = d.discards.empty(len(game.clans))
            else:
                d.vacancy = EMPTY  # nothing left anywhere: the space stays empty
            continue
        below_left, below_right = geo.beneath[v]
        has_left = d.pyramid[below_left] >= 0
        has_right = d.pyramid[below_right] >= 0
        if has_left and has_right:
            d.phase = FILL[d.actor]
            return
        if has_left or has_right:
            source = below_left if has_left else below_right
            move_up(d, source, v)
            d.vacancy = source
        else:
            d.vacancy = EMPTY
    # the piles' counts, not their __bool__: a call fewer each
    if d.top < 0 and (any(d.leaders.counts) or any(d.members.counts) or any(d.reshuffled.counts)):
        d.phase = REVEAL_TOP  # the pile lies face up: its new top card shows at once
        return
    queue = d.reveal_queue
    while queue:
        seat = queue[0]
        hidden = d.families[seat] & ~d.revealed[seat]
        if hidden and hidden & (hidden - 1):
            d.reveal_queue = queue
            d.phase = REVEAL[seat]
            return
        # nothing face down: skip; exactly one: no choice to ask
        d.revealed = replace_at(d.revealed, seat, d.revealed[seat] | hidden)
        queue = queue[1:]
    d.reveal_queue = ()
    end_turn(d)


def end_turn(d: Draft) -> None:
    """The next player clockwise who has not passed takes a turn; nobody left: game over."""
    n = len(d.hands)  # one hand per seat (the game's num_players is a property)
    if d.actor < 0:
        nxt: int | None = int(d.game.params["first_player"])
    else:
        nxt = next_seat(d.actor, n, d.passed)
    if nxt is None:  # everyone has passed: the families are turned face up and scored
        d.phase = OVER
        d.revealed = d.families
        return
    d.actor = nxt
    d.turns += 1
    d.phase = TURN[nxt]


# -- chance ----------------------------------------------------------------------------------
def chance_weights(s: KingsKiltState) -> tuple[tuple[Any, int], ...]:
    """Outcomes of the card that comes up now, weighted by how many of each clan remain."""
    name = s.phase.name
    if name == "reveal_top" or name == "build_base":
        # Both come off the draw pile: Clan Leaders first (they lie on top), then members.
        counts = s.leaders.counts
        if not any(counts):
            counts = s.members.counts
            if not any(counts):
                counts = s.reshuffled.counts
    elif name == "deal_influence":
        counts = s.members.counts
    elif name == "deal_family":
        draw = s.game.draw_action
        return tuple([(draw[c], 1) for c in s.game.bits[s.family_deck]])
    elif name == "deal_third":
        draw = s.game.draw_action
        held = s.families[s.dealt % s.game.num_players]
        counts = s.members.counts
        return tuple([(draw[c], w) for c, w in enumerate(counts) if w and not held >> c & 1])
    else:
        return ()
    memo = s.game.draw_memo
    found = memo.get(counts)
    if found is None:
        draw = s.game.draw_action
        found = tuple([(draw[c], w) for c, w in enumerate(counts) if w])
        if len(memo) < DRAW_MEMO_LIMIT:
            memo[counts] = found
    return found


DRAW_MEMO_LIMIT = 1 << 16
"""The most pile parts' outcomes a game's ``draw_memo`` keeps (a few hundred in a game)."""


def _draw(d: Draft, clan: int) -> None:
    game = d.game
    name = d.phase.name
    if name == "reveal_top":  # the draw of nearly every turn
        _take_from_pile(d, clan)
        d.top = clan
        settle(d)
        return
    n = game.num_players
    if name == "deal_family":
        seat = d.dealt % n
        d.families = replace_at(d.families, seat, d.families[seat] | 1 << clan)
        d.from_deck = replace_at(d.from_deck, seat, d.from_deck[seat] | 1 << clan)
        d.family_deck &= ~(1 << clan)
        d.dealt += 1
        if d.dealt == game.components.family_from_deck * n:
            # the unused family deck goes back to the Clan Members
            for c in game.bits[d.family_deck]:
                d.members = d.members.add(c)
            d.family_deck = 0
            d.dealt = 0
            d.phase = Phase.chance(
                "deal_third"
                if game.components.family_size > game.components.family_from_deck
                else "deal_influence"
            )
    elif name == "deal_third":
        seat = d.dealt % n
        d.families = replace_at(d.families, seat, d.families[seat] | 1 << clan)
        d.members = _less(d.members, clan)
        d.dealt += 1
        extra = game.components.family_size - game.components.family_from_deck
        if d.dealt == extra * n:
            d.dealt = 0
            d.phase = Phase.chance("deal_influence")
    elif name == "deal_influence":
        seat = d.dealt % n
        d.hands = replace_at(d.hands, seat, _more(d.hands[seat], clan))
        d.members = _less(d.members, clan)
        d.dealt += 1
        if d.dealt == game.hand_size * n:
            d.dealt = 0
            d.phase = Phase.chance("build_base")
    elif name == "build_base":
        _take_from_pile(d, clan)
        d.pyramid = replace_at(d.pyramid, d.dealt, clan)
        d.dealt += 1
        if d.dealt == game.geo.width:
            d.dealt = 0
            settle(d)  # turns the pile's top card up, then the first turn


def _take_from_pile(d: Draft, clan: int) -> None:
    """Take a card of ``clan`` off the draw pile's current top layer."""
    if any(d.leaders.counts):  # the counts, not the pile's __bool__: a call fewer
        d.leaders = _less(d.leaders, clan)
    elif any(d.members.counts):
        d.members = _less(d.members, clan)
    else:
        d.reshuffled = _less(d.reshuffled, clan)


_pile = maker(Multiset)
"""``Multiset(counts)`` without attrs' ``__init__``: every draw and betrayal remakes a pile."""


def _less(pile: Multiset, clan: int) -> Multiset:
    """``pile.remove(clan)`` for a card the rules know is there (a legal action's or
    outcome's): without the checks or attrs' ``__init__``, which cost more than the
    change."""
    return _pile(plus(pile.counts, clan, -1))


def _more(pile: Multiset, clan: int) -> Multiset:
    """``pile.add(clan)`` for a clan of the game, without the check or attrs' ``__init__``."""
    return _pile(plus(pile.counts, clan, 1))


# -- words -------------------------------------------------------------------------------------
def _name(s: KingsKiltState, clan: int) -> str:
    return s.game.clans[clan]


def describe(s: KingsKiltState, action: Any) -> str:
    """A sentence about what ``action`` does in ``s``."""
    game = s.game
    geo = game.geo
    if isinstance(action, Draw):
        clan = _name(s, action.clan)
        name = s.phase.name
        n = game.num_players
        if name == "deal_family" or name == "deal_third":
            return f"a {clan} Clan Family card is dealt to player {s.dealt % n}"
        if name == "deal_influence":
            return f"a {clan} Influence card is dealt to player {s.dealt % n}"
        if name == "build_base":
            return f"a {clan} from the draw pile starts the pyramid at 1.{s.dealt}"
        return f"the draw pile shows a {clan} on top"
    if isinstance(action, Advance):
        pos = geo.at[(action.row, action.index)]
        target = geo.up_left[pos] if action.direction == "left" else geo.up_right[pos]
        clan = _name(s, s.pyramid[pos]) if s.pyramid[pos] >= 0 else "card"
        return (
            f"player {s.actor} advances the {clan} at {geo.label(pos)} up-{action.direction}"
            f" to {geo.label(target)}"
        )
    if isinstance(action, Fill):
        pos = geo.at[(action.row, action.index)]
        clan = _name(s, s.pyramid[pos]) if s.pyramid[pos] >= 0 else "card"
        return f"the {clan} at {geo.label(pos)} moves up to fill {geo.label(s.vacancy)}"
    if isinstance(action, Betray):
        pos = geo.at[(action.row, action.index)]
        victim = _name(s, s.pyramid[pos]) if s.pyramid[pos] >= 0 else "card"
        influence = _name(s, action.influence)
        if geo.row[pos] >= game.top_rows_from and game.betray_by_traitor:
            by = f"a neighbouring {influence}"
        else:
            by = "a neighbour"
        return (
            f"player {s.actor} plays a {influence} Influence card: the {victim} at"
            f" {geo.label(pos)} is betrayed by {by} and leaves the game"
        )
    if isinstance(action, Reveal):
        return f"player {s.current_player} turns their {_name(s, action.clan)} family card face up"
    if isinstance(action, Pass):
        return f"player {s.actor} passes for the rest of the game"
    return repr(action)


def prompt(s: KingsKiltState) -> str:
    """What is being decided now."""
    name = s.phase.name
    geo = s.game.geo
    if name == "turn":
        if s.crowned:
            return f"player {s.actor}: betray a card or pass (a King is crowned)"
        return f"player {s.actor}: advance a card or betray one"
    if name == "fill":
        return f"player {s.actor}: choose the card beneath that fills {geo.label(s.vacancy)}"
    if name == "reveal":
        return f"player {s.current_player}: turn one of your face-down family cards face up"
    if name == "over":
        return "the game is over"
    return f"chance: {name.replace('_', ' ')}"


def explain_illegal(s: KingsKiltState, action: Any, player: int) -> str:
    """Why a well-formed action is not legal here for the player to move, as specifically
    as the rules allow: the rule or the card that stops it (the kernel answers for a seat
    not to move, the game over and chance included, before asking here)."""
    game = s.game
    geo = game.geo
    text = game.action_text(action)
    name = s.phase.name
    here = f"{text!r} is not legal: "
    if isinstance(action, Draw):
        return here + "cards come off the draw pile by chance; no player chooses them"
    if name == "fill":
        return here + _not_a_fill(s, action)
    if name == "reveal":
        return here + _not_a_reveal(s, action, player)
    if isinstance(action, Fill):
        return here + (
            "no space is waiting to be filled (a space is filled right after the advance"
            " or betrayal that empties it)"
        )
    if isinstance(action, Reveal):
        return here + (
            "no family card is to be turned face up now (that comes when a card first"
            " enters the Noblemen's row and the Guardians' row)"
        )
    if isinstance(action, Pass):
        return here + (
            "passing is allowed only once a King is crowned (before that, only when no"
            " advance or betrayal is possible)"
        )
    pos = geo.at.get((action.row, action.index), -1)
    if pos < 0:
        return here + f"there is no space {action.row}.{action.index} in the pyramid"
    if s.pyramid[pos] < 0:
        return here + f"space {geo.label(pos)} is empty"
    if isinstance(action, Advance):
        if s.crowned:
            return here + "no card may advance once a King is crowned"
        target = geo.up_left[pos] if action.direction == "left" else geo.up_right[pos]
        side = geo.left[pos] if action.direction == "left" else geo.right[pos]
        if target < 0:
            return here + f"there is no space up-{action.direction} of {geo.label(pos)}"
        if s.pyramid[target] >= 0:
            return here + f"space {geo.label(target)} is taken"
        if side < 0 or s.pyramid[side] < 0:
            return here + f"no neighbouring card on the {action.direction} supports the move"
        return here + "the move is not allowed now"
    if isinstance(action, Betray):
        if action.influence not in s.hands[player]:
            return here + f"player {player} holds no {_name(s, action.influence)} Influence card"
        near = [s.pyramid[q] for q in geo.neighbours[pos] if s.pyramid[q] >= 0]
        if not near:
            return here + f"the card at {geo.label(pos)} has no neighbour to betray it"
        if geo.row[pos] >= game.top_rows_from:
            if game.betray_by_traitor:
                names = ", ".join(sorted({_name(s, c) for c in near}))
                return here + (
                    f"betraying a card in the top three rows needs an Influence card of the"
                    f" betraying neighbour's clan ({names}), not {_name(s, action.influence)}"
                )
            return here + (
                f"betraying a card in the top three rows needs an Influence card of its own"
                f" clan ({_name(s, s.pyramid[pos])}), not {_name(s, action.influence)}"
            )
    return here + f"now {prompt(s)}"


def _not_a_fill(s: KingsKiltState, action: Any) -> str:
    """Why ``action`` is not the fill the emptied space waits for; the cards that may fill
    it are the legal fills themselves."""
    geo = s.game.geo
    vacancy = geo.label(s.vacancy)
    fills = [a for a in legal_actions(s, s.actor) if isinstance(a, Fill)]
    sources = " or ".join(f"{a.row}.{a.index}" for a in fills)
    if not isinstance(action, Fill):
        return f"the emptied space {vacancy} must be filled first, from {sources}"
    pos = geo.at.get((action.row, action.index), -1)
    if pos < 0:
        return f"there is no space {action.row}.{action.index} in the pyramid"
    if s.pyramid[pos] < 0:
        return f"space {geo.label(pos)} is empty"
    return f"{geo.label(pos)} is not beneath the emptied space {vacancy}; it fills from {sources}"


def _not_a_reveal(s: KingsKiltState, action: Any, player: int) -> str:
    """Why ``action`` is not a reveal ``player`` may make now."""
    if not isinstance(action, Reveal):
        return f"player {player} must first turn one of their face-down family cards face up"
    clan = _name(s, action.clan)
    if not s.families[player] >> action.clan & 1:
        return f"{clan} is not one of player {player}'s family cards"
    return f"player {player}'s {clan} family card is already face up"
