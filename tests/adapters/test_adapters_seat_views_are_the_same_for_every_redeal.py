"""What the PettingZoo environments and the OpenSpiel adapter give a seat is the same in
every state the seat cannot tell apart from the real one (its re-deals), for every game
and player count: PettingZoo's observation, action mask and rendering (rewards are the
public returns at the end, infos only flag an agent's own illegal action);
OpenSpiel's observation and information-state strings and tensors (the default, public
and perfect-recall observers), legal actions, current player and text (the ``pettingzoo``
and ``openspiel`` extras)."""

from __future__ import annotations

from typing import Any

import pytest

from clangames import State
from redeal_helpers import COUNT_IDS, COUNTS, QUICK, SOAK_SAMPLE, Sample, redeals
from testing.soak import soak_test

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from clangames.adapters.openspiel import OpenSpielGame, OpenSpielState  # noqa: E402
from clangames.adapters.openspiel import load_game as openspiel_game  # noqa: E402
from clangames.adapters.pettingzoo import aec_env, parallel_env  # noqa: E402


def _pettingzoo(env: Any, state: State, seat: int, render: bool) -> Any:
    """What an AEC or Parallel environment set to ``state`` gives ``seat``'s agent (and
    its rendering, the public table, if ``render``)."""
    env.state_now = state
    agent = env.possible_agents[seat]
    # the Parallel environment hands out every agent's observation from one function
    seen = env.observe(agent) if hasattr(env, "observe") else env._observations()[agent]
    drawn = env.render() if render else None
    return seen["observation"].tobytes(), seen["action_mask"].tobytes(), drawn


def _openspiel(game: OpenSpielGame, state: State, seat: int) -> Any:
    """What the OpenSpiel adapter gives player ``seat`` of ``state``, through every
    observer it offers."""
    adapted = OpenSpielState(game, state)
    views = []
    for kind in (
        None,
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
        pyspiel.IIGObservationType(perfect_recall=True),
    ):
        observer = game.make_py_observer(kind)
        observer.set_from(adapted, seat)
        tensor = None if observer.tensor is None else observer.tensor.tolist()
        views.append((observer.string_from(adapted, seat), tensor))
    legal = adapted.legal_actions(seat) if adapted.current_player() == seat else []
    return (
        adapted.observation_string(seat),
        adapted.observation_tensor(seat),
        adapted.information_state_string(seat),
        adapted.current_player(),
        legal,
        str(adapted),
        views,
    )


def _check(name: str, players: int, sample: Sample) -> int:
    envs: list[Any] = [aec_env(name, players=players)]
    if envs[0].game.info.has_simultaneous_moves:
        envs.append(parallel_env(name, players=players))
    for env in envs:
        env.reset(seed=1)
    games = [openspiel_game(name, players=players)]
    if envs[0].game.info.has_simultaneous_moves:
        games.append(openspiel_game(name, sequential=True, players=players))
    compared = 0
    for where, seat, state, other in redeals(name, players, sample):
        # The rendering is the public table, the same for every agent and both kinds of
        # environment (one function draws it), and a Clan Feud board costs about 20 ms:
        # one agent's re-deal of each state is compared.
        render = seat == (compared // players) % players
        for env in envs:
            real = _pettingzoo(env, state, seat, render and env is envs[0])
            again = _pettingzoo(env, other, seat, render and env is envs[0])
            assert again == real, f"{name}, {players} players, {where}"
        for game in games:
            real = _openspiel(game, state, seat)
            assert _openspiel(game, other, seat) == real, f"{name}, {players} players, {where}"
        compared += 1
    return compared


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_an_agent_is_given_the_same_in_every_redeal(name: str, players: int) -> None:
    assert _check(name, players, QUICK) > 0


@soak_test
@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_an_agent_is_given_the_same_in_every_redeal_soak(name: str, players: int) -> None:
    assert _check(name, players, SOAK_SAMPLE) > 0
