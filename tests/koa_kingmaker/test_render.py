"""The KOA Kingmaker terminal renderer: boards, secrets and hidden steps drawn from
observations, checked line by line on positions built by hand."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from rich.console import Console, RenderableType

import clangames
from clangames.engine.phases import CHANCE
from clangames.koa_kingmaker import Discard, Inherit, KoaState, Play, Seal
from clangames.koa_kingmaker.cards import FANATIC, GOLD, JESTER, ROYAL, SEER
from clangames.rendering.koa_kingmaker import KoaRenderer, hand_text, make_renderer, played_name
from clangames.rendering.text import GenericRenderer, narrate, renderer_for, reveal, seat_view

from .helpers import apply, arrange, load, play_round, start

NUMBERS = (2, 5, 1, 3, 4)
"""Inheritance numbers of houses 0..4 in every position below."""
HEADER = "house, status    hand   this round"


def text(renderable: RenderableType) -> list[str]:
    """``renderable`` as plain lines, trailing spaces removed."""
    console = Console(record=True, width=120, color_system=None, file=io.StringIO())
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def columns(lines: list[str]) -> dict[int, list[str]]:
    """Each house's first cells as ``[label, status, hand, this round]`` (and the
    inheritance number once the game is over, from the line under the status), read by
    the header's column positions from the lines of its row: the status stands under the
    house's name, and the viewer's own face-down card is named over "(yours, face down)"."""
    head = next(i for i, line in enumerate(lines) if line.startswith("house, status"))
    names = ["house, status", "hand", "this round", "court and discard pile"]
    starts = [lines[head].index(n) for n in names if n in lines[head]]
    rows: dict[int, list[str]] = {}
    for i in range(head + 2, len(lines) - 1):
        found = re.match(r"house (\d) ", lines[i])
        if found is None:
            continue
        top, under = (
            [line[a:b].strip() for a, b in itertools.pairwise(starts)]
            for line in (lines[i], lines[i + 1])
        )
        joined = [" ".join(filter(None, pair)) for pair in zip(top, under, strict=True)]
        rows[int(found.group(1))] = [top[0], under[0], *joined[1:]]
        third = lines[i + 2][: starts[1]].strip() if i + 2 < len(lines) else ""
        if third.startswith("inheritance: "):
            rows[int(found.group(1))].append(third.removeprefix("inheritance: "))
    return rows


def renderer(state: KoaState) -> KoaRenderer:
    found = renderer_for(state.game)
    assert isinstance(found, KoaRenderer)
    return found


def half_committed() -> KoaState:
    """Round 1: households 3 and 4 sealed Seer and Gold, player 0 committed the Jester,
    players 1 and 2 still choosing."""
    s = start(3, inheritance=NUMBERS)
    s = apply(s, Seal(SEER))
    s = apply(s, Seal(GOLD))
    return apply(s, Play(JESTER), 0)


def house_one_hit() -> KoaState:
    """Round 1 revealed: houses 0 and 2 nominated house 1 (which played Gold with an empty
    discard pile), the households played Jester and Banner; player 1 must give up a card."""
    s = start(3, inheritance=NUMBERS)
    return play_round(s, {0: 1, 1: "Gold", 2: 1, 3: "Jester", 4: "Banner"})


def finished() -> KoaState:
    """Houses 2, 3 and 4 each with one Royal left are all hit in round 1: game over."""
    s = start(3, inheritance=NUMBERS)
    for h in (2, 3, 4):
        s = arrange(s, h, "courts", "centre", "Royal 1", "Royal 2")
    return play_round(s, {0: 2, 1: 3, 2: 4, 3: "Fanatic", 4: "Thief"})


def test_the_command_line_finds_the_koa_renderer() -> None:
    game = load(3)
    assert isinstance(renderer_for(game), KoaRenderer)
    assert isinstance(make_renderer(game), KoaRenderer)
    kilt = clangames.load("kings_kilt", players=2)
    assert not isinstance(renderer_for(kilt), (KoaRenderer, GenericRenderer))
    with pytest.raises(TypeError, match="KoaRenderer draws KOA Kingmaker, not kings_kilt"):
        KoaRenderer(kilt)


def test_card_words() -> None:
    assert played_name(SEER) == "Seer"
    assert played_name(7 + 3) == "nominates house 3"
    assert hand_text(0) == "empty"
    assert hand_text(1 << JESTER | 1 << (7 + 2)) == "Jester, nomination of house 2"
    assert hand_text(1 << GOLD | 1 << (7 + 0) | 1 << (7 + 4)) == "Gold, nominations of houses 0, 4"


def test_own_face_down_card_is_named_other_cards_are_markers() -> None:
    s = half_committed()
    lines = text(seat_view(renderer(s), s, 0))
    assert lines[:5] == [
        "KOA Kingmaker, round 1: each house puts one card face down",
        "Still choosing: house 1, house 2 | face down on the table: house 0, house 3, house 4",
        "Centre pile: empty",
        "house, status    hand   this round           court and discard pile",
        "─" * 77,
    ]
    assert lines[5:15] == [
        "house 0 (you)      10   Jester               court: Royal 1, Royal 2, Royal 3",
        "in                      (yours, face down)   discards: none",
        "house 1            11   choosing             court: Royal 1, Royal 2, Royal 3",
        "in                                           discards: none",
        "house 2            11   choosing             court: Royal 1, Royal 2, Royal 3",
        "in                                           discards: none",
        "house 3 (auto)      6   [face down]          court: Royal 1, Royal 2, Royal 3",
        "in                                           discards: none",
        "house 4 (auto)      6   [face down]          court: Royal 1, Royal 2, Royal 3",
        "in                                           discards: none",
    ]
    assert lines[15:] == [
        "Your hand: Seer, Marshals, Gold, Thief, Banner, Fanatic, nominations of houses 1, 2, 3, 4",
        "Your face-down card: Jester",
        "Your inheritance: 2",
    ]


def test_another_seat_sees_only_markers_and_its_own_secrets() -> None:
    s = half_committed()
    lines = text(seat_view(renderer(s), s, 1))
    assert lines[3].startswith(HEADER)
    rows = {row[0]: row[3] for row in columns(lines).values()}
    assert rows == {
        "house 0": "[face down]",
        "house 1 (you)": "choosing",
        "house 2": "choosing",
        "house 3 (auto)": "[face down]",
        "house 4 (auto)": "[face down]",
    }
    # Nobody has a Jester, Seer or Gold anywhere public yet: none of the three face-down
    # cards may show up on player 1's screen, and only player 1's number is there.
    hand = "Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic, nominations of houses 0, 2, 3, 4"
    assert lines[15:] == [f"Your hand: {hand}", "Your inheritance: 5"]
    board = "\n".join(lines[:15])
    for name in ("Jester", "Seer", "Gold"):
        assert name not in board
    assert [line for line in lines if "inheritance" in line] == ["Your inheritance: 5"]


def test_public_view_has_no_secrets_and_no_you() -> None:
    s = half_committed()
    view = renderer(s)
    public = s.public_observation()
    assert view.secrets(public) == []
    lines = text(view.board(public))
    assert "(you)" not in "\n".join(lines)
    assert [row[3] for row in columns(lines).values()] == [
        "[face down]",
        "choosing",
        "choosing",
        "[face down]",
        "[face down]",
    ]


def test_a_hit_shows_the_reveal_and_the_pending_hit() -> None:
    s = house_one_hit()
    assert s.phase.name == "discard" and s.to_move == (1,)
    lines = text(seat_view(renderer(s), s, 1))
    assert lines[:3] == [
        "KOA Kingmaker, round 1: house 1 is hit and gives up a Royal or its Jester",
        "Hits still to take: house 1",
        "Centre pile: empty",
    ]
    assert lines[5::2][:5] == [
        "house 0            10   nominates house 1   court: Royal 1, Royal 2, Royal 3",
        "house 1 (you)      10   Gold                court: Royal 1, Royal 2, Royal 3",
        "house 2            10   nominates house 1   court: Royal 1, Royal 2, Royal 3",
        "house 3 (auto)      6   Jester              court: Royal 1, Royal 2, Royal 3, Jester",
        "house 4 (auto)      6   Banner              court: Royal 1, Royal 2, Royal 3, Banner",
    ]
    assert lines[-2:] == [
        "Your hand: Jester, Seer, Marshals, Thief, Banner, Fanatic,"
        " nominations of houses 0, 2, 3, 4",
        "Your inheritance: 5",
    ]


def test_next_round_shows_the_centre_pile_discards_and_last_reveal() -> None:
    s = apply(house_one_hit(), Discard(ROYAL), 1)
    assert s.phase.name == "seal" and s.round == 2
    lines = text(seat_view(renderer(s), s, 2))
    assert lines[:4] == [
        "KOA Kingmaker, round 2: the automated households put their cards face down",
        "To move: chance",
        "Centre pile: house 1: Royal 1",
        "Revealed in round 1: house 0: nominates house 1, house 1: Gold, house 2: nominates"
        " house 1, house 3: Jester,",
    ]
    assert lines[4] == "house 4: Banner"  # a line breaks between houses, not inside one
    rows = lines[7:17]
    assert rows[2:4] == [
        "house 1            10   -            court: Royal 2, Royal 3",
        "in                                   discards: Gold",
    ]
    assert rows[4].startswith("house 2 (you)      11   -")


def test_game_over_shows_every_inheritance_number_and_who_is_out() -> None:
    s = finished()
    assert s.is_terminal and s.winners() == (0,)
    view = renderer(s)
    lines = text(seat_view(view, s, None))
    assert lines[:3] == [
        "KOA Kingmaker, game over after round 1",
        "Houses still standing: house 0, house 1",
        "Centre pile: house 2: Royal 1, Royal 2, Royal 3; house 3: Royal 1, Royal 2, Royal 3;"
        " house 4: Royal 1, Royal 2, Royal 3",
    ]
    assert lines[3].split() == [
        "house,",
        "status",
        "hand",
        "this",
        "round",
        "court",
        "and",
        "discard",
        "pile",
    ]
    # The inheritance number is spelt out under each house's status, not abbreviated in a
    # column of its own.
    assert lines[5::3] == [
        "house 0            10   nominates house 2   court: Royal 1, Royal 2, Royal 3,"
        " nom. of house 2",
        "house 1            10   nominates house 3   court: Royal 1, Royal 2, Royal 3,"
        " nom. of house 3",
        "house 2            10   nominates house 4   court: nom. of house 4",
        "house 3 (auto)      6   Fanatic             court: none",
        "house 4 (auto)      6   Thief               court: none",
    ]
    assert lines[6::3] == [
        f"{status:<44}discards: {d}"
        for status, d in zip(
            ["in"] * 2 + ["out in round 1"] * 3,
            ("none",) * 3 + ("Fanatic", "Thief"),
            strict=True,
        )
    ]
    assert lines[7::3] == [f"inheritance: {k}" for k in (2, 5, 1, 3, 4)]
    assert reveal(view, s) == [
        "player 0's hand: Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic,"
        " nominations of houses 1, 3, 4",
        "player 0's inheritance: 2",
        "player 1's hand: Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic,"
        " nominations of houses 0, 2, 4",
        "player 1's inheritance: 5",
        "player 2's hand: Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic,"
        " nominations of houses 0, 1, 3",
        "player 2's inheritance: 1",
    ]


def test_a_household_with_an_empty_hand_and_every_character_discarded() -> None:
    s = start(3, inheritance=NUMBERS)
    s = arrange(s, 3, "hands", "discards", "Jester", "Seer", "Marshals", "Gold", "Thief")
    s = arrange(s, 3, "hands", "discards", "Banner", "Fanatic")
    obs = s.public_observation()
    assert obs.hand_sizes[3] == 0 and obs.discards[3] >> FANATIC & 1
    lines = text(renderer(s).board(obs))
    row = next(i for i, line in enumerate(lines) if line.startswith("house 3"))
    assert re.split(r"\s{2,}", lines[row]) == [
        "house 3 (auto)",
        "0",
        "-",
        "court: Royal 1, Royal 2, Royal 3",
    ]
    assert re.split(r"\s{2,}", lines[row + 1]) == [
        "in",
        "discards: Jester, Seer, Marshals, Gold, Thief, Banner, Fanatic",
    ]


def _narration(state: KoaState, action: object, player: int, viewer: int) -> str:
    after = state.apply(action, player)
    return narrate(renderer(state), state, action, player, after, viewer)


def test_hidden_steps_name_who_put_a_card_down_but_not_the_card() -> None:
    s = start(3, inheritance=NUMBERS)
    assert _narration(s, Seal(SEER), CHANCE, 0) == "automated household 3 puts a card face down"
    s = apply(apply(s, Seal(SEER)), Seal(GOLD))
    assert _narration(s, Play(FANATIC), 2, 0) == "player 2 puts a card face down"
    assert _narration(s, Play(FANATIC), 2, 2) == "puts the Fanatic face down"
    # The last card down reveals everything: then the step is told in full, with what
    # every house turned face up, to every seat.
    s = apply(apply(s, Play(FANATIC), 2), Play(JESTER), 0)
    for viewer in (0, 1, 2):
        assert _narration(s, Play(SEER), 1, viewer) == (
            "puts the Seer face down; all cards turn face up: house 0: Jester, house 1: Seer,"
            " house 2: Fanatic, house 3: Seer, house 4: Gold"
        )


def test_inheritance_deals_are_face_down_except_your_own() -> None:
    game = load(2)
    s = game.initial_state()
    assert isinstance(s, KoaState)
    assert _narration(s, Inherit(3), CHANCE, 0) == "house 0 is dealt inheritance number 3 face down"
    # Who receives a card is public (it lies face down in front of the house): named.
    assert _narration(s, Inherit(3), CHANCE, 1) == (
        "house 0 is dealt an inheritance card face down"
    )
    for k in (3, 1, 5):
        s = apply(s, Inherit(k))
    # Four houses with two players: the last deal still has two outcomes.
    assert _narration(s, Inherit(2), CHANCE, 0) == (
        "house 3 is dealt the last inheritance card face down; round 1 begins"
    )


def test_hidden_step_falls_back_for_other_observations() -> None:
    view = renderer(start(3))
    assert view.hidden_step(None, None, 1) == "player 1 makes a choice you cannot see"
    assert view.hidden_step(None, None, CHANCE) == "a chance outcome you cannot see"


def _expected_row(state: KoaState, house: int, viewer: int | None) -> list[str]:
    """House label, status, hand size and this round's card of ``house`` as ``viewer``
    must see them, worked out from the full state."""
    game = state.game
    label = f"house {house}"
    if house == viewer:
        label += " (you)"
    elif game.is_automated(house):
        label += " (auto)"
    out = state.out_round[house]
    status = "in" if out == 0 else f"out in round {out}"
    card = state.table.ids[house]
    if state.phase.name in ("seal", "commit"):
        if card >= 0 and house == viewer:
            this_round = f"{played_name(card)} (yours, face down)"
        elif card >= 0:
            this_round = "[face down]"
        elif state.phase.name == "commit" and house in state.to_move:
            this_round = "choosing"
        else:
            this_round = "-"
    else:
        this_round = played_name(state.played[house]) if state.played[house] >= 0 else "-"
    row = [label, status, str(state.hands[house].bit_count()), this_round]
    if state.is_terminal:
        row.append(str(state.inheritance[house]))
    return row


@pytest.mark.parametrize("players", [2, 5])
def test_every_row_of_random_games_matches_the_state(players: int) -> None:
    game = load(players)
    rng = clangames.Rng(players)
    checked = face_down = 0
    for _ in range(2):
        state: KoaState = game.initial_state()
        view = renderer(state)
        while True:
            if state.round:
                for viewer in (None, *range(players)):
                    lines = text(seat_view(view, state, viewer))
                    rows = columns(lines)
                    assert list(rows) == list(range(game.houses))
                    for house, cells in rows.items():
                        assert cells == _expected_row(state, house, viewer)
                        face_down += cells[3] == "[face down]"
                    if viewer is not None:
                        hand = [line for line in lines if line.startswith("Your hand: ")]
                        assert hand == [f"Your hand: {hand_text(state.hands[viewer])}"]
                    checked += 1
            if state.is_terminal:
                break
            if state.is_chance:
                action, rng = clangames.sample_chance(state, rng)
                state = apply(state, action)
            else:
                player = state.to_move[0]
                legal = state.legal_actions(player)
                pick, rng = rng.below(len(legal))
                state = apply(state, legal[pick], player)
    assert checked > 100
    assert face_down > 100
