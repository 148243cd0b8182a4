"""The terminal pictures show every public part of the table and the viewer's own secrets,
exactly as the observation holds them: across seeded games, for every seat and the public
view, the lines of the full board and of the compact summary are compared with what the
observation says (counts of cards, sizes of hands and piles, who is to move, who passed,
which seat is "you", the flags of the game's progress)."""

from __future__ import annotations

import itertools
import re
from typing import Any

import attrs
import pytest

from clangames.clan_feud.playing import card_text, combat_text
from clangames.engine.phases import CHANCE
from clangames.engine.state import State
from clangames.kilt_castle.board import CREST_KINDS, letter_floor
from clangames.rendering.clan_feud import phase_words
from clangames.rendering.plain import text_of
from clangames.rendering.text import renderer_for, seat_view
from rendering.test_screens import _game
from test_svg import sample_states

WIDTH = 300
"""Wide enough that no line of a picture wraps."""


def _views(name: str, players: int, seeds: tuple[int, ...] = (1, 5)) -> list[tuple[State, Any]]:
    """(state, observation) for every viewer (None: the public) of sampled states."""
    out: list[tuple[State, Any]] = []
    for seed in seeds:
        for state in sample_states(name, players, seed, 6):
            for seat in (None, *range(players)):
                out.append((state, seat))
    return out


def _drawn(state: State, seat: int | None, compact: bool = False) -> list[str]:
    renderer = renderer_for(state.game)
    return text_of(seat_view(renderer, state, seat, compact), WIDTH).splitlines()


def _counts(names: tuple[str, ...], counts: tuple[int, ...]) -> str:
    """Per-clan counts as the pictures word them: ``"Bruce x2, Douglas"``, else ``none``."""
    parts = [n if c == 1 else f"{n} x{c}" for n, c in zip(names, counts, strict=False) if c]
    return ", ".join(parts) or "none"


def _marks(obs: Any, seat: int) -> list[str]:
    return [
        m
        for m, on in (
            ("passed", obs.passed >> seat & 1),
            ("to move", seat in obs.to_move),
            ("you", seat == obs.viewer),
        )
        if on
    ]


def _kings_kilt_corners(players: int) -> list[tuple[State, int | None]]:
    """Views of the states of a seeded game where a mistake hides best: the first whose top
    card is clan 0, the first with a space to fill, and the first where some seats but not
    all have passed."""
    states = [s for s, _, _ in _game("kings_kilt", players, 0)]
    everyone = (1 << players) - 1
    picked = [
        next(s for s in states if s.public_observation().top == 0),  # type: ignore[attr-defined]
        next(s for s in states if s.public_observation().vacancy >= 0),  # type: ignore[attr-defined]
        next(s for s in states if s.public_observation().passed not in (0, everyone)),  # type: ignore[attr-defined]
    ]
    return [(s, seat) for s in picked for seat in (None, *range(players))]


