"""GameMachine: a Hypothesis state machine that plays any registered game and checks it.

``GameMachine.for_game(game, invariants=..., transitions=...)`` makes a
:class:`~hypothesis.stateful.RuleBasedStateMachine` for a game (a loaded game, a registered
name, whose parameters Hypothesis then draws, or a strategy of loaded games). It plays
legal moves and chance outcomes chosen by Hypothesis, in short bursts (``play``) or long
seeded random runs (``jump``, so late-game states are reached in few steps), starts a new
game when one ends (unless :meth:`GameMachine.play_on` says the run is over), and after
every single move checks

- the kernel's per-state promises (the conformance harness's cheap checks: flow, legal
  action ids and texts, chance weights, terminal returns, winners and scores), and the
  position notation's exact round trip (``round_trip_every=n``: only at a game's start, its
  end and every n-th move, for machines whose own checks already cost a lot per move);
- optionally the harness's full checks (``full_checks=True``: JSON, rejections,
  observations, resample), which cost about a hundred moves each;
- the caller's ``invariants`` (``f(state)``) and ``transitions`` (``f(before, after)``),
  which raise (``AssertionError`` or anything else) when broken, and a subclass's
  :meth:`GameMachine.check_move` (for checks that remember the game so far; with
  :meth:`GameMachine.apply_move` it can also trace what happens inside a move).

A failure raises :class:`MachineFailure` carrying the game's record up to the failing
move and the failing state's position, so once Hypothesis has shrunk it the message shows
the shortest record found and a position ready to paste into a scenario test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import hypothesis
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from clangames.engine.chance import sample_chance
from clangames.engine.errors import InvalidParameterError
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord, Move
from clangames.engine.registry import load
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing.conformance import _check_cheap, _Context, check_state
from clangames.testing.positions import position_failure
from clangames.testing.strategies import loaded_games

StateInvariant = Callable[[State], None]
"""A check of one state: raises when the state breaks it."""
Transition = Callable[[State, State], None]
"""A check of one move: ``f(before, after)`` raises when the move breaks it."""

JUMP_LIMIT = 400
"""The most moves one ``jump`` rule plays."""


class MachineFailure(AssertionError):
    """A check failed while the machine played: ``record`` replays the game up to the
    failing state, ``position`` is that state's position text."""

    def __init__(
        self,
        check: str,
        cause: BaseException,
        record: GameRecord,
        position: str,
        start: str | None = None,
    ):
        self.check = check
        self.record = record
        self.position = position
        self.start = start
        moves = [f"{m.player}:{m.action}" for m in record.moves]
        if start is None:
            replay = f"GameRecord.from_json({record.to_json()!r}).final_state()"
        else:
            replay = f"the moves from the start position {start}"
        super().__init__(
            f"{check} failed after {len(moves)} moves: {type(cause).__name__}: {cause}\n"
            f"  record: {moves}\n"
            f"  position: {position}\n"
            f"  replay: {replay}"
        )


