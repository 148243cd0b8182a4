"""A move boost's speed or mountain freedom is offered only where some army would end its
move somewhere it could not without it (cards spec 1.1: a card that would change nothing
is combat-only; part 3 ruling 4). AC23 Ride from Loch Leven (+1 speed) and AC24 Light Horse
(+1 speed and mountain freedom, cavalry only) were offered whenever a move was possible (AC24:
with cavalry on the board), even to armies the boost could not take a step further."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.state import ClanFeudState

from .cf_rules_helpers import at_assign, legal_texts, load, play

WHITE = 0


@pytest.fixture(scope="module")
def game() -> Any:
    return load(2)


def with_card(
    game: Any, card: str, troops: dict[tuple[int, str], tuple[int, int, int]]
) -> ClanFeudState:
    """Seat 0 to assign a white 1 (a Military I move), holding ``card``; each army on its
    owner's land."""
    control = {name: p for (p, name) in troops}
    return at_assign(game, {card: 1}, {(WHITE, 1): 1}, troops=troops, control=control)


def test_ac23_is_combat_only_for_armies_in_a_mountain(game: Any) -> None:
    # a step out of a mountain ends the move: one step more changes nothing
    s = with_card(game, "AC23", {(0, "badenoch"): (1, 1, 1)})
    assert "play AC23" not in legal_texts(s)


def test_ac23_is_combat_only_where_every_first_step_ends_the_move(game: Any) -> None:
    # Moray's neighbours: Banff and Inverness hold seat 1's armies (battles), Badenoch is a
    # mountain: every first step ends the move
    boxed = {(0, "moray"): (1, 0, 0), (1, "banff"): (1, 0, 0), (1, "inverness"): (1, 0, 0)}
    assert "play AC23" not in legal_texts(with_card(game, "AC23", boxed))
    # with Inverness free, infantry may go on to Loch Ness or Dingwall
    del boxed[(1, "inverness")]
    s = play(with_card(game, "AC23", boxed), "play AC23")
    s = play(s, "territory inverness")
    assert {"territory loch_ness", "territory dingwall"} <= set(legal_texts(s))


def test_ac23_counts_cavalrys_own_speed(game: Any) -> None:
    # cavalry from Moray reaches Loch Ness or Dingwall through Inverness at its own speed 2;
    # a third step reaches Applecross and Sutherland: the boost changes something
    s = with_card(game, "AC23", {(0, "moray"): (0, 1, 0), (1, "banff"): (1, 0, 0)})
    assert "play AC23" in legal_texts(s)
    # with every way on blocked, cavalry gains nothing from a third step either
    blocked = {
        (0, "moray"): (0, 1, 0),
        (1, "banff"): (1, 0, 0),
        (1, "loch_ness"): (1, 0, 0),
        (1, "dingwall"): (1, 0, 0),
    }
    assert "play AC23" not in legal_texts(with_card(game, "AC23", blocked))


def test_ac24_is_combat_only_for_cavalry_that_cannot_use_it(game: Any) -> None:
    # every neighbour of Moray holds seat 1's army: each step is a battle, even freed
    # from mountains
    boxed = {
        (0, "moray"): (0, 2, 0),
        (1, "banff"): (1, 0, 0),
        (1, "inverness"): (1, 0, 0),
        (1, "badenoch"): (1, 0, 0),
    }
    assert "play AC24" not in legal_texts(with_card(game, "AC24", boxed))
    # with Badenoch free, the boost carries cavalry through the mountain
    del boxed[(1, "badenoch")]
    s = play(with_card(game, "AC24", boxed), "play AC24")
    s = play(s, "take 2 cavalry", "territory badenoch")
    assert "territory mar" in legal_texts(s)


def test_ac24_ignores_infantry_it_does_not_boost(game: Any) -> None:
    # infantry free to march does not make a cavalry-only boost worth playing
    troops = {
        (0, "moray"): (0, 2, 0),
        (0, "perth"): (3, 0, 0),
        (1, "banff"): (1, 0, 0),
        (1, "inverness"): (1, 0, 0),
        (1, "badenoch"): (1, 0, 0),
    }
    assert "play AC24" not in legal_texts(with_card(game, "AC24", troops))