@pytest.mark.parametrize("players", [2, 4])
def test_kings_kilt_board_and_summary_show_the_table(players: int) -> None:
    for state, seat in _views("kings_kilt", players) + _kings_kilt_corners(players):
        obs: Any = state.public_observation() if seat is None else state.observation(seat)
        game: Any = state.game
        names, geo = game.clans, game.geo
        lines = _drawn(state, seat)
        top = f", top card {names[obs.top]}" if obs.top >= 0 else ""
        leaders = _counts(names, obs.leaders_in_pile)
        assert (
            f"Draw pile: {obs.pile_size} cards{top}; Clan Leaders still in it: {leaders}" in lines
        )
        assert f"Discarded Influence: {_counts(names, obs.discards)}" in lines
        assert f"Betrayed (out of the game): {_counts(names, obs.removed)}" in lines
        flags = [
            text
            for on, text in (
                (obs.crowned, "a King is crowned (no more advancing)"),
                (obs.nobles_triggered, "Noblemen row complete"),
                (obs.guardians_triggered, "Guardians row complete"),
            )
            if on
        ]
        if flags:
            assert "; ".join(flags) in lines
        else:
            assert not any("complete" in line or "crowned" in line for line in lines)
        for row in range(geo.width, 0, -1):
            short = {geo.king_row: "King", geo.guardian_row: "Guardians"}
            label = short.get(row, "Noblemen" if row == geo.nobleman_row else f"row {row}")
            cells = [obs.pyramid[pos] for pos in geo.row_positions(row)]
            (line,) = [line for line in lines if line.startswith(f"{label:<11}")]
            assert line[11:].split() == [names[c] if c >= 0 else "·" for c in cells]
            coords = [
                geo.label(p) + ("*" if p == obs.vacancy else "") for p in geo.row_positions(row)
            ]
            assert " ".join(coords) in " ".join(lines[lines.index(line) - 1].split())
        for p in range(players):
            face_up = ", ".join(names[c] for c in game.bits[obs.revealed[p]]) or "-"
            fields = [f"player {p}", str(obs.family_sizes[p]), face_up, str(obs.hand_sizes[p])]
            row = r"\s+".join(re.escape(f) for f in fields)
            marks = ", ".join(_marks(obs, p))
            pattern = row + (r"\s+" + re.escape(marks) if marks else "")
            assert any(re.fullmatch(pattern, line) for line in lines), (pattern, lines)
        compact = _drawn(state, seat, compact=True)
        crowned = "; a King is crowned" if obs.crowned else ""
        pile = f"Pile {obs.pile_size}" + (f", top {names[obs.top]}" if obs.top >= 0 else "")
        assert f"{pile}; betrayed: {_counts(names, obs.removed)}{crowned}" in compact
        for p in range(players):
            # the summary's marks lead, in brackets after the seat (no "[to move, you]")
            face_up = ", ".join(names[c] for c in game.bits[obs.revealed[p]])
            shown = f"face up: {face_up}" if face_up else "none face up"
            marks = ["you"] * (p == obs.viewer) + [m for m in _marks(obs, p) if m != "you"]
            said = f" ({', '.join(marks)})" if marks else ""
            cards = f"{obs.hand_sizes[p]} Influence card" + ("" if obs.hand_sizes[p] == 1 else "s")
            assert (
                f"player {p}{said}: {obs.family_sizes[p]} family cards ({shown}), {cards}"
            ) in compact
        if seat is None:
            assert not any(line.startswith("Your") for line in lines)
            continue
        family = [
            f"{names[c]} ({'face up' if obs.revealed[seat] >> c & 1 else 'face down'})"
            for c in game.bits[obs.family]
        ]
        assert lines[-2:] == [
            f"Your family: {', '.join(family) or 'none yet'}",
            f"Your Influence hand: {_counts(names, obs.hand)}",
        ]


def test_a_kings_kilt_deal_names_the_seat_dealt_to() -> None:
    told = 0
    for before, player, action in _game("kings_kilt", 3, 1):
        if player != CHANCE or before.phase.name not in ("deal_family", "deal_influence"):
            continue
        obs: Any = before.public_observation()
        after = before.apply(action, CHANCE)
        renderer = renderer_for(before.game)
        said = renderer.hidden_step(obs, after.public_observation(), CHANCE)
        assert said.endswith(f"face down to player {obs.dealt % 3}"), said
        told += 1
    assert told > 3


def _columns(lines: list[str], header: str, names: tuple[str, ...]) -> list[list[str]]:
    """The rows under the table whose header line holds ``names``, cut at the columns'
    starts (rich aligns every column left, under its header)."""
    at = next(i for i, line in enumerate(lines) if all(n in line for n in names))
    starts = [lines[at].index(n) for n in names] + [WIDTH]
    rows = []
    for line in lines[at + 2 :]:
        if not line.strip():
            break
        rows.append([line[a:b].strip() for a, b in itertools.pairwise(starts)])
    return rows


def _dice(pool: tuple[int, ...]) -> str:
    """Unassigned dice as the pictures word them: ``white 1 x2, black 2``."""
    colours = ("white", "black", "red")
    parts = []
    for i, n in enumerate(pool):
        if n:
            parts.append(f"{colours[i // 3]} {i % 3 + 1}" + (f" x{n}" if n > 1 else ""))
    return ", ".join(parts) or "none"


