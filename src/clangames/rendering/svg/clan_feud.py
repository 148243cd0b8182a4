"""Clan Feud as SVG: the territories as a map graph (land borders solid, sea lanes dashed)
with each territory's controller, city or castle, tower houses and armies, King James, the
England track and each clan's money, feud tokens, VP and hand size, drawn from one
observation (another seat's hand is only its size).

The map file has no coordinates, so the territories are placed by a small deterministic
spring layout of the map graph, computed once per board. Everything the observation shows
about the table is drawn by :func:`draw` alone, so a new observation field (English armies,
action cards) is added in one place.
"""

from __future__ import annotations

import math

from clangames.clan_feud.board import Board
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.observation import ClanFeudObservation
from clangames.clan_feud.phases import phase_words
from clangames.rendering.clan_feud import dice_text
from clangames.rendering.svg.canvas import Canvas, player_colour

MAP_W = 760
MAP_H = 620
NODE_R = 20
SITE_NAMES = ("", "city", "castle")

DRAWN = frozenset(
    [
        "viewer",
        "phase",
        "to_move",
        "turn",
        "order",
        "england",
        "deck_size",
        "controller",
        "site",
        "towers",
        "troops",
        "king",
        "money",
        "feud",
        "vp",
        "pool",
        "hand",
        "hand_sizes",
        "passed",
        "battle",
        "english",
    ]
)
"""The observation's fields this picture shows (a field added to the observation must be
drawn in :func:`draw` or listed in LEFT_OUT; the conformance harness checks)."""
LEFT_OUT = frozenset(
    [
        "track_start",
        "events",
        "discards",
        "moved",
        "regent",
        "gold_out",
        "covered",
        "filled",
        "city_dice",
        "tasks",
        "mods",
        "upkeep_cut",
        "known",
        "at_war",
    ]
)
"""Fields it leaves out on purpose: clan boards' slots, the event deck's history and the
turn's bookkeeping (an action card's pending modifiers and upkeep cuts included), which
the text screen and the prompt tell; what a stolen card tells its viewer is a secret, on
the text screen's hidden lines. ``at_war`` records the last phase 3's judgement, which a
card or a defeat lowering the track to 10 or less makes stale: the picture, like the text
screen, says whether England is at war from the track itself."""

_layouts: dict[int, tuple[Board, tuple[tuple[float, float], ...]]] = {}


