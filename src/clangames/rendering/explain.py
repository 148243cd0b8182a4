"""The games explained to their players: the rules in brief, what an option does and why it
is legal now, and how the final scores came about.

Each game has one entry in :data:`GUIDES` (rules text, per-action-kind explanations and a
score breakdown); a game without one gets the generic answers. A breakdown is computed from
the game's states in order (the start, every state a step led to, the end), so sources of
points that only the course of the game knows (a ducat day, a VP award) can be credited to
the step that paid them; its items always sum to the seat's final score, which the tests
check for every game.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from clangames.engine.bits import bits_of
from clangames.engine.state import Action, State
from clangames.rendering.text import who


@attrs.frozen(slots=True)
class SeatBreakdown:
    """How one seat's final score is made up: ``items`` (label, points) sum to ``score``;
    ``notes`` say anything else that decided its result (out in round 3, say)."""

    seat: int
    score: int
    items: tuple[tuple[str, int], ...]
    notes: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class EndReport:
    """The end screen's explanation: one breakdown per seat and how the winner was found."""

    seats: tuple[SeatBreakdown, ...]
    decided_by: str
    """One sentence: most points, or which tie-break decided, or who was out."""

    def lines(self) -> list[str]:
        """The report as text lines (an indented block per seat, then the deciding
        sentence)."""
        out: list[str] = []
        # the points right-aligned across the report: "+4" over "-19" read as misplaced
        width = max((len(f"{p:+d}") for s in self.seats for _, p in s.items), default=2)
        for seat in self.seats:
            out.append(f"  {who(seat.seat)}: {seat.score}")
            out.extend(f"    {points:+{width}d}  {label}" for label, points in seat.items)
            out.extend(f"    ({note})" for note in seat.notes)
        out.append(f"Decided: {self.decided_by}")
        return out


def class_kind(action: Action) -> str:
    """An action's kind for most games: its class name."""
    return type(action).__name__


@attrs.frozen(slots=True)
class Guide:
    """One game's explanations (see the module docstring)."""

    rules: str | Callable[[State], str]
    """The rules in brief, or a function of the state for rules whose numbers depend on
    the game being played (Clan Feud's number of turns)."""
    kinds: dict[str, str]
    """Per action kind (see ``kind_of``): what that kind of action does and when it is
    legal."""
    breakdown: Callable[[Sequence[State]], EndReport]
    kind_of: Callable[[Action], str] = class_kind
    """The key of ``kinds`` that explains an action: its class name, unless one class
    holds decisions that differ in kind (Clan Feud's one-word decisions)."""


def _names(seats: Sequence[int]) -> str:
    return ", ".join(who(p) for p in seats)