class GameMachine(RuleBasedStateMachine):
    """Random legal play of one game with every move checked. Use :meth:`for_game` to
    make the machine for a game; its ``TestCase`` attribute is a unittest/pytest test."""

    games: ClassVar[st.SearchStrategy[Game]]
    user_invariants: ClassVar[tuple[StateInvariant, ...]] = ()
    user_transitions: ClassVar[tuple[Transition, ...]] = ()
    full_checks: ClassVar[bool] = False
    starts: ClassVar[st.SearchStrategy[State] | None] = None
    round_trip_every: ClassVar[int] = 1

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.state: State | None = None
        self.moves: list[Move] = []
        self.finished = 0
        self.rng = Rng(0)
        self.start_position: str | None = None
        self._context: _Context | None = None

    @classmethod
    def for_game(
        cls,
        game: Game | str | st.SearchStrategy[Game],
        *,
        invariants: Sequence[StateInvariant] = (),
        transitions: Sequence[Transition] = (),
        full_checks: bool = False,
        starts: st.SearchStrategy[State] | None = None,
        round_trip_every: int = 1,
        name: str | None = None,
    ) -> type[GameMachine]:
        """A machine class for ``game``: a loaded game, a registered name (Hypothesis then
        draws its parameters, player count included) or a strategy of loaded games.
        ``starts`` (states, e.g. scenarios from ``game.position``) replaces the initial
        state as the first game's start; later games start from the initial state.
        ``round_trip_every=n`` checks the position round trip (the costliest per-move
        check) only at each game's start and end and at every n-th move of a game."""
        if isinstance(round_trip_every, bool) or not isinstance(round_trip_every, int):
            raise InvalidParameterError(
                f"round_trip_every must be a whole number of moves, got {round_trip_every!r}"
            )
        if round_trip_every < 1:
            raise InvalidParameterError(
                f"round_trip_every must be 1 or more (1: every move), got {round_trip_every}"
            )
        if isinstance(game, Game):
            games: st.SearchStrategy[Game] = st.just(game)
            title = game.name
        elif isinstance(game, str):
            load(game)  # an unknown name fails here, not inside Hypothesis
            games = loaded_games(game)
            title = game
        else:
            games, title = game, "games"
        attributes: dict[str, Any] = {
            "games": games,
            "user_invariants": tuple(invariants),
            "user_transitions": tuple(transitions),
            "full_checks": full_checks,
            "starts": starts,
            "round_trip_every": round_trip_every,
        }
        machine = type(name or f"GameMachine_{title}", (cls,), attributes)
        return machine

    # -- rules ------------------------------------------------------------------------------
    @initialize(data=st.data(), seed=st.integers(0, 2**32 - 1))
    def start(self, data: st.DataObject, seed: int) -> None:
        """Load the game (drawing its parameters) and check its initial state."""
        self.rng = Rng(seed)
        if self.starts is not None:
            first = data.draw(self.starts, label="start")
            self.game = first.game
            self._new_game(first)
        else:
            self.game = data.draw(self.games, label="game")
            self._new_game()

    @rule(choices=st.lists(st.integers(0, 2**16), min_size=1, max_size=40))
    def play(self, choices: list[int]) -> None:
        """Up to 40 moves, each picked by a choice (the mover first at a simultaneous
        node); a finished game is followed by a new one."""
        for choice in choices:
            state = self._current()
            if state.is_terminal:
                if not self.play_on():
                    return
                self.new_game()
                continue
            movers = state.to_move
            player = movers[choice % len(movers)]
            legal = state.legal_actions(player)
            self._move(player, legal[(choice // len(movers)) % len(legal)])

    @rule(steps=st.integers(1, JUMP_LIMIT), seed=st.integers(0, 2**32 - 1))
    def jump(self, steps: int, seed: int) -> None:
        """Up to ``steps`` moves of seeded random play (chance with its probabilities),
        every one checked: reaches the late game in few rules. A finished game is followed
        by a new one, as in :meth:`play`."""
        rng = Rng(seed)
        for _ in range(steps):
            state = self._current()
            if state.is_terminal:
                if not self.play_on():
                    return
                self.new_game()
                continue
            if state.is_chance:
                action, rng = sample_chance(state, rng)
                self._move(CHANCE, action)
                continue
            k, rng = rng.below(len(state.to_move))
            player = state.to_move[k]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            self._move(player, legal[j])

    def new_game(self) -> None:
        """After the end: a new game of the same game (:meth:`play` and :meth:`jump` start
        one when a game ends and :meth:`play_on` allows). Not a rule of its own: a rule
        with a precondition seldom true made Hypothesis give up on about one run in six,
        unable to draw a rule it could run."""
        self.finished += 1
        self._new_game()

    def teardown(self) -> None:
        """Tell Hypothesis's statistics how far play went."""
        if self.state is not None:
            hypothesis.event(f"games finished: {min(self.finished, 3)}+")

    # -- moves and checks -----------------------------------------------------------------
    def _current(self) -> State:
        if self.state is None:  # pragma: no cover - Hypothesis runs initialize first
            raise RuntimeError("GameMachine: no game started")
        return self.state

    def _new_game(self, first: State | None = None) -> None:
        game = self.game
        if game is None:  # pragma: no cover - set by start
            raise RuntimeError("GameMachine: no game loaded")
        self.moves = []
        self.state = None
        self.start_position = None if first is None else first.to_position()
        self._check(first if first is not None else game.initial_state(), None)

    def _move(self, player: int, action: Any) -> None:
        before = self._current()
        self.moves.append(Move(player, before.game.action_text(action)))
        try:
            after = self.apply_move(before, action, player)
        except Exception as exc:  # a legal action must apply
            raise self._failure("legal-applies", exc, before) from exc
        self._check(after, before)

    def _check(self, state: State, before: State | None) -> None:
        game = state.game
        record = GameRecord(game.name, game.params, tuple(self.moves))
        try:
            context = self._context
            if context is None or context.game is not game:
                # one context per game: each distinct action's id, text and repr are
                # verified once, not at every move
                context = self._context = _Context(game, None, None, 64)
            context.record = record
            _check_cheap(context, state)
            if len(self.moves) % self.round_trip_every == 0 or state.is_terminal:
                failure = position_failure(state)
                if failure is not None:
                    raise AssertionError(f"[{failure[0]}] {failure[1]}")
            if self.full_checks:
                self.rng = check_state(state, self.rng, record=record)
        except Exception as exc:  # any broken promise, reported with the record
            raise self._failure("kernel contract", exc, state) from exc
        for check in self.user_invariants:
            try:
                check(state)
            except Exception as exc:  # the caller's invariant, whatever it raises
                raise self._failure(_name(check), exc, state) from exc
        try:
            self.check_move(before, state)
        except Exception as exc:  # a subclass's history-aware check
            raise self._failure("check_move", exc, state) from exc
        if before is not None:
            for move_check in self.user_transitions:
                try:
                    move_check(before, state)
                except Exception as exc:  # the caller's transition check
                    raise self._failure(_name(move_check), exc, state) from exc
        self.state = state

    def apply_move(self, before: State, action: Any, player: int) -> State:
        """Apply one move (a hook: a subclass can wrap it, e.g. to trace the rules that
        run inside it for :meth:`check_move`)."""
        return before.apply(action, None if player == CHANCE else player)

    def play_on(self) -> bool:
        """Whether a finished game is followed by a new one (a hook: always by default; a
        subclass whose games are long can end the run's play with its first game)."""
        return True

    def check_move(self, before: State | None, after: State) -> None:
        """A hook for subclasses with checks that need the history of the game (kept in
        their own attributes): called after every move, ``before`` None for a new game."""

    def _failure(self, check: str, cause: BaseException, state: State) -> MachineFailure:
        game = state.game
        record = GameRecord(game.name, game.params, tuple(self.moves))
        try:
            position = state.to_position()
        except Exception as exc:  # the position itself may be what is broken
            position = f"(to_position failed: {type(exc).__name__}: {exc})"
        return MachineFailure(check, cause, record, position, self.start_position)


def _name(check: Callable[..., None]) -> str:
    return getattr(check, "__name__", repr(check))


def run_machine(
    machine: type[GameMachine], *, max_examples: int = 20, steps: int = 10, **settings: Any
) -> None:
    """Run a machine now (outside a test class), with bounded examples and rules per
    example; raises :class:`MachineFailure` for the shrunk failing example."""
    from hypothesis.stateful import run_state_machine_as_test

    options: dict[str, Any] = {
        "max_examples": max_examples,
        "stateful_step_count": steps,
        "deadline": None,
        "suppress_health_check": [hypothesis.HealthCheck.too_slow],
        **settings,
    }
    run_state_machine_as_test(machine, settings=hypothesis.settings(**options))
