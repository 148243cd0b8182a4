"""Audit: hidden information. ``observation(p)`` shows everything public plus p's own
hand; a battle commitment is sealed until both sides are in; ``resample(p)`` re-deals only
the other hands and the deck's unknown contents.

The leak test does not trust ``resample``: it deals the cards p cannot see anew by its own
hand and asks that p's observation and legal actions do not change.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.rng import Rng

from .cf_rules_helpers import load, position
from .cf_walk import random_step

SEALED = ("bcards", "btokens")


def _redeal(state: ClanFeudState, viewer: int, rng: Rng) -> ClanFeudState:
    """``state`` with every card ``viewer`` cannot see (the deck and the other hands)
    dealt again at random, hand sizes kept."""
    unseen = [
        d
        for d in range(len(state.deck))
        for _ in range(state.deck[d] + sum(h[d] for q, h in enumerate(state.hands) if q != viewer))
    ]
    cards, _ = rng.shuffled(unseen)
    hands = [list(h) for h in state.hands]
    at = 0
    for q, h in enumerate(state.hands):
        if q != viewer:
            hands[q] = [0] * len(h)
            for d in cards[at : at + sum(h)]:
                hands[q][d] += 1
            at += sum(h)
    deck = [0] * len(state.deck)
    for d in cards[at:]:
        deck[d] += 1
    return attrs.evolve(state, hands=tuple(tuple(h) for h in hands), deck=tuple(deck), options=None)


def _check_view(state: ClanFeudState, rng: Rng) -> Rng:
    public = state.public_observation()
    assert public.hand == ()
    for p in range(state.game.num_players):
        obs = state.observation(p)
        assert obs.hand == state.hands[p] and obs.deck_size == sum(state.deck)
        if state.phase.name in SEALED:
            # a committed side sees its own sealed card and tokens (England's battles leave
            # one side committed while the round is still sealed); another side's sealed
            # card must be in its hand: see the tests below
            assert (
                attrs.evolve(obs, viewer=-1, hand=(), known=public.known, battle=public.battle)
                == public
            )
            continue
        assert attrs.evolve(obs, viewer=-1, hand=(), known=public.known) == public
        rng, sub = rng.fork(1), rng.fork(2)
        other = _redeal(state, p, sub)
        assert other.observation(p) == obs, f"seat {p}'s view depends on unseen cards"
        if p in state.to_move:
            mine = state.legal_actions(p)
            assert other.legal_actions(p) == mine, f"seat {p}'s choices depend on unseen cards"
    return rng


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_no_view_depends_on_cards_the_viewer_cannot_see(players: int, seed: int) -> None:
    game = load(players)
    state: Any = game.initial_state()
    rng = Rng(seed)
    checks = Rng(seed + 100)
    held = 0
    while not state.is_terminal:
        checks = _check_view(state, checks)
        held = max(held, max(sum(h) for h in state.hands))
        state, rng = random_step(state, rng)
    assert held >= 1  # the walk did see hidden hands


def _sealed_battle(card: str, tokens: int) -> tuple[ClanFeudState, ClanFeudState]:
    """Seat 0 (attacking from Moray) commits ``card`` then ``tokens``; returns the state
    after its card and the state after its tokens, seat 1 yet to commit both times."""
    game = load(2)
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (3, 0, 0), (1, "inverness"): (3, 0, 0)},
        control={"moray": 0, "inverness": 1},
        hands={0: {"AC10": 1}, 1: {"AC02": 1}},
        feud=(3, 3),
    )
    s = s.apply_text("take 3 infantry").apply_text("territory inverness")
    assert s.phase.name == "bcards" and s.to_move == (0, 1)
    after_card = s.apply_text(card, 0)
    s = after_card.apply_text("no card", 1)
    assert s.phase.name == "btokens" and s.to_move == (0, 1)
    return after_card, s.apply_text(f"commit {tokens}", 0)


def test_a_commitment_is_sealed_until_both_are_in() -> None:
    played, committed = _sealed_battle("card AC10", 2)
    held, kept = _sealed_battle("no card", 0)
    # the opponent cannot tell a card from none, nor 2 tokens from 0: hand sizes and
    # tokens held move only at the reveal
    assert played.observation(1) == held.observation(1)
    assert committed.observation(1) == kept.observation(1)
    assert committed.public_observation() == kept.public_observation()
    assert committed.feud == (3, 3) and sum(committed.hands[0]) == 1
    # the committing side sees its own commitment
    assert played.observation(0) != held.observation(0)
    # once both are in, the reveal shows them
    shown = committed.apply_text("commit 0", 1)
    b = shown.battle
    assert b is not None and b.played == (9, -1) and b.spent == (2, 0)
    assert shown.observation(1).battle == b and shown.feud == (1, 3)


def test_resample_redeals_only_other_hands_and_the_deck() -> None:
    game = load(3)
    s = position(
        game,
        [],
        hands={0: {"AC10": 2}, 1: {"AC01": 1, "AC02": 1}, 2: {"AC33": 1}},
        discards=tuple(1 if d.id == "AC04" else 0 for d in game.deck.designs),
        deck=tuple(
            d.copies - {"AC10": 2, "AC01": 1, "AC02": 1, "AC33": 1, "AC04": 1}.get(d.id, 0)
            for d in game.deck.designs
        ),
    )
    designs = len(s.deck)
    seen: set[tuple[tuple[int, ...], ...]] = set()
    for seed in range(12):
        other = s.resample(0, Rng(seed))
        # everything but the unseen cards is as it was
        assert attrs.evolve(other, hands=s.hands, deck=s.deck) == s
        assert other.hands[0] == s.hands[0] and other.discards == s.discards
        assert tuple(sum(h) for h in other.hands) == (2, 2, 1)
        unseen = [other.deck[d] + other.hands[1][d] + other.hands[2][d] for d in range(designs)]
        assert unseen == [s.deck[d] + s.hands[1][d] + s.hands[2][d] for d in range(designs)]
        seen.add(other.hands[1:])
    assert len(seen) > 1  # the other hands are really dealt again
