"""Issue 11's Clan Feud pass (cfspeed5): the fast path's moves made in place.

``rules.apply_owned`` (the state class's ``_apply_owned``, which the kernel's random
rollout calls on the states it made itself when the class keeps no draft) and
``rules.apply_kept`` (``_apply_kept``, the fifth round's kept draft) must give the state
``apply`` gives, and the rollout must never build on a state its caller holds; a program's
troop removal must offer the territories a board scan finds."""

from __future__ import annotations

from itertools import pairwise

import attrs
import pytest

import clangames
from clangames.clan_feud import interpret, rules
from clangames.clan_feud.effects import Primitive
from clangames.clan_feud.state import ClanFeudState, new_task
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State


def moves_of(players: int, seed: int) -> tuple[ClanFeudState, list[tuple[int, object]]]:
    """The initial state of a seeded game and the moves of its random playout."""
    game = clangames.load("clan_feud", players=players)
    state = game.initial_state()
    assert isinstance(state, ClanFeudState)
    _, _, moves = clangames.rollout_moves(state, Rng(seed), first_mover=True)
    return state, list(moves)


@pytest.mark.parametrize("players", [2, 5])
def test_a_move_made_in_place_gives_the_state_a_copying_move_gives(players: int) -> None:
    state, moves = moves_of(players, 11)
    for (p0, a0), (p1, a1) in pairwise(moves):
        # two equal successors of the same state: one is kept, the other is built on
        kept = rules.apply(state, a0, p0)
        spent = rules.apply(state, a0, p0)
        if kept.to_move and kept.to_move[0] >= 0:
            kept.legal_actions(p1)  # fills the memos (a cache field): none may carry over
            spent.legal_actions(p1)
            assert spent._memo is not None
        copied = rules.apply(kept, a1, p1)
        in_place = rules.apply_owned(spent, a1, p1)
        assert in_place is spent  # the very object became the successor
        assert type(in_place) is ClanFeudState
        assert in_place == copied
        assert in_place.to_json() == copied.to_json()
        assert in_place.options == copied.options
        assert in_place._memo is None
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            in_place.turn = 0  # type: ignore[misc]
        state = kept


HOOKS = [("_apply_kept", rules.apply_kept), ("_apply_owned", rules.apply_owned)]
"""The kernel's in-place moves: the kept draft's (fifth round), else the state's own; a
test spying on the second takes the first away, as a class without it has none."""


@pytest.mark.parametrize("hook", HOOKS, ids=[name for name, _ in HOOKS])
@pytest.mark.parametrize("players", [2, 4])
def test_a_rollout_never_builds_on_its_callers_state(
    players: int, hook: tuple[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    state, moves = moves_of(players, 7)
    for p, a in moves[:40]:
        state = state.apply(a, p)
    before = state.to_json()
    seen: list[int] = []
    name, real = hook
    assert callable(real)

    def spy(s: ClanFeudState, action: object, player: int) -> ClanFeudState:
        seen.append(id(s))
        assert s is not state
        return real(s, action, player)  # type: ignore[no-any-return]

    if name == "_apply_owned":
        monkeypatch.delattr(ClanFeudState, "_apply_kept")
    monkeypatch.setattr(ClanFeudState, name, spy)
    final, _, steps = clangames.rollout(state, Rng(3), first_mover=True)
    assert steps > 1 and len(seen) == steps - 1  # every move but the first builds in place
    assert type(state) is ClanFeudState and state.to_json() == before
    monkeypatch.undo()
    again, _, _ = clangames.rollout(state, Rng(3), first_mover=True)
    assert again == final and state.to_json() == before


@pytest.mark.parametrize("hook", HOOKS, ids=[name for name, _ in HOOKS])
@pytest.mark.parametrize("players", [2, 4])
def test_rollout_seats_builds_in_place_only_without_bots(
    players: int, hook: tuple[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random seats only: every move but the first is made in place, and the games equal the
    copying ones; with a bot asked (it may keep the states it is shown) no move is."""
    state, moves = moves_of(players, 9)
    for p, a in moves[:25]:
        state = state.apply(a, p)
    before = state.to_json()
    seats = [Rng(100 + k) for k in range(players)]
    copied = clangames.rollout_seats(state, Rng(4), seats)  # the kernel's own copying moves
    seen: list[ClanFeudState] = []
    name, real = hook
    assert callable(real)

    def spy(s: ClanFeudState, action: object, player: int) -> ClanFeudState:
        seen.append(s)
        return real(s, action, player)  # type: ignore[no-any-return]

    if name == "_apply_owned":
        monkeypatch.delattr(ClanFeudState, "_apply_kept")
    monkeypatch.setattr(ClanFeudState, name, spy)
    played = clangames.rollout_seats(state, Rng(4), seats)
    assert played.steps > 1 and len(seen) == played.steps - 1
    assert all(s is not state for s in seen)
    assert played.moves == copied.moves and played.state == copied.state
    assert played.rng == copied.rng and played.seat_rngs == copied.seat_rngs
    assert state.to_json() == before
    seen.clear()
    shown: list[tuple[State, dict[str, object]]] = []

    class Keeper:
        """A bot that keeps every state it is shown and plays its first legal action."""

        def act(self, s: State, player: int) -> Action:
            shown.append((s, s.to_json()))
            return s.legal_actions(player)[0]

    clangames.rollout_seats(state, Rng(4), seats, policies={0: Keeper()})
    assert not seen and shown
    assert all(s.to_json() == data for s, data in shown)  # nothing shown was built on


@pytest.mark.parametrize("troop", [None, "infantry", "cavalry", "artillery"])
def test_a_troop_removals_territories_are_the_ones_a_board_scan_finds(
    troop: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program's ``remove_troops`` asks first for a territory: the occupied territories
    (remembered per row) holding a troop of the type, exactly those the board scan finds."""
    game = clangames.load("clan_feud", players=3)
    node = next(
        i
        for i, e in enumerate(game.nodes)
        if isinstance(e, Primitive) and e.name == "remove_troops"
    )
    options = () if troop is None else (("type", troop),)
    nodes = list(game.nodes)
    nodes[node] = Primitive("remove_troops", (1,), options)
    monkeypatch.setattr(game, "nodes", nodes)
    kinds = range(3) if troop is None else (("infantry", "cavalry", "artillery").index(troop),)
    size = game.board.size
    # the rows of random games, and made-up rows with every troop type (random play
    # rarely recruits artillery)
    states: list[ClanFeudState] = []
    for seed in range(5, 8):
        state, moves = moves_of(3, seed)
        for p, a in moves:
            state = state.apply(a, p)
            states.append(state)
    for m in range(2, 12):
        rows = tuple(
            tuple(int((i * m + seat) % (m + 3) == 0) for i in range(3 * size)) for seat in range(3)
        )
        states.append(attrs.evolve(state, troops=rows))
    compared = 0
    for state in states:
        for seat in range(3):
            task = new_task("prog", seat, data=(node, 64))
            row = state.troops[seat]
            scan = tuple(
                game.place_actions[t] for t in range(size) if any(row[3 * t + k] for k in kinds)
            )
            assert interpret._options(rules.working(state), task) == scan
            compared += bool(scan)
    assert compared > 20
