"""Each game's SVG picture shows every public part of the table and the viewer's own
secrets, exactly as the observation holds them: across seeded games, for every seat and the
public view, the picture's texts, its clickable groups (``data-space``, ``data-position``,
``data-territory``, ``data-card``) and its markers (the seats to move, the vacancy, roofs,
the England marker) are compared with what the observation says."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import clangames
from clangames.clan_feud.phases import phase_words as cf_words
from clangames.engine.bits import bits_of
from clangames.engine.state import State
from clangames.kilt_castle.board import CREST_KINDS, letter_floor
from clangames.kilt_castle.phases import phase_words as kc_words
from clangames.kings_kilt.phases import phase_words as kk_words
from clangames.koa_kingmaker.cards import CHARACTERS, NOMINATION, NOMINATIONS, ROYAL, card_name
from clangames.koa_kingmaker.phases import phase_words as koa_words
from clangames.rendering.svg import picture, state_picture
from clangames.rendering.svg.canvas import player_colour
from rendering.test_rendering_mutation_text_pictures_show_what_the_seat_needs import (
    _kings_kilt_corners,
)
from test_svg import SVG, parse, sample_states

SEEDS = (1, 5)


def _views(name: str, players: int) -> list[tuple[State, Any, ET.Element]]:
    """(state, observation, parsed picture) for every viewer of sampled states."""
    out = []
    for seed in SEEDS:
        for state in sample_states(name, players, seed, 5):
            for seat in (None, *range(players)):
                obs = state.public_observation() if seat is None else state.observation(seat)
                out.append((state, obs, parse(state_picture(state, seat))))
    return out


def _texts(node: ET.Element) -> list[str]:
    return [t.text or "" for t in node.iter(SVG + "text")]


def _groups(root: ET.Element, key: str) -> dict[str, ET.Element]:
    return {g.attrib[key]: g for g in root.iter(SVG + "g") if key in g.attrib}


def _counts(names: tuple[str, ...], counts: tuple[int, ...]) -> str:
    """Per-clan counts as the pictures word them: ``"Bruce x2, Douglas"``, else ``none``."""
    parts = [n if c == 1 else f"{n} x{c}" for n, c in zip(names, counts, strict=False) if c]
    return ", ".join(parts) or "none"


def _after(texts: list[str], first: str, count: int) -> list[str]:
    """The ``count`` texts drawn right after the text ``first``."""
    i = texts.index(first)
    return texts[i + 1 : i + 1 + count]


def _viewer(obs: Any, seat_word: str = "player") -> str:
    return "public view" if obs.viewer < 0 else f"as {seat_word} {obs.viewer} sees it"


@pytest.mark.parametrize("players", [2, 4])
def test_kings_kilt_picture_shows_the_table_and_only_the_viewers_cards(players: int) -> None:
    corners = [
        (state, obs, parse(state_picture(state, obs.viewer if obs.viewer >= 0 else None)))
        for state, seat in _kings_kilt_corners(players)
        for obs in [state.public_observation() if seat is None else state.observation(seat)]
    ]
    for state, obs, root in _views("kings_kilt", players) + corners:
        game: Any = state.game
        names = game.clans
        texts = _texts(root)
        assert texts[:2] == [f"King's Kilt - {kk_words(obs.phase)}, turn {obs.turns}", _viewer(obs)]
        assert root.find(SVG + "title").text == f"King's Kilt: {_viewer(obs)}"  # type: ignore[union-attr]
        spaces = _groups(root, "data-space")
        assert sorted(spaces) == sorted(game.geo.label(p) for p in range(game.geo.size))
        for pos in range(game.geo.size):
            group = spaces[game.geo.label(pos)]
            assert group.attrib["data-label"] == game.geo.label(pos)
            rect = group.find(SVG + "rect")
            assert rect is not None
            clan = obs.pyramid[pos]
            if clan >= 0:
                assert _texts(group) == [names[clan], game.geo.label(pos)]
            else:
                assert rect.attrib["fill"] == "none"
                assert rect.attrib["stroke"] == ("#d00" if pos == obs.vacancy else "#999")
        assert _after(texts, str(obs.pile_size), 1) == ["draw pile"]
        if obs.top >= 0:
            assert _after(texts, "draw pile", 2) == [names[obs.top], "top card"]
        else:
            assert "top card" not in texts
        flags = [
            text
            for on, text in (
                (obs.crowned, "a King is crowned"),
                (obs.nobles_triggered, "Noblemen row complete"),
                (obs.guardians_triggered, "Guardians row complete"),
            )
            if on
        ]
        assert _after(
            texts, f"Clan Leaders in the pile: {_counts(names, obs.leaders_in_pile)}", 3
        ) == [
            f"Discarded Influence: {_counts(names, obs.discards)}",
            f"Betrayed: {_counts(names, obs.removed)}",
            "; ".join(flags),
        ]
        for seat in range(players):
            marks = [
                m
                for m, on in (
                    ("passed", obs.passed >> seat & 1),
                    ("to move", seat in obs.to_move),
                    ("you", seat == obs.viewer),
                )
                if on
            ]
            face_up = ", ".join(names[c] for c in game.bits[obs.revealed[seat]]) or "-"
            assert _after(texts, f"player {seat}", 4) == [
                str(obs.family_sizes[seat]),
                face_up,
                str(obs.hand_sizes[seat]),
                ", ".join(marks),
            ]
        family = ", ".join(names[c] for c in game.bits[obs.family]) or "none"
        secrets = [f"Your family: {family}", f"Your Influence: {_counts(names, obs.hand)}"]
        if obs.viewer >= 0:
            assert texts[-2:] == secrets
        else:
            assert not any(t.startswith("Your") for t in texts)


@pytest.mark.parametrize("players", [2, 4])
def test_kilt_castle_picture_shows_towers_cards_money_and_supply(players: int) -> None:
    for state, obs, root in _views("kilt_castle", players):
        game: Any = state.game
        board = game.board
        texts = _texts(root)
        assert texts[:2] == [f"Kilt Castle - {kc_words(obs.phase)}", _viewer(obs)]
        spaces = _groups(root, "data-space")
        assert len(spaces) == board.rows * board.cols
        for space in range(board.rows * board.cols):
            group = spaces[board.label(space)]
            assert group.attrib["data-label"] == board.label(space)
            rects = group.findall(SVG + "rect")
            if space in board.water:
                assert [r.attrib["fill"] for r in rects] == ["#7fb3d5"]
                continue
            tower = obs.towers[space]
            floors = [divmod(letter_floor(letter), CREST_KINDS) for letter in tower]
            assert [r.attrib["fill"] for r in rects[1:]] == [
                _kc_fill(board.colours[c]) for c, _ in floors
            ]
            assert len(group.findall(SVG + "circle")) == sum(k for _, k in floors)
            roofs = group.findall(SVG + "polygon")
            assert len(roofs) == (obs.roofed >> space & 1)
        positions = _groups(root, "data-position")
        assert sorted(positions, key=int) == [str(p) for p in range(len(board.positions))]
        moving = obs.phase in ("build", "roof")
        for position, group in positions.items():
            slots = [s for s, p in enumerate(obs.positions) if p == int(position)]
            side = board.positions[int(position)][0]
            assert _texts(group) == [f"{position} {side[0].upper()}"] + [
                game.card_names[s] for s in slots
            ]
            rects = group.findall(SVG + "rect")[1:]
            for k, slot in enumerate(slots):
                inner, outer = rects[2 * k], rects[2 * k + 1]
                colours = board.cards[game.cards[slot]]
                other = next((c for c in colours if c != obs.inner[slot]), obs.inner[slot])
                assert inner.attrib["fill"] == _kc_fill(board.colours[obs.inner[slot]])
                assert outer.attrib["fill"] == _kc_fill(board.colours[other])
                moved = moving and slot == obs.card
                assert inner.attrib["stroke-width"] == ("3" if moved else "1")
        ending = "; the last round" if obs.ending else ""
        line = (
            f"Roofs unused: {obs.roofs_unused} of {board.roofs}; bank paid out"
            f" {obs.from_bank} ducats; turn {obs.turns}{ending}"
        )
        seat_lines = []
        for seat, colours in enumerate(game.seat_colours):
            mark = (" (you)" if seat == obs.viewer else "") + (
                " - to move" if seat in obs.to_move else ""
            )
            seat_lines.append(f"player {seat}{mark}: {obs.money[seat]} ducats")
            for c in colours:
                left = obs.supply[c * CREST_KINDS : (c + 1) * CREST_KINDS]
                seat_lines.append(f"{board.colours[c]}: left {'/'.join(map(str, left))}")
        assert _after(texts, line, len(seat_lines)) == seat_lines
        assert texts[-1] == seat_lines[-1]


def _kc_fill(colour: str) -> str:
    """The bundled board's colours as the picture fills them."""
    return {"red": "#c0392b", "orange": "#e67e22", "light grey": "#dcdcdc", "dark grey": "#6d6d6d"}[
        colour
    ]


