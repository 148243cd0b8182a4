"""Parts 2 and 3 together: England's armies and the action cards meet in a recruit.

A recruit into a territory where an English army stands gathers its troops there stage by
stage (artillery, cavalry, infantry; a card's free troops first), then they attack. The
states in between are real states of the game: consistent, and saved and loaded alike."""

from __future__ import annotations

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.state import Task

from .cf_rules_helpers import play
from .test_cf_england_war import ENGLAND, at_war, game, tid

__all__ = ["game"]


def test_a_recruit_gathering_beside_england_is_a_consistent_state(game: ClanFeudGame) -> None:
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("recruit", 0, 3, -1)],
        english={"banff": ((3, 1, 0), (1,))},
        troops={(0, "moray"): (1, 0, 0)},
        control={"banff": 0, "moray": 0},
        castles=("banff",),
        money=(20, 0),
    )
    s = play(s, "take 0 artillery", "take 2 cavalry")
    # the cavalry wait in Banff beside England's army for the infantry stage
    assert s.troops_at(0, banff) == (0, 2, 0) and s.battle is None
    s.check_consistency()
    assert game.state_from_json(s.to_json()) == s
    s = play(s, "take 4 infantry")
    assert s.battle is not None and s.battle.owners == (0, ENGLAND)
    assert s.battle.attackers == (4, 2, 0) and s.troops_at(0, banff) == (0, 0, 0)