def counted(count: int, noun: str) -> str:
    """``count`` of ``noun`` with the noun agreeing in number: ``"1 Noble"``, ``"2 Nobles"``,
    ``"0 Influence cards"`` (the names a breakdown counts all take a plain -s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _by_points(final: State, how: str, key: Sequence[int] | None = None) -> str:
    """The deciding sentence when the scores alone or a named tie-break decided (``key``:
    each seat's tie-break value, named for the tied seats)."""
    won = final.winners()
    scores = final.scores()
    top = max(scores) if scores else 0
    tied = [p for p, v in enumerate(scores) if v == top]
    if key is not None and len(tied) > 1:
        how = how.rstrip(".") + " (" + ", ".join(f"{who(p)} {key[p]}" for p in tied) + ")."
    if len(won) > 1:
        said = how.rstrip(".") + ", level there too." if key is not None else how
        return f"{_names(won)} share the win with {top} each; {said}"
    if len(tied) > 1 and won and won[0] in tied:
        return f"{_names(won)} won: {_names(tied)} tied on {top}; {how}"
    return f"{_names(won)} won with the most points ({scores[won[0]] if won else 0})."


# -- King's Kilt -----------------------------------------------------------------------------------
KINGS_KILT_RULES = """\
King's Kilt in brief. Each player secretly holds a Clan Family of three clans and a hand of
Influence cards. Clan cards form a pyramid of six rows above a face-up draw pile.
On your turn either ADVANCE a card one row up (up-left or up-right) into an empty space
(it needs a neighbour on that side), or BETRAY a card: play an Influence card and a
neighbour of the target card throws it out of the game (in the top three rows the Influence
card must be of the betraying neighbour's clan). Either way you then FILL the emptied space
from one of the two cards beneath it, down to row 1, which takes the pile's top card.
The first card into row 4 (Noblemen) and then row 5 (Guardians) make players turn a family
card face up (REVEAL). Once a King is crowned on top nobody may advance; players betray or
PASS until everyone has passed. Each family card scores for its clan: 3 for the King, 2 per
Guardian, 1 per Nobleman. Most points wins; a tie goes to more Influence cards left."""

KINGS_KILT_KINDS = {
    "Advance": "moves the card at that space one row up into the empty space on that side. "
    "Legal because no King is crowned yet, the space above on that side is empty and the card "
    "has a neighbour on that side to climb against.",
    "Betray": "plays an Influence card of that clan so a neighbour of the card at that space "
    "throws it out of the game. Legal because you hold that Influence card and, in the top "
    "three rows, a neighbour of the target is of that clan (lower down any clan will do).",
    "Fill": "moves the card from that space up into the space just emptied. Legal because the "
    "emptied space must be filled and that card is one of the two beneath it.",
    "Reveal": "turns that family card face up. Legal because the first card reached the "
    "Noblemen or Guardians row and it is your turn to reveal one of your face-down clans.",
    "Pass": "stops you for the rest of the game. Legal because a King is crowned, so nobody "
    "may advance any more.",
    "Draw": "turns up the draw pile's top card, by chance.",
}


def _kings_kilt_breakdown(states: Sequence[State]) -> EndReport:
    final: Any = states[-1]
    game = final.game
    geo = game.geo
    comps = game.components
    seats = []
    for p in range(game.num_players):
        items = []
        for clan in game.bits[final.families[p]]:
            rows = [geo.row[pos] for pos in range(geo.size) if final.pyramid[pos] == clan]
            king = rows.count(geo.king_row)
            guardians = rows.count(geo.guardian_row)
            nobles = rows.count(geo.nobleman_row)
            points = (
                king * comps.king_points
                + guardians * comps.guardian_points
                + nobles * comps.nobleman_points
            )
            parts = [
                counted(count, what)
                for count, what in ((king, "King"), (guardians, "Guardian"), (nobles, "Noble"))
                if count
            ]
            detail = ", ".join(parts) if parts else "no card in the top three rows"
            items.append((f"family card {game.clans[clan]} ({detail})", points))
        seats.append(
            SeatBreakdown(
                p,
                final.scores()[p],
                tuple(items),
                (counted(len(final.hands[p]), "Influence card") + " left",),
            )
        )
    return EndReport(
        tuple(seats),
        _by_points(
            final,
            "the tie-break is the most Influence cards left.",
            [len(final.hands[p]) for p in range(game.num_players)],
        ),
    )


# -- KOA Kingmaker ---------------------------------------------------------------------------------
KOA_RULES = """\
KOA Kingmaker in brief. Each house has three Royalty cards face up in its court and a hand of
characters (Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic) and attack nominations, one
per other house, plus a secret inheritance number. Every round each house still in puts one
card face down; all are turned up together. A Jester or Banner joins its owner's court; a
Fanatic throws out every Banner. Each nomination is an attack (two with a Banner in court).
The Seer makes its house immune this round. The most-attacked house is hit (ties: all of them);
the Marshals turn the hits back on the nominators. A Thief catches every Gold played; an
uncaught Gold or a successful Thief may take a character back from the discard pile (RECOVER).
Each hit costs a Royal or the Jester in court (DISCARD); a house with neither is out, and the
house that dealt the last hit keeps the nomination (worth points). The game ends when two or
fewer houses are left. Score: court values plus hand values; only houses still in can win,
and a tie goes to the lower inheritance number."""

KOA_KINDS = {
    "Play": "makes that character your card of this round, hidden from the others until every "
    "card is down. Legal because it is in your hand and you have not put a card down yet "
    "this round.",
    "Nominate": "makes your nomination of that house your card of this round: an attack on it. "
    "Legal because the nomination is in your hand and that house is still in the game.",
    "Seal": "puts an automated household's card face down, by chance.",
    "Inherit": "deals an inheritance number face down, by chance.",
    "Recover": "takes that character back from your discard pile into your hand. Legal because "
    "your Gold was not caught, or your Thief caught a Gold, this round.",
    "RecoverNothing": "declines to take a card back. Always allowed when you may recover.",
    "Discard": "gives up that card from your court to a hit. Legal because your house was hit "
    "and that card is a Royal or the Jester in your court.",
}


def _koa_breakdown(states: Sequence[State]) -> EndReport:
    from clangames.koa_kingmaker.cards import card_name
    from clangames.koa_kingmaker.scoring import contenders

    final: Any = states[-1]
    game = final.game
    values = game.values
    scores = final.scores()
    seats = []
    for p in game.seats:
        items = [(f"court: {card_name(k)}", values.court[k]) for k in bits_of(final.courts[p])]
        items += [(f"hand: {card_name(k)}", values.hand[k]) for k in bits_of(final.hands[p])]
        notes = [f"inheritance number {final.inheritance[p]}"]
        if final.out_round[p]:
            notes.append(f"out of the game in round {final.out_round[p]}: cannot win")
        seats.append(SeatBreakdown(p, scores[p], tuple(i for i in items if i[1]), tuple(notes)))
    able = contenders(final)
    won = final.winners()
    best = max(scores[p] for p in able)
    tied = [p for p in able if scores[p] == best]
    beaten = [p for p in game.seats if p not in able and scores[p] > best]
    parts = []
    if beaten:
        parts.append(
            f"{_names(beaten)} scored more but {'was' if len(beaten) == 1 else 'were'} out of"
            " the game, so could not win"
        )
    if len(tied) > 1:
        numbers = ", ".join(f"{who(p)} {final.inheritance[p]}" for p in tied)
        parts.append(f"{_names(tied)} tied on {best}; the lower inheritance number won ({numbers})")
    if not any(final.alive >> p & 1 for p in game.seats):
        parts.append("no player's house was left, so the houses that lasted longest competed")
    said = "; ".join(parts) if parts else f"the most points among the houses still in ({best})"
    return EndReport(tuple(seats), f"{_names(won)} won: {said}.")


# -- Kilt Castle -----------------------------------------------------------------------------------
KILT_CASTLE_RULES = """\
Kilt Castle in brief. Players share one castle on a grid; building cards lie on positions
round it, each showing two colours. On your turn RELOCATE one card clockwise to another
position; every colour on it then BUILDS a floor in the row or column that position faces
(the colour facing the castle first), each colour's owner choosing where. Building on a
tower topped by someone else costs you its height in ducats, paid to them; a second floor
on the space of the turn's first floor gets a roof (MOVE ROOF picks which roof when all are
placed). A move that empties a row of card positions brings a ducat day: each colour earns
its most valuable connected area (1 per floor, more for crests). The game ends when a colour
has built its last floor (or after long stalls): everyone is paid 1 per tower they top and
per crest on it, and 1 per roofed tower. Most ducats wins; a tie goes to most floors built."""

KILT_CASTLE_KINDS = {
    "Lay": "puts a building card at its start position while the board is laid out, by chance.",
    "Relocate": "moves that building card clockwise to that position; its colours then build "
    "in the line the position faces. Legal because the position is free and the card may "
    "reach it this way (a card must land beside another).",
    "Build": "puts a floor of your colour on that space. Legal because the space is in the "
    "line the moved card faces, is not water, and you can pay any overbuilding cost.",
    "MoveRoof": "moves a placed roof onto the space that was built on twice. Legal because "
    "every roof is already placed, so one must move.",
}


def _kilt_castle_breakdown(states: Sequence[State]) -> EndReport:
    final: Any = states[-1]
    n = final.game.num_players
    first: Any = states[0]
    start = "starting ducats" if len(states) > 1 else "ducats (the course of the game unknown)"
    sums: list[dict[str, int]] = [{start: first.money[p]} for p in range(n)]
    for before, after in itertools.pairwise(states):
        b: Any = before
        a: Any = after
        for p in range(n):
            delta = a.money[p] - b.money[p]
            if not delta:
                continue
            if delta < 0:
                label = "overbuilding paid to others"
            elif a.is_terminal:
                label = "final pay-out (towers, crests, roofs)"
                if b.ducat_day:
                    label = "last ducat day and final pay-out"
            elif b.ducat_day and not a.ducat_day:
                label = "ducat days"
            else:
                label = "overbuilding paid by others"
            sums[p][label] = sums[p].get(label, 0) + delta
    from clangames.kilt_castle.scoring import floors_built

    seats = tuple(
        SeatBreakdown(
            p,
            final.scores()[p],
            tuple(sums[p].items()),
            (f"{floors_built(final, p)} floors built",),
        )
        for p in range(n)
    )
    floors = [floors_built(final, p) for p in range(n)]
    return EndReport(seats, _by_points(final, "the tie-break is the most floors built.", floors))


# -- Clan Feud -------------------------------------------------------------------------------------
CLAN_FEUD_RULES = """\
Clan Feud in brief. Two to five clans fight over a map of Scotland for victory points (VP)
over {turns} turns while England moves along its track towards war. Each turn the clans roll
their dice and ASSIGN them to the slots of their clan boards: feud tokens, income, building,
intrigue and military. Money buys castles, tower houses and troops; troops MOVE to take
territories and fight BATTLES, where both sides COMMIT feud tokens and action cards and roll
casualty dice. Intrigue and events award VP during the game; the event cards set
objectives. At the end King James comes of age and a final count adds VP. Most VP wins;
tied clans share the win."""

CLAN_FEUD_KINDS = {
    # one-word decisions, keyed by their word (see _clan_feud_kind)
    "Word pass": "lets this decision go by: you play no action card in this window or, when "
    "assigning, place no die. Legal because playing a card is never required, and a die "
    "need not be placed when none of yours fits a free slot without a card's help.",
    "Word tokens": "takes the Feud benefit as feud tokens instead of raising dice: as many "
    "tokens as the slot's level (1 on Feud I, 2 on II, 3 on III). Legal because your die on "
    "the feud column lets you choose between the two.",
    "Word stop": "ends what you are doing now: no more raises, buildings, moves, steps, die "
    "changes or rerolls this time. Legal because you have done at least one already, and "
    "after that you may stop whenever you like.",
    "Word recruit": "uses your military die to recruit troops. Legal because you can pay "
    "for at least one troop and have a territory to put it in.",
    "Word move": "uses your military die to move your armies. Legal because you have troops "
    "on the map.",
    "Word king goes": "takes King James along with the troops that move. Legal because he "
    "is with the army that moves.",
    "Word king stays": "leaves King James behind with the troops that stay. Legal because "
    "some troops of that army stay where they are.",
    "Word continue": "fights another battle round. Legal because the battle is still "
    "undecided and each side may go on or retreat after every round.",
    "Word retreat": "ends the battle by withdrawing your side. Legal because either side "
    "may retreat after a round instead of fighting on.",
    "Word accept": "carries out the optional effect the event or card offers you. Legal "
    "because the effect is optional and you can carry it out.",
    "Word decline": "leaves the optional effect aside. Always allowed when an effect is optional.",
    "Word no card": "commits no action card to this battle round; it stays sealed like a "
    "card, so the others cannot tell. Always allowed.",
    "Word pay upkeep": "pays the upkeep of your troops now, in pounds and feud tokens. Legal "
    "because your money and feud tokens together cover what you owe.",
    # choices of a seat or a place
    "Seat": "names that player: the next place of the turn order, the tied player who sets "
    "it, or the player you steal from or whose dice you reroll (the prompt says which). "
    "Legal because that player may be named in this decision.",
    "Place": "chooses that territory: where a building or free troops go, which army moves, "
    "the next step of a move, where beaten troops retreat, or what an English army marches "
    "on (the prompt says which). Legal because that territory meets this decision's "
    "conditions (yours, next to the last step, with room, and so on).",
    # the dice
    "Assign": "puts that die on that column of your clan board at that level, and the "
    "column's action happens at once (Feud: feud tokens or raising dice; Income: money; "
    "Build: buying from your board; Intrigue: money, action cards and VP; Military: recruiting "
    "or moving). Legal because the die is unassigned, its face is at least the level, and a "
    "slot of that level is free.",
    "Raise": "turns one of your unassigned dice of that colour and face up by one (a Feud "
    "benefit, or an action card's change). Legal because your feud die or the card lets you "
    "raise dice and this one is below its highest face (a die raised once this turn cannot be "
    "raised again).",
    "ToThree": "turns one of your unassigned dice of that colour showing 1 into a 3 (the "
    "Feud III benefit, or a card's die change). Legal because you have such a die; black "
    "dice never show 3.",
    "Reroll": "picks one unassigned die of that colour and face for the card's reroll. Legal "
    "because the card lets you pick dice to reroll and this one is not picked yet.",
    # building, troops and upkeep
    "BuildSlot": "pays the slot's price to uncover that slot of that column of your clan "
    "board, which dice may use from then on; the slot also gives you a die, or a tower "
    "house or castle that you place next. Legal because your build die reaches the slot's "
    "level, the slot is still covered and you can pay.",
    "Take": "recruits or moves that many troops of that type (the prompt says which). Legal "
    "because you have that many to move, or the supply, room and money to recruit them.",
    "Lose": "removes one troop of that type from your army: a casualty, troops you give up "
    "before upkeep, or an event's loss. Legal because that army has such a troop.",
    "PayFeud": "pays that much of your upkeep in feud tokens and the rest in pounds. Legal "
    "because you hold those tokens and the money for the rest.",
    # events and action cards
    "Option": "takes that option of the event's or card's choice. Legal because you can "
    "carry out that option.",
    "PlayAction": "plays that action card from your hand for its action, in its timing "
    "window (before the turn order, after the roll, while assigning, before upkeep). Legal "
    "because you hold it, this is its window and its action can be carried out now.",
    "Discard": "discards that action card from your hand, as the event or card asks. Legal "
    "because you hold one of that design.",
    # battles
    "PlayCard": "commits that action card to the battle round, sealed until both sides "
    "reveal. Legal because you hold it.",
    "Commit": "commits that many feud tokens to the battle round, sealed until both sides "
    "reveal; they add to your strength and are spent. Legal because you hold that many.",
    "Roll": "rolls that many casualty dice as the round's winner. Legal because it is at "
    "most your side's winning margin of strength.",
    # chance
    "StartAt": "deals the next clan's start territory, by chance.",
    "Lot": "draws the next place of the first turn order, by chance.",
    "Rolled": "rolls a player's dice of that colour, by chance; only how many show each face "
    "matters.",
    "Total": "sums a roll (Income II's black dice, or a side's artillery), by chance.",
    "Hits": "rolls the casualty dice, by chance: hits on the beaten side and on the roller's own.",
    "DrawCard": "draws an action card, from the deck or at random from a hand, by chance.",
    "DrawEvent": "draws the next event card, by chance.",
}


def _clan_feud_rules(state: State) -> str:
    """Clan Feud's rules in brief, with the game's own number of turns (9, 8, 7, 7 for 2
    to 5 players: the regular events drawn, and the final one)."""
    game: Any = state.game
    return CLAN_FEUD_RULES.format(turns=game.deck_size + 1)


def _clan_feud_kind(action: Action) -> str:
    """Clan Feud's one-word decisions differ in kind (pass, retreat, pay upkeep, ...), so
    each word is its own kind; every other action's kind is its class."""
    kind = class_kind(action)
    return f"{kind} {action.word}" if kind == "Word" else kind


def _clan_feud_source(before: State, step_text: str, ends: bool) -> str:
    """Which of the game's three VP sources paid at a step: the intrigue column (paid as a
    die is assigned to it), the final count (King James comes of age, the last step), or
    the effects of events and action cards (everything else)."""
    if ends:
        return "final count (King James comes of age)"
    if "intrigue" in step_text:
        return "intrigue"
    return "events and action cards"


def moves_text(before: State, after: State) -> str:
    """The text of the action that led from ``before`` to ``after`` if one legal action of
    the mover does (empty if none is found)."""
    for player in before.to_move:
        options = (
            tuple(a for a, _ in before.chance_weights())
            if before.is_chance
            else before.legal_actions(player)
        )
        for action in options:
            if before.apply(action, player) == after:
                return before.action_text(action)
    return ""


def _clan_feud_breakdown(states: Sequence[State]) -> EndReport:
    final: Any = states[-1]
    n = final.game.num_players
    sums: list[dict[str, int]] = [{} for _ in range(n)]
    first: Any = states[0]
    for p in range(n):
        if first.vp[p]:
            sums[p]["at the start" if len(states) > 1 else "VP"] = first.vp[p]
    for before, after in itertools.pairwise(states):
        b: Any = before
        a: Any = after
        for p in range(n):
            delta = a.vp[p] - b.vp[p]
            if delta:
                label = _clan_feud_source(before, moves_text(before, after), a.is_terminal)
                sums[p][label] = sums[p].get(label, 0) + delta
    scores = final.scores()
    seats = tuple(SeatBreakdown(p, scores[p], tuple(sums[p].items())) for p in range(n))
    return EndReport(seats, _by_points(final, "Clan Feud has no tie-break."))


# -- every game --------------------------------------------------------------------------------
GUIDES: dict[str, Guide] = {
    "kings_kilt": Guide(KINGS_KILT_RULES, KINGS_KILT_KINDS, _kings_kilt_breakdown),
    "koa_kingmaker": Guide(KOA_RULES, KOA_KINDS, _koa_breakdown),
    "kilt_castle": Guide(KILT_CASTLE_RULES, KILT_CASTLE_KINDS, _kilt_castle_breakdown),
    "clan_feud": Guide(_clan_feud_rules, CLAN_FEUD_KINDS, _clan_feud_breakdown, _clan_feud_kind),
}
"""The explanations of each built-in game, by game name."""


def rules_text(state: State) -> str:
    """The game's rules in brief (a generic pointer for a game without a guide)."""
    guide = GUIDES.get(state.game.name)
    if guide is None:
        return (
            f"{state.game.info.title}: no rules summary is available here; each option's"
            " text says what it does ('explain N')."
        )
    return guide.rules if isinstance(guide.rules, str) else guide.rules(state)


def explain_action(state: State, action: Action, seat: int) -> str:
    """What ``action`` does for ``seat`` now and why it is legal (or, if it is not, what
    stops it: ``State.explain_illegal``, which says whose move it is when ``seat`` is not to
    move)."""
    if not state.is_legal(action, seat):
        return state.explain_illegal(action, seat)
    what = state.describe(action)
    kind = kind_explanation(state, action)
    why = kind if kind else GENERIC_WHY.format(options=len(state.legal_actions(seat)))
    return f"{state.action_text(action)}: {what}. This {why}\nNow: {state.prompt()}"


GENERIC_WHY = "is one of your {options} options now."
"""The generic explanation: what :func:`explain_action` says of an action whose kind its
game's guide does not explain (only how many options there are). The tests assert that no
action a built-in game offers ever gets it."""


def kind_explanation(state: State, action: Action) -> str | None:
    """What ``action``'s kind does and when it is legal, from its game's guide; None when
    the guide does not explain that kind (or the game has none), and so the generic
    explanation is given."""
    guide = GUIDES.get(state.game.name)
    if guide is None:
        return None
    return guide.kinds.get(guide.kind_of(action))


def _generic_breakdown(states: Sequence[State]) -> EndReport:
    final = states[-1]
    scores = final.scores()
    seats = tuple(SeatBreakdown(p, s, (("final score", s),)) for p, s in enumerate(scores))
    return EndReport(seats, _by_points(final, "the game's own tie-break decided."))


def end_report(states: Sequence[State]) -> EndReport:
    """The score breakdown and the deciding sentence for a finished game, from its states
    in order (at least the final one; without the earlier ones, points that only the
    course of the game knows are shown as one item)."""
    if not states or not states[-1].is_terminal:
        raise ValueError("end_report needs the states of a finished game, the last one final")
    guide = GUIDES.get(states[-1].game.name)
    return (guide.breakdown if guide else _generic_breakdown)(states)
