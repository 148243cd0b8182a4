"""What the OpenSpiel adapter declares about each game is what the game is: its dynamics,
chance mode, information, rewards, player counts, names and parameter defaults (the
``openspiel`` extra).

Found by the adapters' mutation audit: a sequential variant named like the simultaneous
game, a deterministic chance mode, per-step rewards, the wrong player range and a game
that stops offering its information-state strings all passed every test before.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from clangames.adapters.openspiel import load_game, register_games  # noqa: E402

GameType = pyspiel.GameType

# (name, sequential): dynamics, information, players range, long name
DECLARED = {
    ("clan_feud", False): ("SIMULTANEOUS", "IMPERFECT_INFORMATION", (2, 5), "Clan Feud"),
    ("clan_feud", True): (
        "SEQUENTIAL",
        "IMPERFECT_INFORMATION",
        (2, 5),
        "Clan Feud (sequential commitments)",
    ),
    ("kilt_castle", False): ("SEQUENTIAL", "PERFECT_INFORMATION", (2, 4), "Kilt Castle"),
    ("kings_kilt", False): ("SEQUENTIAL", "IMPERFECT_INFORMATION", (2, 4), "King's Kilt"),
    ("koa_kingmaker", False): ("SIMULTANEOUS", "IMPERFECT_INFORMATION", (2, 5), "KOA Kingmaker"),
    ("koa_kingmaker", True): (
        "SEQUENTIAL",
        "IMPERFECT_INFORMATION",
        (2, 5),
        "KOA Kingmaker (sequential commitments)",
    ),
}


@pytest.mark.parametrize(("name", "sequential"), sorted(DECLARED))
def test_the_game_type_is_the_game_s(name: str, sequential: bool) -> None:
    dynamics, information, (low, high), long_name = DECLARED[(name, sequential)]
    game_type = load_game(name, sequential=sequential, players=2).get_type()
    assert game_type.short_name == "clangames_" + name + ("_sequential" if sequential else "")
    assert game_type.long_name == long_name
    assert game_type.dynamics == getattr(GameType.Dynamics, dynamics)
    assert game_type.information == getattr(GameType.Information, information)
    # every game deals or draws: chance outcomes are explicit, with their probabilities
    assert game_type.chance_mode == GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.reward_model == GameType.RewardModel.TERMINAL
    assert (game_type.min_num_players, game_type.max_num_players) == (low, high)
    assert game_type.provides_information_state_string
    assert not game_type.provides_information_state_tensor
    assert game_type.provides_observation_string and game_type.provides_observation_tensor


def test_the_registered_types_agree_with_the_loaded_games() -> None:
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    for short in register_games():
        game_type = registered[short]
        loaded = pyspiel.load_game(short).get_type()
        assert (game_type.long_name, game_type.dynamics, game_type.max_num_players) == (
            loaded.long_name,
            loaded.dynamics,
            loaded.max_num_players,
        )


def test_parameter_defaults_are_typed_and_given_values_reach_the_kernel() -> None:
    game = load_game("kings_kilt", players=4, first_player=2, betrayal_match="traitor")
    assert game.get_parameters() == {
        "players": 4,
        "first_player": 2,
        "betrayal_match": "traitor",
        "components": "",
    }
    assert game.clangames.params["first_player"] == 2
    spec = pyspiel.registered_games()
    kk = next(t for t in spec if t.short_name == "clangames_kings_kilt")
    assert kk.parameter_specification["players"] == 3  # the int default, not its text
    # the empty string is "the bundled data", not a file called ""
    plain = pyspiel.load_game("clangames_kings_kilt(players=3,components=)")
    assert plain.clangames.params["components"] is None
