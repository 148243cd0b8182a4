"""Card data (bundled and user files), parameters, declared facts, action texts, errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import clangames
from clangames.koa_kingmaker import Discard, Nominate, Play, Recover, RecoverNothing, load_cards
from clangames.koa_kingmaker.cards import JESTER, ROYAL

from .helpers import apply, load, play_round, start

BUNDLED = Path(clangames.koa_kingmaker.__file__).with_name("cards.toml")


def test_bundled_values_and_provenance() -> None:
    values = load_cards()
    assert values.court[JESTER] == 2 and values.hand[JESTER] == 6
    assert values.court[7:12] == (3,) * 5 and values.hand[7:12] == (0,) * 5
    assert values.court[ROYAL:] == (3, 4, 5)
    assert values.hand[:7] == (6, 3, 3, 2, 2, 3, 2)
    assert values.court[5] == 1  # Banner in court
    provenance = dict(values.provenance)
    assert provenance.pop("jester") == "rulebook"
    assert provenance.pop("nomination") == "rulebook"
    assert set(provenance.values()) == {"reconstructed"}


def test_a_user_file_changes_the_scores(tmp_path: Path) -> None:
    text = BUNDLED.read_text("utf-8").replace("court = 2\nhand = 6", "court = 10\nhand = 6")
    path = tmp_path / "cards.toml"
    path.write_text(text, "utf-8")
    game = load(5, cards=str(path))
    state = game.initial_state()
    assert game.values.court[JESTER] == 10
    assert state.scores() == (12 + 21,) * 5
    cards = {0: "Jester", 1: "Seer", 2: "Gold", 3: "Thief", 4: "Fanatic"}
    custom = play_round(start(5, cards=str(path)), cards)
    assert custom.scores()[0] == 12 + 10 + 15
    assert play_round(start(5), cards).scores()[0] == 12 + 2 + 15


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[jester]\ncourt = 2\n", "missing jester.hand"),
        ("not toml [", "is not valid TOML"),
        ("[bogus]\ncourt = 1\n", "unknown table(s) bogus"),
    ],
)
def test_a_bad_user_file_is_rejected(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(clangames.InvalidParameterError, match=re.escape(message)):
        load(5, cards=str(path))


def test_a_negative_value_and_a_bad_provenance_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BUNDLED.read_text("utf-8").replace("court = 5", "court = -5"), "utf-8")
    with pytest.raises(clangames.InvalidParameterError, match=r"royal_3\.court"):
        load(5, cards=str(path))
    path.write_text(
        BUNDLED.read_text("utf-8").replace('provenance = "rulebook"', 'provenance = "guess"', 1),
        "utf-8",
    )
    with pytest.raises(clangames.InvalidParameterError, match=r"jester\.provenance"):
        load(5, cards=str(path))
    with pytest.raises(clangames.InvalidParameterError, match="cannot be read"):
        load(5, cards=str(tmp_path / "missing.toml"))


def test_player_count_is_checked() -> None:
    for bad in (1, 6):
        with pytest.raises(clangames.InvalidParameterError, match="players"):
            load(bad)


def test_declared_facts() -> None:
    game = load(3)
    info = game.info
    assert info.num_distinct_actions == 36
    assert info.has_simultaneous_moves and info.has_chance and info.has_hidden_information
    assert not info.winners_follow_scores
    assert info.max_game_length == 5 + (2 * (5 * 35 + 5) + 15) * 20
    assert load(2).info.max_game_length == 4 + (2 * (5 * 28 + 4) + 12) * 16


def test_action_texts_round_trip() -> None:
    game = load(5)
    texts = [game.action_text(a) for a in game.actions.actions]
    assert texts[:8] == [
        "play Jester",
        "play Seer",
        "play Marshals",
        "play Gold",
        "play Thief",
        "play Banner",
        "play Fanatic",
        "nominate house 0",
    ]
    assert "discard Royal 3" in texts and "recover nothing" in texts
    assert game.parse_action("Nominate House 2") == Nominate(2)
    assert game.parse_action("household plays Seer") == game.action_from_id(13)
    assert all(game.parse_action(t) == a for t, a in zip(texts, game.actions.actions, strict=True))
    assert game.action_id(Play(0)) == 0 and game.action_id(Nominate(4)) == 11
    assert game.action_id(Recover(0)) == 24 and game.action_id(RecoverNothing()) == 31
    assert game.action_id(Discard(ROYAL + 2)) == 35


def test_illegal_actions_say_why() -> None:
    state = start()
    with pytest.raises(clangames.IllegalActionError, match="holds no nomination of itself"):
        state.apply(Nominate(0), 0)
    state = apply(state, Play(JESTER), 0)
    with pytest.raises(clangames.IllegalActionError, match="player 0 is not to move"):
        state.apply(Play(1), 0)
    state = play_round(start(), {0: "Jester", 1: "Seer", 2: "Gold", 3: "Thief", 4: "Banner"})
    assert state.round == 2
    with pytest.raises(clangames.IllegalActionError, match="the Jester is not in your hand"):
        state.apply(Play(JESTER), 0)


def test_describe_and_prompt_speak_plainly() -> None:
    state = start()
    assert state.prompt() == "round 1: players 0, 1, 2, 3, 4 put one card face down each"
    assert state.describe(Nominate(3)) == "puts the attack nomination of house 3 face down"
    state = play_round(state, {0: 1, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Fanatic"})
    assert state.prompt() == "player 1: you are hit; give up a Royal or your Jester"
    assert state.describe(Discard(ROYAL)) == "house 1 gives up its Royal 1 to the centre pile"


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("hands", 0), 0, "state.cards[0]: house 0's cards"),
        (("courts", 2), 1 << 14, "state.cards[2]"),
        (("table", "ids", 1), 12, "state.table.ids[1]: expected a playable card kind"),
        (("alive",), 0b01111, "state.out_round[4]"),
        (("inheritance", 1), 1, "state.inheritance: expected distinct numbers"),
        (("phase", "name"), "bidding", "state.phase.name"),
        (("phase", "to_move"), [0], "state.phase.to_move: the players still owing a card"),
        (("hits",), [[9, -1]], "state.hits[0]"),
    ],
)
def test_corrupt_saved_states_are_rejected_naming_the_field(
    path: tuple[str | int, ...], value: object, message: str
) -> None:
    state = start()
    data = state.to_json()
    node = data["state"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(clangames.StateDecodeError, match=re.escape(message)):
        state.game.state_from_json(data)
    assert state.game.state_from_json(state.to_json()) == state
