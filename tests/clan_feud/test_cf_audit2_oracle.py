"""Second audit of Clan Feud part 2: England's automated play checked against the rules,
worked out here independently, at every step of random games started at war (track step
10), 2 to 5 players. Each England task's handler is wrapped (as the state machine's ledger
does) to check, as it runs:

- a spawn adds exactly the flames crossed since the start of phase 3, ascending, each
  while England's supply (16/8/2 less its troops on the board) holds its whole army, and
  a spawn onto a clan army is a battle England attacks with every token;
- the army that marches is of the highest level (the sum of its tokens) among those not
  done this turn, picked by the regent or else the first player in turn order;
- every target is a nearest clan army and every step a neighbour one step nearer to it;
- a winning English side rolls min(margin, losing troops + 3) dice unasked;
- England loses infantry, then cavalry, then artillery;
- England's troops on the board never exceed its supply, and no English army stands at
  10 or less.
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames.clan_feud import military, rules
from clangames.engine.rng import Rng

from .cf_walk import random_step

GAMES = 8
"""Random games per player count (about 0.05 s each)."""


def _clan_armies(w: Any) -> list[int]:
    size = w.game.board.size
    return [t for t in range(size) if any(any(row[3 * t : 3 * t + 3]) for row in w.troops)]


def _english_on_board(w: Any) -> list[int]:
    totals = [sum(a.troops[k] for a in w.english) for k in range(3)]
    b = w.battle
    if b is not None and b.owners[0] == -1:
        totals = [totals[k] + b.attackers[k] for k in range(3)]
    return totals


def _decider(w: Any) -> int:
    return int(w.regent) if w.regent >= 0 else int(w.order[0])


class Seen:
    """How often each check ran (the test fails if one never did)."""

    def __init__(self) -> None:
        self.counts = {"spawn": 0, "spawn battle": 0, "pick": 0, "target": 0, "step": 0}
        self.counts.update({"cap": 0, "losses": 0})

    def saw(self, what: str) -> None:
        self.counts[what] += 1


def _wrap(monkeypatch: pytest.MonkeyPatch, seen: Seen) -> None:
    handlers = rules.HANDLERS

    def replace(kind: str, index: int, make: Any) -> None:
        entry = list(handlers[kind])
        entry[index] = make(entry[index])
        monkeypatch.setitem(handlers, kind, tuple(entry))
        if index == 5:  # a decision's apply is also reached through APPLY
            monkeypatch.setitem(rules.APPLY, kind, entry[5])

    def spawn(run: Any) -> Any:
        def checked(w: Any, task: Any) -> Any:
            track = w.game.england
            free = [s - u for s, u in zip(track.supply, _english_on_board(w), strict=True)]
            tokens: list[int] = []
            for flame in track.flames:
                if not w.track_start < flame.step <= w.england:
                    continue
                need = track.level(flame.level).troops
                if any(need[k] > free[k] for k in range(3)):
                    break
                free = [free[k] - need[k] for k in range(3)]
                tokens.append(flame.level)
            before = _english_on_board(w)
            card = w.game.events.regular[w.events[-1]]
            t = w.game.board.spawns[card.spawn]
            result = run(w, task)
            added = [a - b for a, b in zip(_english_on_board(w), before, strict=True)]
            expected = [sum(track.level(k).troops[i] for k in tokens) for i in range(3)]
            assert added == expected
            if tokens:
                seen.saw("spawn")
                b = w.battle
                if b is not None:
                    seen.saw("spawn battle")
                    assert b.owners[0] == -1 and b.territory == t
                    assert sorted(b.levels) == sorted(tokens)
            return result

        return checked

    def pick(apply: Any) -> Any:
        def checked(w: Any, task: Any, action: Any, player: int) -> None:
            waiting = [a for a in w.english if a.territory not in task.data]
            top = max(sum(a.tokens) for a in waiting)
            chosen = [a for a in waiting if a.territory == action.territory]
            assert chosen and sum(chosen[0].tokens) == top
            assert player == _decider(w)
            seen.saw("pick")
            apply(w, task, action, player)

        return checked

    def move(apply: Any) -> Any:
        def checked(w: Any, task: Any, action: Any, player: int) -> None:
            board = w.game.board
            pos, n = task.a, action.territory
            nearest = min(board.distances[pos][x] for x in _clan_armies(w))
            assert player == _decider(w)
            if task.c == 0:
                assert board.distances[pos][n] == nearest
                seen.saw("target")
            else:
                target = task.data[0]
                assert board.distances[pos][target] == nearest
                assert n in board.neighbours[pos]
                assert board.distances[n][target] == nearest - 1
                seen.saw("step")
            apply(w, task, action, player)

        return checked

    def strength(run: Any) -> Any:
        def checked(w: Any, task: Any) -> Any:
            b = w.battle
            att, dfd = military.strengths(w, b)
            result = run(w, task)
            if att != dfd:
                winner = 0 if att > dfd else 1
                if b.owners[winner] == -1:
                    losers = sum(military.side_troops(w, 1 - winner))
                    top = w.tasks[-1]
                    assert top.kind == "bhits"
                    assert top.b == min(abs(att - dfd), losers + 3, 30)
                    seen.saw("cap")
            return result

        return checked

    def losses(run: Any) -> Any:
        def checked(w: Any, task: Any) -> Any:
            b = w.battle
            if b.owners[task.a] != -1:
                return run(w, task)
            before = military.side_troops(w, task.a)
            due = min(b.losses[task.a], sum(before))
            result = run(w, task)
            after = military.side_troops(w, task.a)
            for k in range(3):
                assert before[k] - after[k] == min(due, before[k])
                due -= before[k] - after[k]
            seen.saw("losses")
            return result

        return checked

    replace("espawn", 0, spawn)
    replace("emarch", 5, pick)
    replace("emove", 5, move)
    replace("bstrength", 0, strength)
    replace("bloss", 0, losses)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_englands_automated_play_follows_the_rules_in_random_games(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = Seen()
    _wrap(monkeypatch, seen)
    game = clangames.load("clan_feud", players=players, england_start=10)
    track = game.england  # type: ignore[attr-defined]
    for seed in range(GAMES):
        s: Any = game.initial_state()
        rng = Rng(1000 * players + seed)
        while not s.is_terminal:
            s, rng = random_step(s, rng)
            assert all(n <= cap for n, cap in zip(_english_on_board(s), track.supply, strict=True))
            assert track.at_war(s.england) or not s.english
    for what, n in seen.counts.items():
        # picks and spawn battles need ties or a clan army on the spawn: not every run
        if what not in ("pick", "spawn battle", "target"):
            assert n > 0, (what, seen.counts)
