"""KOA Kingmaker as SVG: the round, the centre pile, each house's court, discard pile (by
card name) and card on the table, and the viewer's hand, drawn from one observation
(another house's sealed card is a card back; an inheritance number shows only where the
observation holds it)."""

from __future__ import annotations

from clangames.engine.bits import bits_of
from clangames.koa_kingmaker.cards import (
    CHARACTERS,
    NOMINATION,
    NOMINATIONS,
    ROYAL,
    card_name,
)
from clangames.koa_kingmaker.game import KoaGame
from clangames.koa_kingmaker.observation import KoaObservation
from clangames.koa_kingmaker.phases import phase_words
from clangames.rendering.koa_kingmaker import pile_text, played_name
from clangames.rendering.svg.canvas import Canvas, player_colour

CARD_W = 70
CARD_H = 30
ROW_H = 76
COURT_W = 430
"""Room for a house's court, from its left edge to the table column."""
DISCARDS_X = 200
"""Where a house's discard line starts: under its court."""


DRAWN = frozenset(
    [
        "viewer",
        "phase",
        "to_move",
        "round",
        "alive",
        "out_round",
        "courts",
        "discards",
        "centre",
        "hand_sizes",
        "hand",
        "inheritance",
        "committed",
        "table",
        "played",
    ]
)
"""The observation's fields this picture shows."""
LEFT_OUT = frozenset(["recovering", "hits", "scored", "dealt"])
"""Fields it leaves out on purpose: the queue of a round's resolution, which the prompt and
the log tell step by step, and who holds an inheritance card, which changes only during the
deal before round 1 (the log tells each deal)."""


def _label(kind: int) -> str:
    """The words the actions use for a card (``Seer``, ``house 2``, ``Royal 1``)."""
    if NOMINATION <= kind < ROYAL:
        return f"house {kind - NOMINATION}"
    return card_name(kind)


def _card(c: Canvas, x: float, y: float, kind: int) -> None:
    """One face-up card: Royalty gold, a nomination in its house's colour, else parchment."""
    if kind >= ROYAL:
        fill, ink = "#e6b800", "#222"
    elif kind >= NOMINATION:
        fill, ink = player_colour(kind - NOMINATION), "#fff"
    else:
        fill, ink = "#f3e5c0", "#222"
    c.open_group(data_card=str(kind), data_label=_label(kind))
    c.rect(x, y, CARD_W, CARD_H, rx=4, fill=fill, stroke="#333")
    label = played_name(kind).replace("nominates house ", "nominate ")
    c.text(x + CARD_W / 2, y + 19, label, 10, text_anchor="middle", fill=ink)
    c.close_group()


def _back(c: Canvas, x: float, y: float) -> None:
    c.rect(x, y, CARD_W, CARD_H, rx=4, fill="#3b3b6d", stroke="#222")
    c.text(x + CARD_W / 2, y + 19, "face down", 10, text_anchor="middle", fill="#ccd")


def draw(obs: KoaObservation, game: KoaGame) -> str:
    """The picture of ``obs``: the header, one row per house, the viewer's hand last."""
    houses = game.houses
    width = 860
    height = 70 + houses * ROW_H + 40 + (90 if obs.viewer >= 0 else 0)
    who = "public view" if obs.viewer < 0 else f"as house {obs.viewer} sees it"
    c = Canvas(width, height, f"{game.info.title}: {who}")
    c.heading(f"{game.info.title} - round {obs.round} - {phase_words(obs.phase)}", who)
    # The centre pile holds Royalty only: one card per kind, with how many lie there.
    centre: dict[int, int] = {}
    for h in range(houses):
        for kind in bits_of(obs.centre[h]):
            centre[kind] = centre.get(kind, 0) + 1
    c.text(16, 50, "Centre pile:", 12)
    for i, (kind, count) in enumerate(sorted(centre.items())):
        x = 100 + i * (CARD_W + 34)
        _card(c, x, 34, kind)
        c.text(x + CARD_W + 4, 54, f"x{count}", 12)
    sealed = obs.phase in ("seal", "commit")
    for h in range(houses):
        y = 80 + h * ROW_H
        alive = bool(obs.alive >> h & 1)
        c.rect(
            10,
            y - 4,
            width - 20,
            ROW_H - 6,
            rx=6,
            fill="#fff" if alive else "#e4e4e4",
            stroke=player_colour(h),
            stroke_width=2 if h in obs.to_move else 1,
        )
        name = f"house {h}" + (" (automated)" if game.is_automated(h) else "")
        if h == obs.viewer:
            name += " - you"
        c.circle(24, y + 12, 7, fill=player_colour(h))
        c.text(36, y + 16, name, 12, font_weight="bold")
        status = []
        if not alive:
            status.append(f"out in round {obs.out_round[h]}")
        if obs.inheritance[h]:
            status.append(f"inheritance {obs.inheritance[h]}")
        status.append(f"{obs.hand_sizes[h]} in hand")
        c.text(36, y + 34, ", ".join(status), 10)
        # Every card of the court, the nominations kept for eliminating a house included
        # (they score); a long court overlaps its cards to stay left of the table column.
        court = list(bits_of(obs.courts[h]))
        step = min(CARD_W + 4.0, (COURT_W - CARD_W) / max(len(court) - 1, 1))
        c.text(200, y + 10, "court", 9, fill="#555")
        for i, kind in enumerate(court):
            _card(c, 200 + i * step, y + 14, kind)
        # The discard pile is public: its cards by name, in the text picture's words, on a
        # line of its own under the court and the table, where nothing else is drawn. A
        # pile holds at most one of each of the seven characters, and all seven fit the
        # line with room to spare, so no name is ever cut or abbreviated.
        c.text(DISCARDS_X, y + 58, f"discards: {pile_text(obs.discards[h])}", 10, fill="#333")
        c.text(640, y + 10, "table", 9, fill="#555")
        card = obs.table[h]
        if sealed and obs.committed[h] and card < 0:
            _back(c, 640, y + 14)
        elif card >= 0:
            _card(c, 640, y + 14, card)
        elif not sealed and obs.played[h] >= 0:
            _card(c, 640, y + 14, obs.played[h])
            c.text(640 + CARD_W + 6, y + 33, "played", 9, fill="#555")
    if obs.viewer >= 0:
        y = 80 + houses * ROW_H + 10
        c.text(16, y + 10, "Your hand", 13, font_weight="bold")
        hand = [k for k in bits_of(obs.hand & (CHARACTERS | NOMINATIONS))]
        for i, kind in enumerate(hand):
            _card(c, 16 + i * (CARD_W + 4), y + 20, kind)
    return c.svg()
