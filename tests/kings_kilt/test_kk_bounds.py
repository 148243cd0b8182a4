"""King's Kilt's length bounds (kings_kilt/bounds.py): the derived values, the harness's
check with them, a policy that prolongs the game as far as it can against them, and random
games' means."""

from __future__ import annotations

from pathlib import Path

import pytest

import clangames
from bounds_helpers import observe, play, random_policy
from clangames.engine.interop import LengthBounds
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.kings_kilt.actions import Advance, Betray, Pass
from clangames.kings_kilt.bounds import height_cap, pile_after_base, reveal_decisions
from clangames.testing import check_game

from .helpers import check_invariants, load

EXPECTED = {
    2: LengthBounds(decisions=100, chance=48),
    3: LengthBounds(decisions=132, chance=61),
    4: LengthBounds(decisions=141, chance=66),
}
BUNDLED = (Path(clangames.__file__).parent / "kings_kilt" / "components.toml").read_text("utf-8")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bounds_follow_the_derivation(players: int) -> None:
    game = load(players)
    bounds = game.interop.bounds
    assert bounds == EXPECTED[players]
    assert height_cap(game) == 56
    assert pile_after_base(game) == {2: 42, 3: 34, 4: 30}[players]
    assert reveal_decisions(game) == {2: 3, 3: 4, 4: 6}[players]
    # every step is a decision or a chance node: the step bound covers both
    assert bounds.decisions + bounds.chance <= game.info.max_game_length


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_harness_keeps_every_game_within_the_bounds(players: int) -> None:
    game = load(players)
    report = check_game(game, playouts=15, seed=16_000 + players, invariant=check_invariants)
    assert report.playouts == 15


def prolong(state: State, player: int, rng: Rng) -> tuple[object, Rng]:
    """The move that makes the game longest, greedily: before the King, the advance from
    the highest row that does not crown (the most fills); once crowned, the betrayal of the
    highest card (the most fills); pass only when nothing else is left."""
    legal = state.legal_actions(player)
    top = state.game.geo.width  # type: ignore[attr-defined]
    advances = [a for a in legal if isinstance(a, Advance) and a.row + 1 < top]
    if advances:
        best = max(a.row for a in advances)
        return rng.choice([a for a in advances if a.row == best])
    crowning = [a for a in legal if isinstance(a, Advance)]
    if crowning:
        return rng.choice(crowning)
    betrayals = [a for a in legal if isinstance(a, Betray)]
    if betrayals:
        best = max(a.row for a in betrayals)
        return rng.choice([a for a in betrayals if a.row == best])
    others = [a for a in legal if not isinstance(a, Pass)]
    return rng.choice(others or list(legal))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_prolonging_policy_approaches_the_decision_bound(players: int) -> None:
    game = load(players)
    seen = observe(game, prolong, range(12))
    randomly = observe(game, random_policy, range(12))
    # Measured (12 games each): prolonging reaches 0.95-0.97 of the decision bound
    # (random games' mean 0.47-0.52) and exactly the chance bound, which every game that
    # crowns a King and spends all its Influence reaches.
    assert seen.decision_ratio >= 0.9
    assert seen.max_decisions > 1.5 * randomly.mean_decisions
    assert seen.chance_ratio == 1.0
    assert randomly.max_chance == randomly.bounds.chance


def test_one_prolonged_game_is_deterministic() -> None:
    game = load(3)
    assert play(game, prolong, 5) == play(game, prolong, 5)


def test_a_small_box_takes_the_general_argument(tmp_path: Path) -> None:
    """With 40 cards (4 members and 1 leader a clan) the pile left after the set-up (10
    cards with 3 seats, 6 with 4) cannot fill the pyramid: the pile runs out, holes open,
    and the bound comes from the height argument (step 6). Every card and discard is
    drawn, so the chance bound N + hn is reached exactly."""
    box = tmp_path / "small-box.toml"
    box.write_text(
        BUNDLED.replace("members_per_clan = 6", "members_per_clan = 4").replace(
            "leaders_per_clan = 2", "leaders_per_clan = 1"
        ),
        "utf-8",
    )
    for players, expected in ((3, LengthBounds(152, 55)), (4, LengthBounds(166, 56))):
        game = load(players, components=str(box))
        assert pile_after_base(game) < game.geo.size - game.geo.width
        assert game.interop.bounds == expected
        seen = observe(game, prolong, range(12))
        randomly = observe(game, random_policy, range(12))
        # Measured: prolonging reaches 0.45-0.63 of this looser bound.
        assert seen.decision_ratio >= 0.4
        assert seen.max_chance == randomly.max_chance == expected.chance
        report = check_game(game, playouts=5, seed=16_010 + players, invariant=check_invariants)
        assert report.playouts == 5