@pytest.mark.parametrize("players", [2, 3])
def test_clan_feud_board_and_summary_show_the_map_the_track_and_the_clans(players: int) -> None:
    for state, seat in _views("clan_feud", players, (1,)):
        obs: Any = state.public_observation() if seat is None else state.observation(seat)
        game: Any = state.game
        board, track = game.board, game.england
        lines = _drawn(state, seat)
        war = track.at_war(obs.england)
        event = "none yet"
        if obs.events:  # the objective by name and with what it asks
            card = game.events.regular[obs.events[-1]]
            event = f"{card.name} ({card_text(card.objective)})"
        movers = ", ".join("chance" if p < 0 else f"player {p}" for p in obs.to_move) or "nobody"
        assert lines[0] == (
            f"Turn {obs.turn} of {game.deck_size + 1} | order: players"
            f" {', '.join(map(str, obs.order))} | England"
            f" {obs.england}/{track.last_step} ({'at war' if war else 'at peace'}) | objective:"
            f" {event} | {phase_words(obs.phase)} ({movers} to act)"
        )
        ahead = [f"{f.step} (L{f.level})" for f in track.flames if f.step > obs.england]
        assert lines[1] == (
            f"England track {obs.england}/{track.last_step} {'AT WAR' if war else 'at peace'}"
            f" (war from {track.war_from}; phase 3 began on {obs.track_start}); flames ahead:"
            f" {', '.join(ahead) or 'none'}; English armies: {len(obs.english)}"
        )
        rows = _columns(lines, "territory", ("territory", "held by", "buildings", "armies"))
        english = {army.territory: army for army in obs.english}
        expected = []
        for t, terr in enumerate(board.territories):
            owner = obs.controller[t]
            buildings = [("city", "castle")[obs.site[t] - 1]] if obs.site[t] else []
            buildings += ["tower house"] * obs.towers[t]
            here = [obs.troops[p][3 * t : 3 * t + 3] for p in range(players)]
            armies = [
                " ".join(f"{n}{'ica'[k]}" for k, n in enumerate(troops) if n)
                for troops in here
                if any(troops)
            ]
            if t in english:
                army = english[t]
                troops = " ".join(f"{n}{'ica'[k]}" for k, n in enumerate(army.troops) if n)
                names = [f"L{k}" for k in army.tokens]
                tokens = (
                    f"token {names[0]}"
                    if len(names) == 1
                    else f"tokens {', '.join(names[:-1])} and {names[-1]}"
                )
                armies.append(f"England {troops} (level {army.level}, {tokens})")
            if obs.king == t:
                armies.append("King James" + (" (alone)" if obs.regent < 0 else ""))
            expected.append(
                [
                    terr.name + (" (mountains)" if terr.mountain else ""),
                    f"clan {owner}" if owner >= 0 else "free",
                    ", ".join(buildings),
                    " ".join(armies),
                ]
            )
        assert rows == expected
        heads = ("clan", "VP", "£", "feud", "cards", "dice to assign", "board slots bought")
        clans = _columns(lines, "£", heads)
        assert [row[:6] for row in clans] == [
            [
                f"clan {p}",
                str(obs.vp[p]),
                str(obs.money[p]),
                str(obs.feud[p]),
                str(obs.hand_sizes[p]),
                _dice(obs.pool[p]),
            ]
            for p in range(players)
        ]
        battle = [line for line in lines if line.startswith("Battle at ")]
        assert len(battle) == (obs.battle is not None)
        compact = _drawn(state, seat, compact=True)
        for p in range(players):
            line = next(x for x in compact if x.startswith(f"clan {p}: "))
            assert line.startswith(
                f"clan {p}: {obs.vp[p]} VP, £{obs.money[p]}, feud {obs.feud[p]}; holds "
            )
            for t, terr in enumerate(board.territories):
                army = obs.troops[p][3 * t : 3 * t + 3]
                if obs.controller[t] == p or any(army):
                    assert terr.name in line, (terr.name, line)
        king = f"King James: {board.territories[obs.king].name}"
        assert (king in compact) == (obs.king >= 0)
        if seat is None:
            assert not any(line.startswith("Your") for line in lines)
            continue
        designs = game.deck.designs
        cards = [
            f"{designs[d].name}{f' x{n}' if n > 1 else ''}"
            f" (in battle {combat_text(designs[d].combat)})"
            for d, n in enumerate(obs.hand)
            if n
        ]
        assert f"Your hand: {', '.join(cards) or 'empty'}" in lines


