"""The end of the game: once everyone has passed, every player turns their Clan Family
cards face up (the rulebook's "End of the Game") before they are scored. The final state
reveals every family, so each seat's last observation shows the cards behind the scores,
and a re-deal of the final state changes no family (it used to keep them hidden, and a
re-deal scored the game otherwise)."""

from __future__ import annotations

import pytest

import clangames
from clangames import Rng, rollout_moves
from clangames.kings_kilt.state import KingsKiltState


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_family_is_face_up_at_the_end(players: int) -> None:
    game = clangames.load("kings_kilt", players=players)
    for seed in range(8):
        final, _, _ = rollout_moves(game.initial_state(), Rng(seed))
        assert isinstance(final, KingsKiltState)
        assert final.is_terminal
        assert final.revealed == final.families
        assert all(f.bit_count() == 3 for f in final.families)
        for seat in range(players):
            seen = final.observation(seat)
            assert seen.revealed == final.families
            again = final.resample(seat, Rng(seed + 100))
            assert isinstance(again, KingsKiltState)
            assert again.families == final.families
            assert again.returns() == final.returns()


def test_a_family_is_still_hidden_one_step_before_the_end() -> None:
    # The reveal belongs to the end: while someone may still play, a face-down card stays so.
    game = clangames.load("kings_kilt", players=3)
    _, _, moves = rollout_moves(game.initial_state(), Rng(3))
    before = game.initial_state()
    for player, action in moves[:-1]:
        before = before.apply(action, player)
    assert isinstance(before, KingsKiltState)
    assert not before.is_terminal
    assert before.revealed != before.families