@pytest.mark.parametrize("players", [3, 5])
def test_koa_picture_shows_every_house_and_the_viewers_hand(players: int) -> None:
    for state, obs, root in _views("koa_kingmaker", players):
        game: Any = state.game
        texts = _texts(root)
        assert texts[:2] == [
            f"KOA Kingmaker - round {obs.round} - {koa_words(obs.phase)}",
            _viewer(obs, "house"),
        ]
        sealed = obs.phase in ("seal", "commit")
        centre: dict[int, int] = {}
        for h in range(game.houses):
            for kind in bits_of(obs.centre[h]):
                centre[kind] = centre.get(kind, 0) + 1
        expected = sorted(centre)
        backs = 0
        for h in range(game.houses):
            expected += list(bits_of(obs.courts[h]))
            card = obs.table[h]
            if sealed and obs.committed[h] and card < 0:
                backs += 1
            elif card >= 0:
                expected.append(card)
            elif not sealed and obs.played[h] >= 0:
                expected.append(obs.played[h])
            name = f"house {h}" + (" (automated)" if game.is_automated(h) else "")
            name += " - you" if h == obs.viewer else ""
            status = [f"out in round {obs.out_round[h]}"] if not obs.alive >> h & 1 else []
            status += [f"inheritance {obs.inheritance[h]}"] if obs.inheritance[h] else []
            status.append(f"{obs.hand_sizes[h]} in hand")
            assert _after(texts, name, 1) == [", ".join(status)]
            pile = ", ".join(card_name(k) for k in bits_of(obs.discards[h])) or "none"
            assert f"discards: {pile}" in texts
        if obs.viewer >= 0:
            expected += list(bits_of(obs.hand & (CHARACTERS | NOMINATIONS)))
            assert "Your hand" in texts
        else:
            assert "Your hand" not in texts
        cards = [g for g in root.iter(SVG + "g") if "data-card" in g.attrib]
        assert [int(g.attrib["data-card"]) for g in cards] == expected
        for g in cards:  # the words the actions use: "Seer", "house 2"
            kind = int(g.attrib["data-card"])
            nominated = NOMINATION <= kind < ROYAL
            word = f"house {kind - NOMINATION}" if nominated else card_name(kind)
            assert g.attrib["data-label"] == word
        assert texts.count("face down") == backs
        for count in centre.values():
            assert f"x{count}" in texts
        rows = [r for r in root.iter(SVG + "rect") if r.attrib.get("rx") == "6"]
        assert [r.attrib["stroke-width"] for r in rows] == [
            "2" if h in obs.to_move else "1" for h in range(game.houses)
        ]


