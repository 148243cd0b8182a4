"""Mutation-audit scenarios for the automated households: their fixed rule on ties
(docs/games/koa-kingmaker.md, decision: keep what is worth most, ties go to the lower card
kind; with the bundled values the Seer, the Marshals and the Banner all score 3 in hand,
and a user file can make Royals score alike), and a household that is out seals nothing
(decision: a house that is out never acts again)."""

from __future__ import annotations

from pathlib import Path

import clangames
from clangames.koa_kingmaker import Seal

from .helpers import apply, arrange, kind, names, play_round, start

BUNDLED = Path(clangames.koa_kingmaker.__file__).with_name("cards.toml")


def test_automated_household_takes_back_the_lower_kind_among_equal_values() -> None:
    """Seer, Marshals and Banner (3 each in hand) lie in house 4's discard pile: its
    unstolen Gold takes back the Seer, the lowest kind. (Fails if ties went the other
    way.)"""
    state = arrange(start(3), 4, "hands", "discards", "Banner", "Marshals", "Seer")
    state = play_round(state, {0: "Jester", 1: "Jester", 2: "Jester", 3: "Jester", 4: "Gold"})
    assert state.round == 2
    assert "Seer" in names(state, "hands", 4)
    assert names(state, "discards", 4) == {"Marshals", "Banner", "Gold"}


def test_automated_household_gives_up_the_lower_royal_among_equal_values(
    tmp_path: Path,
) -> None:
    """A user file where every Royal is worth 4 in court: the hit automated household
    gives up Royal 1, the lowest kind. (Fails if ties went the other way.)"""
    text = BUNDLED.read_text("utf-8")
    for name, value in (("royal_1", 3), ("royal_3", 5)):
        text = text.replace(f"[{name}]\ncourt = {value}", f"[{name}]\ncourt = 4")
    path = tmp_path / "cards.toml"
    path.write_text(text, "utf-8")
    state = start(3, cards=str(path))
    assert state.game.values.court[12:] == (4, 4, 4)
    state = play_round(state, {0: 4, 1: 4, 2: "Gold", 3: "Seer", 4: "Fanatic"})
    assert state.round == 2
    assert names(state, "centre", 4) == {"Royal 1"}


def test_an_automated_household_that_is_out_seals_nothing() -> None:
    """House 3 (automated, one Royal) falls in round 1; in round 2 only house 4 seals a
    card before the players commit. (Fails if a fallen household still sealed.)"""
    state = arrange(start(3), 3, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 3, 1: 3, 2: "Seer", 3: "Gold", 4: "Fanatic"})
    assert not state.is_in(3) and state.round == 2
    assert state.phase.name == "seal"
    state = apply(state, Seal(kind("Jester")))
    assert state.phase.name == "commit" and state.to_move == (0, 1, 2)
    assert state.table.ids[3] == -1
