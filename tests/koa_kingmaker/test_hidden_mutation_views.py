"""Mutation-audit scenarios for hidden information (rulings, "Hidden information"): the
public view holds no hand; every view shows the table once the cards are turned up, and
the last reveal while the next cards go down; a resampled face-down card is one the house
could have committed (never a nomination of a house that is out); and with four houses
which number stayed undealt is hidden too."""

from __future__ import annotations

from clangames import Rng
from clangames.koa_kingmaker import Discard, Play
from clangames.koa_kingmaker.cards import FANATIC, GOLD, JESTER, MARSHALS, NOMINATION, ROYAL, SEER

from .helpers import apply, arrange, play_round, start


def test_the_public_view_shows_no_hand() -> None:
    state = apply(start(), Play(SEER), 0)
    assert state.public_observation().hand == 0
    for p in range(5):
        assert state.observation(p).hand == state.hands[p]


def test_after_the_reveal_every_view_shows_the_table() -> None:
    """Once every card is turned up, the cards still lying on the table (here house 0's
    nomination and house 1's Gold) are in every view, the public one included."""
    state = play_round(start(), {0: 1, 1: "Gold", 2: "Jester", 3: "Seer", 4: "Fanatic"})
    assert state.phase.name == "discard"
    assert state.table.ids == (NOMINATION + 1, GOLD, -1, SEER, FANATIC)
    for p in range(5):
        assert state.observation(p).table == state.table.ids
    assert state.public_observation().table == state.table.ids


def test_while_committing_every_view_shows_the_last_reveal() -> None:
    """The cards of round 1 stay public in ``played`` while round 2's cards go down, for
    every viewer (a house that has committed included) and the public view."""
    cards = (NOMINATION + 1, GOLD, JESTER, SEER, FANATIC)
    state = play_round(start(), {0: 1, 1: "Gold", 2: "Jester", 3: "Seer", 4: "Fanatic"})
    state = apply(state, Discard(ROYAL), 1)
    assert state.round == 2 and state.phase.name == "commit"
    state = apply(state, Play(MARSHALS), 0)
    for p in range(5):
        assert state.observation(p).played == cards
    assert state.public_observation().played == cards


def test_a_resampled_card_never_nominates_a_house_that_is_out() -> None:
    """House 2 is out; house 3, which still holds its nomination of house 2, has committed.
    Every re-dealt card for house 3 is one of the characters in its hand (its Seer is
    discarded) or its nominations of houses 0, 1 and 4. (Fails if the nomination of the
    fallen house could be dealt.)"""
    state = arrange(start(), 2, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Fanatic"})
    assert not state.is_in(2) and state.phase.name == "commit"
    assert state.hands[3] >> (NOMINATION + 2) & 1
    state = apply(state, Play(JESTER), 3)
    allowed = set(range(7)) - {SEER} | {NOMINATION + t for t in (0, 1, 4)}
    seen = set()
    for seed in range(80):
        other = state.resample(1, Rng(seed))
        card = other.table.ids[3]
        seen.add(card)
        assert card in allowed, f"seed {seed}: house 3 re-dealt card {card}"
        assert other.observation(1) == state.observation(1)
    assert seen == allowed


def test_resampling_varies_which_number_stayed_undealt() -> None:
    """Two players, four houses: house 0 holds 1; the others' numbers are re-dealt from 2..5,
    so each of 2..5 is sometimes the one left undealt."""
    state = start(2, inheritance=(1, 2, 3, 4))
    undealt = set()
    for seed in range(60):
        numbers = state.resample(0, Rng(seed)).inheritance
        assert numbers[0] == 1 and numbers[4] == 0 and len(set(numbers[:4])) == 4
        undealt |= {2, 3, 4, 5} - set(numbers)
    assert undealt == {2, 3, 4, 5}
