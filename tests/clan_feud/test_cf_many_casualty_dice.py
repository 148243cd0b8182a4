"""A casualty roll of 25 or more dice weighs more than 2**64 in all (6**25 ways), more than
one 64-bit draw covers: the kernel's generator draws it from several words, in the
step-by-step API and in the fast rollout alike, where it used to stop the game with a
ValueError. The winner of a battle rolls up to MAX_ROLL (30) dice: the strength
difference, which feud tokens committed to the battle can stretch past 24."""

from __future__ import annotations

from collections import Counter

import pytest

import clangames
from clangames import CHANCE, Rng
from clangames.clan_feud.actions import MAX_ROLL, Hits
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.rollout import rollout_moves

from .cf_rules_helpers import play
from .test_cf_audit2_cards import WHITE, free_troops


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    loaded = clangames.load("clan_feud", players=2)
    assert isinstance(loaded, ClanFeudGame)
    return loaded


def _rolling(game: ClanFeudGame, dice: int) -> ClanFeudState:
    """A battle against England whose winner rolls ``dice`` casualty dice now."""
    s = free_troops(game, "AC20", {(WHITE, 1): 1})
    s = play(s, "play AC20", "take 2 infantry")
    saved = s.to_json()
    top = saved["state"]["tasks"][-1]
    assert (top["kind"], top["a"]) == ("bhits", 1)
    top["b"] = dice  # a saved state, checked as any would be, not a hand-made object
    rolling = game.state_from_json(saved)
    assert isinstance(rolling, ClanFeudState) and rolling.tasks[-1] == Task("bhits", a=1, b=dice)
    return rolling


@pytest.mark.parametrize("dice", [24, 25, MAX_ROLL])
def test_a_big_casualty_roll_is_drawn_in_both_apis(game: ClanFeudGame, dice: int) -> None:
    s = _rolling(game, dice)
    weights = s.chance_weights()
    assert sum(w for _, w in weights) == 6**dice
    seen: Counter[str] = Counter()
    for seed in range(40):
        outcome, _ = clangames.sample_chance(s, Rng(seed))
        after = s.apply(outcome)
        assert isinstance(outcome, Hits)  # each die hits the loser, the winner or both
        assert dice <= outcome.loser + outcome.winner <= 2 * dice
        seen[s.action_text(outcome)] += 1
        # the rollout draws the same outcome from the same generator, then plays on
        final, _, moves = rollout_moves(s, Rng(seed), 1)
        assert moves == ((CHANCE, outcome),)
        assert final == after
    assert len(seen) > 5  # not one outcome over and over
