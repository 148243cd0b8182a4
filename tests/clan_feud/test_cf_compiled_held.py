"""The designs of a timing window a hand holds are the same however they are picked: the
compiled build's loop (``playing._held``) and the interpreted build's picking in C."""

from __future__ import annotations

import random

import pytest

import clangames
from clangames.clan_feud import playing


@pytest.mark.parametrize("compiled", [False, True])
def test_held_designs_are_the_hands_designs_of_the_window(
    monkeypatch: pytest.MonkeyPatch, compiled: bool
) -> None:
    game = clangames.load("clan_feud", players=3)
    designs = len(game.deck.designs)
    rng = random.Random(11)  # a generator of this test's own
    hands = [tuple([0] * designs), tuple([1] * designs)]
    for _ in range(200):
        counts = [0] * designs
        for _ in range(rng.randrange(4)):
            counts[rng.randrange(designs)] += rng.randint(1, 2)
        hands.append(tuple(counts))
    monkeypatch.setattr(playing, "_COMPILED", compiled)  # read when a picker is made
    windows = {**game.window_designs, "none": (), "one": (7,)}
    for window, chosen in windows.items():
        held = playing.held_of(chosen)
        for hand in hands:
            expected = [d for d in chosen if hand[d]]
            assert held(hand) == expected, (window, hand)
            assert held(list(hand)) == expected  # a hand a move is writing is a list
    assert sum(map(len, game.window_designs.values())) > 20


def test_the_loop_is_what_the_compiled_build_runs() -> None:
    assert playing._COMPILED is clangames.is_compiled()
