"""Users' action and event files that would stall or break a game are refused at load, and
the ones accepted play to the end with a legal move for whoever is to move.

Found by fuzzing the data files (``cf_hostile``): a ``P2.assign`` card for a Build or a
Military die that paid £ (``pay_money(1*money)``) was accepted; the assignment was judged on
the £ held before the card's action, which then took the £ the die's Build or recruit needed,
and the player to move had no legal action (``legal_actions`` empty: random play raised, a
front-end had nothing to offer)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import clangames
from clangames import InvalidParameterError, Rng
from clangames.engine.chance import sample_chance

from .cf_helpers import bundled_text
from .cf_rules_helpers import at_assign, legal_texts, load


def _actions(tmp_path: Path, design: str, action: str) -> str:
    """The bundled actions file with design ``design``'s action replaced."""
    text = bundled_text("actions.toml")
    pattern = rf'(id = "{design}"\n(?:[^\[]*?\n)?)action = "[^"\n]*"'
    changed, count = re.subn(pattern, lambda m: f'{m.group(1)}action = "{action}"', text)
    assert count == 1, design
    path = tmp_path / "my-actions.toml"
    path.write_text(changed, "utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("design", "timing"),
    [
        ("AC13", "P2.assign(column=build)"),
        ("AC12", "P2.assign(value=1)"),
        ("AC20", "P2.assign(column=military, mode=recruit)"),
        ("AC19", "P2.assign(column=military)"),
        ("AC26", "P2.assign(colour=black)"),
    ],
)
def test_a_card_paying_pounds_before_a_die_that_costs_pounds_is_refused(
    tmp_path: Path, design: str, timing: str
) -> None:
    assert f'id = "{design}"\nname = ' in bundled_text("actions.toml")
    assert re.search(
        rf'id = "{design}"\n[^\[]*?timing = "{re.escape(timing)}"', bundled_text("actions.toml")
    )
    path = _actions(tmp_path, design, "[gain_vp(1); pay_money(1*money)]")
    with pytest.raises(InvalidParameterError) as refused:
        clangames.load("clan_feud", players=3, actions=path)
    message = str(refused.value)
    assert f"{design}.action: pay_money(1*money) pays £ before its die's action" in message
    assert "my-actions.toml" in message
    assert "(column=feud, income or intrigue, or column=military with mode=move)" in message


def _plays_with_a_move_always_offered(game: clangames.Game, seeds: range) -> None:
    for seed in seeds:
        s, rng = game.initial_state(), Rng(seed)
        for _ in range(game.info.max_game_length):
            if s.is_terminal:
                break
            if s.is_chance:
                action, rng = sample_chance(s, rng)
                s = s.apply(action)
                continue
            player, rng = rng.choice(s.to_move)
            legal = s.legal_actions(player)
            assert legal, (seed, s.prompt())
            action, rng = rng.choice(legal)
            s = s.apply(action, player)
        assert s.is_terminal


@pytest.mark.parametrize(
    ("design", "action"),
    [
        ("AC11", "[gain_money(2*cities); pay_money(1*money)]"),  # an Income die
        ("AC24", "[boost_move(armies=+1); pay_money(1*money)]"),  # a Military move die
    ],
)
def test_a_card_paying_pounds_before_a_free_die_loads_and_plays(
    tmp_path: Path, design: str, action: str
) -> None:
    game = clangames.load("clan_feud", players=3, actions=_actions(tmp_path, design, action))
    _plays_with_a_move_always_offered(game, range(6))


@pytest.mark.parametrize(
    ("design", "helps"),
    [
        ("AC21", "recruit(cavalry, 1)"),  # free troops for a recruit die
        ("AC14", "discount(3)"),  # a discount for a Build die
    ],
)
def test_a_die_is_judged_only_on_the_help_its_card_surely_gives(
    tmp_path: Path, design: str, helps: str
) -> None:
    """Seat 0 has no £: its die can recruit or build only with the card's help. A card
    that surely helps may go with the die; one whose help is an option the player may
    pass over may not (before, it could: taking the other option left the recruit or the
    Build with no legal move)."""

    def seat_0_with(action: str) -> list[str]:
        game = load(2, actions=_actions(tmp_path, design, action))
        s = at_assign(game, {design: 1}, {(0, 1): 1}, money=(0, 0), towers={"moray": 1})
        return legal_texts(s)

    assert f"play {design}" in seat_0_with(helps)
    assert f"play {design}" in seat_0_with(f"[gain_vp(1); {helps}]")
    assert f"play {design}" not in seat_0_with(f"{helps} OR gain_vp(1)")
    assert f"play {design}" not in seat_0_with(f"[gain_vp(1); may {helps}]")
