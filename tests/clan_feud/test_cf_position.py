"""Clan Feud positions: exact round trips over seeded games of every player count and
Hypothesis-drawn states, battles sought out (random play rarely fights), refusals naming
the bad token, the names in the kernel contract, and the builder dealing the cards nobody
holds back into the deck."""

from __future__ import annotations

import pytest

from clangames.clan_feud import ClanFeudState
from clangames.clan_feud.state import Task
from clangames.engine.chance import sample_chance
from clangames.engine.position import PositionError
from clangames.engine.rng import Rng
from clangames.testing.positions import position_failure
from position_helpers import assert_round_trips, hypothesis_round_trip, refused

from .cf_rules_helpers import load, position, tid


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_round_trip_over_seeded_games(players: int) -> None:
    assert assert_round_trips(load(players), range(2)) > 400


def test_round_trip_of_hypothesis_drawn_states() -> None:
    hypothesis_round_trip("clan_feud", max_examples=10)


def test_names_are_in_the_kernel_contract() -> None:
    game = load(3)
    names = game.names
    assert names["territory"] == tuple(t.id for t in game.board.territories)
    assert names["action card"][0] == "AC01" and names["event"][0] == "EV01"
    assert names["die"][:3] == ("white1", "white2", "white3")
    assert "income.I-left" in names["board slot"]


def test_bad_text_is_refused_naming_the_token() -> None:
    game = load(2)
    good = game.initial_state().to_position()
    assert "site=[glasgow:city," in good
    message = refused(game, good.replace("site=[glasgow:city,", "site=[glasgow:palace,"))
    assert "'palace'" in message and "expected a site (none, city, castle)" in message
    message = refused(game, good.replace("site=[glasgow:city,", "site=[atlantis:city,"))
    assert "'atlantis'" in message and "expected a territory" in message
    message = refused(game, good.replace("site=[glasgow:city,", "site=[glasgow,"))
    assert "expected territory:value" in message
    message = refused(game, good.replace("battle=~", "battle=[1,2]"))
    assert "expected 15 values [territory,owners,origin" in message


def test_the_builder_deals_the_rest_into_the_deck() -> None:
    game = load(2)
    state = game.position(
        troops=[["moray.infantry*5", "moray.cavalry*3"], ["inverness.infantry*4"]],
        controller=["moray:0", "inverness:1"],
        hands=[["AC10", "AC11"], ["AC02"]],
    )
    assert isinstance(state, ClanFeudState)
    moray = tid(game, "moray")
    assert state.troops[0][3 * moray : 3 * moray + 3] == (5, 3, 0)
    designs = game.deck.designs
    for d, card in enumerate(designs):
        held = state.hands[0][d] + state.hands[1][d] + state.discards[d]
        assert state.deck[d] + held == card.copies
    with pytest.raises(PositionError, match="AC04 is placed 2 times, the game has 1"):
        game.position(hands=[["AC04*2"], []])


def test_battles_round_trip() -> None:
    """Random play rarely fights, so battles are sought out: armies face each other and
    seat 0's moves go into Inverness. Every state round-trips, sealed cards included."""
    game = load(2)
    battles = sealed = 0
    for seed in range(6):
        state = position(
            game,
            [Task("move", 0, 3)],
            troops={(0, "moray"): (5, 3, 1), (1, "inverness"): (4, 2, 1)},
            control={"moray": 0, "inverness": 1, "loch_ness": 1},
            feud=(3, 3),
            hands={0: {"AC10": 1, "AC11": 1}, 1: {"AC02": 1, "AC01": 1}},
        )
        rng = Rng(seed)
        for _ in range(300):
            assert position_failure(state) is None
            if state.battle is not None:
                battles += 1
                sealed += any(i >= 0 for i in state.battle.cards.ids)
            if state.is_terminal:
                break
            if state.is_chance:
                action, rng = sample_chance(state, rng)
                state = state.apply(action)
                continue
            player = state.to_move[0]
            legal = state.legal_actions(player)
            attack = [a for a in legal if "inverness" in game.action_text(a)]
            j, rng = rng.below(len(legal))
            state = state.apply(attack[0] if attack and seed % 2 == 0 else legal[j], player)
    assert battles > 20 and sealed > 10
    assert "battle=[inverness,[0,1],moray," in _a_battle_position(game)


def _a_battle_position(game: object) -> str:
    state = position(
        game,  # type: ignore[arg-type]
        [Task("move", 0, 3)],
        troops={(0, "moray"): (5, 3, 1), (1, "inverness"): (4, 2, 1)},
        control={"moray": 0, "inverness": 1, "loch_ness": 1},
    )
    while state.battle is None:
        legal = state.legal_actions(state.to_move[0])
        texts = [state.game.action_text(a) for a in legal]
        pick = next((a for a, t in zip(legal, texts, strict=True) if "inverness" in t), legal[0])
        state = state.apply(pick, None if state.is_chance else state.to_move[0])
    return state.to_position()