@pytest.mark.parametrize(("players", "seed"), [(3, 10), (5, 5)])
def test_koa_summary_and_pending_hits_show_every_house(players: int, seed: int) -> None:
    # these seeds have a counter-attack by house 0 (the Marshals turning a hit back)
    hits_seen = 0
    for state, _, _ in _game("koa_kingmaker", players, seed):
        obs: Any = state.public_observation()
        game: Any = state.game
        compact = _drawn(state, None, compact=True)
        for h in range(game.houses):
            auto = " (auto)" if game.is_automated(h) else ""
            out = obs.out_round[h]
            status = "in" if out == 0 else f"out in round {out}"
            start = f"house {h}{auto}: {status}, hand {obs.hand_sizes[h]}, this round "
            assert any(line.startswith(start) for line in compact), (start, compact)
        if obs.hits:
            hits_seen += 1
            said = ", ".join(
                f"house {h}" + (f" (counter-attack by house {src})" if src >= 0 else "")
                for h, src in obs.hits
            )
            assert f"Hits still to take: {said}" in compact
    assert hits_seen


@pytest.mark.parametrize("players", [2, 4])
def test_kilt_castle_summary_cells_cards_and_turn_lines(players: int) -> None:
    for state, seat in _views("kilt_castle", players):
        obs: Any = state.public_observation() if seat is None else state.observation(seat)
        game: Any = state.game
        board = game.board
        renderer: Any = renderer_for(game)
        letters = renderer.letters
        for space in range(board.rows * board.cols):
            tower = obs.towers[space]
            if space in board.water:
                expected = "~"
            elif not tower:
                expected = "."
            else:
                colour, crests = divmod(letter_floor(tower[-1]), CREST_KINDS)
                roof = "^" if obs.roofed >> space & 1 else ""
                expected = f"{roof}{letters[colour]}{crests or ''}/{len(tower)}"
            assert renderer.compact_space(obs, space).plain == expected
        moving = obs.phase in ("build", "roof")
        for slot in range(len(obs.positions)):
            marked = renderer.card(obs, slot).plain.endswith("*")
            assert marked == (moving and slot == obs.card)
        turn = [t.plain for t in renderer.turn_lines(obs)]
        idle = f"Turns in a row without a new floor: {obs.idle} (the game stops at"
        assert any(t.startswith(idle) for t in turn) == (obs.idle > 0 and obs.phase != "over")
        if obs.phase == "over":
            ended = (
                "It ended when a colour built its last floor."
                if obs.ending
                else f"It ended after {obs.idle} turns in a row without a new floor."
            )
            assert ended in turn or (not obs.ending and obs.idle < game.stall_turns)
        if obs.phase == "build" and obs.builders:
            (building,) = [t for t in turn if t.startswith("Building now: ")]
            for c in obs.builders:
                assert f"{letters[c]} {board.colours[c]} (player {game.owner[c]})" in building
        compact = _drawn(state, seat, compact=True)
        for p, owned in enumerate(game.seat_colours):
            left = ", ".join(
                f"{letters[c]} {board.colours[c]}"
                f" {sum(obs.supply[c * CREST_KINDS : (c + 1) * CREST_KINDS])}"
                for c in owned
            )
            marks = [m for m, on in (("you", p == obs.viewer), ("to move", p in obs.to_move)) if on]
            said = f" ({', '.join(marks)})" if marks else ""
            assert f"player {p}{said}: {obs.money[p]} ducats; floors left: {left}" in compact


