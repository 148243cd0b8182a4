"""KOA Kingmaker's length bounds (koa_kingmaker/bounds.py): the derived values, the
potential argument followed along played games, the harness's check, a policy that
prolongs the game and random games' means."""

from __future__ import annotations

from typing import Any

import pytest

from bounds_helpers import observe, play_to_end, random_policy
from clangames.engine.interop import LengthBounds
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.koa_kingmaker.actions import Discard, Nominate, Play, Recover, RecoverNothing
from clangames.koa_kingmaker.bounds import (
    hand_value,
    potential,
    start_hand_value,
    start_potential,
)
from clangames.koa_kingmaker.cards import (
    BANNER,
    CHARACTERS,
    FANATIC,
    GOLD,
    JESTER,
    MARSHALS,
    SEER,
    THIEF,
)
from clangames.testing import check_game

from .helpers import card_invariant, load

EXPECTED = {
    2: LengthBounds(decisions=124, chance=104),
    3: LengthBounds(decisions=185, chance=160),
    4: LengthBounds(decisions=185, chance=160),
    5: LengthBounds(decisions=185, chance=5),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bounds_follow_the_derivation(players: int) -> None:
    game = load(players)
    bounds = game.interop.bounds
    assert bounds == EXPECTED[players]
    start = game.initial_state()
    h = game.houses
    assert start_potential(game) == h * (6 * h + 7) == potential(start)
    assert start_hand_value(game) == h * (6 * h + 1) == hand_value(start)
    # every step is a commitment, another decision or a chance node
    assert bounds.decisions * players + bounds.chance <= game.info.max_game_length


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_harness_keeps_every_game_within_the_bounds(players: int) -> None:
    game = load(players)
    report = check_game(game, playouts=15, seed=16_100 + players, invariant=card_invariant)
    assert report.playouts == 15


def prolong(state: State, player: int, rng: Rng) -> tuple[object, Rng]:
    """Everyone plays to make the game last, seeing the whole table (a test may): a Thief
    once a Gold is on the table and something waits in the discards, else a Gold while
    something can come back, else the cheapest character (Seer, Marshals, Banner,
    Fanatic, Jester), else a nomination onto the house with the most Royals left; returns
    bring back a Gold, else a Thief, else a Jester; a Jester is given up before a Royal."""
    s: Any = state
    legal = state.legal_actions(player)
    by_card = {a.card: a for a in legal if isinstance(a, Play)}
    noms = [a for a in legal if isinstance(a, Nominate)]
    if by_card or noms:
        on_table = set(s.table.ids)
        waiting = s.discards[player] & CHARACTERS
        if THIEF in by_card and GOLD in on_table and waiting:
            return by_card[THIEF], rng
        if GOLD in by_card and waiting and THIEF not in on_table:
            return by_card[GOLD], rng
        for card in (SEER, MARSHALS, BANNER, FANATIC, JESTER, THIEF, GOLD):
            if card in by_card:
                return by_card[card], rng
        most = max(s.courts[a.house].bit_count() for a in noms)
        return rng.choice([a for a in noms if s.courts[a.house].bit_count() == most])
    recovers = {a.card: a for a in legal if isinstance(a, Recover)}
    if recovers or any(isinstance(a, RecoverNothing) for a in legal):
        for card in (GOLD, THIEF, JESTER, SEER, MARSHALS, BANNER, FANATIC):
            if card in recovers:
                return recovers[card], rng
        return legal[0], rng
    discards = {a.card: a for a in legal if isinstance(a, Discard)}
    if JESTER in discards:
        return discards[JESTER], rng
    return rng.choice(legal)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_potential_pays_for_every_decision_and_seal(players: int) -> None:
    """The derivation's claims themselves, on whole games: decisions <= Phi_0 - Phi_end
    and seals <= Psi_0 - Psi_end."""
    game = load(players)
    for policy in (prolong, random_policy):
        for seed in range(10):
            count, end = play_to_end(game, policy, seed)
            assert count.decisions <= start_potential(game) - potential(end)  # type: ignore[arg-type]
            seals = count.chance - game.houses
            assert seals <= start_hand_value(game) - hand_value(end)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_prolonging_policy_against_the_bounds(players: int) -> None:
    game = load(players)
    seen = observe(game, prolong, range(10))
    randomly = observe(game, random_policy, range(20))
    # Measured (10 prolonged games, 20 random): the longest prolonged game reaches
    # 0.25-0.28 of the decision bound (2-5 players), random games' mean 0.12-0.15; the
    # bound charges every character in every hand, and no policy here plays the
    # Gold-and-Thief cycles that would use them all.
    assert seen.decision_ratio >= 0.2
    assert seen.max_decisions > 1.5 * randomly.mean_decisions
