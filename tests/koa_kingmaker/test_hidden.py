"""Hidden information: sealed commitments, private inheritance numbers, resampling."""

from __future__ import annotations

import json

from clangames import Rng
from clangames.engine.codec import encode
from clangames.koa_kingmaker import Nominate, Play, Seal
from clangames.koa_kingmaker.cards import GOLD, JESTER, MARSHALS, SEER

from .helpers import apply, play_round, start


def test_a_half_committed_round_shows_only_who_committed() -> None:
    state = start()
    state = apply(state, Play(SEER), 0)
    state = apply(state, Nominate(4), 2)
    assert state.to_move == (1, 3, 4)
    for viewer in (1, 3, 4):
        obs = state.observation(viewer)
        assert obs.committed == (True, False, True, False, False)
        assert obs.table == (-1, -1, -1, -1, -1)
        assert obs.hand_sizes == (10, 11, 10, 11, 11)
    assert state.observation(0).table == (SEER, -1, -1, -1, -1)
    assert state.observation(2).table == (-1, -1, 11, -1, -1)
    assert state.public_observation().table == (-1,) * 5
    assert "Seer" not in json.dumps(encode(state.observation(1)))


def test_resample_redeals_the_committed_cards_it_cannot_see() -> None:
    state = start()
    state = apply(state, Play(SEER), 0)
    seen = set()
    rng = Rng(7)
    for i in range(60):
        other = state.resample(1, rng.fork(i))
        assert other.observation(1) == state.observation(1)
        assert other.legal_actions(1) == state.legal_actions(1)
        card = other.table.ids[0]
        seen.add(card)
        assert not other.hands[0] >> card & 1
        other.check_consistency()
    # House 0 could have committed any of its 7 characters or 4 nominations.
    assert len(seen) == 11
    # The viewer's own commitment is never changed.
    assert all(state.resample(0, Rng(s)).table.ids[0] == SEER for s in range(20))


def test_sealed_household_cards_are_hidden_until_the_reveal() -> None:
    state = start(3)
    state = apply(state, Seal(MARSHALS))
    state = apply(state, Seal(GOLD))
    obs = state.observation(0)
    assert obs.committed == (False, False, False, True, True)
    assert obs.table == (-1,) * 5
    cards = {state.resample(0, Rng(s)).table.ids[3] for s in range(60)}
    assert len(cards) == 7


def test_commit_order_never_matters() -> None:
    base = start()
    moves = {0: Play(JESTER), 1: Nominate(0), 2: Nominate(0), 3: Play(GOLD), 4: Nominate(2)}
    forward = base
    for p in (0, 1, 2, 3, 4):
        forward = apply(forward, moves[p], p)
    backward = base
    for p in (4, 2, 0, 3, 1):
        backward = apply(backward, moves[p], p)
    assert forward == backward
    assert forward.to_json() == backward.to_json()


def test_reveal_shows_every_card() -> None:
    state = play_round(start(), {0: 1, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Fanatic"})
    obs = state.observation(3)
    assert obs.played == (8, GOLD, 4, SEER, 6)
    assert obs.phase == "discard"


def test_inheritance_numbers_are_private_until_the_end() -> None:
    state = start(inheritance=(3, 1, 5, 2, 4))
    assert state.observation(0).inheritance == (3, 0, 0, 0, 0)
    assert state.observation(2).inheritance == (0, 0, 5, 0, 0)
    assert state.public_observation().inheritance == (0,) * 5
    others = {state.resample(0, Rng(s)).inheritance for s in range(40)}
    assert all(inh[0] == 3 and sorted(inh) == [1, 2, 3, 4, 5] for inh in others)
    assert len(others) > 1


def test_inheritance_numbers_are_shown_at_the_end() -> None:
    from .helpers import arrange

    state = start(inheritance=(3, 1, 5, 2, 4))
    for h in (0, 1, 2):
        state = arrange(state, h, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: 0, 4: 1})
    assert state.is_terminal
    assert state.observation(0).inheritance == (3, 1, 5, 2, 4)
    assert state.resample(0, Rng(1)) == state
