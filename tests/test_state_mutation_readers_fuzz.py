"""Mutated saved states that ``state_from_json`` accepts go through every reader and both
ways of playing on: the text and SVG pictures for every seat, the observation tensors, the
position notation (which must read back to an equal state), the prompt and the words for
every option; the fast rollout (``clangames.rollout``, the rollout hooks on a state the
game did not make) must end where the step-by-step game with the same stream ends, and
``rollout_seats`` must play it too; none of it may change the state. Clan Feud included
(``test_state_mutation_fuzz`` leaves it out).

Found with it: Clan Feud's check accepted a finished game with stray modifiers, moved
troops or a battle; an army standing in another clan's territory; and even troop counts
beyond the supply (its quick path masked each count's lowest bit only).

``CLANGAMES_FUZZ_SCALE=k`` multiplies the example counts (``CLANGAMES_SOAK=1``: 20)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames import ClanGamesError, Rng, State
from clangames.engine.chance import sample_chance
from clangames.rendering.plain import render_state
from clangames.rendering.svg import state_picture
from fuzz_helpers import SCALE
from test_state_mutation_fuzz import mutated

CASES = [
    ("clan_feud", 2, 25),
    ("clan_feud", 4, 15),
    ("kings_kilt", 3, 25),
    ("koa_kingmaker", 3, 25),
    ("kilt_castle", 2, 25),
]


def step_by_step(state: State, seed: int) -> tuple[State, int]:
    """The end of the rollout's stream played with ``apply``: a chance outcome as
    ``sample_chance`` draws it, else a mover ``below(len(to_move))`` then an action
    ``below(len(legal))``."""
    rng, steps = Rng(seed), 0
    while not state.is_terminal:
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            state = state.apply(action)
        else:
            i, rng = rng.below(len(state.to_move))
            player = state.to_move[i]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            state = state.apply(legal[j], player)
        steps += 1
    return state, steps


def read_everything(game: Any, state: State) -> None:
    players = game.num_players
    for seat in range(players):
        render_state(state, seat)
        state_picture(state, seat)
        state.observation_tensor(seat)
    render_state(state)
    state_picture(state, everything=True)
    state.public_observation_tensor()
    assert game.state_from_position(state.to_position()) == state
    state.prompt()
    if state.is_chance:
        for action, _ in state.chance_weights():
            state.describe(action)
    else:
        for player in state.to_move:
            for action in state.legal_actions(player):
                state.describe(action)


@pytest.mark.parametrize(("name", "players", "examples"), CASES)
def test_accepted_mutants_read_and_roll_out_as_they_play(
    name: str, players: int, examples: int
) -> None:
    game = clangames.load(name, players=players)

    @settings(
        max_examples=examples * SCALE,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(case=mutated(name, players), seed=st.integers(0, 2**32))
    def check(case: Any, seed: int) -> None:
        _, text, done = case
        try:
            state = game.state_from_json(text)
        except ClanGamesError:
            return
        before = state.to_json()
        read_everything(game, state)
        end, steps = step_by_step(state, seed)
        fast, _, fast_steps = clangames.rollout(state, Rng(seed))
        assert (fast, fast_steps) == (end, steps), done
        clangames.rollout_seats(state, Rng(seed), [Rng(seed + 1 + i) for i in range(players)])
        assert state.to_json() == before, done

    check()
