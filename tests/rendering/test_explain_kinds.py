"""Every option a game offers is explained by its kind, never by the generic fallback
(``GENERIC_WHY``: only how many options there are): seeded games of every game are walked
and every action offered at every step, to a seat or as a chance outcome, is checked; Clan
Feud's whole action table too, since a seeded game need not reach every kind."""

from __future__ import annotations

import pytest

import clangames
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves
from clangames.engine.state import Action, State
from clangames.rendering.explain import (
    CLAN_FEUD_KINDS,
    GENERIC_WHY,
    GUIDES,
    explain_action,
    kind_explanation,
)

CASES = [
    ("kings_kilt", 3),
    ("koa_kingmaker", 4),
    ("kilt_castle", 2),
    ("clan_feud", 2),
    ("clan_feud", 4),
]
SEEDS = {"clan_feud": tuple(range(8))}
"""Seeds per game (two unless named): Clan Feud's many kinds need more games to show up."""
GENERIC = GENERIC_WHY.split("{", 1)[0]
"""The generic explanation's fixed words ("is one of your")."""


def _offered(state: State) -> list[tuple[int, Action]]:
    """Every (player, action) offered at ``state``: each seat's legal actions, or the chance
    outcomes."""
    if state.is_chance:
        return [(CHANCE, a) for a, _ in state.chance_weights()]
    return [(p, a) for p in state.to_move for a in state.legal_actions(p)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_offered_action_gets_its_kinds_explanation(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    kinds_seen: set[str] = set()
    for seed in SEEDS.get(name, (0, 1)):
        state = game.initial_state()
        _, _, moves = rollout_moves(state, Rng(seed))
        explained = 0
        for player, action in moves:
            for p, offered in _offered(state):
                kind = kind_explanation(state, offered)
                assert kind, (name, seed, state.action_text(offered))
                kinds_seen.add(GUIDES[name].kind_of(offered))
                if p != CHANCE and name == "clan_feud":
                    text = explain_action(state, offered, p)
                    assert GENERIC not in text, text
                    assert kind in text
                    explained += 1
            state = state.apply(action, player)
        assert state.is_terminal
        assert name != "clan_feud" or explained > 100
    assert kinds_seen <= set(GUIDES[name].kinds)
    if name == "clan_feud":
        # the walk reaches battles, cards and England, not only the first decisions; the
        # rest of the table is checked below
        missing = set(CLAN_FEUD_KINDS) - kinds_seen
        assert {"Commit", "PlayCard", "Roll", "Hits", "PlayAction"}.isdisjoint(missing)
        assert len(missing) <= len(CLAN_FEUD_KINDS) // 10, sorted(missing)


def test_every_kind_of_the_clan_feud_action_table_is_explained() -> None:
    for players in (2, 5):
        game = clangames.load("clan_feud", players=players)
        state = game.initial_state()
        table = game.actions
        kinds = {GUIDES["clan_feud"].kind_of(table.get(i)) for i in range(len(table))}
        for i in range(len(table)):
            assert kind_explanation(state, table.get(i)), table.text(table.get(i))
        # and the guide explains nothing the table does not hold
        assert kinds == set(CLAN_FEUD_KINDS)
        # one-word decisions differ in kind: each word has its own explanation
        words = [k for k in kinds if k.startswith("Word ")]
        assert len({CLAN_FEUD_KINDS[w] for w in words}) == len(words) == 13


def test_a_game_without_a_guide_gets_the_generic_explanation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = clangames.load("kilt_castle", players=2)
    state = game.initial_state()
    while state.is_chance:
        state = state.apply(state.chance_weights()[0][0], CHANCE)
    seat = state.to_move[0]
    action = state.legal_actions(seat)[0]
    assert GENERIC not in explain_action(state, action, seat)
    monkeypatch.delitem(GUIDES, "kilt_castle")
    assert kind_explanation(state, action) is None
    options = len(state.legal_actions(seat))
    assert f"This is one of your {options} options now." in explain_action(state, action, seat)
