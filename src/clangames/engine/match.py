"""The Match driver: one play-through with history, policies (bots), chance and undo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import attrs

from clangames.engine.chance import sample_chance
from clangames.engine.errors import InvalidArgumentError, UndoError
from clangames.engine.game import Game
from clangames.engine.integers import as_integer
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord, Move
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State


class Policy(Protocol):
    """Anything that picks an action for a player: a bot, a network, a script."""

    def act(self, state: State, player: int) -> Action:
        """A legal action of ``player`` in ``state``."""
        ...


def checked_policies(
    policies: Mapping[int, Policy] | None,
    num_players: int,
    error: type[ValueError] = InvalidArgumentError,
) -> dict[int, Policy]:
    """``policies`` as a dict, refused with ``error`` unless every key is a seat number
    and every value has an ``act`` method: a policy under a key that is no seat (``"0"``,
    a seat past the last) would otherwise never be asked, and the seat played at random."""
    if policies is None:
        return {}
    if not isinstance(policies, Mapping):
        raise error(f"policies must be a mapping of seat numbers to policies, got {policies!r}")
    out: dict[int, Policy] = {}
    for key, policy in policies.items():
        seat = as_integer(key)  # a NumPy seat is a seat (the kernel's doors take any integer)
        if seat is None or not 0 <= seat < num_players:
            raise error(f"policy for seat {key!r}, but seats are 0..{num_players - 1}")
        if not callable(getattr(policy, "act", None)):
            raise error(
                f"the policy for seat {seat} has no act(state, player) method: got {policy!r}"
            )
        out[seat] = policy
    return out


@attrs.frozen(slots=True)
class Step:
    """One entry of a match's history: the state before, who acted, and the action."""

    before: State
    player: int
    action: Action
    rng: Rng


class Match:
    """Drives one game: samples chance with its own Rng, asks policies for their seats,
    takes human actions through :meth:`apply`, keeps the history and the record.

    Seats without a policy are humans: :meth:`run` stops when one of them must decide.
    The history is the match's own: change it only through :meth:`apply` and :meth:`undo`
    (the record is built from it).
    """

    def __init__(
        self,
        game: Game,
        seed: int | Rng = 0,
        policies: Mapping[int, Policy] | None = None,
    ) -> None:
        self.game = game
        self.rng = seed if isinstance(seed, Rng) else Rng(seed)
        self.policies: dict[int, Policy] = checked_policies(policies, game.num_players)
        self.state: State = game.initial_state()
        self.history: list[Step] = []
        # The record is built from the history when asked for, not on every move (copying
        # the moves each time made a match quadratic in its length): these are the moves
        # worked out so far, the step the last of them came from, and the last record built.
        self._moves: list[Move] = []
        self._synced: Step | None = None
        self._record: GameRecord | None = None

    @property
    def record(self) -> GameRecord:
        """The game so far as a :class:`GameRecord` (built on demand from the history)."""
        history, moves = self.history, self._moves
        done = len(moves)
        if done > len(history) or (done and history[done - 1] is not self._synced):
            moves.clear()  # the history was edited behind the match's back: start again
            done = 0
            self._record = None
        if done < len(history):
            text = self.game.action_text
            moves.extend([Move(step.player, text(step.action)) for step in history[done:]])
            self._synced = history[-1]
        record = self._record
        if record is None or len(record.moves) != len(moves):
            record = self._record = GameRecord(self.game.name, self.game.params, tuple(moves))
        return record

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_terminal

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """Seats without a policy that must decide now (the humans being waited on)."""
        return tuple(p for p in self.state.to_move if p != CHANCE and p not in self.policies)

    def apply(self, action: Action, player: int | None = None) -> State:
        """Take an action (a human's, say); errors leave the match unchanged."""
        new = self.state.apply(action, player)  # without a player: the one to move, or raises
        actor = self.state.to_move[0] if player is None else player
        self.history.append(Step(self.state, actor, action, self.rng))
        self.state = new
        return new

    def step(self) -> Step | None:
        """One chance outcome or one policy decision; None if the game is over or only
        humans are to move."""
        state = self.state
        if state.is_terminal:
            return None
        if state.is_chance:
            action, rng_after = sample_chance(state, self.rng)
            self.apply(action, CHANCE)  # the history keeps the Rng as it was before the draw
            self.rng = rng_after
            return self.history[-1]
        for player in state.to_move:
            policy = self.policies.get(player)
            if policy is not None:
                self.apply(policy.act(state, player), player)
                return self.history[-1]
        return None

    def run(self, max_steps: int | None = None) -> State:
        """Step until the game ends or a human must decide (or ``max_steps`` steps)."""
        count = 0
        while (max_steps is None or count < max_steps) and self.step() is not None:
            count += 1
        return self.state

    def can_undo(self, player: int) -> bool:
        """True if :meth:`undo` for ``player`` would succeed."""
        try:
            self._undo_index(player)
        except UndoError:
            return False
        return True

    def _undo_index(self, player: int) -> int:
        for i in range(len(self.history) - 1, -1, -1):
            step = self.history[i]
            if step.player == CHANCE:
                raise UndoError(
                    f"cannot undo for player {player}: a chance outcome came after their last"
                    " decision and may have revealed something"
                )
            if step.player == player:
                return i
        raise UndoError(f"player {player} has made no decision to undo")

    def undo(self, player: int) -> State:
        """Go back to just before ``player``'s last decision (and every later decision);
        UndoError if a chance outcome lies in between or there is none."""
        i = self._undo_index(player)
        step = self.history[i]
        self.state = step.before
        self.rng = step.rng
        del self.history[i:]
        del self._moves[i:]
        kept = len(self._moves)
        self._synced = self.history[kept - 1] if kept else None
        self._record = None
        return self.state
