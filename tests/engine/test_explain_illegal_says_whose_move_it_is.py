"""``state.explain_illegal`` of a seat not to move says, in every game, that the game is
over, that chance decides, or whose move it is and what they decide: the kernel answers
for such a seat before the game's own explainer runs (Clan Feud adds what a side of a
battle round has already committed)."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import CHANCE, Rng, State
from clangames.engine.chance import sample_chance
from testing import toys
from testing.toys import Bid, Stake

GAME = toys.toy()
DEAL = ((None, "draw low"), (None, "draw mid"))


def _toy(*moves: tuple[int | None, str]) -> Any:
    state: Any = GAME.initial_state()
    for player, text in moves:
        state = state.apply_text(text, player)
    return state


def test_the_toy_game_says_whose_move_it_is() -> None:
    # the toy's own explainer speaks only of the seat to move
    at_stake = _toy(*DEAL)
    assert at_stake.explain_illegal(Stake(1), 1) == (
        "'stake 1' is not legal: it is player 0's turn (seat 0 chooses the stake), not player 1's"
    )
    assert at_stake.explain_illegal(Bid(1), 0) == (
        "'bid 1' is not allowed now (seat 0 chooses the stake)"  # the toy's own words
    )
    assert _toy().explain_illegal(Stake(1), 0) == (
        "'stake 1' is not legal: chance decides next (a card is dealt face down), not player 0"
    )
    half = _toy(*DEAL, (0, "stake 2"), (None, "draw mid"), (1, "bid 1"))
    assert half.explain_illegal(Bid(0), 1) == (
        "'bid 0' is not legal: it is player 0's turn (both seats bid in secret), not player 1's"
    )
    over = half.apply(Bid(0), 0)
    assert over.explain_illegal(Bid(0), 1) == "'bid 0' is not legal: the game is over"
    # the kernel's own explainer answers alike
    assert State.explain_illegal(at_stake, Stake(1), 1) == at_stake.explain_illegal(Stake(1), 1)


def test_several_seats_to_move_are_named_together() -> None:
    # KOA Kingmaker, four houses: once house 0 has committed, the three others are awaited
    state: Any = clangames.load("koa_kingmaker", players=4).initial_state()
    rng = Rng(0)
    while state.is_chance:
        outcome, rng = sample_chance(state, rng)
        state = state.apply(outcome)
    assert state.to_move == (0, 1, 2, 3)
    state = state.apply(state.legal_actions(0)[0], 0)
    action = state.legal_actions(1)[0]
    assert state.explain_illegal(action, 0) == (
        f"{state.action_text(action)!r} is not legal: players 1, 2 and 3 are to move now"
        f" ({state.prompt()}), not player 0"
    )


def _whose(state: State, seat: int) -> str:
    to_move = state.to_move
    if not to_move:
        return "the game is over"
    if to_move == (CHANCE,):
        return f"chance decides next ({state.prompt()}), not player {seat}"
    if len(to_move) == 1:
        # The prompt without its own "player N: " (the sentence names the player).
        prompt = state.prompt()
        head, _, rest = prompt.partition(": ")
        if head.split(" (")[0] == f"player {to_move[0]}":
            prompt = rest
        return f"it is player {to_move[0]}'s turn ({prompt}), not player {seat}'s"
    return f"players {', '.join(map(str, to_move[:-1]))} and {to_move[-1]} are to move now" + (
        f" ({state.prompt()}), not player {seat}"
    )


@pytest.mark.parametrize(
    ("name", "players"),
    [("kings_kilt", 3), ("kilt_castle", 3), ("koa_kingmaker", 4), ("clan_feud", 3)],
)
def test_every_game_says_it_for_every_seat_not_to_move(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    state: Any = game.initial_state()
    rng = Rng(7)
    table = game.actions.actions
    said = 0
    for _ in range(150):
        for seat in range(players):
            if seat in state.to_move:
                continue
            action = table[(said * 7 + seat) % len(table)]
            text = state.explain_illegal(action, seat)
            prefix = f"{state.action_text(action)!r} is not legal: "
            assert text.startswith(prefix), text
            reason = text.removeprefix(prefix)
            if name == "clan_feud" and reason.startswith("you "):
                assert "battle round" in reason  # a side that has committed already
            else:
                assert reason == _whose(state, seat)
            said += 1
        if state.is_terminal:
            break
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            state = state.apply(action)
        else:
            seat = state.to_move[0]
            action, rng = rng.choice(state.legal_actions(seat))
            state = state.apply(action, seat)
    assert said > 100
