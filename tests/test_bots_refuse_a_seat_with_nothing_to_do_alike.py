"""Every bot asked to act for a seat with nothing to do (not its turn, or the game is
over) raises the same error, IllegalActionError, naming the seat and who is to move, so a
driver catches one class whatever bot sits there. ISMCTSBot used to raise a plain
ValueError where RandomBot raised IllegalActionError."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import clangames
from clangames.bots import ISMCTSBot, RandomBot
from clangames.engine.errors import IllegalActionError

BOTS: dict[str, Callable[[], clangames.Policy]] = {
    "random": lambda: RandomBot(1),
    "ismcts": lambda: ISMCTSBot(1, iterations=3),
}


def _first_decision() -> clangames.State:
    game = clangames.load("kings_kilt", players=3)
    return clangames.resolve_chance(game.initial_state(), clangames.Rng(42))


def _finished() -> clangames.State:
    game = clangames.load("kilt_castle", players=2)
    match = clangames.Match(game, 3, {p: RandomBot(p) for p in range(2)})
    match.run()
    assert match.state.is_terminal and match.state.to_move == ()
    return match.state


@pytest.mark.parametrize("bot", list(BOTS))
def test_a_seat_not_to_move_is_refused_naming_it_and_who_moves(bot: str) -> None:
    state = _first_decision()
    mover = state.to_move[0]
    idle = (mover + 1) % 3
    with pytest.raises(IllegalActionError) as refused:
        BOTS[bot]().act(state, idle)
    assert type(refused.value) is IllegalActionError
    assert str(refused.value) == (f"player {idle} has no legal action here (to_move is ({mover},))")


@pytest.mark.parametrize("bot", list(BOTS))
def test_a_finished_game_is_refused_saying_nobody_moves(bot: str) -> None:
    with pytest.raises(IllegalActionError) as refused:
        BOTS[bot]().act(_finished(), 0)
    assert str(refused.value) == "player 0 has no legal action here (to_move is ())"


def test_both_bots_raise_the_same_class_still_a_value_error() -> None:
    """The same class for both bots; still a ValueError, as ISMCTSBot's callers caught."""
    state = _first_decision()
    idle = (state.to_move[0] + 1) % 3
    raised = set()
    for make in BOTS.values():
        with pytest.raises(ValueError) as refused:
            make().act(state, idle)
        raised.add(type(refused.value))
    assert raised == {IllegalActionError}
