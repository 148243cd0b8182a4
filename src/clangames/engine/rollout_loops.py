"""The loops of the kernel's fast rollouts (:mod:`clangames.engine.rollout`), on their own.

:mod:`clangames.engine.rollout` checks its arguments, raises its errors and builds its
results; the loops that play the steps live here, apart from its error class (which
derives from interpreted classes), so that the optional compiled build compiles them
(setup.py): interpreted, the loop was a sixth of a compiled Clan Feud step. The loops take
checked arguments and hand back plain values.

Interpreted, the generator lives in the integer ``s`` while a loop runs: each draw is
:meth:`~clangames.engine.rng.Rng.below`'s, inlined (the same stream, draw for draw). A
draw below 1 (one player to move, one legal action) is just the generator's step: its
limit is 2**64, so it never rejects, and its index is 0. Compiled (:data:`SPLIT`), it lives
in its two 32-bit halves and each draw is :func:`below_split`: the same draws on machine
integers, where the compiled build would box every 64-bit value.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from operator import itemgetter
from types import FunctionType
from typing import TYPE_CHECKING, Any, Final

from clangames.engine.phases import CHANCE
from clangames.engine.rng import _LIMITS, _limit, below_wide

if TYPE_CHECKING:
    # mypyc's 64-bit machine integer; a plain int when interpreted (not needed at run time).
    from mypy_extensions import i64

NO_LIMIT = -1
"""``limit`` of a loop that runs to the end of the game (a step count never equals it)."""


_weight = itemgetter(1)
"""The weight of a chance outcome ``(action, weight)`` (cumulated in C, no Python loop)."""


def random_loop(
    state: Any,
    s: int,
    limit: int,
    draw_mover: bool,
    moves: list[tuple[int, Any]] | None,
) -> tuple[Any, int, int]:
    """Play ``state`` on uniformly at random from generator state ``s`` for at most
    ``limit`` steps (:data:`NO_LIMIT`: to the end): the state reached, the generator's
    state after it and the steps taken (see :func:`clangames.engine.rollout.rollout`).
    With ``draw_mover`` one of the players to move is drawn first; ``moves``, if given,
    receives each ``(player, action)``. From the second step on, the class's fast move
    (:func:`owned_hooks`) makes each successor: the state before it was made here.

    Compiled, the generator is held in halves (:data:`SPLIT`, :func:`below_split`);
    interpreted, in ``s``, its draws inlined."""
    limit_of = _LIMITS.get
    chance = CHANCE
    record = None if moves is None else moves.append
    owned_apply, kept_state = owned_hooks(type(state), True)
    apply_owned = None  # the caller's state is never built on: only the states made here
    ruled: type = type(state)
    legal_of, weights_of = rules_of(ruled)
    split = SPLIT
    sh: i64 = s >> 32
    sl: i64 = s & _WORD
    steps = 0
    z = 0
    while steps != limit:
        to_move = state.phase.to_move
        if not to_move:
            break
        player: int = to_move[0]
        if split and type(state) is not ruled:  # a kept draft's class, from a move on
            ruled = type(state)
            legal_of, weights_of = rules_of(ruled)
        if player == chance:
            if split:  # compiled: two native passes, no list of cumulative weights
                weights = weights_of(state)
                n: int = _total(weights)
                z, sh, sl = below_split(sh, sl, n)
                action = _outcome(weights, z)
            else:
                weights = state._chance_weights()
                cumulative = list(accumulate(map(_weight, weights)))
                n = cumulative[-1]
                bound = limit_of(n) or _limit(n)
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
                if split:
                    z, sh, sl = below_split(sh, sl, n)
                    player = to_move[z]
                elif n == 1:
                    s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                else:
                    bound = limit_of(n) or _limit(n)
                    while True:
                        s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                        z ^= z >> 31
                        if z < bound:
                            break
                    player = to_move[z % n]
            legal = legal_of(state, player) if split else state._legal(player)
            n = len(legal)
            if split:
                if n == 1:  # the generator's step alone (see the module's description)
                    low = sl + 0x7F4A7C15
                    sl = low & _WORD
                    sh = (sh + 0x9E3779B9 + (low >> 32)) & _WORD
                    action = legal[0]
                else:
                    z, sh, sl = below_split(sh, sl, n)
                    action = legal[z]
            elif n == 1:
                s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                action = legal[0]
            else:
                bound = limit_of(n) or _limit(n)
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
    if split:
        s = _joined(sh, sl)
    return state, s, steps


def seats_loop(
    state: Any,
    s: int,
    seeds: list[int],
    limit: int,
    policies: Mapping[int, Any],
    watch: Callable[[Any], object] | None,
    moves: list[tuple[int, Any]],
) -> tuple[Any, int]:
    """Play ``state`` on as :func:`clangames.engine.rollout.rollout_seats` describes, chance
    from generator state ``s`` and each seat's random decisions from ``seeds[seat]``
    (updated in place), for at most ``limit`` steps: the state reached and the chance
    generator's state after it; ``moves`` receives each ``(player, action)``. Compiled,
    every generator is held in halves, as in :func:`random_loop`."""
    # A bot may keep the states it is shown: with bots, every move copies (see random_loop);
    # a watcher is shown every state, so it gets states, never a kept draft.
    if policies:
        owned_apply, kept_state = None, None
    else:
        owned_apply, kept_state = owned_hooks(type(state), watch is None)
    apply_owned = None  # the caller's state is never built on: only the states made here
    ruled: type = type(state)
    legal_of, weights_of = rules_of(ruled)
    limit_of = _LIMITS.get
    chance = CHANCE
    policy_of = policies.get
    split = SPLIT
    sh: i64 = s >> 32
    sl: i64 = s & _WORD
    highs = [t >> 32 for t in seeds]  # the seats' generators in halves, when split
    lows = [t & _WORD for t in seeds]
    steps = 0
    z = 0
    if watch is not None:
        watch(state)
    while steps != limit:
        to_move = state.phase.to_move
        if not to_move:
            break
        player: int = to_move[0]
        if split and type(state) is not ruled:  # a kept draft's class, from a move on
            ruled = type(state)
            legal_of, weights_of = rules_of(ruled)
        if player == chance:
            if split:  # compiled: two native passes, no list of cumulative weights
                weights = weights_of(state)
                n: int = _total(weights)
                z, sh, sl = below_split(sh, sl, n)
                action = _outcome(weights, z)
            else:
                weights = state._chance_weights()
                cumulative = list(accumulate(map(_weight, weights)))
                n = cumulative[-1]
                bound = limit_of(n) or _limit(n)
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
                legal = legal_of(state, player) if split else state._legal(player)
                n = len(legal)
                if split:
                    th: i64 = highs[player]
                    tl: i64 = lows[player]
                    z, th, tl = below_split(th, tl, n)
                    highs[player] = th
                    lows[player] = tl
                    action = legal[z]
                elif n == 1:  # below(1): one step of the seat's generator
                    seeds[player] = (seeds[player] + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                    action = legal[0]
                else:
                    bound = limit_of(n) or _limit(n)
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
    if split:
        s = _joined(sh, sl)
        for seat in range(len(seeds)):
            seeds[seat] = _joined(highs[seat], lows[seat])
    return state, s


def _total(weights: Sequence[tuple[Any, int]]) -> int:
    """The chance outcomes' total weight."""
    n = 0
    for _, weight in weights:
        n += weight
    return n