def layout(board: Board) -> tuple[tuple[float, float], ...]:
    """Each territory's centre on the map: a spring layout (Fruchterman-Reingold) from
    positions on a circle in the board file's order, with a fixed number of steps, so the
    same board always draws the same map."""
    known = _layouts.get(id(board))
    if known is not None and known[0] is board:
        return known[1]
    n = len(board.territories)
    pos = [[math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)] for i in range(n)]
    edges = list(board.land_edges) + [(lane.a, lane.b) for lane in board.sea_lanes]
    k = math.sqrt(4.0 / max(n, 1))
    heat = 0.2
    for _ in range(150):
        disp = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
                d2 = dx * dx + dy * dy or 1e-9
                f = k * k / d2
                disp[i][0] += dx * f
                disp[i][1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for a, b in edges:
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = math.hypot(dx, dy) or 1e-9
            f = d / k
            disp[a][0] -= dx * f
            disp[a][1] -= dy * f
            disp[b][0] += dx * f
            disp[b][1] += dy * f
        for i in range(n):
            d = math.hypot(*disp[i]) or 1e-9
            step = min(d, heat)
            pos[i][0] += disp[i][0] / d * step
            pos[i][1] += disp[i][1] / d * step
        heat *= 0.97
    xs = [p[0] for p in pos]
    ys = [p[1] for p in pos]
    sx = (MAP_W - 4 * NODE_R) / ((max(xs) - min(xs)) or 1)
    sy = (MAP_H - 4 * NODE_R) / ((max(ys) - min(ys)) or 1)
    placed = tuple(
        (2 * NODE_R + (x - min(xs)) * sx, 2 * NODE_R + (y - min(ys)) * sy)
        for x, y in zip(xs, ys, strict=True)
    )
    _layouts[id(board)] = (board, placed)
    return placed


def draw(obs: ClanFeudObservation, game: ClanFeudGame) -> str:
    """The picture of ``obs``: territories carry ``data-territory`` (the territory's id) so
    a page can make them clickable."""
    board = game.board
    track = game.england
    players = len(obs.money)
    width = MAP_W + 300
    height = max(MAP_H + 110, 140 + players * 70)
    who = "public view" if obs.viewer < 0 else f"as player {obs.viewer} sees it"
    c = Canvas(width, height, f"{game.info.title}: {who}")
    order = " ".join(str(p) for p in obs.order)
    c.heading(
        f"{game.info.title} - turn {obs.turn} - {phase_words(obs.phase)}"
        f" - order {order} - deck {obs.deck_size}",
        who,
    )
    oy = 40
    xy = [(x, y + oy) for x, y in layout(board)]
    english_at = {army.territory: army for army in obs.english}
    for a, b in board.land_edges:
        c.line(*xy[a], *xy[b], stroke="#8d6e63", stroke_width=2)
    for lane in board.sea_lanes:
        c.line(*xy[lane.a], *xy[lane.b], stroke="#2e86c1", stroke_width=2, stroke_dasharray="6 4")
    for t, terr in enumerate(board.territories):
        x, y = xy[t]
        owner = obs.controller[t]
        c.open_group(data_territory=terr.id, data_label=terr.name)
        c.circle(
            x,
            y,
            NODE_R,
            fill=player_colour(owner) if owner >= 0 else "#f4f1e8",
            stroke="#555" if not terr.mountain else "#000",
            stroke_width=3 if terr.mountain else 1,
        )
        if obs.site[t]:
            c.rect(x - 7, y - 7, 14, 14, fill="#fff", stroke="#000")
            c.text(x, y + 4, SITE_NAMES[obs.site[t]][:2], 8, text_anchor="middle")
        for k in range(obs.towers[t]):
            c.rect(x + NODE_R - 4 + 6 * k, y - NODE_R, 5, 9, fill="#444")
        c.text(x, y + NODE_R + 10, terr.name, 9, text_anchor="middle")
        armies = []
        for p in range(players):
            counts = obs.troops[p][3 * t : 3 * t + 3]
            if any(counts):
                armies.append((p, " ".join(f"{n}{'ica'[i]}" for i, n in enumerate(counts) if n)))
        english = english_at.get(t)
        if english is not None:
            # England's army in red on white, with its level tokens (L1 L2 ...)
            troops = " ".join(f"{n}{'ica'[i]}" for i, n in enumerate(english.troops) if n)
            tokens = " ".join(f"L{k}" for k in english.tokens)
            armies.append((-1, f"England {troops} ({tokens})"))
        for i, (p, text) in enumerate(armies):
            c.text(
                x,
                y - NODE_R - 4 - 10 * i,
                text,
                9,
                text_anchor="middle",
                fill=player_colour(p) if p >= 0 else "#b71c1c",
                font_weight="bold",
            )
        if obs.king == t:
            c.polygon(
                [
                    (x - 9, y + 2),
                    (x - 9, y - 8),
                    (x - 4, y - 3),
                    (x, y - 10),
                    (x + 4, y - 3),
                    (x + 9, y - 8),
                    (x + 9, y + 2),
                ],
                fill="#f1c40f",
                stroke="#7d6608",
            )
        c.close_group()
    # The England track.
    tx, ty = 20, oy + MAP_H + 20
    step_w = min(34.0, (MAP_W - 40) / (track.last_step + 1))
    c.text(
        tx,
        ty - 4,
        "England" + (" - at war" if track.at_war(obs.england) else ""),
        12,
        font_weight="bold",
    )
    for step in range(track.last_step + 1):
        fill = "#c0392b" if step >= track.war_from else "#f5cba7"
        c.rect(tx + step * step_w, ty, step_w - 2, 20, fill=fill, stroke="#555")
        c.text(tx + step * step_w + step_w / 2 - 1, ty + 14, str(step), 9, text_anchor="middle")
    c.circle(tx + obs.england * step_w + step_w / 2 - 1, ty + 30, 6, fill="#1a237e")
    # The clans.
    px = MAP_W + 20
    for p in range(players):
        y = 60 + p * 70
        c.rect(
            px,
            y,
            270,
            62,
            rx=6,
            fill="#fff",
            stroke=player_colour(p),
            stroke_width=3 if p in obs.to_move else 1,
        )
        mark = " (you)" if p == obs.viewer else ""
        c.text(px + 8, y + 16, f"clan {p}{mark}", 12, font_weight="bold", fill=player_colour(p))
        c.text(px + 8, y + 34, f"VP {obs.vp[p]}  money {obs.money[p]}  feud {obs.feud[p]}", 11)
        passed = ", passed" if obs.passed >> p & 1 else ""
        c.text(px + 8, y + 52, f"cards in hand {obs.hand_sizes[p]}{passed}", 11)
        c.text(px + 130, y + 52, f"dice: {dice_text(obs.pool[p])}", 10)
    if obs.viewer >= 0:
        y = 60 + players * 70 + 10
        designs = game.deck.designs
        held = [
            f"{designs[d].name}" + (f" x{n}" if n > 1 else "") for d, n in enumerate(obs.hand) if n
        ]
        c.text(px, y, "Your cards: " + (", ".join(held) or "none"), 11, font_weight="bold")
    if obs.battle is not None:
        fight = obs.battle
        where = board.territories[fight.territory].name
        c.text(
            px,
            height - 20,
            f"Battle at {where}: {_side(fight.owners[0])} attacks {_side(fight.owners[1])}",
            11,
            font_weight="bold",
        )
    return c.svg()


def _side(owner: int) -> str:
    """A side of a battle: ``clan 2``, or England (whose armies have no seat)."""
    return "England" if owner < 0 else f"clan {owner}"
