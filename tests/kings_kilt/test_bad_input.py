"""Bad input: parameters, component files, actions, saved states and records."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import clangames
from clangames import (
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    InvalidParameterError,
    StateDecodeError,
)
from clangames.kings_kilt import Advance, Betray, Draw, KingsKiltState, Pass
from clangames.testing import random_playout

from .helpers import FULL_BASE, load, position

BUNDLED = (Path(clangames.__file__).parent / "kings_kilt" / "components.toml").read_text("utf-8")

# -- parameters ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 5}, r"'players' must be in 2\.\.4, got 5"),
        ({"players": 1}, r"'players' must be in 2\.\.4, got 1"),
        ({"players": "3"}, r"'players' must be int, got '3'"),
        ({"players": True}, r"'players' must be int, got True"),
        ({"players": 3, "colour": "red"}, r"unknown parameter 'colour'"),
        ({"players": 3, "betrayal_match": "king"}, r"'betrayal_match' must be one of"),
        ({"players": 3, "first_player": 3}, r"first_player must be a seat 0\.\.2, got 3"),
        ({"players": 2, "first_player": -1}, r"'first_player' must be at least 0, got -1"),
        ({"players": 3, "components": 7}, r"'components' must be str, got 7"),
    ],
)
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        clangames.load("kings_kilt", **params)


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "components.toml"
    path.write_text(text, "utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("base_width = 6", "", r"missing setup\.base_width"),
        ('name = "Bruce"', "", r"missing clan\[3\]\.name"),
        (
            'name = "Stewart"\nprovenance = "reconstructed"',
            'name = "Stewart"\nprovenance = "guessed"',
            r"clan\[7\]\.provenance must be one of \('rulebook', 'reconstructed'\), got 'guessed'",
        ),
        ("king = 3", 'king = "three"', r"scoring\.king must be int, got 'three'"),
        ('name = "Douglas"', 'name = "Bruce"', r"clan\[5\]\.name 'Bruce' repeats clan\[3\]'s name"),
        ("4 = 4", "", r"setup\.influence must give a hand size for each player count"),
        (
            "members_per_clan = 6",
            "members_per_clan = 2",
            r"setup\.influence\.3: 3 hands of 5 need 15 Clan Members, only 7 are left",
        ),
        ("[cards]", "[cardz]", r"unknown key\(s\) cardz in the file"),
    ],
)
def test_bad_components_file(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in BUNDLED
    path = _write(tmp_path, BUNDLED.replace(old, new, 1))
    with pytest.raises(InvalidParameterError, match=message):
        clangames.load("kings_kilt", players=4, components=path)


def test_bad_components_not_toml_or_missing(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match="is not valid TOML"):
        clangames.load("kings_kilt", players=3, components=_write(tmp_path, "[[clan]\nname="))
    with pytest.raises(InvalidParameterError, match="cannot be read"):
        clangames.load("kings_kilt", players=3, components=str(tmp_path / "nope.toml"))


# -- actions ---------------------------------------------------------------------------------


def _unchanged(state: clangames.State, action: object, player: int | None, error: type) -> str:
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply(action, player)
    assert state.to_json() == before
    return str(info.value)


def test_action_from_the_wrong_player() -> None:
    state = position(load(3), FULL_BASE)
    message = _unchanged(state, Advance(1, 1, "left"), 1, IllegalActionError)
    assert "player 1 is not to move" in message


def test_action_chance_outcome_from_a_player() -> None:
    state = load(3).initial_state()
    message = _unchanged(state, Draw(3), 0, IllegalActionError)
    assert "player 0 is not to move (it is chance's turn)" in message


def test_action_betrayal_with_a_non_matching_card_explains_the_rule() -> None:
    picture = "Bu . .\nMk Mb . .\nMl Br Do . .\nMl Mk Mb Br Bu Do"
    state = position(load(3), picture, hands=[["Ha"], [], []])
    message = _unchanged(state, Betray(6, 4, 0), None, IllegalActionError)
    assert message == (
        "'betray 4.0 with Hamilton' is not legal: betraying a card in the top three rows"
        " needs an Influence card of the betraying neighbour's clan (Macbeth, Mackay),"
        " not Hamilton"
    )
    message = _unchanged(state, Betray(7, 1, 0), None, IllegalActionError)
    assert "player 0 holds no Stewart Influence card" in message


def test_action_illegal_advances_say_why() -> None:
    state = position(load(3), [". Mk . . .", FULL_BASE.strip()])
    assert "space 2.1 is taken" in _unchanged(state, Advance(1, 1, "right"), 0, IllegalActionError)
    assert "space 3.0 is empty" in _unchanged(state, Advance(3, 0, "right"), 0, IllegalActionError)
    assert "no space up-left of 1.0" in _unchanged(
        state, Advance(1, 0, "left"), 0, IllegalActionError
    )
    crowned = position(load(3), "Mk\nMk Bu\nMl Mb Br\nDo Ha St Ml\nMk Mb Br Bu Do\n" + FULL_BASE)
    assert "no card may advance once a King is crowned" in _unchanged(
        crowned, Advance(1, 1, "right"), 0, IllegalActionError
    )


@pytest.mark.parametrize(
    "bad",
    [object(), "advance 1.1 up-left", None, 12, Advance(9, 9, "left"), Betray(99, 1, 0)],
)
def test_action_malformed(bad: object) -> None:
    state = position(load(3), FULL_BASE)
    message = _unchanged(state, bad, 0, InvalidActionError)
    assert "is not an action of kings_kilt" in message


def test_action_text_that_does_not_parse() -> None:
    state = position(load(3), FULL_BASE)
    with pytest.raises(InvalidActionError, match="is not an action of this game"):
        state.apply_text("advance 1.1 sideways")
    with pytest.raises(InvalidActionError, match="is not an action of this game"):
        state.apply_text("betray 4.0 with Wallace")


def test_action_at_a_terminal_state() -> None:
    state = position(load(2), "Mk\nMk Bu", passed=[1])
    end = state.apply(Pass())
    assert end.is_terminal
    message = _unchanged(end, Pass(), None, IllegalActionError)
    assert "the game is over" in message


# -- saved states ------------------------------------------------------------------------------


def _midgame() -> KingsKiltState:
    game = load(3)
    record, _, _ = random_playout(game, clangames.Rng(5))
    states = list(record.replay())
    state = next(s for s in states[60:] if s.phase.name == "turn")
    assert isinstance(state, KingsKiltState)
    return state


def _corrupt(data: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    change(out["state"])
    return out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.__setitem__("top", "Bruce"), r"state\.top: expected an integer, got 'Bruce'"),
        (lambda s: s.__setitem__("crowned", 1), r"state\.crowned: expected true or false"),
        (lambda s: s["hands"].__setitem__(1, 5), r"state\.hands\[1\]: expected an object"),
        (lambda s: s.pop("passed"), r"state: missing field\(s\) 'passed'"),
        (lambda s: s.__setitem__("wallace", 1), r"state: unknown field\(s\) 'wallace'"),
        (
            lambda s: s["removed"]["counts"].__setitem__(0, s["removed"]["counts"][0] + 1),
            r"state\.cards: clan Macleod has 9 cards accounted for, expected 8",
        ),
        (lambda s: s["pyramid"].__setitem__(0, 8), r"state\.pyramid\[0\]: expected a clan index"),
        (lambda s: s.__setitem__("pyramid", s["pyramid"][:20]), r"state\.pyramid: expected 21"),
        (lambda s: s.__setitem__("families", [7, 7]), r"state\.families: expected one entry"),
        (lambda s: s["revealed"].__setitem__(0, 255), r"state\.revealed\[0\]: reveals a card"),
        (lambda s: s.__setitem__("dealt", 4), r"state\.dealt: expected 0\.\.0"),
        (
            lambda s: s["phase"].__setitem__("to_move", [-1]),
            r"state\.phase\.to_move: the turn step belongs to the actor",
        ),
        (lambda s: s["phase"].__setitem__("name", "feast"), r"state\.phase\.name: expected one"),
    ],
)
def test_state_json_corrupt(change: Any, message: str) -> None:
    state = _midgame()
    assert state.phase.name == "turn"
    data = state.to_json()
    with pytest.raises(StateDecodeError, match=message):
        state.game.state_from_json(_corrupt(data, change))


def test_state_json_wrong_game_params_or_text() -> None:
    state = _midgame()
    data = state.to_json()
    with pytest.raises(StateDecodeError, match=r"state\.game: this is 'kings_kilt'"):
        state.game.state_from_json({**data, "game": "kilt_castle"})
    with pytest.raises(StateDecodeError, match=r"state\.params"):
        load(4).state_from_json(data)
    with pytest.raises(StateDecodeError, match="not valid JSON"):
        state.game.state_from_json(json.dumps(data)[:-3])
    with pytest.raises(StateDecodeError, match="missing field 'state'"):
        state.game.state_from_json({"game": "kings_kilt", "params": data["params"]})


def test_state_json_round_trip_at_many_points() -> None:
    game = load(4)
    record, _, _ = random_playout(game, clangames.Rng(21))
    phases = set()
    for state in record.replay():
        text = json.dumps(state.to_json())
        back = game.state_from_json(text)
        assert back == state
        assert back.to_json() == state.to_json()
        assert back.legal_actions() == state.legal_actions()
        assert isinstance(state, KingsKiltState)
        phases.add(state.phase.name)
    assert phases >= {"deal_family", "deal_third", "deal_influence", "build_base", "turn"}
    assert phases >= {"reveal_top", "over"}


def test_record_save_and_replay_round_trip() -> None:
    game = load(3, first_player=1, betrayal_match="target")
    record, final, _ = random_playout(game, clangames.Rng(8))
    text = record.dumps()
    again = GameRecord.from_json(text)
    assert again == record
    assert again.final_state() == final
    assert final.is_terminal
    assert again.params == {
        "players": 3,
        "first_player": 1,
        "betrayal_match": "target",
        "components": None,
    }
    assert [m.action for m in again.moves][:2] == [m.action for m in record.moves][:2]
    broken = json.loads(text)
    broken["moves"][40][1] = "advance 6.0 up-left"
    with pytest.raises(StateDecodeError, match=r"record\.moves\[40\]"):
        GameRecord.from_json(broken).final_state()
