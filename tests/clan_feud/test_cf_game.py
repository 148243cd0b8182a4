"""Clan Feud as a registered game: names, parameters, declared facts, bad input."""

from __future__ import annotations

import json

import pytest

import clangames
from clangames.engine.errors import InvalidParameterError, StateDecodeError

from .cf_helpers import variant
from .cf_rules_helpers import load, position


def test_registered_under_both_spellings() -> None:
    assert "clan_feud" in [spec.name for spec in clangames.games()]
    game = clangames.load("clan-feud", players=3)
    assert game.name == "clan_feud" and game.num_players == 3
    info = game.info
    assert info.has_chance and info.has_simultaneous_moves and info.has_hidden_information
    assert info.num_distinct_actions == len(game.actions)


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_checked(players: int) -> None:
    with pytest.raises(InvalidParameterError, match="players"):
        clangames.load("clan_feud", players=players)


def test_action_ids_start_with_the_fixed_words() -> None:
    game = load(2)
    assert [game.action_text(game.action_from_id(i)) for i in range(3)] == [
        "pass",
        "tokens",
        "stop",
    ]
    assert game.parse_action("territory moray") == game.place_actions[game.board.territory("moray")]


def test_set_up() -> None:
    game = load(4)
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(1))
    starts = set(game.board.starts(4))
    assert {t for t, c in enumerate(state.controller) if c >= 0} == starts
    for t in starts:
        p = state.controller[t]
        assert state.site[t] == 2 and state.troops_at(p, t) == (2, 1, 0)
    assert state.money == (4,) * 4 and state.feud == (1,) * 4
    assert sorted(state.order) == [0, 1, 2, 3]
    assert all(sum(pool) == 3 for pool in state.pool)  # 3 white dice rolled
    assert state.king == game.board.territory("edinburgh_castle") and state.regent == -1
    assert sum(state.deck) == 50 and state.events == ()


def test_bad_data_files_are_refused_whole(tmp_path) -> None:  # type: ignore[no-untyped-def]
    board = variant(tmp_path, "board.toml", 'a = "galloway"', 'a = "atlantis"')
    with pytest.raises(InvalidParameterError, match="atlantis"):
        clangames.load("clan_feud", players=2, board=board)
    events = variant(tmp_path, "events.toml", "pay_money(3) OR", "pay_gold(3) OR")
    with pytest.raises(InvalidParameterError, match="pay_gold"):
        clangames.load("clan_feud", players=2, events=events)
    actions = variant(tmp_path, "actions.toml", 'combat = "cancel"', 'combat = "cancel("')
    with pytest.raises(InvalidParameterError):
        clangames.load("clan_feud", players=2, actions=actions)


def test_state_json_round_trip_and_corruption_refused() -> None:
    game = load(2)
    state = position(game, [], control={"moray": 0}, troops={(0, "moray"): (1, 0, 0)})
    data = state.to_json()
    assert game.state_from_json(json.dumps(data)) == state
    data["state"]["troops"][1][3 * game.board.territory("moray")] = 1
    with pytest.raises(StateDecodeError, match="armies"):
        game.state_from_json(data)
    data = state.to_json()
    data["state"]["deck"][0] += 1
    with pytest.raises(StateDecodeError, match="deck"):
        game.state_from_json(data)


def test_observation_hides_other_hands_and_resample_redeals_them() -> None:
    game = load(3)
    state = position(game, [], hands={0: {"AC10": 1}, 1: {"AC01": 2}})
    obs = state.observation(0)
    assert obs.hand[9] == 1 and obs.hand_sizes == (1, 2, 0) and obs.deck_size == 47
    other = state.resample(0, clangames.Rng(5))
    assert other.observation(0) == obs and other.hands[0] == state.hands[0]
    assert sum(other.hands[1]) == 2


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '{ a = "galloway", b = "ayr", provenance = "reconstructed" },',
            '{ a = "galloway", b = "ayr", provenance = "reconstructed" },\n'
            '  { a = "ayr", b = "galloway", provenance = "reconstructed" },',
            "already joined",
        ),
        (
            '{ a = "edinburgh", b = "fife", crossing',
            '{ a = "edinburgh_castle", b = "fife", crossing',
            "inland",
        ),
        (
            '2 = { territories = ["moray", "the_lennox"]',
            '2 = { territories = ["moray", "shetland"]',
            "shetland",
        ),
        ('id = "galloway"', 'id = "galloway"\nbogus = 1', "unknown key"),
    ],
)
def test_a_bad_board_parameter_is_refused(tmp_path, old: str, new: str, message: str) -> None:  # type: ignore[no-untyped-def]
    path = variant(tmp_path, "board.toml", old, new)
    with pytest.raises(InvalidParameterError, match=message):
        clangames.load("clan_feud", players=2, board=path)


def test_a_malformed_event_expression_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = variant(tmp_path, "events.toml", "pay_money(3) OR", "pay_money(3 OR")
    with pytest.raises(InvalidParameterError, match="column"):
        clangames.load("clan_feud", players=2, events=path)
