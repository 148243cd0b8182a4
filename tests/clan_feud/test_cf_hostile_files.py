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
