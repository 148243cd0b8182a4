"""ISMCTSBot: legal, reproducible, handles chance and simultaneous nodes, and plays well."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import pytest

import clangames
from clangames.bots import ISMCTSBot, RandomBot, make_bot

GAMES = int(os.environ.get("CLANGAMES_ISMCTS_GAMES", "200"))


def _duel(name: str, seed: int) -> float:
    """ISMCTS (modest budget) against RandomBot, seats alternating; ISMCTS's return."""
    game = clangames.load(name, players=2)
    seat = seed % 2
    policies = {
        seat: ISMCTSBot(seed, iterations=100, rollout_limit=20),
        1 - seat: RandomBot(seed + 10_000),
    }
    match = clangames.Match(game, seed, policies)
    match.run()
    return match.state.returns()[seat]


def test_ismcts_beats_random_in_two_player_kings_kilt() -> None:
    # spawn, as simulate uses: fork warns (and may deadlock) in a multi-threaded process.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
        results = list(pool.map(_duel, ["kings_kilt"] * GAMES, range(GAMES)))
    rate = sum(results) / GAMES
    assert rate >= 0.65, f"ISMCTS won {rate:.1%} of {GAMES} games"


CLAN_FEUD_GAMES = int(
    os.environ.get("CLANGAMES_ISMCTS_CF_GAMES", "100" if os.environ.get("CLANGAMES_SOAK") else "24")
)
"""Clan Feud games (about 15 s each on one core): 24 in CI (2.5 minutes on two workers; a
98% winner fails 65% over 24 games with probability below 1e-9), 100 with the soak switch
(CLANGAMES_SOAK=1), or CLANGAMES_ISMCTS_CF_GAMES."""


# Its own two processes beside the suite's two workers: about 90 s on the idle 2-core
# machine, but over the suite's 600 s on one shared with other jobs; a hang still fails.
@pytest.mark.timeout(1500)
def test_ismcts_beats_random_in_two_player_clan_feud() -> None:
    # with its action cards played for their actions (part 3): seats alternate by seed
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
        games = CLAN_FEUD_GAMES
        results = list(pool.map(_duel, ["clan_feud"] * games, range(games)))
    rate = sum(results) / CLAN_FEUD_GAMES
    assert rate >= 0.65, f"ISMCTS won {rate:.1%} of {CLAN_FEUD_GAMES} Clan Feud games"


@pytest.mark.parametrize("name", ["koa_kingmaker", "kilt_castle"])
def test_ismcts_beats_random_in_the_other_games(name: str) -> None:
    results = [_duel(name, seed) for seed in range(12)]
    assert sum(results) / len(results) >= 0.65


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker", "kilt_castle"])
def test_ismcts_is_reproducible_and_legal(name: str) -> None:
    game = clangames.load(name, players=3)
    records = []
    for _ in range(2):
        policies = {p: ISMCTSBot(p + 7, iterations=8, rollout_limit=10) for p in range(3)}
        match = clangames.Match(game, 5, policies)
        match.run()
        assert match.state.is_terminal
        records.append(match.record)
    assert records[0] == records[1]
    # the record replays: every move the bot made was legal
    assert records[0].final_state() == match.state


def test_ismcts_at_a_simultaneous_node_commits_for_its_own_seat() -> None:
    game = clangames.load("koa_kingmaker", players=3)
    state, _ = clangames.play_chance(game.initial_state(), clangames.Rng(3))
    assert state.is_simultaneous
    for player in state.to_move:
        action = ISMCTSBot(1, iterations=10).act(state, player)
        assert action in state.legal_actions(player)


def test_ismcts_rejects_a_bad_budget() -> None:
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(0, iterations=0)


def test_ismcts_is_registered_by_name() -> None:
    bot = make_bot("ismcts", clangames.Rng(4))
    assert isinstance(bot, ISMCTSBot)
