"""Fast rollouts: playing a state on to the end (or to a depth) without the driver's checks.

A search or a simulation spends almost all its time in random playouts. The step-by-step
API (``legal_actions``, ``apply``, ``sample_chance``, :class:`~clangames.Match`) memoises
legal actions, checks every action and allocates an :class:`~clangames.Rng` per draw; none
of that is useful for actions the rules themselves produced. The functions here call the
game's rules directly (``_legal``, ``_apply``, ``_chance_weights``), keep the generator as a
plain integer while they run, and draw chance outcomes by bisecting cumulative weights.

They give exactly the same games as the step-by-step API for the same generators (the
tests compare both on seeded games of every game): the draws are the ones
:meth:`Rng.below` and :meth:`Rng.weighted` would make, in the same order.

A state class may also offer ``_apply_owned(state, action, player)``, a function with
``_apply``'s contract that may build the successor out of ``state`` itself (its draft made
in place rather than a copy of every field). :func:`rollout`, :func:`rollout_moves` and
:func:`rollout_seats` without bots call it on the states they made themselves, which
nothing else holds; the caller's state always goes through ``_apply``, and so does every
state of a :func:`rollout_seats` that asks bots (a bot may keep what it is shown). Every
game offers it: the state switched into its draft in place, its caches reset, none of its
fields copied (the three older games' is :func:`clangames.engine.draft.owned_apply` of
their move, one generated function with the thaw and the freeze inline; Clan Feud's is a
plain function of its rules, ``rules.apply_owned``). A class may also keep the draft
across moves: with both ``_apply_kept(state, action, player)`` (``_apply_owned``'s
contract, except that what it returns may be a draft, which the loop only asks for its
``phase``, ``_legal`` and ``_chance_weights`` and hands to the next ``_apply_kept``) and
``_kept_state(draft)`` (the state it describes; a state is returned as it is),
:func:`rollout`, :func:`rollout_moves` and :func:`rollout_seats` without bots or a watcher
use them instead, and call ``_kept_state`` once at the end, sparing each step a class
switch each way (the three older games' pair is :func:`clangames.engine.draft.kept_apply`
of their move; Clan Feud has its own, ``rules.apply_kept``, which spares the copy of its
task stack too). A game offering either must keep no state of a playout by identity (a
memo keyed by a state object would see that state change under it): the games' memos are
keyed by the tuples and numbers in a state, which a move replaces rather than changes, and
King's Kilt's re-deal remembers the last state it re-dealt, which a playout never makes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from clangames.engine.errors import ClanGamesError
from clangames.engine.match import checked_policies
from clangames.engine.rng import Rng
from clangames.engine.rollout_loops import NO_LIMIT, random_loop, seats_loop
from clangames.engine.state import Action, State

if TYPE_CHECKING:
    from clangames.engine.match import Policy


class RolloutError(ClanGamesError, ValueError):
    """A rollout asked for with a bad depth or the wrong number of seat generators."""


@attrs.frozen(slots=True)
class Playout:
    """What :func:`rollout_seats` played: the state reached, the chance generator and each
    seat's generator after it, and every move as ``(player, action)`` (CHANCE for chance)."""

    state: State
    rng: Rng
    seat_rngs: tuple[Rng, ...]
    moves: tuple[tuple[int, Action], ...]

    @property
    def steps(self) -> int:
        """How many steps (chance outcomes included) were played."""
        return len(self.moves)


def rollout(
    state: State, rng: Rng, max_steps: int | None = None, *, first_mover: bool = False
) -> tuple[State, Rng, int]:
    """Play ``state`` on with uniformly random decisions until the game ends (or after
    ``max_steps`` steps): the state reached, the advanced Rng and the steps taken.

    The stream is :func:`clangames.testing.conformance.random_playout`'s: at a decision
    node one of the players to move is drawn (``below(len(to_move))``, drawn even when
    only one may move), then one of its legal actions; a chance node draws its outcome as
    :func:`~clangames.sample_chance` does. With ``first_mover`` the first player to move
    acts without a draw, the stream of a loop that asks ``state.to_move[0]`` (the playout
    benchmark, ISMCTS's rollouts)."""
    return _random(state, rng, max_steps, not first_mover, None)


