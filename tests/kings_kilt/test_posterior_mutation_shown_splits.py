"""King's Kilt's quick draw never proposes a deck split a shown card rules out (a mutation
audit's gap).

A family card another player shows is one of their two deck cards or their third, so a
player showing two cards has at least one of them among their deck cards, and a shown
card outside the deck cards must have a copy left to be the third. ``_Joint`` promises
never to propose a split that breaks this (so the tries stay cheap); the quick draw's own
check would throw such a try away, which keeps the kept deals exact, so only the draws'
stream (the digests) would notice the programme proposing them. Here every split the
programme can give, with its chance, is checked against the shown cards.
"""

from __future__ import annotations

import pytest

from clangames.kings_kilt.posterior import family_key, hidden_pool, quick_deal

from .test_resample_posterior import SHOWN_POSITIONS, _turn


def test_some_position_has_a_player_showing_two_family_cards() -> None:
    """The positions below include the case the promise is about."""
    most = 0
    for players, seed, fraction in SHOWN_POSITIONS:
        state, viewer = _turn(players, seed, fraction)
        most = max(most, *(state.revealed[p].bit_count() for p in range(players) if p != viewer))
    assert most >= 2


@pytest.mark.parametrize(("players", "seed", "fraction"), SHOWN_POSITIONS)
def test_no_split_a_shown_card_rules_out_is_proposed(
    players: int, seed: int, fraction: float
) -> None:
    state, viewer = _turn(players, seed, fraction)
    quick = quick_deal(family_key(state, viewer, hidden_pool(state, viewer)))
    assert quick is not None and quick.shown
    joint = quick._joint()
    proposed = 0
    for rest, decks, chance in joint.chances():
        assert chance > 0
        holders = 0
        for mine in decks:
            assert mine.bit_count() == quick.from_deck
            assert not holders & mine
            holders |= mine
        assert not holders & rest and not (holders | rest) & quick.deck_v
        for i, mine in enumerate(decks):
            forced = quick.shows[i] & ~mine
            assert forced.bit_count() <= 1, (i, bin(quick.shows[i]), bin(mine))
            if forced:
                clan = forced.bit_length() - 1
                assert quick.pool[clan] - (holders >> clan & 1) >= 1
        proposed += 1
    assert proposed > 1
