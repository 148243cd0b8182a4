"""The harness's checks of the interoperability contract (:mod:`clangames.engine.interop`).

Wired into :func:`clangames.testing.conformance.check_game` (for a game that declares its
data; ``interop=True`` requires a declaration):

- once per run (:func:`check_declaration`): the facts on the spec agree with the loaded
  game's ``info``; chance and decision ids split the action table; the encoding's bounds
  are exact in float32;
- on every state (:meth:`HistoryChecks.on_moves`): the decision and chance-node counts
  never exceed the declared bounds;
- on the fully checked states: every legal action is of the declared kind (a decision or
  a chance outcome); ``resample(p)`` keeps p's tensor, for every seat
  (:func:`check_resampled_tensor`, on the harness's own resampled states); the public
  tensor and one seat's tensor (drawn from the seed) have the declared size and lie within
  the declared bounds, the seat's decodes back to the very observation, and both agree on
  the public parts (:func:`check_tensors`); after another move at the last step, the
  seat's information-state key changes exactly when it saw or did something different.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.interop import (
    InformationState,
    LengthCount,
    LoadedInterop,
    Round,
    count_step,
    is_declared,
)
from clangames.engine.phases import CHANCE
from clangames.engine.record import Move
from clangames.engine.rng import Rng
from clangames.engine.state import State

Fail = Callable[[str, str], Exception]
"""Builds the harness's ConformanceError for (check name, message)."""

_RESAMPLE_STREAM = 0x1616
"""The fork of the checks' generator used here, which leaves the harness's stream as is."""


def check_declaration(game: Game, fail: Fail, required: bool | None = True) -> LoadedInterop | None:
    """The game's declaration exists and agrees with the loaded game (None, with nothing
    checked, if ``required`` is False, or None and the game declares nothing)."""
    if required is False or (required is None and not is_declared(game.name)):
        return None
    try:
        interop = game.interop
    except ClanGamesError as exc:
        raise fail("interop-declared", str(exc)) from exc
    info = game.info
    facts = interop.facts
    if game.spec.facts() != facts:
        raise fail("interop-facts", "the spec's facts differ from the loaded game's")
    for name in ("has_chance", "has_simultaneous_moves", "has_hidden_information"):
        if getattr(facts, name) != getattr(info, name):
            raise fail(
                "interop-facts",
                f"the declared {name} is {getattr(facts, name)}, the game's info says"
                f" {getattr(info, name)}",
            )
    n = len(game.actions)
    if sorted(interop.chance_ids + interop.decision_ids) != list(range(n)):
        raise fail("interop-ids", "chance and decision ids do not split the action table")
    if info.has_chance and not interop.chance_ids:
        raise fail("interop-ids", "a game with chance declares no chance actions")
    bounds = interop.bounds
    if bounds.decisions < 1 or bounds.chance < 0:
        raise fail("interop-bounds", f"declared length bounds {bounds} are not sensible")
    spec = interop.observation_spec
    if spec.size != len(spec.low) or any(p.size < 1 for p in spec.parts):
        raise fail("observation-spec", "an encoding part is empty or the bounds mis-sized")
    exact = float(1 << 24)  # float32 holds every integer up to this exactly
    wide = [p.name for p in spec.parts if p.low < -exact or p.high > exact]
    if wide:
        raise fail(
            "observation-spec",
            f"parts {wide} have bounds beyond 2**24, which float32 tensors cannot hold exactly",
        )
    return interop


class HistoryChecks:
    """The checks along one playout: :meth:`on_moves` at every state (cheap: it counts
    decision and chance nodes against the declared bounds), :meth:`check_full` on the
    fully checked ones."""

    def __init__(self, game: Game, interop: LoadedInterop, fail: Fail) -> None:
        self.game = game
        self.interop = interop
        self.fail = fail
        self.bounds = interop.bounds
        self.decisions = 0
        self.chance = 0
        self.round: Round = None
        self.previous: State | None = None
        self.before: State | None = None
        self.moves: Sequence[Move] = ()

    def on_moves(self, state: State, moves: Sequence[Move]) -> None:
        """Count the move that led to ``state`` (the harness's ``moves`` so far)."""
        previous = self.previous
        if previous is not None and moves:
            decision, chance, self.round = count_step(previous, self.round)
            self.decisions += decision
            self.chance += chance
            bounds = self.bounds
            if self.decisions > bounds.decisions or self.chance > bounds.chance:
                count = LengthCount(self.decisions, self.chance)
                raise self.fail("length-bounds", f"the game has reached {count.exceeds(bounds)}")
        else:
            self.decisions = self.chance = 0
            self.round = None
        self.before = previous
        self.previous = state
        self.moves = moves

    def check_full(self, state: State, rng: Rng) -> None:
        """The costly checks, on a fully checked state (``rng`` is not advanced)."""
        self._check_ids(state)
        check_tensors(state, rng, self.fail)
        moves = self.moves
        if self.previous is not state or not moves:
            return
        # The information state (built from observations only, so ``resample`` cannot
        # change it once it keeps the observation, which the harness checks): after
        # another move at the last step, each seat's key changes exactly when that seat
        # saw (or did) something different.
        game = self.game
        ids = game.actions.id
        last = moves[-1]
        mover, action = last.player, game.parse_action(last.action)
        before = self.before
        if before is None:
            return
        alternative = next((a for a in before.legal_actions(mover) if a != action), None)
        if alternative is None:
            return
        sibling = before.apply(alternative, mover)
        for p in [_seat(state, rng)]:
            start = InformationState.start(before, p)
            key = start.after(mover, ids(action), state).key
            changed = start.after(mover, ids(alternative), sibling).key != key
            differs = mover == p or sibling.observation(p) != state.observation(p)
            if changed != differs:
                raise self.fail(
                    "infostate",
                    f"player {p}'s information-state key {'changed' if changed else 'stayed'}"
                    f" when the last move was {alternative!r} instead of {action!r}, though"
                    f" what it saw {'differed' if differs else 'was the same'}",
                )

    def _check_ids(self, state: State) -> None:
        interop = self.interop
        ids = self.game.actions.id
        for p in state.to_move:
            index = interop.chance_index if p == CHANCE else interop.decision_index
            for a in state.legal_actions(p):
                if index[ids(a)] < 0:
                    kind = "a decision" if p == CHANCE else "a chance outcome"
                    raise self.fail("interop-ids", f"legal action {a!r} of {p} is declared {kind}")


