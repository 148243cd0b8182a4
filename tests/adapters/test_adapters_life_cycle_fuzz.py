"""Random sequences of life-cycle calls on the adapters (steps with legal, junk or no ids,
observe and last for any name, resets with any seed, copies, pickles, OpenSpiel
serializations with junk appended, joint actions of any length): only the library's own
errors come out (or OpenSpiel's, from its C++ checks and its argument binding), and a
refused call changes nothing.

Small by default (a few seconds); ``CLANGAMES_SOAK=1`` runs 20 times the examples (the
fuzz4 sweep ran 7,500 examples with nothing found once the faults pinned in
``test_adapters_life_cycle_refusals.py`` were fixed).
"""

from __future__ import annotations

import copy
import os
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from clangames.adapters.pettingzoo import aec_env, parallel_env  # noqa: E402
from clangames.engine.errors import ClanGamesError  # noqa: E402

EXAMPLES = 25 * (20 if os.environ.get("CLANGAMES_SOAK") == "1" else 1)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
JUNK = st.one_of(
    st.integers(-3, 400),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.just(np.int64(1)),
    st.just(np.float32(2)),
    st.lists(st.integers(0, 3), max_size=3),
)
KINDS = ["legal", "legal", "legal", "junk", "observe", "last", "reset", "copy", "render"]


def _aec_call(env: Any, players: int, kind: str, junk: Any, pick: int, seed: int) -> Any:
    """One call of ``kind``; returns the environment (a copy replaces it)."""
    if kind == "reset":
        env.reset(seed=junk if pick % 3 == 0 else seed)
    elif kind == "observe":
        env.observe(junk if pick % 2 else f"player_{pick % (players + 1)}")
    elif kind == "last":
        env.last()
    elif kind == "copy":
        return copy.deepcopy(env) if pick % 2 else pickle.loads(pickle.dumps(env))
    elif kind == "render":
        env.render()
    elif kind == "junk":
        env.step(junk)
    elif not env.agents:
        env.step(0)
    else:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[pick % len(legal)]))
    return env


@FUZZ
@given(
    game=st.sampled_from([("kings_kilt", 2), ("koa_kingmaker", 3), ("kilt_castle", 2)]),
    ops=st.lists(st.tuples(st.sampled_from(KINDS), JUNK, st.integers(0, 2**16)), max_size=60),
    seed=st.integers(0, 2**64 - 1),
)
def test_any_aec_calls_raise_only_library_errors_and_refusals_change_nothing(
    game: tuple[str, int], ops: list[tuple[str, Any, int]], seed: int
) -> None:
    env = aec_env(game[0], players=game[1])
    for kind, junk, pick in ops:
        before = (env.state_now, list(env.agents))
        try:
            env = _aec_call(env, game[1], kind, junk, pick, seed)
        except ClanGamesError:
            assert (env.state_now, list(env.agents)) == before


@FUZZ
@given(
    players=st.sampled_from([3, 4]),
    ops=st.lists(
        st.tuples(
            st.integers(0, 9),
            st.dictionaries(st.sampled_from(["player_0", "player_1", "player_3", "zz"]), JUNK),
            st.integers(0, 2**16),
        ),
        max_size=40,
    ),
    seed=st.integers(0, 99),
)
def test_any_parallel_steps_raise_only_library_errors_and_refusals_change_nothing(
    players: int, ops: list[tuple[int, dict[str, Any], int]], seed: int
) -> None:
    env = parallel_env("koa_kingmaker", players=players)
    observations, _ = env.reset(seed=seed)
    for kind, junk, pick in ops:
        before = env.state_now
        try:
            if kind == 0 or (kind > 2 and not env.agents):
                observations, _ = env.reset(seed=pick)
            elif kind < 3:
                env.step(junk)
            else:
                actions = {
                    a: int(np.flatnonzero(o["action_mask"])[pick % int(o["action_mask"].sum())])
                    for a, o in observations.items()
                    if a in env.agents
                }
                observations, *_ = env.step(actions)
        except ClanGamesError:
            assert env.state_now is before


@FUZZ
@given(
    game=st.sampled_from(
        [("kings_kilt", 3, False), ("koa_kingmaker", 3, False), ("koa_kingmaker", 3, True)]
    ),
    ops=st.lists(
        st.tuples(
            st.integers(0, 9),
            JUNK,
            st.integers(0, 2**16),
            st.lists(st.integers(-2, 40), max_size=5),
        ),
        max_size=40,
    ),
    junk_text=st.text(max_size=40),
)
def test_any_openspiel_calls_raise_only_library_or_openspiel_errors(
    game: tuple[str, int, bool], ops: list[tuple[int, Any, int, list[int]]], junk_text: str
) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from clangames.adapters.openspiel import load_game

    loaded = load_game(game[0], sequential=game[2], players=game[1])
    state = loaded.new_initial_state()
    for kind, junk, pick, ids in ops:
        if state.is_terminal():
            state = loaded.new_initial_state()
        history = state.history()
        try:
            if kind == 0:
                state = loaded.deserialize_state(state.serialize() if pick % 2 else junk_text)
            elif kind == 1:
                state = loaded.deserialize_state(state.serialize() + "\n".join(map(str, ids)))
            elif kind == 2:
                state.apply_action(junk)
            elif kind == 3 and state.is_simultaneous_node():
                state.apply_actions(ids)
            elif kind == 4:
                state.action_to_string(pick % 5 - 1, junk if isinstance(junk, int) else pick)
            elif kind == 5:
                state = pickle.loads(pickle.dumps(state)) if pick % 2 else state.clone()
            elif kind == 6:
                state.observation_tensor(pick % 5)
                state.information_state_string(pick % 5)
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[pick % len(outcomes)][0])
            elif state.is_simultaneous_node():
                joint = []
                for p in range(loaded.num_players()):
                    legal = state.legal_actions(p)
                    joint.append(legal[pick % len(legal)])
                state.apply_actions(joint)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick % len(legal)])
        except (ClanGamesError, pyspiel.SpielError):
            assert state.history() == history
        except TypeError as exc:  # pybind11's own argument check, before any clangames code
            assert "incompatible function arguments" in str(exc), exc
            assert state.history() == history
