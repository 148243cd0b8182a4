"""What an OpenSpiel state shows each seat is the kernel's: information-state strings
asked along the way equal ones built from the whole history, the observers' strings are
the seat's (or the public) view, action strings name the right table, returns and rewards
are each seat's win share, and the text of a state is public (the ``openspiel`` extra).

Found by the adapters' mutation audit: an information state that re-applied its last
cached step, simultaneous commitments left out of the history, a public observer whose
string leaked the seat's hand, an information-state observer giving the plain
observation, chance outcomes named as decisions, and returns in the wrong seat order all
passed every test before.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from clangames import CHANCE  # noqa: E402
from clangames.adapters.openspiel import NO_MOVE_TEXT, load_game  # noqa: E402
from clangames.engine.interop import information_states  # noqa: E402

PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
RECALL = pyspiel.IIGObservationType(perfect_recall=True)


def _step(game: Any, state: Any, rng: random.Random, moves: list[tuple[int, int]]) -> None:
    """One random step, with the kernel's (mover, action id) of each move appended."""
    interop = game.clangames.interop
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        action = rng.choices(actions, probs)[0]
        moves.append((CHANCE, interop.chance_ids[action]))
        state.apply_action(action)
    elif state.is_simultaneous_node():
        joint = [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
        moves.extend((p, interop.decision_ids[joint[p]]) for p in state.clangames.to_move)
        state.apply_actions(joint)
    else:
        action = rng.choice(state.legal_actions())
        moves.append((state.current_player(), interop.decision_ids[action]))
        state.apply_action(action)


@pytest.mark.parametrize(("name", "sequential"), [("koa_kingmaker", False), ("kings_kilt", False)])
def test_information_states_asked_along_the_way_are_the_whole_history_s(
    name: str, sequential: bool
) -> None:
    game = load_game(name, sequential=sequential, players=3)
    state = game.new_initial_state()
    kernel_states = [state.clangames]
    moves: list[tuple[int, int]] = []
    rng = random.Random(11)
    for _ in range(40):
        if state.is_terminal():
            break
        for p in range(3):  # asked at every step: each answer extends the cached one
            expected = information_states(kernel_states, moves, p)
            assert state.information_state_string(p) == expected.text
        before = len(moves)
        _step(game, state, rng, moves)
        kernel_states.extend(
            _replay(kernel_states[-1], game, moves[before:]) if len(moves) - before > 1 else []
        )
        if len(moves) - before == 1:
            kernel_states.append(state.clangames)
    assert len(moves) > 20


def _replay(start: Any, game: Any, moves: list[tuple[int, int]]) -> list[Any]:
    """The kernel states after each of ``moves`` (one simultaneous round's commitments)."""
    table = game.clangames.actions.actions
    states = []
    for mover, kernel_id in moves:
        start = start.apply(table[kernel_id], mover)
        states.append(start)
    return states


def test_observer_strings_are_the_seat_s_the_public_and_the_information_state() -> None:
    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    moves: list[tuple[int, int]] = []
    while state.is_chance_node():
        _step(game, state, rng, moves)
    default = game.make_py_observer()
    public = game.make_py_observer(PUBLIC)
    recall = game.make_py_observer(RECALL)
    kernel = state.clangames
    for p in range(3):
        assert default.string_from(state, p) == repr(kernel.observation(p))
        assert public.string_from(state, p) == repr(kernel.public_observation())
        assert public.string_from(state, p) != default.string_from(state, p)  # no hand
        assert recall.string_from(state, p) == state.information_state_string(p)
    assert str(state) == f"{kernel.prompt()}\n{kernel.public_observation()!r}"


def test_observers_take_no_parameters() -> None:
    game = load_game("kings_kilt", players=3)
    with pytest.raises(ValueError, match=r"take no parameters, got \{'depth': 2\}"):
        game.make_py_observer(None, {"depth": 2})


def test_action_strings_name_chance_outcomes_and_decisions_from_their_own_tables() -> None:
    game = load_game("koa_kingmaker", players=3)
    kernel = game.clangames
    table = kernel.actions
    state = game.new_initial_state()
    for action, _ in state.chance_outcomes():
        expected = table.text(table.actions[kernel.interop.chance_ids[action]])
        assert state.action_to_string(CHANCE, action) == expected
    sequential = load_game("koa_kingmaker", sequential=True, players=3)
    last = sequential.num_distinct_actions() - 1
    expected = table.text(table.actions[kernel.interop.decision_ids[last]])
    assert sequential.new_initial_state().action_to_string(0, last) == expected != NO_MOVE_TEXT


def test_returns_and_rewards_are_each_seat_s_win_share() -> None:
    game = load_game("kings_kilt", players=3)
    lopsided = 0  # games whose returns read differently backwards
    for seed in range(6):
        state = game.new_initial_state()
        rng = random.Random(seed)
        moves: list[tuple[int, int]] = []
        while not state.is_terminal():
            assert state.returns() == [0.0, 0.0, 0.0] == state.rewards()
            _step(game, state, rng, moves)
        kernel = list(state.clangames.returns())
        assert state.returns() == kernel == state.rewards()
        winners = state.clangames.winners()
        assert [p for p in range(3) if kernel[p] > 0] == list(winners)
        assert sum(state.returns()) == pytest.approx(1.0)
        lopsided += kernel != kernel[::-1]
    assert lopsided


def test_chance_probabilities_are_the_kernel_s_weights_normalised() -> None:
    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    weights = state.clangames.chance_weights()
    total = sum(w for _, w in weights)
    ids = game.clangames.interop.chance_index
    expected = sorted((ids[game.clangames.action_id(a)], w / total) for a, w in weights)
    outcomes = sorted(state.chance_outcomes())
    assert [a for a, _ in outcomes] == [a for a, _ in expected]
    assert [p for _, p in outcomes] == pytest.approx([p for _, p in expected])
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_an_observation_tensor_of_a_seat_past_the_last_is_openspiel_s_error() -> None:
    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="player < num_players"):
        state.observation_tensor(3)


def test_only_a_simultaneous_round_gives_the_idle_seats_no_move() -> None:
    game = load_game("koa_kingmaker", players=3)
    state = game.new_initial_state()
    rng = random.Random(8)
    moves: list[tuple[int, int]] = []
    seen = set()
    while not state.is_terminal() and len(seen) < 2:
        if state.is_simultaneous_node():
            seen.add("round")
            idle = [p for p in range(3) if p not in state.clangames.to_move]
            assert all(state.legal_actions(p) == [game.num_distinct_actions() - 1] for p in idle)
        elif not state.is_chance_node():
            seen.add("turn")
            mover = state.current_player()
            for p in range(3):
                if p != mover:
                    assert state.legal_actions(p) == []
        _step(game, state, rng, moves)
    assert seen == {"round", "turn"}


def test_information_states_first_asked_late_or_after_a_pickle_are_the_history_s() -> None:
    game = load_game("kings_kilt", players=3)
    state = game.new_initial_state()
    rng = random.Random(9)
    moves: list[tuple[int, int]] = []
    kernel_states = [state.clangames]
    for _ in range(25):  # King's Kilt: one kernel move per step
        _step(game, state, rng, moves)
        kernel_states.append(state.clangames)
    back = pickle.loads(pickle.dumps(state))  # no information state asked before
    assert back.history() == state.history()
    for p in range(3):
        expected = information_states(kernel_states, moves, p).text
        assert back.information_state_string(p) == expected
        assert state.information_state_string(p) == expected  # first asked at the end
