"""``undo``'s question "may a human have seen this chance outcome?" (``chance_seen``) is
answered from the session's hindsight, which follows each other outcome on from where it
last stopped, instead of replaying the game from the chance node to the end at every
question: the answers are those of the replaying computation on seeded games with undos,
and asking again with no new move replays nothing."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.cli.play import PlaySession
from clangames.engine.errors import ClanGamesError
from clangames.engine.phases import CHANCE
from test_play_undo_keeps_its_hindsight import _applies, _play, _session


def _replayed(session: PlaySession, index: int) -> bool:
    """The answer as it was worked out before the hindsight kept it: every other outcome
    of the chance node replayed through the history to now, for every human seat."""
    history = session.match.history
    step = history[index]
    later = history[index + 1 :]
    real = [s.before for s in later] + [session.match.state]
    for other, _ in step.before.chance_weights():
        if other == step.action:
            continue
        world = step.before.apply(other, CHANCE)
        worlds = [world]
        try:
            for s in later:
                world = world.apply(s.action, s.player)
                worlds.append(world)
        except ClanGamesError:
            return True
        if any(
            a.observation(v) != b.observation(v)
            for v in session.humans
            for a, b in zip(real, worlds, strict=True)
        ):
            return True
    return False


@pytest.mark.parametrize(
    ("name", "players", "seed", "humans", "undo_every", "steps"),
    [
        ("koa_kingmaker", 5, 5, (0, 2), 3, None),
        ("kings_kilt", 3, 2, (0, 1), 4, 90),
        ("clan_feud", 3, 4, (0, 2), 4, 80),
    ],
)
def test_the_answers_are_those_of_replaying_the_game(
    name: str,
    players: int,
    seed: int,
    humans: tuple[int, ...],
    undo_every: int,
    steps: int | None,
) -> None:
    asked: list[bool] = []

    def same_as_replayed(session: PlaySession, seat: int, decisions: int) -> None:
        session.undo_depth(seat)  # as the human's turn does while they read the screen
        history = session.match.history
        for index in range(len(history)):
            if history[index].player == CHANCE:
                # once seen, an outcome stays seen (also past an undo): the same memo
                expected = index in session._seen_chance or _replayed(session, index)
                assert session.chance_seen(index) == expected, (index, decisions)
                asked.append(expected)

    session = _session(name, players, seed, humans)
    assert _play(session, seed, same_as_replayed, undo_every, steps) >= 2
    assert True in asked and False in asked  # outcomes seen and not seen both asked


def test_asking_again_with_no_new_move_replays_nothing() -> None:
    # four clans, one human: the undo limit walks back over chance outcomes nobody saw (the
    # bots' cards drawn face down), and each of them was replayed to now at every question
    session = _session("clan_feud", 4, 2, (0,))
    asked = session.chance_seen
    open_questions: list[int] = []

    def chance_seen(index: int, *rest: Any) -> bool:
        if index not in session._seen_chance:
            open_questions.append(index)  # not known seen: the old code replayed it
        return asked(index, *rest)

    session.chance_seen = chance_seen  # type: ignore[method-assign]
    replays: list[int] = []

    def ask_twice(session: PlaySession, seat: int, decisions: int) -> None:
        session.undo_depth(seat)  # as the human's turn does while they read the screen
        open_questions.clear()
        with _applies(session.match.state) as count:
            session.undo_depth(seat)
        replays.append(count[0] if open_questions else -1)

    _play(session, 2, ask_twice, undo_every=10**9, steps=150)
    assert replays.count(0) > 5  # questions about outcomes nobody saw, answered at once
    assert set(replays) <= {0, -1}