@pytest.mark.parametrize("players", [2, 4])
def test_clan_feud_picture_shows_the_map_the_track_and_each_clan(players: int) -> None:
    for state, obs, root in _views("clan_feud", players):
        game: Any = state.game
        board = game.board
        texts = _texts(root)
        order = " ".join(str(p) for p in obs.order)
        assert texts[:2] == [
            f"Clan Feud - turn {obs.turn} - {cf_words(obs.phase)}"
            f" - order {order} - deck {obs.deck_size}",
            _viewer(obs),
        ]
        lanes = [line for line in root.iter(SVG + "line") if line.attrib.get("stroke-dasharray")]
        assert len(lanes) == len(board.sea_lanes)
        territories = _groups(root, "data-territory")
        assert len(territories) == len(board.territories)
        english = {army.territory: army for army in obs.english}
        for t, terr in enumerate(board.territories):
            group = territories[terr.id]
            assert group.attrib["data-label"] == terr.name
            owner = obs.controller[t]
            node = group.find(SVG + "circle")
            assert node is not None
            assert node.attrib["fill"] == (player_colour(owner) if owner >= 0 else "#f4f1e8")
            rects = group.findall(SVG + "rect")
            assert len(rects) == (1 if obs.site[t] else 0) + obs.towers[t]
            armies = [
                " ".join(
                    f"{n}{'ica'[k]}" for k, n in enumerate(obs.troops[p][3 * t : 3 * t + 3]) if n
                )
                for p in range(players)
                if any(obs.troops[p][3 * t : 3 * t + 3])
            ]
            if t in english:
                army = english[t]
                troops = " ".join(f"{n}{'ica'[k]}" for k, n in enumerate(army.troops) if n)
                armies.append(f"England {troops} ({' '.join(f'L{k}' for k in army.tokens)})")
            site = [("city", "castle")[obs.site[t] - 1][:2]] if obs.site[t] else []
            assert _texts(group) == [*site, terr.name, *armies]
            assert len(group.findall(SVG + "polygon")) == (obs.king == t)
        track = game.england
        at_war = "England - at war" if track.at_war(obs.england) else "England"
        assert at_war in texts and ("England - at war" in texts) == track.at_war(obs.england)
        step_w = min(34.0, (760 - 40) / (track.last_step + 1))
        (marker,) = [c for c in root.iter(SVG + "circle") if c.attrib.get("fill") == "#1a237e"]
        assert float(marker.attrib["cx"]) == pytest.approx(
            20 + obs.england * step_w + step_w / 2 - 1
        )
        for p in range(players):
            mark = " (you)" if p == obs.viewer else ""
            passed = ", passed" if obs.passed >> p & 1 else ""
            assert _after(texts, f"clan {p}{mark}", 3) == [
                f"VP {obs.vp[p]}  money {obs.money[p]}  feud {obs.feud[p]}",
                f"cards in hand {obs.hand_sizes[p]}{passed}",
                f"dice: {_dice(obs.pool[p])}",
            ]
        boxes = [r for r in root.iter(SVG + "rect") if r.attrib.get("rx") == "6"]
        assert [r.attrib["stroke-width"] for r in boxes] == [
            "3" if p in obs.to_move else "1" for p in range(players)
        ]
        assert any(t.startswith("Your cards: ") for t in texts) == (obs.viewer >= 0)
        battle = [t for t in texts if t.startswith("Battle at ")]
        if obs.battle is None:
            assert battle == []
        else:
            where = board.territories[obs.battle.territory].name
            assert len(battle) == 1 and battle[0].startswith(f"Battle at {where}: ")


