"""Every action of a game can be described and explained at any state of it, legal there or
not: ``describe`` words an action out of its decision plainly (front-ends and harnesses ask
about actions a user typed or an old screen offered), ``explain_illegal`` says why it is
refused, and neither changes the state nor raises anything but the library's errors."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest

import clangames
from clangames import ClanGamesError, Rng, State
from clangames.clan_feud.actions import Lose
from clangames.clan_feud.effects import Primitive
from clangames.kilt_castle.actions import Lay
from clangames.koa_kingmaker.actions import Inherit

GAMES = ("clan_feud", "kings_kilt", "koa_kingmaker", "kilt_castle")


def walk(name: str, players: int, seed: int) -> Iterator[State]:
    """The states of one seeded random game, the first to the last."""
    s, rng = clangames.load(name, players=players).initial_state(), Rng(seed)
    while True:
        yield s
        if s.is_terminal:
            return
        if s.is_chance:
            s, rng = clangames.play_chance(s, rng)
            continue
        player = s.to_move[0]
        action, rng = rng.choice(s.legal_actions(player))
        s = s.apply(action, player)


def every_action(s: State) -> list[object]:
    return [s.game.action_from_id(i) for i in range(s.game.num_distinct_actions)]


def first(name: str, players: int, found: Callable[[State], bool]) -> State:
    for seed in range(20):
        for s in walk(name, players, seed):
            if found(s):
                return s
    raise AssertionError(f"no state of {name} found")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_every_action_is_described_and_explained_anywhere(name: str, players: int) -> None:
    game = clangames.load(name, players=players)
    actions = [game.action_from_id(i) for i in range(game.num_distinct_actions)]
    for k, s in enumerate(walk(name, players, 5)):
        if k % 11:
            continue
        before = s.to_json()
        seat = s.to_move[0] if s.to_move else 0
        for action in actions[k % 3 :: 3]:
            assert s.describe(action)
            with contextlib.suppress(ClanGamesError):  # e.g. a chance outcome asked of a seat
                assert s.explain_illegal(action, seat)
        assert s.to_json() == before


def test_kilt_castle_a_lay_after_the_lay_out_names_no_position() -> None:
    s = first("kilt_castle", 2, lambda s: s.phase.name == "relocate")
    lay = next(a for a in every_action(s) if isinstance(a, Lay))
    said = s.describe(lay)  # was IndexError: the lay-out has no position left
    assert said.startswith("the card ") and " is laid out with " in said
    assert "position" not in said


def test_koa_an_inheritance_card_once_every_house_holds_one_names_no_house() -> None:
    s = first("koa_kingmaker", 4, lambda s: 0 not in s.inheritance)  # type: ignore[attr-defined]
    said = s.describe(Inherit(3))  # was ValueError from tuple.index
    assert said == "a house is dealt inheritance number 3 face down"


def test_clan_feud_a_loss_asked_about_inside_another_program_step_is_told_plainly() -> None:
    def off_removal(s: State) -> bool:
        tasks = getattr(s, "tasks", ())
        if not tasks or tasks[-1].kind != "prog" or len(tasks[-1].data) < 2:
            return False
        node = s.game.nodes[tasks[-1].data[-2]]  # type: ignore[attr-defined]
        return tasks[-1].data[-1] % 64 > s.game.board.size and not (  # type: ignore[attr-defined]
            isinstance(node, Primitive) and node.name == "remove_troops"
        )

    s = first("clan_feud", 2, off_removal)
    lose = next(a for a in every_action(s) if isinstance(a, Lose))
    # was IndexError: the program's counter was read as a territory
    assert s.describe(lose) == f"remove one {('infantry', 'cavalry', 'artillery')[lose.troop]}"