def check_tensors(state: State, rng: Rng, fail: Fail) -> None:
    """The observation tensor contract at ``state`` for the public view and one seat."""
    game = state.game
    spec = game.observation_spec()
    public = state.public_observation()
    public_tensor = _tensor(spec, public, "the public observation", fail)
    # One seat per state (drawn from ``rng``) keeps the cost a fraction of the other full
    # checks; the sample of states covers every seat.
    for p in [_seat(state, rng)]:
        obs = state.observation(p)
        tensor = state.observation_tensor(p)
        _check_one(spec, obs, tensor, f"observation({p})", fail)
        for part in spec.public_parts:
            span = slice(part.start, part.start + part.size)
            if tensor[span] != public_tensor[span]:
                raise fail(
                    "tensor-public",
                    f"part {part.name!r} is declared public but observation({p}) differs from"
                    " the public observation there",
                )


_KERNEL_TENSOR = State.observation_tensor
"""The kernel's tensor (kept at import, so a tensor patched in later is compared in full)."""


def check_resampled_tensor(state: State, other: State, p: int, fail: Fail) -> None:
    """``resample(p)`` (``other``, which the harness made) keeps p's tensor: it encodes
    nothing p cannot know (called by the harness for every seat of a fully checked state,
    once it has found p's observation the same in both; a game without a declaration is
    passed over)."""
    if not is_declared(state.game.name):
        return
    if (
        type(state).observation_tensor is _KERNEL_TENSOR
        and type(other).observation_tensor is _KERNEL_TENSOR
        and other.game == state.game
    ):
        # The kernel's tensor is the encoding of the observation alone, and the harness
        # has found the two observations equal: only a tensor of the game's own (one
        # that may read more than the observation) needs to be encoded and compared.
        return
    if other.observation_tensor(p) != state.observation_tensor(p):
        raise fail(
            "tensor-resample",
            f"resample({p}) changed player {p}'s observation tensor: it encodes more than"
            " the observation",
        )


def _seat(state: State, rng: Rng) -> int:
    seat, _ = rng.fork(_RESAMPLE_STREAM + 2).below(state.game.num_players)
    return seat


def _tensor(spec: Any, obs: Any, what: str, fail: Fail) -> list[float]:
    try:
        tensor: list[float] = spec.encode(obs)
    except ClanGamesError as exc:
        raise fail("tensor-shape", f"{what} does not fit the declared encoding: {exc}") from exc
    # Shape and bounds only: decoding (the costly part) is the seat's tensor's check.
    _check_one(spec, obs, tensor, what, fail, decode=False)
    return tensor


def _check_one(
    spec: Any, obs: Any, tensor: list[float], what: str, fail: Fail, decode: bool = True
) -> None:
    if len(tensor) != spec.size:
        raise fail("tensor-shape", f"{what}: {len(tensor)} floats, declared {spec.size}")
    outside = spec.out_of_bounds(tensor)
    if outside:
        i = outside[0]
        part = next(p for p in spec.parts if p.start <= i < p.start + p.size)
        raise fail(
            "tensor-bounds",
            f"{what}: part {part.name!r} has {tensor[i]} at {i}, outside the declared"
            f" {spec.low[i]}..{spec.high[i]}",
        )
    if not decode:
        return
    try:
        back = spec.decode(tensor)
    except ClanGamesError as exc:
        raise fail("tensor-exact", f"{what}: the tensor does not decode: {exc}") from exc
    if back != obs:
        raise fail("tensor-exact", f"{what}: the tensor decodes to a different observation")
