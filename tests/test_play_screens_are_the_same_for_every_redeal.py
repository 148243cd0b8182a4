"""What ``clangames play`` shows a seat at its decision is the same in every state the
seat cannot tell apart from the real one (its re-deals), for every game and player count:
the decision screen (the board or its summary, the prompt, the options in words), and
what the seat's commands answer there: ``board``, ``help``, ``rules``, ``options``,
``more``, ``undo``, ``explain N`` of its options, and the refusal of a typed action that
is not legal for it (other movers' options, chance outcomes, actions from the whole
table), driven through the session's own turn loop."""

from __future__ import annotations

import io

import pytest

from clangames import CHANCE, State
from clangames.cli.play import PlaySession, _Quit
from redeal_helpers import COUNT_IDS, COUNTS, QUICK, SOAK_SAMPLE, Sample, redeals
from testing.soak import soak_test

EXPLAINED = 6
"""How many of a seat's options (the first and the last ones) ``explain N`` is asked about."""


def _typed(state: State, seat: int) -> list[str]:
    """What the seat types at its prompt: each command, and actions that are not its own."""
    n = len(state.legal_actions(seat))
    explained = sorted({*range(1, min(n, EXPLAINED) + 1), *range(max(1, n - 1), n + 1)})
    lines = ["board", "help", "rules", "options", "more", "undo"]
    lines += [f"explain {k}" for k in explained]
    game = state.game
    mine = set(state.legal_actions(seat))
    others = [
        a
        for mover in state.to_move
        if mover not in (seat, CHANCE)
        for a in state.legal_actions(mover)[:4]
    ]
    table = game.actions.actions
    others += [table[(k * 7919) % len(table)] for k in range(1, 4)]
    lines += [game.action_text(a) for a in others if a not in mine]
    lines += [str(n + 1), "quit"]
    return lines


def _screen(state: State, seat: int, typed: list[str]) -> str:
    """Everything ``play`` prints at ``seat``'s decision in ``state`` on an 80 x 24 screen
    while the seat types ``typed`` (ending with ``quit``)."""
    game = state.game
    out = io.StringIO()
    session = PlaySession(
        game,
        0,
        ["human"] * game.num_players,
        io.StringIO("\n".join(typed) + "\n"),
        out,
        width=80,
        height=24,
    )
    session.match.state = state  # the turn reads the match's state (its history is empty)
    with pytest.raises(_Quit):
        session._human_turn(seat)
    return out.getvalue()


def _check(name: str, players: int, sample: Sample) -> int:
    compared = 0
    for where, seat, state, other in redeals(name, players, sample):
        if state.is_terminal or seat not in state.to_move:
            continue
        typed = _typed(state, seat)
        real = _screen(state, seat, typed)
        assert _screen(other, seat, typed) == real, f"{name}, {players} players, {where}"
        compared += 1
    return compared


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_a_seat_s_decision_screen_is_the_same_in_every_redeal(name: str, players: int) -> None:
    assert _check(name, players, QUICK) > 0


@soak_test
@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_a_seat_s_decision_screen_is_the_same_in_every_redeal_soak(name: str, players: int) -> None:
    assert _check(name, players, SOAK_SAMPLE) > 0