def rollout_moves(
    state: State, rng: Rng, max_steps: int | None = None, *, first_mover: bool = False
) -> tuple[State, Rng, tuple[tuple[int, Action], ...]]:
    """:func:`rollout` that also returns the moves played, as ``(player, action)`` pairs
    (CHANCE for chance outcomes): what a record of the playout needs."""
    moves: list[tuple[int, Action]] = []
    state, nxt, _ = _random(state, rng, max_steps, not first_mover, moves)
    return state, nxt, tuple(moves)


def _random(
    state: State,
    rng: Rng,
    max_steps: int | None,
    draw_mover: bool,
    moves: list[tuple[int, Action]] | None,
) -> tuple[State, Rng, int]:
    """The random rollout: ``max_steps`` checked, then the loop of
    :func:`clangames.engine.rollout_loops.random_loop` on the generator's state."""
    limit = NO_LIMIT if max_steps is None else _check_max_steps(max_steps)
    _check_start(state, rng)
    state, s, steps = random_loop(state, rng.state, limit, draw_mover, moves)
    return state, Rng._at(s), steps


def rollout_seats(
    state: State,
    rng: Rng,
    seat_rngs: Sequence[Rng],
    max_steps: int | None = None,
    policies: Mapping[int, Policy] | None = None,
    watch: Callable[[State], object] | None = None,
) -> Playout:
    """Play ``state`` on as :class:`~clangames.Match` drives bots: chance from ``rng``;
    at a decision node the first player to move acts, with its policy from ``policies``
    if it has one (its action is checked), else uniformly at random with its own
    generator ``seat_rngs[player]`` (one ``below(len(legal))`` per decision, the stream of
    a :class:`~clangames.bots.RandomBot` seeded with it). Stops at the end of the game or
    after ``max_steps`` steps. ``watch``, if given, is called with ``state`` and then
    with the state after each move (a statistics :class:`~clangames.engine.statistics.
    Follower`): the next move may build on that state in place, so it must read what it
    needs at once."""
    limit = NO_LIMIT if max_steps is None else _check_max_steps(max_steps)
    _check_start(state, rng)
    num_players = state.game.num_players
    others = checked_policies(policies, num_players, RolloutError)
    if isinstance(seat_rngs, (str, bytes)) or not isinstance(seat_rngs, Sequence):
        raise RolloutError(f"seat_rngs must be a sequence of Rng, one per seat, got {seat_rngs!r}")
    if len(seat_rngs) != num_players:
        raise RolloutError(
            f"rollout_seats needs one Rng per seat ({num_players}), got {len(seat_rngs)}"
        )
    for seat, seat_rng in enumerate(seat_rngs):
        if not isinstance(seat_rng, Rng):
            raise RolloutError(f"seat_rngs[{seat}] must be an Rng, got {seat_rng!r}")
    if watch is not None and not callable(watch):
        raise RolloutError(f"watch must be a function of the state or None, got {watch!r}")
    seeds = [r.state for r in seat_rngs]
    moves: list[tuple[int, Action]] = []
    state, s = seats_loop(state, rng.state, seeds, limit, others, watch, moves)
    return Playout(state, Rng._at(s), tuple(Rng._at(t) for t in seeds), tuple(moves))


def _check_start(state: object, rng: object) -> None:
    """Refuse what the loops would fail on deep inside with a bare AttributeError."""
    if not isinstance(state, State):
        raise RolloutError(f"a rollout starts from a game's State, got {state!r}")
    if not isinstance(rng, Rng):
        raise RolloutError(f"a rollout draws from an Rng, got {rng!r}")


def _check_max_steps(max_steps: int) -> int:
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
        raise RolloutError(f"max_steps must be an int >= 0 or None, got {max_steps!r}")
    return max_steps
