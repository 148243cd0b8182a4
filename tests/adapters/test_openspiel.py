"""Every clangames game through OpenSpiel's own tests (the ``openspiel`` extra)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import clangames  # noqa: E402
from clangames.adapters.openspiel import (  # noqa: E402
    NO_MOVE_TEXT,
    load_game,
    make_resampler,
    openspiel_name,
    register_games,
)

NAMES = register_games()

# (OpenSpiel name, players, simulations): every game and variant at every player count;
# Clan Feud, whose games are the longest, with fewer simulations.
CASES = [
    (openspiel_name(spec.name, sequential), n, 1 if spec.name == "clan_feud" else 2)
    for spec in clangames.games()
    for sequential in ((False, True) if spec.facts().has_simultaneous_moves else (False,))
    for n in range(spec.min_players, spec.max_players + 1)
]


def test_every_game_and_variant_is_registered() -> None:
    assert sorted(NAMES) == sorted({name for name, _, _ in CASES})
    assert "clangames_koa_kingmaker_sequential" in NAMES


@pytest.mark.parametrize(("name", "players", "sims"), CASES)
def test_random_sim_test_with_serialization(name: str, players: int, sims: int) -> None:
    game = pyspiel.load_game(f"{name}(players={players})")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


OBSERVERS = {
    "default": pyspiel.IIGObservationType(perfect_recall=False),
    "public": pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    ),
    "information state": pyspiel.IIGObservationType(perfect_recall=True),
}


@pytest.mark.parametrize("observer", sorted(OBSERVERS))
@pytest.mark.parametrize(
    "name", ["clangames_koa_kingmaker", "clangames_kings_kilt", "clangames_kilt_castle"]
)
def test_random_sim_test_with_each_observer(name: str, observer: str) -> None:
    game = pyspiel.load_game(f"{name}(players=3)")
    made = game.make_observer(OBSERVERS[observer], {})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, observer=made)


def test_games_sim_test_on_every_game() -> None:
    games_sim_test = pytest.importorskip("open_spiel.python.tests.games_sim_test")
    case = games_sim_test.GamesSimTest("test_breakthrough")
    for name in NAMES:
        case.sim_game(pyspiel.load_game(name))
    case.sim_game(pyspiel.load_game_as_turn_based("clangames_koa_kingmaker"))


def test_sizes_separate_chance_from_decisions() -> None:
    game = load_game("koa_kingmaker", players=3)
    assert (game.num_distinct_actions(), game.max_chance_outcomes()) == (25, 12)
    sequential = load_game("koa_kingmaker", sequential=True, players=3)
    assert sequential.num_distinct_actions() == 24
    kk = load_game("kings_kilt", players=4)
    assert kk.max_game_length() < kk.clangames.info.max_game_length
    assert kk.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (kk.min_utility(), kk.max_utility(), kk.utility_sum()) == (0.0, 1.0, 1.0)
    # A parameter whose default is None is the empty string.
    assert kk.get_parameters()["components"] == ""
    assert kk.observation_tensor_size() == kk.clangames.observation_spec().size


def _play(game: Any, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = _play_one(game, state, rng)
    return state


def _play_one(game: Any, state: Any, rng: random.Random) -> Any:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_simultaneous_rounds_are_joint_and_out_houses_have_no_move() -> None:
    game = load_game("koa_kingmaker", players=3)
    state = _play(game, 3, 10_000)
    assert state.is_terminal()
    out = [p for p in range(3) if state.returns()[p] == 0.0]
    assert out, "someone lost"
    # Replay to a round where a house is out and check it owes nothing but "(no move)".
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_simultaneous_node():
            waiting = state.clangames.to_move
            for p in range(3):
                if p not in waiting:
                    assert state.legal_actions(p) == [game.num_distinct_actions() - 1]
                    assert state.action_to_string(p, state.legal_actions(p)[0]) == NO_MOVE_TEXT
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_clones_pickles_and_serialization_are_exact() -> None:
    game = load_game("kings_kilt", players=3)
    state = _play(game, 5, 60)
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    assert clone.clangames is state.clangames  # shared: the kernel state is immutable
    for p in range(3):
        assert clone.information_state_string(p) == state.information_state_string(p)
        assert clone.observation_tensor(p) == state.observation_tensor(p)
    action = clone.legal_actions()[0] if not clone.is_chance_node() else 0
    clone.apply_action(action)
    assert clone.history() != state.history()  # the original is untouched
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state)
    assert [back.information_state_string(p) for p in range(3)] == [
        state.information_state_string(p) for p in range(3)
    ]
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_information_state_strings_hide_what_the_seat_cannot_see() -> None:
    game = load_game("koa_kingmaker", sequential=True, players=3)
    root = game.new_initial_state()
    outcomes = [a for a, _ in root.chance_outcomes()]
    first, second = root.child(outcomes[0]), root.child(outcomes[1])
    # House 0's own inheritance card differs; houses 1 and 2 cannot tell.
    assert first.information_state_string(0) != second.information_state_string(0)
    assert first.information_state_string(1) == second.information_state_string(1)
    assert first.observation_tensor(2) == second.observation_tensor(2)
    assert first.observation_tensor(0) != second.observation_tensor(0)


def test_ismcts_plays_through_the_resampler() -> None:
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = load_game("koa_kingmaker", sequential=True, players=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, max_simulations=20, random_state=np.random.RandomState(1)
    )
    bot.set_resampler(make_resampler(7))
    state = game.new_initial_state()
    rng = random.Random(2)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 3
    assert sum(state.returns()) == pytest.approx(1.0)


def test_observers_follow_the_kernel_and_their_tensors_are_read_only() -> None:
    # The observers patch their tensor from view to view: every view, in any order
    # (seats, the public view, states far apart), is the kernel's tensor.
    observation = pytest.importorskip("open_spiel.python.observation")
    game = load_game("clan_feud", players=3)
    default = observation.make_observation(game, OBSERVERS["default"])
    public = observation.make_observation(game, OBSERVERS["public"])
    states: list[Any] = []
    state = game.new_initial_state()
    rng = random.Random(4)
    while len(states) < 60 and not state.is_terminal():
        states.append(state.clone())
        state = _play_one(game, state, rng)
    for s in [*states, *reversed(states[::7])]:
        kernel = s.clangames
        for p in range(3):
            default.set_from(s, p)
            expected = np.array(kernel.observation_tensor(p), np.float32)
            assert np.array_equal(default.tensor, expected)
            assert s.observation_tensor(p) == expected.tolist()  # through OpenSpiel's C++
        public.set_from(s, 0)
        assert np.array_equal(
            public.tensor, np.array(kernel.public_observation_tensor(), np.float32)
        )
    spec = game.clangames.observation_spec()
    hand = next(part for part in spec.parts if part.name == "hand")
    assert np.array_equal(default.dict["hand"], default.tensor[hand.start : hand.start + hand.size])
    assert "hand" not in public.dict
    with pytest.raises(ValueError, match="read-only"):
        default.tensor[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        default.dict["phase"][0] = 1.0


@pytest.mark.parametrize(
    ("name", "sequential"),
    [("clan_feud", False), ("clan_feud", True), ("koa_kingmaker", False), ("kings_kilt", False)],
)
def test_python_queries_answer_as_openspiel_s_own(name: str, sequential: bool) -> None:
    # legal_actions, is_chance_node, is_simultaneous_node and observation_tensor answer
    # from Python without the C++ round trip: the same answers, at every kind of node.
    game = load_game(name, sequential=sequential, players=3)
    state = game.new_initial_state()
    rng = random.Random(8)
    kinds: set[Any] = set()
    expected = {"decision", int(pyspiel.PlayerId.CHANCE)}
    if name == "koa_kingmaker":  # rounds of sealed cards (Clan Feud's battles are rarer)
        expected.add(int(pyspiel.PlayerId.SIMULTANEOUS))
    for step in range(600):
        if step > 60 and expected <= kinds:
            break
        base = pyspiel.State
        assert state.is_chance_node() == base.is_chance_node(state)
        assert state.is_simultaneous_node() == base.is_simultaneous_node(state)
        assert state.legal_actions() == base.legal_actions(state)
        for p in range(3):
            assert state.legal_actions(p) == base.legal_actions(state, p)
            assert state.observation_tensor(p) == base.observation_tensor(state, p)
        if state.current_player() >= 0:
            assert state.observation_tensor() == base.observation_tensor(state)
        else:
            with pytest.raises(pyspiel.SpielError):
                state.observation_tensor()
        kinds.add(state.current_player() if state.current_player() < 0 else "decision")
        if state.is_terminal():
            break
        state = _play_one(game, state, rng)
    assert expected <= kinds
