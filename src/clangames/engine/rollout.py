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
their move, one generated function with the thaw and the freeze inline; Clan Feud
generates its own). A class may also keep the draft across moves: with both
``_apply_kept(state, action, player)`` (``_apply_owned``'s contract, except that what it
returns may be a draft, which the loop only asks for its ``phase``, ``_legal`` and
``_chance_weights`` and hands to the next ``_apply_kept``) and ``_kept_state(draft)`` (the
state it describes; a state is returned as it is), :func:`rollout`, :func:`rollout_moves`
and :func:`rollout_seats` without bots or a watcher use them instead, and call
``_kept_state`` once at the end, sparing each step a class switch each way (the three
older games' pair is :func:`clangames.engine.draft.kept_apply` of their move; Clan Feud
generates its own, which spares the copy of its task stack too). A game offering either must
keep no state of a playout by identity (a memo keyed by a state object would see that state
change under it): the games' memos are keyed by the tuples and numbers in a state, which a
move replaces rather than changes, and King's Kilt's re-deal remembers the last state it
re-dealt, which a playout never makes.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import TYPE_CHECKING

import attrs

from clangames.engine.errors import ClanGamesError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import _LIMITS, Rng, _limit, below_wide
from clangames.engine.state import Action, State

if TYPE_CHECKING:
    from clangames.engine.match import Policy


class RolloutError(ClanGamesError, ValueError):
    """A rollout asked for with a bad depth or the wrong number of seat generators."""


_weight = itemgetter(1)
"""The weight of a chance outcome ``(action, weight)`` (cumulated in C, no Python loop)."""

_NO_LIMIT = -1
"""``max_steps`` of a rollout that runs to the end (a step count never equals it)."""


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
    """The random rollout loop; the Rng lives in the integer ``s`` (Rng.below inlined).

    Everything the loop uses is bound to a local first (each global or attribute lookup
    costs every step). A draw below 1 (one player to move, one legal action) is just the
    generator's step: its limit is 2**64, so it never rejects, and its index is 0. From
    the second step on, a state class's ``_apply_owned`` (see the module's description)
    makes each successor: the state before it was made here."""
    limit = _NO_LIMIT if max_steps is None else _check_max_steps(max_steps)
    limit_of = _LIMITS.get
    new_limit = _limit
    chance = CHANCE
    weight = _weight
    record = None if moves is None else moves.append
    owned_apply, kept_state = _owned_hooks(type(state), True)
    apply_owned = None  # the caller's state is never built on: only the states made here
    s = rng.state
    steps = 0
    while steps != limit:
        to_move = state.phase.to_move
        if not to_move:
            break
        player = to_move[0]
        if player == chance:
            weights = state._chance_weights()
            cumulative = list(accumulate(map(weight, weights)))
            n = cumulative[-1]
            bound = limit_of(n) or new_limit(n)
            if bound:
                while True:
                    s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                    z ^= z >> 31
                    if z < bound:
                        break
                z %= n
            else:  # more weight than one 64-bit draw covers
                z, s = below_wide(s, n)
            action = weights[bisect_right(cumulative, z)][0]
        else:
            if draw_mover:
                n = len(to_move)
                if n == 1:
                    s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                else:
                    bound = limit_of(n) or new_limit(n)
                    while True:
                        s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                        z ^= z >> 31
                        if z < bound:
                            break
                    player = to_move[z % n]
            legal = state._legal(player)
            n = len(legal)
            if n == 1:
                s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                action = legal[0]
            else:
                bound = limit_of(n) or new_limit(n)
                while True:
                    s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                    z ^= z >> 31
                    if z < bound:
                        break
                action = legal[z % n]
        if record is not None:
            record((player, action))
        if apply_owned is not None:
            state = apply_owned(state, action, player)
        else:
            state = state._apply(action, player)
            apply_owned = owned_apply
        steps += 1
    if kept_state is not None:
        state = kept_state(state)
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
    limit = _NO_LIMIT if max_steps is None else _check_max_steps(max_steps)
    others = dict(policies or {})
    num_players = state.game.num_players
    if len(seat_rngs) != num_players:
        raise RolloutError(
            f"rollout_seats needs one Rng per seat ({num_players}), got {len(seat_rngs)}"
        )
    seeds = [r.state for r in seat_rngs]
    # A bot may keep the states it is shown: with bots, every move copies (see _random);
    # a watcher is shown every state, so it gets states, never a kept draft.
    owned_apply, kept_state = (None, None) if others else _owned_hooks(type(state), watch is None)
    apply_owned = None  # the caller's state is never built on: only the states made here
    limit_of = _LIMITS.get
    new_limit = _limit
    chance = CHANCE
    weight = _weight
    policy_of = others.get
    s = rng.state
    moves: list[tuple[int, Action]] = []
    steps = 0
    if watch is not None:
        watch(state)
    while steps != limit:
        to_move = state.phase.to_move
        if not to_move:
            break
        player = to_move[0]
        if player == chance:
            weights = state._chance_weights()
            cumulative = list(accumulate(map(weight, weights)))
            n = cumulative[-1]
            bound = limit_of(n) or new_limit(n)
            if bound:
                while True:
                    s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                    z ^= z >> 31
                    if z < bound:
                        break
                z %= n
            else:  # more weight than one 64-bit draw covers
                z, s = below_wide(s, n)
            action = weights[bisect_right(cumulative, z)][0]
            if apply_owned is not None:
                state = apply_owned(state, action, player)
            else:
                state = state._apply(action, player)
                apply_owned = owned_apply
        else:
            policy = policy_of(player)
            if policy is not None:
                action = policy.act(state, player)
                state = state.apply(action, player)
            else:
                legal = state._legal(player)
                n = len(legal)
                if n == 1:  # below(1): one step of the seat's generator (see _random)
                    seeds[player] = (seeds[player] + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                    action = legal[0]
                else:
                    bound = limit_of(n) or new_limit(n)
                    t = seeds[player]
                    while True:
                        t = (t + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                        z = ((t ^ (t >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                        z ^= z >> 31
                        if z < bound:
                            break
                    seeds[player] = t
                    action = legal[z % n]
                if apply_owned is not None:
                    state = apply_owned(state, action, player)
                else:
                    state = state._apply(action, player)
                    apply_owned = owned_apply
        moves.append((player, action))
        steps += 1
        if watch is not None:
            watch(state)
    if kept_state is not None:
        state = kept_state(state)
    return Playout(state, Rng._at(s), tuple(Rng._at(t) for t in seeds), tuple(moves))


def _owned_hooks(
    cls: type[State], keep: bool
) -> tuple[Callable[[State, Action, int], State] | None, Callable[[State], State] | None]:
    """The move a rollout makes on the states it made itself, and the function that turns
    what the last such move returned into a state (None: it returns states). With ``keep``,
    a class's ``_apply_kept`` and ``_kept_state`` if it has both (see the module's
    description), else its ``_apply_owned``, else none."""
    if keep:
        kept = getattr(cls, "_apply_kept", None)
        done = getattr(cls, "_kept_state", None)
        if kept is not None and done is not None:
            return kept, done
    return getattr(cls, "_apply_owned", None), None


def _check_max_steps(max_steps: int) -> int:
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
        raise RolloutError(f"max_steps must be an int >= 0 or None, got {max_steps!r}")
    return max_steps