def test_kilt_castle_says_why_the_game_ended() -> None:
    final: Any = _game("kilt_castle", 2, 3)[-1][0]
    renderer: Any = renderer_for(final.game)
    stall = final.game.stall_turns
    obs = final.public_observation()
    built_out = attrs.evolve(obs, ending=True, idle=0)
    stalled = attrs.evolve(obs, ending=False, idle=stall)
    assert "It ended when a colour built its last floor." in [
        t.plain for t in renderer.turn_lines(built_out)
    ]
    said = [t.plain for t in renderer.turn_lines(stalled)]
    assert f"It ended after {stall} turns in a row without a new floor." in said
    assert not any("last floor" in t for t in said)


def test_clan_feud_battles_stolen_cards_and_unseen_draws_are_told() -> None:
    steps = _game("clan_feud", 2, 3)
    renderer: Any = renderer_for(steps[0][0].game)
    game: Any = steps[0][0].game
    sides_seen = set()
    for state, _, _ in steps:
        obs: Any = state.public_observation()
        battle = obs.battle
        if battle is None:
            continue
        attacker, defender = ("England" if p < 0 else f"clan {p}" for p in battle.owners)
        sides_seen.add(attacker)
        extra = " (recruits: no retreat)" if battle.origin < 0 else ""
        where = game.board.territories[battle.territory].name
        (line,) = [x for x in _drawn(state, None) if x.startswith("Battle at ")]
        assert line.startswith(f"Battle at {where}, round {battle.rounds}: {attacker} (")
        assert f") attacks {defender}{extra}" in line
        # who has committed, in words (it read "committed: [False, True]")
        assert "[" not in line and "False" not in line and "True" not in line
        done = battle.cards.committed()
        if any(done):
            assert "has committed" in line
    assert "England" in sides_seen
    mine: Any = steps[10][0].observation(0)
    design = game.deck.designs[0].name
    stolen = attrs.evolve(mine, known=((1, 0, 0), (0, 1, 0), (1, 0, -1)))
    assert renderer.secrets(stolen)[1:] == [
        f"card stolen by player 1: {design}",
        f"card taken from player 1: {design}",
    ]
    more = attrs.evolve(mine, hand_sizes=tuple(n + 1 for n in mine.hand_sizes))
    moved = attrs.evolve(mine, hand_sizes=(mine.hand_sizes[0] + 1, mine.hand_sizes[1] - 1))
    assert renderer.hidden_step(mine, more, CHANCE) == "player 0 draws an action card, unseen"
    assert renderer.hidden_step(mine, moved, CHANCE) == (
        "player 0 takes an action card at random, unseen"
    )
    assert renderer.hidden_step(mine, mine, CHANCE) == "a chance outcome you cannot see"
    assert renderer.hidden_step(mine, mine, 1) == "player 1 commits in secret"


def test_clan_feud_shows_artillery_lone_armies_the_king_at_the_first_territory_and_recruits() -> (
    None
):
    steps = _game("clan_feud", 2, 3)
    game: Any = steps[0][0].game
    renderer: Any = renderer_for(game)
    battle_obs: Any = next(
        s.public_observation() for s, _, _ in steps if s.public_observation().battle is not None
    )
    free = next(t for t in range(1, 9) if battle_obs.controller[t] < 0)
    troops = list(battle_obs.troops[1])
    troops[3 * free : 3 * free + 3] = [1, 0, 2]  # player 1's army in a territory it does not hold
    obs = attrs.evolve(
        battle_obs,
        troops=(battle_obs.troops[0], tuple(troops)),
        king=0,
        to_move=(0, 1),
        battle=attrs.evolve(battle_obs.battle, origin=-1),
    )
    board = text_of(renderer.board(obs), WIDTH).splitlines()
    name = game.board.territories[free].name
    (row,) = [line for line in board if line.strip().startswith(name + " ")]
    assert "1i 2a" in row
    first = game.board.territories[0].name
    (row,) = [line for line in board if line.strip().startswith(first + " ")]
    assert "King James" in row
    assert "(player 0, player 1 to act)" in board[0]
    assert any(" (recruits: no retreat)" in line for line in board)
    summary = text_of(renderer.summary(obs), WIDTH).splitlines()
    assert f"King James: {first}" in summary
    (clan1,) = [line for line in summary if line.startswith("clan 1: ")]
    assert f"{name} (1i 2a)" in clan1
