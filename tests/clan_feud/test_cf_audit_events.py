"""Audit: the event vocabulary at work on hand-made positions: a discard (always asked), a
troop removal (no feud token, a King left alone), a ``may`` line, a ``repeat`` objective,
and the track held within 0..17 by an event's top line."""

from __future__ import annotations

import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.interpret import program
from clangames.clan_feud.state import Task

from .cf_rules_helpers import done, legal_texts, load, play, position, tid


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


def _each_player(game: ClanFeudGame, event: str) -> int:
    ids = [e.id for e in game.events.regular]
    return game.each_player_nodes[ids.index(event)]


def _objective(game: ClanFeudGame, event: str) -> int:
    ids = [e.id for e in game.events.regular]
    return game.objective_nodes[ids.index(event)]


def test_a_discard_is_asked_even_with_one_card(game: ClanFeudGame) -> None:
    node = _each_player(game, "EV03")  # discard_cards(1) OR england_track(+1)
    s = position(game, [program(0, node)], hands={0: {"AC10": 1}}, england=3)
    assert legal_texts(s) == ["option 1", "option 2"]
    s = play(s, "option 1")
    assert legal_texts(s) == ["discard AC10"]  # a single option, still asked
    s = play(s, "discard AC10")
    assert done(s) and sum(s.hands[0]) == 0 and s.discards[9] == 1 and s.england == 3
    s = position(game, [program(0, node)], england=3)
    assert done(s) and s.england == 4  # no card: the track moves


def test_removing_troops_for_an_event_gives_no_feud_token(game: ClanFeudGame) -> None:
    node = _each_player(game, "EV06")  # remove_troops(1) OR england_track(+1)
    banff = tid(game, "banff")
    s = position(game, [program(0, node)], troops={(0, "banff"): (1, 1, 0)}, control={"banff": 0})
    s = play(s, "option 1")  # Banff, the one territory with troops, is chosen at once
    assert legal_texts(s) == ["lose infantry", "lose cavalry"]
    s = play(s, "lose cavalry")
    assert done(s) and s.troops_at(0, banff) == (1, 0, 0) and s.feud[0] == 0


def test_removing_the_kings_last_troop_leaves_him_alone(game: ClanFeudGame) -> None:
    node = _each_player(game, "EV06")
    banff = tid(game, "banff")
    s = position(
        game,
        [program(0, node)],
        troops={(0, "banff"): (1, 0, 0)},
        control={"banff": 0},
        regent=0,
        king=banff,
        gold_out=True,
    )
    s = play(s, "option 1")
    assert done(s) and not any(s.troops[0])
    assert s.regent == -1 and s.king == banff and s.feud[0] == 1  # the King's token only


def test_a_may_line_acts_only_when_accepted_and_affordable(game: ClanFeudGame) -> None:
    node = _each_player(game, "EV02")  # may [pay_money(4); england_track(-1)]
    s = position(game, [program(0, node)], money=(4, 0), england=5)
    assert legal_texts(s) == ["accept", "decline"]
    accepted = play(s, "accept")
    assert done(accepted) and accepted.money[0] == 0 and accepted.england == 4
    declined = play(s, "decline")
    assert done(declined) and declined.money[0] == 4 and declined.england == 5
    s = position(game, [program(0, node)], money=(3, 0), england=5)
    assert done(s) and s.money[0] == 3 and s.england == 5  # cannot pay: not asked


def test_a_repeat_objective_stops_at_a_decline_or_when_unaffordable(game: ClanFeudGame) -> None:
    node = _objective(game, "EV13")  # repeat(2) [pay_money(5); gain_vp(2)]
    s = position(game, [program(0, node)], money=(12, 0))
    s = play(s, "accept", "accept")
    assert done(s) and s.money[0] == 2 and s.vp[0] == 4
    s = position(game, [program(0, node)], money=(12, 0))
    s = play(s, "decline")
    assert done(s) and s.money[0] == 12 and s.vp[0] == 0
    s = position(game, [program(0, node)], money=(7, 0))
    s = play(s, "accept")  # £2 left: the second is not offered
    assert done(s) and s.money[0] == 2 and s.vp[0] == 2


def test_the_top_line_holds_the_track_within_zero_and_seventeen(game: ClanFeudGame) -> None:
    # EV10: England -1, then each player pay_feud(2) OR +1 (nobody holds a token)
    s = position(game, [Task("phase3")], england=0, events=(0,), feud=(0, 0))
    s = play(s, "event EV10")
    assert done(s) and s.england == 2  # 0 -> 0 (clamped), then +1 twice
    s = position(game, [Task("phase3")], england=17, events=(1,), money=(0, 0))
    s = play(s, "event EV01")
    assert done(s) and s.england == 17 and s.at_war
