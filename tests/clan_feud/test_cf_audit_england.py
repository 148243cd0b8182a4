"""Audit: a battle side that is England (part 1 has no English armies, but its battles
must already take one as a side: no commitments, the most dice allowed, infantry lost
first, never a retreat, no feud tokens, no control, no King)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import clangames
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.state import Battle, ClanFeudState, Task
from clangames.engine.rng import Rng
from clangames.engine.simultaneous import Commitments
from clangames.testing.conformance import check_state

from .cf_rules_helpers import done, invariant, legal_texts, load, play, position, tid

ENGLAND = -1


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


def _england_attacks(
    game: ClanFeudGame, english: tuple[int, int, int], defenders: tuple[int, int, int], **kw: object
) -> ClanFeudState:
    """England's army ``english`` has stepped into Banff, held by seat 1's ``defenders``."""
    banff = tid(game, "banff")
    battle = Battle(
        territory=banff,
        owners=(ENGLAND, 1),
        origin=tid(game, "buchan"),
        attackers=english,
        king=1 if kw.get("regent") == 1 else -1,
        cards=Commitments.open(2),
        tokens=Commitments.open(2),
        levels=(2,),  # part 2: the attacking army's level tokens
    )
    return position(
        game,
        [Task("round")],
        troops={(1, "banff"): defenders},
        control={"banff": 1, "moray": 1},
        battle=battle,
        england=14,  # at war (part 2: English armies exist only then)
        **kw,  # type: ignore[arg-type]
    )


def test_england_commits_nothing_and_rolls_the_most_dice_allowed(game: ClanFeudGame) -> None:
    s = _england_attacks(game, (4, 2, 0), (1, 0, 0), feud=(3, 1), hands={1: {"AC04": 1}})
    # only the clan side is asked, at both sealed nodes
    assert s.phase.name == "bcards" and s.to_move == (1,)
    assert legal_texts(s, 1) == ["no card", "card AC04"]
    s = s.apply_text("no card", 1)
    assert s.phase.name == "btokens" and s.to_move == (1,)
    s = s.apply_text("commit 0", 1)
    # 8 against 1: the margin is 7, but England rolls at most the losing troops + 3 = 4,
    # and without a question
    assert s.is_chance and s.tasks[-1] == Task("bhits", a=0, b=4)
    assert dict(s.chance_outcomes()) == four_plain_dice(s)
    assert s.feud == (3, 1)  # England's side touched nobody's tokens


def four_plain_dice(s: ClanFeudState) -> dict[object, Fraction]:
    """The outcomes of four casualty dice without a "2 = 3" card, as the game tabulates them."""
    table = s.game.hit_table(4, False)
    total = sum(w for _, w in table)
    return {a: Fraction(w, total) for a, w in table}


def test_england_loses_infantry_first_gains_no_token_and_never_retreats(
    game: ClanFeudGame,
) -> None:
    # 1 inf + 2 cav = 5 against 4 inf: England wins by 1 and rolls its one die
    s = _england_attacks(game, (1, 2, 0), (4, 0, 0), hands={1: {"AC23": 1}})  # skulls+2
    s = s.apply_text("card AC23", 1)
    assert s.tasks[-1] == Task("bhits", a=0, b=1)
    s = play(s, "hits 1/0")
    b = s.battle
    assert b is not None
    # the card's two skulls cost England its infantry, then one cavalry: no question asked
    assert b.attackers == (0, 1, 0)
    assert s.troops_at(1, tid(game, "banff")) == (3, 0, 0)
    assert s.feud == (0, 1)  # seat 1's casualty; England's two give no one a token
    # England declared nothing: the defender is asked at once
    assert s.phase.name == "bdefend" and s.to_move == (1,)
    assert legal_texts(s) == ["continue", "retreat"]
    invariant(s)


def test_england_winning_takes_neither_control_nor_the_king(game: ClanFeudGame) -> None:
    banff = tid(game, "banff")
    s = _england_attacks(
        game, (1, 2, 0), (1, 0, 0), regent=1, king=banff, gold_out=True, towers={"banff": 1}
    )
    # 5 against 1 + the King's 1: England wins by 3, at most 1 + 3 dice
    assert s.tasks[-1] == Task("bhits", a=0, b=3)
    s = play(s, "hits 3/0")
    assert done(s) and s.battle is None
    # control and the tower house stay seat 1's (no feud token for a lost building), no
    # clan holds England's troops, and the King stands alone where he was; part 2 keeps
    # England's survivors there, with their level tokens
    assert s.controller[banff] == 1
    assert all(not any(row) for row in s.troops)
    assert [(a.territory, a.troops, a.tokens) for a in s.english] == [(banff, (1, 2, 0), (2,))]
    assert s.regent == -1 and s.king == banff
    assert s.feud == (0, 2)  # seat 1: a casualty and the King lost
    assert s.city_dice == (0, 0) and s.pool == position(game, []).pool
    invariant(s)


def test_a_defender_retreating_from_england_keeps_its_territory(game: ClanFeudGame) -> None:
    banff = tid(game, "banff")
    s = _england_attacks(game, (3, 0, 0), (2, 0, 0))
    s = play(s, "hits 1/0", "retreat")  # England's 3 beat 2; Moray is seat 1's
    assert done(s)
    assert s.troops_at(1, tid(game, "moray")) == (1, 0, 0)
    assert s.controller[banff] == 1 and not any(s.troops_at(0, banff))


def test_an_england_battle_round_trips_through_json(game: ClanFeudGame) -> None:
    s = _england_attacks(game, (3, 1, 0), (2, 0, 0), feud=(0, 2))
    assert s.to_move == (1,)
    back = game.state_from_json(s.to_json())
    assert back == s and back.battle is not None and back.battle.owners == (ENGLAND, 1)


def test_the_kernel_contract_holds_through_england_battles(game: ClanFeudGame) -> None:
    """``check_state`` (resample, JSON, illegal actions, chance) on random walks through a
    battle England attacks; the sealed nodes hold only the clan side."""
    for seed in range(10):
        s: Any = _england_attacks(
            game, (3, 1, 1), (3, 1, 0), feud=(0, 2), hands={1: {"AC02": 1, "AC10": 1}}
        )
        rng, checks = Rng(seed), Rng(seed + 50)
        while not done(s):
            checks = check_state(s, checks, seed=seed, invariant=invariant)
            if s.is_chance:
                action, rng = clangames.sample_chance(s, rng)
                s = s.apply(action)
                continue
            assert ENGLAND not in s.to_move and s.to_move == (1,)
            legal = s.legal_actions(1)
            k, rng = rng.below(len(legal))
            s = s.apply(legal[k], 1)
        assert s.controller[tid(game, "banff")] == 1 and not any(s.troops[0])
