"""Clan Feud's length bounds (clan_feud/bounds.py): the derived values and their terms,
the harness's check with them, a battle-seeking policy and random games against them."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from bounds_helpers import observe, random_policy
from clangames.clan_feud.actions import COLUMN_NAMES, Assign, Commit, Roll, Take, Word
from clangames.clan_feud.bounds import game_budget
from clangames.engine.errors import InvalidParameterError
from clangames.engine.interop import LengthBounds
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing import check_game

from .cf_rules_helpers import invariant, load

EXPECTED = {
    2: LengthBounds(decisions=18_614, chance=10_927),
    3: LengthBounds(decisions=24_057, chance=14_127),
    4: LengthBounds(decisions=27_842, chance=16_203),
    5: LengthBounds(decisions=35_072, chance=20_070),
}
MILITARY = COLUMN_NAMES.index("military")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bounds_follow_the_derivation(players: int) -> None:
    game = load(players)
    bounds = game.interop.bounds
    assert bounds == EXPECTED[players]
    budget = game_budget(game)
    turns = game.deck_size + 1
    assert (budget.turns, budget.dice) == (turns, 15)
    # per player and turn: Intrigue slots I, I, II, III, III draw 10 cards, a drawing card
    # rides each Intrigue die (draw_cards(1)) and each Military die (a bonus Intrigue I)
    assert budget.draws == turns * players * (10 + 5 + 5)
    # Military slots I, I, II, III, III recruit at most 10 + 10 + 14 + 16 + 16 troops; the
    # start's 3 a clan, England's 26 a turn and the recruit cards' (2 a Military die)
    assert budget.deaths == 3 * players + turns * (26 + 66 * players + 10 * players)
    assert budget.rounds == budget.deaths + budget.draws
    # moves of 1 + 1, 1 + 1, 2 + 1, 3 + 1, 3 + 1 armies a turn; the spawn; an English
    # army a turn at most; a recruit card into English land
    assert budget.battles == turns * (players * 15 + 1 + turns + 5 * players)
    assert (budget.decisions, budget.chance) == (bounds.decisions, bounds.chance)
    # every step is a decision, a commitment or a chance node, and a simultaneous round (one
    # decision in the bound) is two commitments: the step bound is derived from both
    assert game.info.max_game_length == 2 * bounds.decisions + bounds.chance


def _variant(tmp_path: Path, old: str, new: str) -> str:
    text = (files("clangames.clan_feud") / "actions.toml").read_text(encoding="utf-8")
    changed = text.replace(old, new)
    assert changed != text
    path = tmp_path / "actions.toml"
    path.write_text(changed, encoding="utf-8")
    return str(path)


def test_the_bounds_follow_replacement_cards(tmp_path: Path) -> None:
    """The constants come from the loaded cards: a bigger move boost, more draws or more
    free troops raise the bound."""
    base = load(3).interop.bounds
    # a Military die is charged the costlier of a full recruit and a boosted move: two
    # more armies still cost less than a III recruit's 16 deaths, four more do not
    boost = _variant(tmp_path, '"boost_move(armies=+1)"', '"boost_move(armies=+2)"')
    assert load(3, actions=boost).interop.bounds == base
    for old, new in (
        ('"boost_move(armies=+1)"', '"boost_move(armies=+4)"'),
        ('"[draw_cards(1); gain_vp(1)]"', '"[draw_cards(3); gain_vp(1)]"'),
        ('"recruit(infantry, 2)"', '"recruit(infantry, 5)"'),
    ):
        game = load(3, actions=_variant(tmp_path, old, new))
        assert game.interop.bounds.decisions > base.decisions, new
        assert game.interop.bounds.chance >= base.chance, new


def test_a_phase_one_card_with_a_bonus_intrigue_action_is_refused_at_load(
    tmp_path: Path,
) -> None:
    """A bonus Intrigue action draws cards: in phase 1 such plays could repeat without end,
    so no length bound would exist; the load refuses the file, naming the card."""
    actions = _variant(tmp_path, '"bonus_action(income, I)"', '"bonus_action(intrigue, I)"')
    with pytest.raises(InvalidParameterError, match=r"AC06 draws cards in P1\.after_roll"):
        load(2, actions=actions)


@pytest.mark.parametrize("players", [2, 5])
def test_the_harness_keeps_every_game_within_the_bounds(players: int) -> None:
    game = load(players)
    report = check_game(game, playouts=4, seed=16_300 + players, invariant=invariant)
    assert report.playouts == 4


def seek_battle(state: State, player: int, rng: Rng) -> tuple[object, Rng]:
    """Make the game long: dice to the Military column, moves rather than recruits, the
    biggest armies, battles fought on (continue) with one casualty die a round; every other
    choice at random."""
    legal = state.legal_actions(player)
    military = [a for a in legal if isinstance(a, Assign) and a.column == MILITARY]
    if military:
        return rng.choice(military)
    words = {a.word: a for a in legal if isinstance(a, Word)}
    for word in ("move", "continue"):
        if word in words:
            return words[word], rng
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        return max(takes, key=lambda a: a.count), rng
    rolls = [a for a in legal if isinstance(a, Roll)]
    if rolls:
        return min(rolls, key=lambda a: a.k), rng
    commits = [a for a in legal if isinstance(a, Commit)]
    if commits:
        return min(commits, key=lambda a: a.k), rng
    return rng.choice(legal)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_battle_seeking_and_random_games_against_the_bounds(players: int) -> None:
    game = load(players)
    sought = observe(game, seek_battle, range(3))
    randomly = observe(game, random_policy, range(3))
    # Measured (3 games each): the longest battle-seeking game takes 0.012-0.014 of the
    # decision bound (227 / 326 / 380 / 484 decisions for 2-5 players), random games'
    # mean 0.010-0.012; chance nodes about 0.005 of theirs (the previous per-turn bound:
    # 0.0017-0.0019). See the docstring of clan_feud.bounds.length_bounds for where the
    # bound is loose.
    assert sought.max_decisions >= randomly.mean_decisions
    assert 0.005 < sought.decision_ratio < 0.05
    assert randomly.mean_decisions / randomly.bounds.decisions > 0.005


def test_battle_seeking_at_war_stays_within_the_bounds() -> None:
    """England at war from the start (the track at 10) adds spawn and march battles."""
    game = load(3, england_start=10)
    seen = observe(game, seek_battle, range(3))
    assert 0.005 < seen.decision_ratio < 0.05
