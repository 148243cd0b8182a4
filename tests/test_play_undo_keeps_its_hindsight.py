"""``undo`` keeps what the history has told each seat from one command to the next (the
session's hindsight) instead of replaying the game from its start at every undo: the
answers must be those of a hindsight worked out afresh, as the game grows, after undos
and after the moves that follow them, and the kept one must do far less replaying."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from clangames import load
from clangames.bots import make_bot
from clangames.cli import play
from clangames.cli.play import PlaySession, _Hindsight
from clangames.engine.rng import Rng
from clangames.engine.state import State


def _session(name: str, players: int, seed: int, humans: tuple[int, ...]) -> PlaySession:
    names = ["human" if seat in humans else "random" for seat in range(players)]
    game = load(name, players=players)
    return PlaySession(game, seed, names, io.StringIO(), io.StringIO())


def _play(
    session: PlaySession,
    seed: int,
    at_decision: Callable[[PlaySession, int, int], None],
    undo_every: int,
    steps: int | None = None,
) -> int:
    """Play the human seats at random, calling ``at_decision`` at each of their decisions
    and taking one (every ``undo_every``-th decision) or two (every third such) back; the
    undos that went through."""
    picker = make_bot("random", Rng(seed).fork(77))
    decisions = undone = 0
    while not session.match.is_over:
        session._advance_bots()
        if session.match.is_over or (steps is not None and len(session.match.history) >= steps):
            break
        seat = session.match.waiting_for[0]
        at_decision(session, seat, decisions)
        decisions += 1
        assert decisions < 2000  # the undos leave the game room to go on
        if decisions % undo_every == 0:
            times = 2 if decisions % (3 * undo_every) == 0 else 1
            went = sum(session._undo(seat) for _ in range(times))
            if went:
                undone += went
                continue
        state = session.match.state
        action = picker.act(state, seat)
        session.match.apply(action, seat)
        session._record_step(state, action, seat)
    return undone


def _same_as_fresh(session: PlaySession, seat: int, decisions: int) -> None:
    kept = session._hindsight
    for human in session.humans:
        fresh = _Hindsight()
        assert session._undo_limit(human) == session._undo_limit(human, fresh)
        for i, viewer in list(fresh._told):
            assert kept.told(i, viewer) == fresh.told(i, viewer), (i, viewer, decisions)


@pytest.mark.parametrize(
    ("name", "players", "seed", "humans", "undo_every", "steps"),
    [
        ("koa_kingmaker", 5, 5, (0, 2), 3, None),
        ("koa_kingmaker", 3, 1, (0, 1), 3, None),
        ("kings_kilt", 3, 2, (0, 1), 4, 90),
        ("kings_kilt", 4, 5, (1, 3), 3, None),
        ("clan_feud", 3, 4, (0, 2), 4, 100),
    ],
)
def test_the_kept_hindsight_answers_as_a_fresh_one_at_every_decision(
    name: str,
    players: int,
    seed: int,
    humans: tuple[int, ...],
    undo_every: int,
    steps: int | None,
) -> None:
    session = _session(name, players, seed, humans)
    undone = _play(session, seed, _same_as_fresh, undo_every, steps)
    assert undone >= 2  # the undos cut the kept history, and the game grew again after them
    if steps is None:
        assert session.match.is_over


def test_a_hindsight_over_its_budget_of_worlds_still_answers_as_a_fresh_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a game of tens of thousands of moves sheds the worlds it follows; here a few dozen
    monkeypatch.setattr(play, "_WORLDS_KEPT", 40)
    session = _session("clan_feud", 4, 2, (0, 1))
    _play(session, 2, _same_as_fresh, 4, 90)
    session._undo_limit(0)
    held = sum(len(w) for r in session._hindsight._told.values() for w in r.worlds.values())
    assert held > 40  # over the budget until the history changes
    session._hindsight.sync(session.match.history[:-1], session.match.history[-1].before)
    held = sum(len(w) for r in session._hindsight._told.values() for w in r.worlds.values())
    assert held <= 40


@contextmanager
def _applies(state: State) -> Iterator[list[int]]:
    """Count the calls of ``apply`` on states of ``state``'s class."""
    cls = type(state)
    original = cls.apply
    count = [0]

    def counted(self: State, *args: object, **kwargs: object) -> State:
        count[0] += 1
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    cls.apply = counted  # type: ignore[method-assign]
    try:
        yield count
    finally:
        cls.apply = original  # type: ignore[method-assign]


def test_undos_late_in_a_game_replay_a_small_fraction_of_a_fresh_hindsight() -> None:
    # four clans, one human: late in the game each undo limit walks back to the start
    def warm(session: PlaySession, seat: int, decisions: int) -> None:
        session.undo_depth(seat)  # as the human's turn does while they read the screen

    def undos(fresh: bool) -> tuple[int, list[tuple[int, str]]]:
        session = _session("clan_feud", 4, 2, (0,))
        # the fresh hindsight needs no warming: it is worked out again at every undo
        _play(session, 2, (lambda *_: None) if fresh else warm, undo_every=10**9, steps=301)
        limits = []
        with _applies(session.match.state) as count:
            for _ in range(3):
                limits.append(session._undo_limit(0, _Hindsight() if fresh else None)[:2])
                if not session._undo(0):
                    break
        return count[0], limits

    fresh, fresh_limits = undos(fresh=True)
    kept, kept_limits = undos(fresh=False)
    assert kept_limits == fresh_limits
    assert len(fresh_limits) >= 3  # undos that went through, not one refusal
    assert fresh > 20_000
    assert kept * 20 < fresh
