"""King's Kilt's two length bounds (decisions and chance nodes), each proved from the rules.

The argument is in :func:`length_bounds`; the helpers name its terms so a test can check
each one against a played game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.interop import LengthBounds

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame


def height_cap(game: KingsKiltGame) -> int:
    """The largest *height* a pyramid can have: every space full, each card counting its
    row number (56 for the six-row pyramid)."""
    w = game.geo.width
    return sum(r * (w - r + 1) for r in range(1, w + 1))


def pile_after_base(game: KingsKiltGame) -> int:
    """Cards left in the draw pile once the families, hands and base are dealt (its face-up
    top card included): 34 with three players."""
    comps = game.components
    n = game.num_players
    total = comps.cards_per_clan * len(game.clans)
    return total - comps.family_size * n - game.hand_size * n - game.geo.width


def reveal_decisions(game: KingsKiltGame) -> int:
    """The most family reveals that ask a question (see :func:`length_bounds`, step 5)."""
    n = game.num_players
    f = game.components.family_size
    # 2 seats: the Noblemen ask the trigger once, the Guardians until one card is left;
    # more seats: each of the two triggers asks every seat but one.
    entries = f if n == 2 else 2 * (n - 1)
    return max(0, min(entries, n * (f - 1)))


def length_bounds(game: KingsKiltGame) -> LengthBounds:
    """Decision and chance-node bounds of any King's Kilt game, adversarial play included.

    Write W for the pyramid's rows (6), Q for its spaces (21), n seats, h Influence cards
    a hand (5, 5, 4), f family cards a seat (3), N cards in all (64) and S the draw pile
    left after the set-up, its face-up top card included (N - fn - hn - W: 42, 34, 30).
    Decisions are the turn moves (A advances, B betrayals, P passes), F fills that ask
    (two cards beneath) and R family reveals that ask (two or more cards face down). A
    fill with one card beneath, a reveal of the last face-down card and every draw are not
    decisions (``turn.settle`` applies them).

    1. **Betrayals.** Each spends an Influence card from a hand and nothing ever returns
       to a hand (discards go to the draw pile), so B <= hn.
    2. **Passes.** A pass is final (rulings: "pass is final") and the game ends once all
       have passed, so P <= n.
    3. **Reveals.** The Noblemen and the Guardians each trigger once. With 3 or 4 seats
       each queues the n - 1 seats other than the trigger's right-hand neighbour, one
       reveal each; with 2 seats the Noblemen ask the trigger once and the Guardians at most
       f - 1 times. A reveal asks only with two or more cards face down, so a seat answers
       at most f - 1 of them: R <= min(queue entries, n (f - 1)) = 3, 4, 6.
    4. **The pyramid stays solid while the pile lasts.** Call the pyramid solid when every
       card above row 1 has both spaces beneath it full. The base is solid; an advance
       needs the card beside it, so its target rests on two cards; every vacancy is filled
       from beneath down to row 1, and row 1 from the pile (rulings: the discards are
       shuffled into a new pile when it runs out). So while a card is there for every row-1
       vacancy, each advance ends by drawing one card (the pyramid gains a card) and each
       betrayal by drawing one (it loses one and gains one), and the pyramid holds W + A
       cards <= Q: A <= Q - W. The k-th draw comes after A_k advances and B_k betrayals
       (k = A_k + B_k) whose B_k Influence cards went to the discards, so S + B_k - (k - 1)
       = S - A_k + 1 >= S - (Q - W) + 1 cards are there for it. If S >= Q - W (every
       bundled count: 42, 34, 30 >= 15), there always is one, and by induction the
       pyramid is solid for the whole game.
    5. **Solid case: advances and fills.** Let L be the sum over the pyramid's cards of
       (row - 1): 0 after the base, at most sum_r (r - 1)(W - r + 1) = 56 - 21 = 35 (a
       full pyramid). An advance from row r lifts r cards one row each (itself and the
       r - 1 fills it asks) and draws a card into row 1: L rises by r, exactly its
       decisions. A betrayal in row r takes r - 1 off L and its r - 1 fills put them back:
       L is unchanged and it costs r <= W decisions (row W only once a King is crowned).
       So A + F + B <= (56 - Q) + W hn.
    6. **General case** (S < Q - W, only with custom components): let H be the sum of the
       cards' row numbers, W after the base and at most 56. An advance, every fill and a
       card into row 1 (D of them) each raise H by 1; a betrayal lowers it by at most W.
       So A + F <= 56 - W + W B - D, and D >= min(A + B, S) by step 4's reasoning (the
       first S moves each draw a card): A + F + B <= 56 - W + W hn + max(0, hn - S).

    Decisions <= A + F + B + P + R: 100, 132, 141 for 2, 3, 4 seats (the step bound's
    split gave 1,036 / 1,330 / 1,400). Left loose: W hn assumes every betrayal takes the
    King, which needs an Influence card of a clan beside it in hand each time.

    **Chance nodes.** The set-up deals fn family cards, hn Influence cards and the W base
    cards and turns the pile's top card up, one chance node each; in play a chance node
    turns up the new top card after each draw, at most one per advance or betrayal. In the
    solid case that is fn + hn + W + 1 + (Q - W) + hn = fn + 2 hn + Q + 1: 48, 61, 66,
    reached by every game that crowns a King and spends every Influence card. In general
    each chance node takes one card out of the pile, which holds S cards and gains only
    the discards (at most hn): fn + hn + W + S + hn = N + hn.
    """
    n = game.num_players
    w = game.geo.width
    spaces = game.geo.size
    cap = height_cap(game)
    betrayals = game.hand_size * n
    pile = pile_after_base(game)
    rest = n + reveal_decisions(game)
    total = game.components.cards_per_clan * len(game.clans)
    if pile >= spaces - w:
        family = game.components.family_size * n
        return LengthBounds(
            decisions=(cap - spaces) + w * betrayals + rest,
            chance=min(total + betrayals, family + 2 * betrayals + spaces + 1),
        )
    decisions = cap - w + w * betrayals + max(0, betrayals - pile) + rest
    return LengthBounds(decisions=decisions, chance=total + betrayals)


__all__ = ["height_cap", "length_bounds", "pile_after_base", "reveal_decisions"]
