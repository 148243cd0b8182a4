"""King's Kilt ``resample``: quick draws kept by what the viewer knows.

Positions of one game often share a key (a card moved between two hidden places, or one the
viewer played from their own hand, tells them nothing new of the families), so the quick
draw made for one serves the next. Sharing it must change no re-deal: the same state,
viewer and generator give the same state whether its quick draw was made for it, for an
earlier position, or has been drawn from (and flattened) many times since.
"""

from __future__ import annotations

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt import posterior as post


def _turns(players: int, seed: int) -> list[tuple[KingsKiltState, int]]:
    """Every turn of a seeded game once the family deal is over, with its player."""
    game = clangames.load("kings_kilt", players=players)
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(seed))
    state = game.initial_state()
    turns = []
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        if player >= 0 and state.phase.name == "turn":
            turns.append((state, player))
        state = state.apply(action, player)
    return turns


def _key(state: KingsKiltState, viewer: int) -> post.Key:
    return post.family_key(state, viewer, post.hidden_pool(state, viewer))


def _forget() -> None:
    post._QUICK.clear()
    post._TABLES.clear()
    post._last[0] = (None, -1, None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_with_one_key_share_a_quick_draw_and_re_deal_as_if_alone(players: int) -> None:
    turns = [turn for seed in range(3) for turn in _turns(players, 40 + 10 * seed + players)]
    earlier: dict[post.Key, tuple[KingsKiltState, int]] = {}
    pairs = []
    for turn in turns:
        key = _key(*turn)
        if key in earlier:
            pairs.append((earlier[key], turn))
        earlier[key] = turn
    assert pairs, "a player's turns where they know nothing new of the families"
    for (first, viewer), (second, same_viewer) in pairs[:5]:
        _forget()
        alone = [second.resample(same_viewer, Rng(i)) for i in range(6)]
        _forget()
        quick = post.quick_deal(_key(first, viewer))
        assert quick is not None
        # Warm the kept draw past its flat list with the earlier position's re-deals.
        for i in range(12):
            first.resample(viewer, Rng(1000 + i))
        assert post.quick_deal(_key(second, same_viewer)) is quick
        assert [second.resample(same_viewer, Rng(i)) for i in range(6)] == alone


def test_the_kept_quick_draws_are_the_last_few_keys() -> None:
    _forget()
    keys = []
    for state, viewer in _turns(4, 7):
        key = _key(state, viewer)
        post.quick_deal(key)
        if key in keys:
            keys.remove(key)  # used again: the last to be dropped
        keys.append(key)
        assert len(post._QUICK) <= post._QUICK_CACHED
    assert len(keys) > post._QUICK_CACHED
    assert list(post._QUICK) == keys[-post._QUICK_CACHED :]