def _outcome(weights: Sequence[tuple[Any, int]], z: int) -> Any:
    """The outcome drawn by ``z`` (``0 <= z <`` the total weight): the first whose
    cumulative weight exceeds ``z``, as ``bisect_right`` finds it in the cumulative list.
    Compiled, two native loops over the weights cost less than building that list."""
    left = z
    for action, weight in weights:
        left -= weight
        if left < 0:
            return action
    raise ValueError(f"a draw of {z} is past the chance outcomes' total weight {z - left}")


def rules_of(
    cls: type,
) -> tuple[Callable[[Any, int], Any], Callable[[Any], Any]]:
    """``cls``'s ``_legal`` and ``_chance_weights`` as plain functions of a state: the
    compiled loops call them so, without a method look-up, and, for a compiled rule the
    class binds through the kernel's shim
    (:func:`clangames.engine.compiled.bind_compiled_rules`), the compiled function itself
    rather than the shim's interpreted frame. (Interpreted, the loops call the methods as
    before: checking each step's class there costs more than the look-up it spares.)"""
    return _rule(cls, "_legal"), _rule(cls, "_chance_weights")


def _rule(cls: type, name: str) -> Callable[..., Any]:
    """The class's method ``name`` as a function of the state (see :func:`rules_of`); a
    method that is not a plain function (a descriptor of another kind) is looked up on the
    state at each call, as before."""
    method: Any = None
    for klass in cls.__mro__:  # the attribute as the class holds it, no descriptor run
        if name in klass.__dict__:
            method = klass.__dict__[name]
            break
    if type(method) is not FunctionType:
        return _methodcaller_of(name)
    rule: Callable[..., Any] = getattr(method, "__compiled_rule__", method)
    return rule


def _methodcaller_of(name: str) -> Callable[..., Any]:
    """A function calling the state's method ``name`` with the other arguments."""

    def call(state: Any, *args: Any) -> Any:
        return getattr(state, name)(*args)

    return call


