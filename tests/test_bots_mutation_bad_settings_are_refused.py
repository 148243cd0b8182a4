"""Bad bot settings and bad calls are refused with messages naming what was wrong: every
ISMCTSBot setting out of range, a chance seat or a seat with nothing to do, and an unknown
or non-text bot name; bot names are matched whatever their case, surrounding spaces or
hyphens, and listed sorted as registered.

Found by the bots' mutation audit: dropping any of ISMCTSBot's setting checks (no budget
at all, a negative time limit, exploration or rollout limit, an off-by-one refusing one
iteration), its refusal of the chance seat, RandomBot's message losing who is to move,
and the registry's name matching (spaces, hyphens), sorting and non-text refusal all
passed every test before.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import clangames
from clangames.bots import (
    BotSpec,
    ISMCTSBot,
    RandomBot,
    UnknownBotError,
    bot_names,
    make_bot,
    register_bot,
    registry,
)
from test_bots import first_decision


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": None}, r"needs an iteration cap or a time_limit"),
        ({"iterations": 0}, r"iterations >= 1, got 0"),
        ({"time_limit": 0.0}, r"positive time_limit, got 0\.0"),
        ({"time_limit": -1.0}, r"positive time_limit, got -1\.0"),
        ({"exploration": -0.5}, r"exploration >= 0, got -0\.5"),
        ({"rollout_limit": -1}, r"rollout_limit >= 0, got -1"),
    ],
)
def test_ismcts_refuses_each_bad_setting(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(0, **settings)


def test_ismcts_takes_the_smallest_good_settings_and_shows_them() -> None:
    bot = ISMCTSBot(3, iterations=1, time_limit=0.5, exploration=0.0, rollout_limit=0)
    assert repr(bot) == (
        "ISMCTSBot(Rng(3), iterations=1, time_limit=0.5, exploration=0.0, rollout_limit=0)"
    )
    state = first_decision(seed=1)
    assert bot.act(state, state.to_move[0]) in state.legal_actions(state.to_move[0])
    assert bot.last_iterations == 1


def test_ismcts_refuses_the_chance_seat_and_a_seat_with_nothing_to_do() -> None:
    game = clangames.load("kings_kilt", players=3)
    with pytest.raises(ValueError, match="does not play chance nodes"):
        ISMCTSBot(1, iterations=3).act(game.initial_state(), clangames.CHANCE)
    state = first_decision()
    idle = (state.to_move[0] + 1) % 3
    with pytest.raises(ValueError, match=f"player {idle} has no legal action here"):
        ISMCTSBot(1, iterations=3).act(state, idle)


def test_random_bot_says_who_is_to_move_when_refusing_a_seat() -> None:
    state = first_decision()
    idle = (state.to_move[0] + 1) % 3
    with pytest.raises(
        clangames.IllegalActionError, match=rf"\(to_move is \({state.to_move[0]},\)\)"
    ):
        RandomBot(1).act(state, idle)


def test_bot_names_are_matched_loosely_and_listed_sorted_as_registered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_BOTS", dict(registry._BOTS))
    register_bot(BotSpec("Slow_Walker", "a test bot", RandomBot))
    register_bot(BotSpec("aardvark", "a test bot listed first", RandomBot))
    assert bot_names() == ("aardvark", "ismcts", "random", "Slow_Walker")
    state = first_decision()
    player = state.to_move[0]
    for name in ("  random ", "RANDOM", "slow-walker", " Slow_Walker"):
        bot = make_bot(name, 8)
        assert isinstance(bot, RandomBot)
        assert bot.act(state, player) == RandomBot(8).act(state, player)


def test_a_name_that_is_not_text_is_an_unknown_bot() -> None:
    for name in (None, 3, ["random"]):
        expected = re.escape(f"no bot called {name!r}; known bots: ismcts, random")
        with pytest.raises(UnknownBotError, match=expected):
            make_bot(name, 1)  # type: ignore[arg-type]


def test_registering_the_same_bot_again_takes_its_new_factory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a reloaded module registers its bot again, with a new factory of the same name
    monkeypatch.setattr(registry, "_BOTS", dict(registry._BOTS))
    register_bot(BotSpec("again", "a test bot", RandomBot))
    register_bot(BotSpec("again", "a test bot", lambda rng: ISMCTSBot(rng, iterations=1)))
    assert isinstance(make_bot("again", 1), ISMCTSBot)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": "5"}, r"iterations to be an int or None, got '5'"),
        ({"iterations": 2.5}, r"iterations to be an int or None, got 2\.5"),
        ({"iterations": True}, r"iterations to be an int or None, got True"),
        ({"time_limit": "1"}, r"time_limit to be a number or None, got '1'"),
        ({"exploration": None}, r"exploration to be a number, got None"),
        ({"rollout_limit": 4.0}, r"rollout_limit to be an int or None, got 4\.0"),
    ],
)
def test_ismcts_refuses_a_setting_of_the_wrong_type_by_name(
    settings: dict[str, Any], message: str
) -> None:
    # Found while auditing: iterations="5" was a TypeError from inside a comparison and
    # iterations=2.5 ran three iterations.
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(0, **settings)
