"""King's Kilt as SVG: the pyramid in clan colours, the draw pile and each seat's holdings,
drawn from one observation (the viewer's own family and hand appear only in their view)."""

from __future__ import annotations

from clangames.kings_kilt.game import KingsKiltGame
from clangames.kings_kilt.observation import KingsKiltObservation
from clangames.kings_kilt.phases import phase_words
from clangames.rendering.svg.canvas import CLAN_COLOURS, Canvas, player_colour

CARD_W = 84
CARD_H = 34
GAP = 6


DRAWN = frozenset(
    [
        "viewer",
        "phase",
        "to_move",
        "pyramid",
        "top",
        "pile_size",
        "leaders_in_pile",
        "discards",
        "removed",
        "family_sizes",
        "revealed",
        "hand_sizes",
        "family",
        "hand",
        "passed",
        "crowned",
        "nobles_triggered",
        "guardians_triggered",
        "vacancy",
        "turns",
    ]
)
"""The observation's fields this picture shows."""
LEFT_OUT = frozenset(
    ["actor", "reshuffled_in_pile", "family_from_deck", "reveal_queue", "family_deck_size", "dealt"]
)
"""Fields it leaves out on purpose: bookkeeping of the deal and of whose step it is, which the
prompt and the log already tell (the conformance check wants every field in one of the two)."""


def clan_colour(clan: int) -> str:
    """The fill of a clan's cards."""
    return CLAN_COLOURS[clan % len(CLAN_COLOURS)]


def _counts(names: tuple[str, ...], counts: tuple[int, ...]) -> str:
    parts = [n if c == 1 else f"{n} x{c}" for n, c in zip(names, counts, strict=False) if c]
    return ", ".join(parts) or "none"


def draw(obs: KingsKiltObservation, game: KingsKiltGame) -> str:
    """The picture of ``obs``: pyramid spaces are groups with ``data-space`` (the space's
    label) so a page can make them clickable."""
    geo = game.geo
    names = game.clans
    width = max(geo.width * (CARD_W + GAP) + 40, 640)
    pyramid_h = geo.width * (CARD_H + GAP)
    seats = game.num_players
    height = 60 + pyramid_h + 110 + seats * 22 + 70
    c = Canvas(width, height, f"{game.info.title}: {_viewer(obs.viewer)}")
    c.heading(
        f"{game.info.title} - {phase_words(obs.phase)}, turn {obs.turns}", _viewer(obs.viewer)
    )
    top = 44
    for row in range(geo.width, 0, -1):
        positions = geo.row_positions(row)
        y = top + (geo.width - row) * (CARD_H + GAP)
        x0 = (width - len(positions) * (CARD_W + GAP)) / 2
        for i, pos in enumerate(positions):
            x = x0 + i * (CARD_W + GAP)
            clan = obs.pyramid[pos]
            label = geo.label(pos)
            c.open_group(data_space=label, data_label=label)
            if clan >= 0:
                c.rect(x, y, CARD_W, CARD_H, rx=4, fill=clan_colour(clan), stroke="#333")
                c.text(x + CARD_W / 2, y + 21, names[clan], 12, text_anchor="middle", fill="#fff")
            else:
                dash = "#d00" if pos == obs.vacancy else "#999"
                c.rect(x, y, CARD_W, CARD_H, rx=4, fill="none", stroke=dash, stroke_dasharray="4")
            c.text(x + 3, y + 10, label, 8, fill="#222" if clan < 0 else "#eee")
            c.close_group()
    y = top + pyramid_h + 16
    c.rect(16, y, 52, 70, rx=5, fill="#5d4037", stroke="#222")
    c.text(42, y + 40, str(obs.pile_size), 16, text_anchor="middle", fill="#fff")
    c.text(42, y + 84, "draw pile", 10, text_anchor="middle")
    if obs.top >= 0:
        c.rect(76, y, CARD_W, CARD_H, rx=4, fill=clan_colour(obs.top), stroke="#333")
        c.text(76 + CARD_W / 2, y + 21, names[obs.top], 12, text_anchor="middle", fill="#fff")
        c.text(76 + CARD_W / 2, y + 48, "top card", 10, text_anchor="middle")
    info_x = 76 + CARD_W + 16
    c.text(info_x, y + 12, f"Clan Leaders in the pile: {_counts(names, obs.leaders_in_pile)}", 11)
    c.text(info_x, y + 30, f"Discarded Influence: {_counts(names, obs.discards)}", 11)
    c.text(info_x, y + 48, f"Betrayed: {_counts(names, obs.removed)}", 11)
    flags = [
        text
        for flag, text in (
            (obs.crowned, "a King is crowned"),
            (obs.nobles_triggered, "Noblemen row complete"),
            (obs.guardians_triggered, "Guardians row complete"),
        )
        if flag
    ]
    c.text(info_x, y + 66, "; ".join(flags), 11, font_style="italic")
    y += 100
    c.text(16, y, "seat", 11, font_weight="bold")
    c.text(90, y, "family", 11, font_weight="bold")
    c.text(150, y, "face up", 11, font_weight="bold")
    c.text(380, y, "Influence", 11, font_weight="bold")
    for seat in range(seats):
        y += 22
        marks = []
        if obs.passed >> seat & 1:
            marks.append("passed")
        if seat in obs.to_move:
            marks.append("to move")
        if seat == obs.viewer:
            marks.append("you")
        c.circle(22, y - 4, 6, fill=player_colour(seat))
        c.text(32, y, f"player {seat}", 11)
        c.text(90, y, str(obs.family_sizes[seat]), 11)
        face_up = ", ".join(names[k] for k in game.bits[obs.revealed[seat]]) or "-"
        c.text(150, y, face_up, 11)
        c.text(380, y, str(obs.hand_sizes[seat]), 11)
        c.text(450, y, ", ".join(marks), 11, font_style="italic")
    if obs.viewer >= 0:
        y += 30
        family = ", ".join(names[k] for k in game.bits[obs.family]) or "none"
        c.text(16, y, f"Your family: {family}", 12, font_weight="bold")
        c.text(16, y + 20, f"Your Influence: {_counts(names, obs.hand)}", 12, font_weight="bold")
    return c.svg()


def _viewer(viewer: int) -> str:
    return "public view" if viewer < 0 else f"as player {viewer} sees it"
