"""Issue 11's fifth Clan Feud speed round (cffast6): each shortcut gives what the plain
reading it replaced gives, on every state of seeded random games (the plain readings kept
here as oracles, as they stood before the round). The kept draft has its own file,
``test_cf_speed_kept.py``."""

from __future__ import annotations

import pytest

import clangames
from clangames.clan_feud import playing, rules
from clangames.clan_feud.state import ClanFeudState

from .test_cf_speed_round4 import states


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_card_is_playable_where_its_first_assignment_is_found(players: int) -> None:
    """Every phase-(2) design, for every seat, in every position (not only the cards a hand
    holds), with the seat's own dice and with every die at once: the masks' answer is
    whether the walk over the candidates finds an assignment."""
    game = clangames.load("clan_feud", players=players)
    designs = game.window_designs["P2.assign"]
    every_die = list(range(len(rules.DIE_INDEXES)))
    answers = {True: 0, False: 0}
    for state in states(players, games=2, seed=90):
        w = rules.working(state)
        for p in range(players):
            held = [i for i, n in enumerate(w.pool[p]) if n]
            for d in designs:
                for dice in (held, every_die):
                    fast = playing.card_playable(w, p, d, dice)
                    plain = bool(playing.card_assignments(w, p, d, dice, first=True))
                    assert fast is plain, (d, p, dice)
                    answers[fast] += 1
    assert min(answers.values()) > 100


def plain_draw_event_weights(state: ClanFeudState) -> tuple[tuple[object, int], ...]:
    """The draw's outcomes as the code before the round worked them out."""
    acts = state.game.event_actions
    drawn = set(state.events)
    return tuple([(acts[e], 1) for e in range(len(acts)) if e not in drawn])


@pytest.mark.parametrize("players", [2, 4])
def test_an_event_draw_offers_the_events_not_drawn(players: int) -> None:
    seen = 0
    for state in states(players, games=2, seed=90):
        if not state.tasks:
            continue  # the end: nothing is asked
        w = rules.working(state)
        got = rules._draw_event_weights(w, w.tasks[-1])
        assert got == plain_draw_event_weights(state)
        if state.is_chance and state.tasks[-1].kind == "draw_event":
            assert state.chance_weights() == got
            seen += 1
    assert seen >= 8
