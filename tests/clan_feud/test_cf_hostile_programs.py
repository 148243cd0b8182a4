"""Users' Clan Feud event and action files with hostile programs (every combinator nested,
ORs nobody can pay, costs that stop a program, draws from an empty deck, conditions
nobody meets): each is refused at load with a clear InvalidParameterError naming the file,
or loads and plays to the end with every reader of every step working: the narration
(``words.told``, the aftermath, ``narrate`` for everyone and for the mover), ``describe``
and ``explain_illegal``, the text and SVG renderers, saved-state and position round trips,
observations and re-deals; and the fast rollout ends where the step-by-step game does.

``CLANGAMES_FUZZ_SCALE=k`` multiplies the example counts (``CLANGAMES_SOAK=1``: 20)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_helpers import SCALE

from .cf_hostile import (
    action_programs,
    actions_file,
    event_primitives,
    events_file,
    load_or_refuse,
    play_through_everything,
    programs,
)

EVENT_PROGRAMS = programs(event_primitives(big=False))
FUZZ = settings(
    max_examples=SCALE,  # one example each by default: a game told step by step takes ~2 s
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(
    each=st.lists(EVENT_PROGRAMS, min_size=1, max_size=4),
    objective=st.lists(EVENT_PROGRAMS, max_size=3),
    final=st.none() | EVENT_PROGRAMS,
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
)
def test_hostile_event_programs_are_refused_or_play_and_read_everywhere(
    tmp_path_factory: pytest.TempPathFactory,
    each: list[str],
    objective: list[str],
    final: str | None,
    players: int,
    seed: int,
) -> None:
    tmp = tmp_path_factory.mktemp("events")
    game = load_or_refuse(players=players, events=events_file(tmp, each, objective, final))
    if game is not None:
        play_through_everything(game, seed)


@FUZZ
@given(replaced=action_programs(), players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_hostile_action_programs_are_refused_or_play_and_read_everywhere(
    tmp_path_factory: pytest.TempPathFactory, replaced: dict[int, str], players: int, seed: int
) -> None:
    tmp = tmp_path_factory.mktemp("actions")
    game = load_or_refuse(players=players, actions=actions_file(tmp, replaced))
    if game is not None:
        play_through_everything(game, seed)
