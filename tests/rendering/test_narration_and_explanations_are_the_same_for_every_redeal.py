"""What a seat is told in words is the same in every state the seat cannot tell apart
from the real one (its re-deals), for every game and player count:

- the log line of each step (``narrate``, which ``play``, ``replay`` and the server's
  logs share): told to a seat, a step reads the same whichever of the options the seat
  cannot rule out was taken (another seat's hidden choice, a card dealt face down to
  someone else), in any world the seat cannot tell from the real one;
- the description and the explanation (``explain N``) of each of its own legal options,
  and the rules in brief (``rules``), which are written from the state.
"""

from __future__ import annotations

import pytest

from clangames import CHANCE, Rng
from clangames.rendering import explain_action, renderer_for, rules_text
from clangames.rendering.text import narrate
from redeal_helpers import (
    COUNT_IDS,
    COUNTS,
    QUICK,
    SOAK_SAMPLE,
    Sample,
    redeals,
    sampled_steps,
)
from testing.soak import soak_test


def _check_narration(name: str, players: int, sample: Sample) -> int:
    compared = 0
    for k, (seed, step) in enumerate(sampled_steps(name, players, sample)):
        before, action, player, after = step.before, step.action, step.player, step.after
        renderer = renderer_for(before.game)
        for viewer in range(players):
            told = narrate(renderer, before, action, player, after, viewer)
            world = before.resample(viewer, Rng(11).fork(k * 8 + viewer))
            if viewer == player:
                options: tuple[object, ...] = (action,)
            elif player == CHANCE:
                options = tuple(a for a, _ in world.chance_weights())
            else:
                options = world.legal_actions(player)
            seen = after.observation(viewer)
            for option in options:
                then = world.apply(option, player)
                if then.observation(viewer) != seen:
                    continue  # the viewer can tell this step apart: it may read otherwise
                again = narrate(renderer, world, option, player, then, viewer)
                where = f"{name}, {players} players, seed {seed}: {before.action_text(action)!r}"
                assert again == told, f"{where}, told to player {viewer} (mover {player})"
                compared += 1
    return compared


def _check_explanations(name: str, players: int, sample: Sample) -> int:
    compared = 0
    for where, seat, state, other in redeals(name, players, sample):
        assert rules_text(other) == rules_text(state), where
        if state.is_terminal or seat not in state.to_move:
            continue
        for action in state.legal_actions(seat):
            said = (state.describe(action), explain_action(state, action, seat))
            again = (other.describe(action), explain_action(other, action, seat))
            assert again == said, f"{name}, {players} players, {where}: {state.action_text(action)}"
            compared += 1
    return compared


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_a_step_is_told_to_a_seat_alike_in_every_world_it_cannot_rule_out(
    name: str, players: int
) -> None:
    assert _check_narration(name, players, QUICK) > 0


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_a_seat_s_options_are_explained_alike_in_every_redeal(name: str, players: int) -> None:
    assert _check_explanations(name, players, QUICK) > 0


@soak_test
@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_narration_and_explanations_soak(name: str, players: int) -> None:
    assert _check_narration(name, players, SOAK_SAMPLE) > 0
    assert _check_explanations(name, players, SOAK_SAMPLE) > 0
