"""Bad seeds and bad bot settings are the library's own errors (InvalidArgumentError, still
a ValueError), a NumPy integer is a seed like any int, and an ISMCTS bot that nothing
would ever stop is refused when it is made.

Found by the fuzz4 sweep: ``Rng``, the bots and ``Match`` refused a bad seed, and the bots
a bad setting or the chance seat, with a bare ValueError (not a ClanGamesError, so a
caller catching the library's errors missed them); ``Rng(numpy.int64(3))`` and so a
PettingZoo ``reset(seed=numpy.int64(3))`` were refused, though the API takes integers of
any type; and ``ISMCTSBot(iterations=None, time_limit=inf)`` made a bot whose ``act``
never returned.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import clangames
from clangames import ClanGamesError, InvalidArgumentError, Match, Rng
from clangames.bots import ISMCTSBot, RandomBot, make_bot


def _decision() -> clangames.State:
    game = clangames.load("kings_kilt", players=3)
    return clangames.resolve_chance(game.initial_state(), Rng(1))


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1", True, None, [1]])
def test_a_bad_seed_is_the_same_library_error_everywhere(seed: Any) -> None:
    game = clangames.load("kings_kilt", players=3)
    makers = [
        Rng,
        RandomBot,
        ISMCTSBot,
        lambda s: make_bot("ismcts", s),
        lambda s: Match(game, s),
    ]
    refusal = r"Rng seed must be an int in \[0, 2\*\*64\)"
    for make in makers:
        with pytest.raises(InvalidArgumentError, match=refusal):
            make(seed)


def test_a_numpy_integer_is_a_seed() -> None:
    np = pytest.importorskip("numpy")
    assert Rng(np.int64(3)) == Rng(3) and type(Rng(np.uint64(2**64 - 1)).state) is int
    assert Rng(np.uint64(2**64 - 1)).state == 2**64 - 1
    with pytest.raises(InvalidArgumentError, match=r"got np\.int64"):
        Rng(np.int64(-1))
    pytest.importorskip("pettingzoo")
    from clangames.adapters.pettingzoo import aec_env

    a, b = aec_env("kings_kilt", players=3), aec_env("kings_kilt", players=3)
    a.reset(seed=np.int64(7))
    b.reset(seed=7)
    assert a.state_now == b.state_now


@pytest.mark.parametrize(
    "settings",
    [
        {"iterations": 0},
        {"iterations": 2.5},
        {"time_limit": 0},
        {"time_limit": "1"},
        {"exploration": math.nan},
        {"rollout_limit": -1},
        {"iterations": None, "time_limit": None},
    ],
)
def test_every_bad_ismcts_setting_is_a_library_error(settings: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgumentError, match="ISMCTSBot needs"):
        ISMCTSBot(1, **settings)


def test_a_search_that_nothing_would_stop_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="finite time_limit when iterations is None"):
        ISMCTSBot(1, iterations=None, time_limit=math.inf)
    # With a cap the infinite limit is harmless: the cap stops the search.
    bot = ISMCTSBot(1, iterations=3, time_limit=math.inf)
    state = _decision()
    assert bot.act(state, 0) in state.legal_actions(0) and bot.last_iterations == 3


@pytest.mark.parametrize("bot", [RandomBot(1), ISMCTSBot(1, iterations=2)])
def test_the_chance_seat_is_refused_with_a_library_error(bot: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="does not play chance nodes"):
        bot.act(_decision(), clangames.CHANCE)
    assert issubclass(InvalidArgumentError, ClanGamesError)
