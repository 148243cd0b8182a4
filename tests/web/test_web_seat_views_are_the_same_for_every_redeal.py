"""What the server sends a seat is the same in every state the seat cannot tell apart
from the real one (its re-deals): its view (picture, prompt, options and their labels,
turn, log, notices, pause), the reason a refused move is given and the spectators' view,
for every game and player count, on chance nodes, decisions, half-committed simultaneous
rounds and ends.

The room is set to each state through ``Room.resume``, the seam a finished game's saved
final table is loaded through: the server then answers from that state as from any other.
"""

from __future__ import annotations

from typing import Any

import pytest

from clangames import CHANCE, State
from clangames.web.final import Final
from clangames.web.hub import Hub, Room, WebError
from clangames.web.store import Store
from redeal_helpers import COUNT_IDS, COUNTS, QUICK, SOAK_SAMPLE, Sample, redeals
from testing.soak import soak_test


def _table(name: str, players: int) -> tuple[Hub, Room, dict[int, str]]:
    """A game of ``name`` with a human at every seat, in a throwaway database."""
    hub = Hub(Store(":memory:"))
    seats = [{"kind": "human"}] * players
    room, tokens = hub.create({"game": name, "players": players, "seed": 1, "seats": seats})
    return hub, room, tokens


def _probes(state: State, seat: int) -> list[str]:
    """Texts a seat might send that are no legal move of its own: other movers' options
    and chance outcomes (what the seat must not learn about), a few actions from the
    whole table, and one of its own options spelt otherwise."""
    game = state.game
    mine = set(state.legal_actions(seat)) if seat in state.to_move else set()
    texts: list[str] = []
    for mover in state.to_move:
        if mover not in (seat, CHANCE):
            texts += [state.action_text(a) for a in state.legal_actions(mover)[:4]]
    if state.is_chance:
        texts += [state.action_text(a) for a, _ in state.chance_weights()[:4]]
    table = game.actions.actions
    texts += [game.action_text(table[(k * 7919) % len(table)]) for k in range(1, 4)]
    texts = [t for t in texts if state.parse_action(t) not in mine]
    if mine:
        own = state.action_text(min(mine, key=state.action_text))
        if own.upper() != own:
            texts.append(own.upper())
    return texts


def _seen(hub: Hub, room: Room, state: State, seat: int, token: str, probes: list[str]) -> Any:
    """Everything the server answers ``seat`` about ``state``: its view, the refusal of
    each probe (status and message), and the spectators' view."""
    room.resume(
        (),
        Final(state, tuple(room.turns), tuple(map(tuple, room.logs)), tuple(room.public_log)),
    )
    view = room.view(seat)
    # A spectator knows less than any seat: the public view is the same in every seat's
    # re-deal too.
    # At the end, the scores too: every card they count is public by then (King's Kilt's
    # families are turned face up when everyone has passed).
    public = room.view(None)
    refusals = []
    for text in probes:
        message = {"token": token, "turn": room.turns[seat], "action": text}
        with pytest.raises(WebError) as refused:
            hub.act(room, message)
        refusals.append((refused.value.status, str(refused.value)))
    return view, public, refusals


def _check(name: str, players: int, sample: Sample) -> int:
    hub, room, tokens = _table(name, players)
    compared = 0
    for where, seat, state, other in redeals(name, players, sample):
        probes = _probes(state, seat)
        real = _seen(hub, room, state, seat, tokens[seat], probes)
        redealt = _seen(hub, room, other, seat, tokens[seat], probes)
        assert redealt == real, f"{name}, {players} players, {where}"
        compared += 1
    return compared


@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_a_seat_is_sent_the_same_in_every_redeal(name: str, players: int) -> None:
    assert _check(name, players, QUICK) > 0


@soak_test
@pytest.mark.parametrize(("name", "players"), COUNTS, ids=COUNT_IDS)
def test_a_seat_is_sent_the_same_in_every_redeal_soak(name: str, players: int) -> None:
    assert _check(name, players, SOAK_SAMPLE) > 0
