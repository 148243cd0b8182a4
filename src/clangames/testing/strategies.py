"""Hypothesis strategies for clangames: seeds, parameters, legal action sequences and the
states they reach.

Paths are drawn as lists of small integers, each picking one of the options at its step
(a legal action, or a chance outcome), so a failing example shrinks to a short path of
first choices. Needs Hypothesis (the ``test`` extra).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import strategies as st

from clangames.engine.errors import InvalidArgumentError
from clangames.engine.game import Game, GameSpec
from clangames.engine.integers import as_integer
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.engine.registry import game_spec, load
from clangames.engine.state import State


def seeds() -> st.SearchStrategy[int]:
    """Seeds for :class:`~clangames.engine.rng.Rng`."""
    return st.integers(min_value=0, max_value=2**64 - 1)


def parameters(game: str | GameSpec) -> st.SearchStrategy[dict[str, Any]]:
    """Valid parameter sets of a registered game: any player count, any choice value;
    other parameters keep their defaults."""
    spec = game if isinstance(game, GameSpec) else game_spec(game)
    fields: dict[str, st.SearchStrategy[Any]] = {
        "players": st.integers(spec.min_players, spec.max_players)
    }
    for p in spec.parameters:
        if p.choices is not None:
            fields[p.name] = st.sampled_from(p.choices)
    return st.fixed_dictionaries(fields)


def loaded_games(game: str | GameSpec) -> st.SearchStrategy[Game]:
    """Loaded games with parameters from :func:`parameters` (other parameters default)."""
    spec = game if isinstance(game, GameSpec) else game_spec(game)
    return parameters(spec).map(lambda params: load(spec.name, **params))


def follow_path(game: Game, choices: Sequence[int]) -> tuple[State, GameRecord]:
    """Apply one option per choice (``choice % number of options``) from the initial
    state, stopping early at the end of the game. At a simultaneous node the choice first
    picks which player commits, then what.

    InvalidArgumentError, before any move, for a ``game`` that is not a loaded game or a
    choice that is not an integer (a float or a string used to fail part way with a
    bare TypeError)."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(
            f"follow_path needs a loaded Game (clangames.load(...)), got {game!r:.80}"
        )
    if isinstance(choices, str | bytes) or not isinstance(choices, Iterable):
        raise InvalidArgumentError(f"follow_path needs a sequence of ints, got {choices!r:.80}")
    choices = list(choices)
    for position, choice in enumerate(choices):
        value = as_integer(choice)
        if value is None:
            raise InvalidArgumentError(
                f"follow_path: choice {position} must be an int, got {choice!r:.80}"
            )
        choices[position] = value
    state = game.initial_state()
    record = GameRecord.start(game)
    it = iter(choices)
    for choice in it:
        if state.is_terminal:
            break
        movers = state.to_move
        player = movers[0]
        if len(movers) > 1:
            player = movers[choice % len(movers)]
            choice = next(it, 0)
        legal = state.legal_actions(player)
        action = legal[choice % len(legal)]
        record = record.with_move(state, action, player)
        state = state.apply(action, None if player == CHANCE else player)
    return state, record


def action_paths(max_steps: int = 400) -> st.SearchStrategy[list[int]]:
    """Raw choice lists for :func:`follow_path` (they shrink towards short, all-zero)."""
    return st.lists(st.integers(min_value=0, max_value=2**16), max_size=max_steps)


def legal_action_sequences(game: Game, max_steps: int = 400) -> st.SearchStrategy[GameRecord]:
    """Records of legal play (chance outcomes included) from the initial state."""
    return action_paths(max_steps).map(lambda path: follow_path(game, path)[1])


def reachable_states(game: Game, max_steps: int = 400) -> st.SearchStrategy[State]:
    """States reachable from the initial state by legal play."""
    return action_paths(max_steps).map(lambda path: follow_path(game, path)[0])