def _dice(pool: tuple[int, ...]) -> str:
    """Unassigned dice as the pictures word them: ``white 1 x2, black 2``."""
    colours = ("white", "black", "red")
    parts = []
    for i, n in enumerate(pool):
        if n:
            parts.append(f"{colours[i // 3]} {i % 3 + 1}" + (f" x{n}" if n > 1 else ""))
    return ", ".join(parts) or "none"


def test_the_analyst_picture_nests_every_seats_own_view_side_by_side() -> None:
    state = sample_states("kings_kilt", 3, 4, 3)[1]
    root = parse(state_picture(state, everything=True))
    views = [parse(state_picture(state, p)) for p in range(3)]
    widths = [float(v.attrib["width"]) for v in views]
    assert float(root.attrib["width"]) == sum(widths) + 10 * 3
    assert float(root.attrib["height"]) == max(float(v.attrib["height"]) for v in views)
    nested = root.findall(SVG + "g")
    assert [g.attrib["transform"] for g in nested] == [
        f"translate({sum(widths[:k]) + 10 * k:g},0)" for k in range(3)
    ]
    for p, g in enumerate(nested):
        (inner,) = list(g)
        assert ET.tostring(inner) == ET.tostring(views[p])


def test_jupyter_shows_a_state_as_the_seat_asked_for() -> None:
    for name, players in (("kings_kilt", 3), ("koa_kingmaker", 3)):
        state = sample_states(name, players, 2, 2)[0]
        for seat in range(players):
            assert state.svg(seat) == state_picture(state, seat)
            assert state.svg(seat) == picture(state.observation(seat), state.game)
        assert state.observation(1)._repr_svg_() == picture(state.observation(1))


def test_a_koa_observation_alone_names_its_game_for_each_player_count() -> None:
    # the number of players is read from the observation: a house with its nominations
    # is a player, an automated household has none
    for players in (2, 3, 4, 5):
        game = clangames.load("koa_kingmaker", players=players)
        for state in sample_states("koa_kingmaker", players, 3, 4):
            for seat in (None, 0):
                obs = state.public_observation() if seat is None else state.observation(seat)
                assert picture(obs) == picture(obs, game), (players, state.phase)