def owned_hooks(
    cls: type, keep: bool
) -> tuple[Callable[[Any, Any, int], Any] | None, Callable[[Any], Any] | None]:
    """The move a rollout makes on the states it made itself, and the function that turns
    what the last such move returned into a state (None: it returns states). With ``keep``,
    a class's ``_apply_kept`` and ``_kept_state`` if it has both (see
    :mod:`clangames.engine.rollout`), else its ``_apply_owned``, else none."""
    if keep:
        kept = getattr(cls, "_apply_kept", None)
        done = getattr(cls, "_kept_state", None)
        if kept is not None and done is not None:
            return kept, done
    return getattr(cls, "_apply_owned", None), None


# ---------------------------------------------------------------------------------------
# The generator in two 32-bit halves

_WORD: Final = 0xFFFFFFFF
"""The low 32 bits."""
_SPLIT_BELOW: Final = 1 << 31
"""Bounds below this are drawn on the halves (:func:`below_split`); larger ones as ints."""


def below_split(sh: i64, sl: i64, n: int) -> tuple[int, i64, i64]:
    """:meth:`Rng.below(n) <clangames.engine.rng.Rng.below>` on a generator state held as
    its high and low 32-bit halves: the value drawn and the next state's halves.

    Why halves: the compiled build boxes a Python int of 63 bits or more, so the 64-bit
    arithmetic of a draw would allocate at every operation; held in halves, every value
    stays below 2**52 and the whole draw runs on machine integers (``i64``, plain ints
    when interpreted; no operation can overflow, so both agree bit for bit). The rejection
    test and the remainder are worked out on the halves for a bound below 2**31; a larger
    one (a chance node's big total) is drawn as :meth:`Rng.below` draws it."""
    if n >= _SPLIT_BELOW or n <= 0:
        z, s = _below_int(_joined(sh, sl), n)
        return z, s >> 32, s & _WORD
    m: i64 = n
    r32 = (1 << 32) % m  # 2**32 mod n
    edge = (1 << 32) - r32 * r32 % m  # low half of the rejection limit 2**64 - 2**64 % n
    last = r32 * r32 % m == 0  # n divides 2**64: nothing is rejected
    while True:
        low = sl + 0x7F4A7C15
        sl = low & _WORD
        sh = (sh + 0x9E3779B9 + (low >> 32)) & _WORD
        zh, zl = _times(
            sh ^ (sh >> 30), sl ^ (((sh << 2) & _WORD) | (sl >> 30)), 0xBF58476D, 0x1CE4E5B9
        )
        zh, zl = _times(
            zh ^ (zh >> 27), zl ^ (((zh << 5) & _WORD) | (zl >> 27)), 0x94D049BB, 0x133111EB
        )
        zl ^= ((zh << 1) & _WORD) | (zl >> 31)
        zh ^= zh >> 31
        if last or zh != _WORD or zl < edge:
            return ((zh % m) * r32 + zl) % m, sh, sl


def _joined(sh: i64, sl: i64) -> int:
    """The generator state whose halves are ``sh`` and ``sl`` (a Python int: compiled, an
    expression mixing an int and an i64 is an i64, which the top half would overflow)."""
    high: int = sh
    low: int = sl
    return high << 32 | low


def _times(xh: i64, xl: i64, ch: i64, cl: i64) -> tuple[i64, i64]:
    """``(xh:xl) * (ch:cl) mod 2**64`` in 32-bit halves; no product above 2**48."""
    lo16 = xl & 0xFFFF
    low_product = lo16 * cl
    high_product = (xl >> 16) * cl
    carry = (low_product & _WORD) + ((high_product & 0xFFFF) << 16)
    high = (low_product >> 32) + (high_product >> 16) + (carry >> 32)
    # The cross products count only modulo 2**32, 16 bits of a factor at a time.
    high += (xh & 0xFFFF) * cl + (((xh >> 16) * (cl & 0xFFFF)) << 16)
    high += lo16 * ch + (((xl >> 16) * (ch & 0xFFFF)) << 16)
    return high & _WORD, carry & _WORD


def _below_int(s: int, n: int) -> tuple[int, int]:
    """:meth:`Rng.below(n) <clangames.engine.rng.Rng.below>` on the whole state ``s``:
    the value and the next state."""
    bound = _LIMITS.get(n) or _limit(n)
    if not bound:  # more than one 64-bit draw covers
        return below_wide(s, n)
    while True:
        s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        if z < bound:
            return z % n, s


SPLIT: Final = not isinstance(below_split, FunctionType)
"""Whether the loops draw on the halves (:func:`below_split`): when this module runs
compiled. Interpreted, the halves cost six times a draw on one int, so the loops keep it."""
