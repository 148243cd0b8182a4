"""The conformance harness: one generic check that every game keeps the kernel's contract.

``check_game(game, playouts=300, seed=0)`` plays seeded random games and checks what the
kernel promises (see :func:`check_state`). The checks come in two tiers, so that the
harness costs a few bare playout steps per step rather than a hundred:

- the cheap checks run on every state: flow properties, who has legal actions, ids
  strictly sorted (once per run for a tuple of legal actions the game hands out again),
  every action's id, text and ``repr`` round trip (once per distinct action and run),
  positive integer chance weights, terminal returns, winners and scores, and the caller's
  ``invariant``;
- the full checks (JSON and position round trips, hash, masks, applying the legal actions,
  exact chance probabilities, rejections leaving the state unchanged, observations, resample,
  explanations that tell a seat nothing its re-deal would not) run on a seeded sample of
  states. States are grouped by kind of node (phase name, number of players to move,
  simultaneous or not); the first :data:`ALWAYS_FIRST` states of each kind in a run are
  always fully checked, the k-th one after them with
  probability ``max(rate, ALWAYS_FIRST / k)``. Rare kinds of node are thus checked often
  and common ones at ``rate``; ``rate=1.0`` checks every state fully.

The first failure raises :class:`ConformanceError` naming the check, the seed and the
moves that led there (as a :class:`~clangames.engine.record.GameRecord` you can replay).
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from itertools import islice
from typing import Any

import attrs

from clangames.engine.chance import sample_chance
from clangames.engine.codec import encode
from clangames.engine.errors import (
    ClanGamesError,
    IllegalActionError,
    InvalidActionError,
    InvalidArgumentError,
    InvalidParameterError,
)
from clangames.engine.game import Game
from clangames.engine.integers import count_argument
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord, Move
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing import interop as interop_checks
from clangames.testing.pictures import check_end_report, check_pictures, wants_pictures
from clangames.testing.positions import position_failure
from clangames.testing.statistics import check_statistics
from clangames.testing.svg_checks import check_svg

Invariant = Callable[[State], None]

DEFAULT_RATE = 0.01
"""The share of the states of common kinds of node that ``check_game`` checks fully by
default: with it the harness costs about 5-8x a bare random-playout step in CPU time
(Clan Feud and KOA Kingmaker with 5 players the costliest, both about 7-8x on a shared
machine), under the goal of 10x that keeps 300 playouts per player count cheap in CI. A
soak can afford more (the games' soak tests use 0.1)."""

ALWAYS_FIRST = 4
"""The first this many states of each kind of node in a run are always fully checked;
the k-th one after them with probability ``max(rate, ALWAYS_FIRST / k)``."""

_CHECKS_STREAM = 1 << 32
"""The fork of a playout's seed that the checks draw from (random illegal ids, resample)."""
_SAMPLING_STREAM = (1 << 32) + 1
"""The fork of a playout's seed that decides which states get the full checks."""
_EXPLAIN_STREAM = (1 << 32) + 2
"""The fork of a seat's re-deal generator that picks the actions whose explanations are
compared (a stream of its own, so the other checks draw exactly what they drew before)."""

_EXPLAINED_AT_RANDOM = 2
"""How many actions drawn from the whole table ``explain-private`` compares per seat and
fully checked state, besides one beside a legal action of the seat and one legal action
of each other seat to move."""


_SORTED_KEPT = 256
"""How many legal-action tuples one harness run remembers by identity at most (see
:func:`_check_cheap`); past that it forgets them all and starts again. Reuse is local (the
same tuple again a few states on), so a short memory keeps nearly every hit and costs a
game that builds new tuples little."""


class ConformanceError(AssertionError):
    """A game broke the kernel's contract. ``check`` names the broken promise, ``seed`` and
    ``record`` reproduce the game up to the failing state."""

    def __init__(self, check: str, message: str, seed: int | None, record: GameRecord | None):
        self.check = check
        self.seed = seed
        self.record = record
        where = ""
        if record is not None:
            moves = [m.action for m in record.moves]
            shown = moves if len(moves) <= 40 else ["...", *moves[-40:]]
            where = f"\n  after {len(moves)} moves: {shown}"
        super().__init__(f"[{check}] {message} (seed {seed}){where}")


@attrs.frozen
class Report:
    """What a harness run covered: ``steps`` moves over ``playouts`` games (so
    ``steps + playouts`` states, every one given the cheap checks), ``fully_checked`` of
    those states also given the full ones."""

    game: str
    players: int
    playouts: int
    steps: int
    max_length: int
    mean_length: float
    fully_checked: int = 0


@attrs.define
class _Context:
    """One harness run's settings, the moves that led to the state under check, and the
    actions already verified (their id, text and repr depend on the game, not the state),
    and the legal-action tuples already found strictly sorted, by identity (see
    :func:`_check_cheap`)."""

    game: Game
    seed: int | None
    invariant: Invariant | None
    max_applied: int
    moves: Sequence[Move] = ()
    record: GameRecord | None = None
    ids: dict[Any, int] = attrs.Factory(dict)
    sorted_tuples: dict[int, tuple[Any, ...]] = attrs.Factory(dict)
    interop: bool = True  # the interoperability checks (testing/interop.py) are on

    def fail(self, check: str, message: str) -> ConformanceError:
        record = self.record
        if record is None:
            record = GameRecord(self.game.name, self.game.params, tuple(self.moves))
        return ConformanceError(check, message, self.seed, record)


def _expect_rejected(
    ctx: _Context, state: State, action: Any, player: int | None, error: type[Exception], what: str
) -> None:
    try:
        state.apply(action, player)
    except error as exc:
        if not str(exc):
            raise ctx.fail(
                "error-message", f"{what}: {error.__name__} with an empty message"
            ) from None
    except Exception as exc:  # any other error is a contract breach
        raise ctx.fail(
            "illegal-rejected",
            f"{what}: expected {error.__name__}, got {type(exc).__name__}: {exc}",
        ) from exc
    else:
        raise ctx.fail("illegal-rejected", f"{what}: {action!r} was applied without an error")


def check_state(
    state: State,
    rng: Rng,
    *,
    seed: int | None = None,
    record: GameRecord | None = None,
    invariant: Invariant | None = None,
    max_applied: int = 64,
) -> Rng:
    """Check one state against the whole kernel contract; return the advanced Rng.

    The checks: flow properties agree; legal actions exist exactly for the players to
    move, sorted by id with unique texts; ids, texts, reprs and masks round-trip; each
    legal action applies (up to ``max_applied`` of them); illegal and malformed actions
    raise the right error and change nothing; chance weights are positive integers and
    the probabilities exact, agreeing with them and summing to 1; JSON round-trips, and
    so does the position text (``to_position``);
    observations are JSON-able; ``resample`` keeps each player's observation and legal
    actions, and its explanations of a few actions it may not take (``explain-private``);
    terminal returns sum to 1 and agree with winners and scores; and the game's
    own ``invariant``. ``check_game`` runs the cheap ones of these on every state and
    all of them on a sample.
    """
    ctx = _Context(state.game, seed, invariant, max_applied, record=record)
    _check_cheap(ctx, state)
    rng = _check_full(ctx, state, rng)
    if interop_checks.check_declaration(state.game, ctx.fail, None) is not None:
        interop_checks.check_tensors(state, rng, ctx.fail)
    return rng


def _check_cheap(ctx: _Context, state: State) -> None:
    """The checks that cost about as much as a step: they run on every state."""
    n = ctx.game.num_players
    to_move = state.to_move
    if state.is_terminal != (to_move == ()):
        raise ctx.fail("flow", f"is_terminal is {state.is_terminal} but to_move is {to_move!r}")
    if state.is_chance != (to_move == (CHANCE,)):
        raise ctx.fail("flow", f"is_chance is {state.is_chance} but to_move is {to_move!r}")
    for p in to_move:
        if p != CHANCE and not 0 <= p < n:
            raise ctx.fail("flow", f"to_move names seat {p}, but seats are 0..{n - 1}")
    legal_actions = state.legal_actions
    kept = ctx.sorted_tuples
    for p in range(n):
        legal = legal_actions(p)
        if p not in to_move:
            if legal:
                raise ctx.fail(
                    "legal-only-to-move", f"player {p} is not to move but has {legal[:3]!r}"
                )
            continue
        if not legal:
            raise ctx.fail("legal-exist", f"player {p} is to move but has no legal action")
        # A game may hand out the same tuple of legal actions again (KOA Kingmaker keeps
        # the others' tuples when one seat commits): a tuple, being immutable, that was
        # verified and found sorted once still is, so it is remembered by identity (and
        # held, so that its id is not reused). An equal tuple built anew is checked again.
        if kept.get(id(legal)) is not legal:
            _sorted_ids(ctx, legal, p)
    if state.is_chance:
        weights = state.chance_weights()
        if not weights:
            raise ctx.fail("chance", "a chance node with no outcomes")
        for action, weight in weights:
            if not isinstance(weight, int) or isinstance(weight, bool) or weight <= 0:
                raise ctx.fail("chance-exact", f"outcome {action!r} has weight {weight!r}")
        if state.legal_actions(CHANCE) != tuple([a for a, _ in weights]):
            raise ctx.fail("chance", "legal_actions(CHANCE) differs from the chance weights")
        _sorted_ids(ctx, state.legal_actions(CHANCE), CHANCE)
    if not to_move:
        _check_terminal(ctx, state)
    if ctx.invariant is not None:
        try:
            ctx.invariant(state)
        except AssertionError as exc:
            raise ctx.fail("invariant", str(exc) or "the game's invariant failed") from exc


def _sorted_ids(ctx: _Context, legal: Sequence[Any], p: int) -> list[int]:
    """The ids of ``legal`` (verifying actions not seen before); they must strictly rise.
    A tuple found so is remembered (see :func:`_check_cheap`)."""
    known = ctx.ids
    try:
        ids = list(map(known.__getitem__, legal))
    except (KeyError, TypeError):
        for action in legal:
            try:
                seen = action in known
            except TypeError:  # unhashable: _verify_action reports it
                seen = False
            if not seen:
                known[action] = _verify_action(ctx, action, p)
        ids = [known[a] for a in legal]
    if any(map(operator.ge, ids, islice(ids, 1, None))):
        raise ctx.fail("legal-sorted", f"legal actions of player {p} are not strictly sorted by id")
    if type(legal) is tuple:
        kept = ctx.sorted_tuples
        if len(kept) >= _SORTED_KEPT:  # a game that builds new tuples: bound the memory
            kept.clear()
        kept[id(legal)] = legal
    return ids


def _verify_action(ctx: _Context, action: Any, p: int) -> int:
    """An action's id, after checking that its id, text and repr give it back."""
    game = ctx.game
    try:
        i = game.action_id(action)
    except InvalidActionError as exc:
        raise ctx.fail("action-id", f"a legal action of player {p} has no id: {exc}") from exc
    if game.action_from_id(i) != action:
        raise ctx.fail("action-id", f"action_from_id({i}) != {action!r}")
    text = game.action_text(action)
    try:
        parsed = game.parse_action(text)
    except InvalidActionError as exc:
        raise ctx.fail("action-text", f"parse_action({text!r}) failed: {exc}") from exc
    if parsed != action:
        raise ctx.fail("action-text", f"parse_action({text!r}) != {action!r}")
    try:
        rebuilt = eval_repr(action)
    except Exception as exc:  # a repr that is not valid Python breaks the promise
        raise ctx.fail("action-repr", f"repr {action!r} does not evaluate: {exc}") from exc
    if rebuilt != action:
        raise ctx.fail("action-repr", f"repr {action!r} does not rebuild the action")
    return i


def _check_full(ctx: _Context, state: State, rng: Rng) -> Rng:
    """The checks that cost a hundred steps or so: they run on a sample of states."""
    game = ctx.game
    n = game.num_players
    to_move = state.to_move
    prompt = state.prompt()
    if not isinstance(prompt, str) or not prompt:
        raise ctx.fail("prompt", "prompt() must be a non-empty string")
    # Legal actions and chance come before the JSON round trip: decoding ends with the
    # kernel's liveness check, which would refuse the same faults under a vaguer name.
    data = state.to_json()
    # -- legal actions (the state must not change under anything tried below) -------------
    for p in to_move:
        if p != CHANCE:
            _check_action_list(ctx, state, state.legal_actions(p), p)
    if state.is_chance:
        _check_chance(ctx, state)
    if state.to_json() != data:
        raise ctx.fail(
            "legal-unchanged", "applying a legal action changed the state it was applied to"
        )
    # -- JSON ------------------------------------------------------------------------------
    try:
        text = json.dumps(data)
    except (TypeError, ValueError) as exc:
        raise ctx.fail("json", f"to_json() is not JSON-able: {exc}") from exc
    try:
        back = game.state_from_json(json.loads(text))
    except ClanGamesError as exc:
        raise ctx.fail("json-roundtrip", f"state_from_json rejected to_json output: {exc}") from exc
    if back != state or back.to_json() != data:
        raise ctx.fail("json-roundtrip", "state_from_json(to_json()) is not an equal state")
    if hash(back) != hash(state):
        raise ctx.fail("hash", "equal states have different hashes")
    failure = position_failure(state)  # the readable notation round-trips too
    if failure is not None:
        raise ctx.fail(*failure)
    # -- rejections ----------------------------------------------------------------------
    rng, tried = _check_rejections(ctx, state, rng)
    if state.to_json() != data:
        raise ctx.fail(
            "illegal-unchanged",
            f"the state changed although every one of these failed: {tried!r}",
        )
    # -- observations and resampling -----------------------------------------------------
    try:
        json.dumps(encode(state.public_observation()))
    except (TypeError, ValueError) as exc:
        raise ctx.fail("observation-json", f"public_observation() is not JSON-able: {exc}") from exc
    for p in range(n):
        obs = state.observation(p)
        try:
            json.dumps(encode(obs))
        except (TypeError, ValueError) as exc:
            raise ctx.fail("observation-json", f"observation({p}) is not JSON-able: {exc}") from exc
        sub = rng.fork(p + 1)
        rng = rng.fork(0)
        try:
            other = state.resample(p, sub)
        except Exception as exc:  # resample must work from every state, for every seat
            raise ctx.fail("resample", f"resample({p}) raised {type(exc).__name__}: {exc}") from exc
        if type(other) is not type(state) or other.game != game:
            raise ctx.fail("resample", f"resample({p}) returned a state of another game")
        if other.observation(p) != obs:
            raise ctx.fail(
                "resample-leak",
                f"resample({p}) changed player {p}'s observation: hidden information leaks"
                " into it (or resample changes what the player sees)",
            )
        if other.legal_actions(p) != state.legal_actions(p) or other.to_move != to_move:
            raise ctx.fail(
                "resample-leak",
                f"resample({p}) changed player {p}'s legal actions or who is to move:"
                " they depend on information the player does not have",
            )
        if ctx.interop:
            interop_checks.check_resampled_tensor(state, other, p, ctx.fail)
        try:
            other.check_consistency()
        except ClanGamesError as exc:
            raise ctx.fail("resample", f"resample({p}) gave an inconsistent state: {exc}") from exc
        _check_explanations(ctx, state, other, p, sub.fork(_EXPLAIN_STREAM))
    # -- pictures (a sample: drawing costs far more than a step) ---------------------------
    if wants_pictures(rng):
        check_pictures(state, ctx.fail, rng)
        check_svg(state, ctx.fail, rng)
    return rng


def _check_explanations(ctx: _Context, state: State, other: State, p: int, rng: Rng) -> None:
    """``explain_illegal`` tells seat ``p`` only what it may know: for a few actions not
    legal for ``p``, its text is the same in ``other``, a re-deal ``p`` cannot tell apart
    from ``state`` (``explain-private``)."""
    for action in _not_legal_sample(ctx, state, p, rng):
        # The action's text names it in a failure only: worked out there, not for each one.
        try:
            said = state.explain_illegal(action, p)
            heard = other.explain_illegal(action, p)
        except Exception as exc:  # an explanation must be given for any action and seat
            text = ctx.game.action_text(action)
            raise ctx.fail(
                "explain",
                f"explain_illegal({text!r}, {p}) raised {type(exc).__name__}: {exc}",
            ) from exc
        if said != heard:
            text = ctx.game.action_text(action)
            raise ctx.fail(
                "explain-private",
                f"explain_illegal({text!r}, {p}) changed under resample({p}):"
                f" {said!r} became {heard!r}; it reads what player {p} cannot see",
            )


def _not_legal_sample(ctx: _Context, state: State, p: int, rng: Rng) -> list[Any]:
    """A few actions not legal for seat ``p`` here: one legal action of each other player
    to move (chance included), one beside a legal action of ``p`` in the table (most
    likely of the same kind, so the game's own reason is asked for) and
    :data:`_EXPLAINED_AT_RANDOM` from the whole table."""
    game = ctx.game
    size = game.num_distinct_actions
    legal = state.legal_actions(p)
    legal_ids = set(_sorted_ids(ctx, legal, p)) if legal else set()
    picked: list[int] = []
    for q in state.to_move:
        if q != p:
            theirs = state.legal_actions(q)
            k, rng = rng.below(len(theirs))
            picked.append(game.action_id(theirs[k]))
    if legal:
        k, rng = rng.below(len(legal))
        step, rng = rng.below(2)
        picked.append((game.action_id(legal[k]) + 2 * step - 1) % size)
    for _ in range(_EXPLAINED_AT_RANDOM):
        i, rng = rng.below(size)
        picked.append(i)
    return [game.action_from_id(i) for i in dict.fromkeys(picked) if i not in legal_ids]


def _check_action_list(ctx: _Context, state: State, legal: tuple[Any, ...], p: int) -> None:
    game = ctx.game
    ids = _sorted_ids(ctx, legal, p)
    texts = [game.action_text(a) for a in legal]
    if len(set(texts)) != len(texts):
        raise ctx.fail("legal-texts", f"legal actions of player {p} share a text form")
    mask = state.legal_mask(p)
    if (
        len(mask) != game.num_distinct_actions
        or sum(mask) != len(legal)
        or not all(mask[i] for i in ids)
    ):
        raise ctx.fail("legal-mask", f"legal_mask({p}) does not match legal_actions({p})")
    chosen = (
        legal if len(legal) <= ctx.max_applied else legal[:: max(1, len(legal) // ctx.max_applied)]
    )
    for a in chosen:
        try:
            nxt = state.apply(a, p)
        except ClanGamesError as exc:
            raise ctx.fail(
                "legal-applies", f"legal action {a!r} of player {p} raised {exc}"
            ) from exc
        if type(nxt) is not type(state):
            raise ctx.fail("legal-applies", f"apply({a!r}) returned {type(nxt).__name__}")
        desc = state.describe(a)
        if not isinstance(desc, str) or not desc:
            raise ctx.fail("describe", f"describe({a!r}) must be a non-empty string")


def eval_repr(action: Any) -> Any:
    """Rebuild an action from its ``repr`` (actions promise a valid-Python repr)."""
    module = __import__(type(action).__module__, fromlist=["*"])
    return eval(repr(action), vars(module))  # the repr of our own action classes


def _check_chance(ctx: _Context, state: State) -> None:
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ctx.fail("chance", "a chance node with no outcomes")
    total = Fraction(0)
    for action, prob in outcomes:
        if not isinstance(prob, Fraction) or prob <= 0:
            raise ctx.fail("chance-exact", f"outcome {action!r} has probability {prob!r}")
        total += prob
    if total != 1:
        raise ctx.fail("chance-exact", f"chance probabilities sum to {total}, not 1")
    actions = tuple(a for a, _ in outcomes)
    if actions != state.legal_actions(CHANCE):
        raise ctx.fail("chance", "legal_actions(CHANCE) differs from the chance outcomes")
    weights = state.chance_weights()
    weight_total = sum(w for _, w in weights)
    if len(weights) != len(outcomes):
        raise ctx.fail("chance-weights", "chance_outcomes and chance_weights list other outcomes")
    for (action, prob), (_, weight) in zip(outcomes, weights, strict=True):
        if prob != Fraction(weight, weight_total):
            raise ctx.fail(
                "chance-weights",
                f"outcome {action!r} has probability {prob} but weight {weight}/{weight_total}"
                " (sample_chance draws by the weights)",
            )
    _check_action_list(ctx, state, actions, CHANCE)


def _check_rejections(ctx: _Context, state: State, rng: Rng) -> tuple[Rng, list[Any]]:
    game = ctx.game
    to_move = state.to_move
    mover = to_move[0] if to_move else 0
    malformed: list[Any] = [object(), "not an action", None, 12, ["list"]]
    tried = list(malformed)
    for bad in malformed:
        _expect_rejected(
            ctx, state, bad, mover if to_move else None, InvalidActionError, "malformed"
        )
    legal_ids = {game.action_id(a) for a in state.legal_actions(mover)} if to_move else set()
    tries = 0
    while tries < 4:
        i, rng = rng.below(game.num_distinct_actions)
        tries += 1
        if i in legal_ids:
            continue
        tried.append(game.action_from_id(i))
        _expect_rejected(
            ctx,
            state,
            game.action_from_id(i),
            mover if to_move else None,
            IllegalActionError,
            f"illegal action id {i}",
        )
    if to_move and to_move != (CHANCE,):
        legal = state.legal_actions(mover)
        for p in range(game.num_players):
            if p not in to_move:
                _expect_rejected(
                    ctx,
                    state,
                    legal[0],
                    p,
                    IllegalActionError,
                    f"an action from seat {p} (not to move)",
                )
                tried.append(legal[0])
                break
    _check_bad_seats(ctx, state, rng)
    return rng, tried


_BAD_SEATS: tuple[object, ...] = (-1, "0", True, None, 1.0)
"""Seats every game must refuse (with the number of players, which is one too many)."""


def _check_bad_seats(ctx: _Context, state: State, rng: Rng) -> None:
    """``observation``, ``resample`` and ``explain_illegal`` refuse what is not a seat (or
    a generator) with InvalidArgumentError, before the game's code can index its tables
    with it (seat -1 would read the last seat's secrets)."""
    n = ctx.game.num_players
    action = ctx.game.actions.actions[0]
    calls: list[tuple[str, Callable[[], object]]] = []
    for bad in (n, *_BAD_SEATS):
        calls.append((f"observation({bad!r})", partial(state.observation, bad)))  # type: ignore[arg-type]
        calls.append((f"resample({bad!r}, rng)", partial(state.resample, bad, rng)))  # type: ignore[arg-type]
        calls.append(
            (f"explain_illegal(action, {bad!r})", partial(state.explain_illegal, action, bad))  # type: ignore[arg-type]
        )
    calls.append(("resample(0, 12)", partial(state.resample, 0, 12)))  # type: ignore[arg-type]
    for what, call in calls:
        try:
            call()
        except InvalidArgumentError as exc:
            if not str(exc):
                raise ctx.fail(
                    "error-message", f"{what}: InvalidArgumentError with no message"
                ) from None
        except Exception as exc:
            got = f"{type(exc).__name__}: {exc}"
            raise ctx.fail("bad-seat", f"{what}: expected InvalidArgumentError, got {got}") from exc
        else:
            raise ctx.fail("bad-seat", f"{what} was answered; expected InvalidArgumentError")


def _check_terminal(ctx: _Context, state: State) -> None:
    n = ctx.game.num_players
    returns = state.returns()
    winners = state.winners()
    scores = state.scores()
    if len(returns) != n or len(scores) != n:
        raise ctx.fail("returns", f"returns/scores need one entry per seat: {returns!r} {scores!r}")
    if not math.isclose(sum(returns), 1.0):
        raise ctx.fail("returns", f"terminal returns sum to {sum(returns)}, not 1: {returns!r}")
    if not winners or any(not 0 <= w < n for w in winners) or len(set(winners)) != len(winners):
        raise ctx.fail("winners", f"winners must be distinct seats, at least one: {winners!r}")
    for p in range(n):
        expected = 1.0 / len(winners) if p in winners else 0.0
        if not math.isclose(returns[p], expected):
            raise ctx.fail("returns", f"seat {p} returns {returns[p]}, expected {expected}")
    check_end_report(state, ctx.fail)
    if ctx.game.info.winners_follow_scores:
        best_loser = max((scores[p] for p in range(n) if p not in winners), default=None)
        if best_loser is not None and best_loser > min(scores[w] for w in winners):
            raise ctx.fail(
                "winners-scores", f"a non-winner outscores a winner: {scores!r} {winners!r}"
            )


def random_playout(
    game: Game,
    rng: Rng,
    on_state: Callable[[State, Sequence[Move]], None] | None = None,
    seed: int | None = None,
) -> tuple[GameRecord, State, Rng]:
    """One game with chance sampled and uniformly random decisions; the same ``rng`` gives
    the same game. Simultaneous players commit in a random order.

    ``on_state(state, moves)`` is called at every state with the moves that led to it (the
    driver's own list, valid during the call: copy it to keep it). A legal action that
    fails to apply raises ConformanceError ``legal-applies``; a game that outlives its
    declared maximum length, ``max-length`` (both name ``seed`` and the moves so far).
    """
    if not isinstance(game, Game) or not isinstance(rng, Rng):
        raise InvalidArgumentError(
            "random_playout needs a loaded Game and a clangames Rng, got"
            f" {game!r:.80} and {rng!r:.80}"
        )
    state = game.initial_state()
    moves: list[Move] = []
    limit = game.info.max_game_length
    action_text = game.action_text
    while True:
        if on_state is not None:
            on_state(state, moves)
        if state.is_terminal:
            return GameRecord(game.name, game.params, tuple(moves)), state, rng
        if len(moves) >= limit:
            raise ConformanceError(
                "max-length",
                f"game not over after its declared maximum of {limit} steps",
                seed,
                GameRecord(game.name, game.params, tuple(moves)),
            )
        if state.is_chance:
            action, rng = sample_chance(state, rng)
            player = CHANCE
        else:
            movers = state.to_move
            k, rng = rng.below(len(movers))
            player = movers[k]
            legal = state.legal_actions(player)
            j, rng = rng.below(len(legal))
            action = legal[j]
        text = action_text(action)
        try:
            state = state.apply(action, player)
        except ClanGamesError as exc:
            raise ConformanceError(
                "legal-applies",
                f"legal action {action!r} of player {player} raised {exc}",
                seed,
                GameRecord(game.name, game.params, tuple(moves)),
            ) from exc
        moves.append(Move(player, text))


def check_game(
    game: Game,
    playouts: int = 100,
    seed: int = 0,
    *,
    invariant: Invariant | None = None,
    replays: int = 3,
    max_applied: int = 64,
    rate: float = DEFAULT_RATE,
    interop: bool | None = None,
) -> Report:
    """Play ``playouts`` seeded random games of ``game`` and check their states; raise
    ConformanceError at the first failure.

    The cheap checks (and ``invariant``) run on every state, the full ones on the first
    :data:`ALWAYS_FIRST` states of each kind of node (phase name, number of players to
    move, simultaneous or not) and then on the k-th state of a kind with probability
    ``max(rate, ALWAYS_FIRST / k)``, drawn from the playout's seed (so a seed always
    checks the same states). ``rate=1.0`` checks every state fully, ``rate=0`` only the
    decaying sample of each kind. ``replays`` playouts are also re-run from the same seed
    and replayed from their record, which must give the same game.

    ``interop`` (see :mod:`clangames.testing.interop`): True checks the game's declared
    encodings, id ranges, length bounds and information states (a game without a
    declaration fails), False skips them, None (the default) checks them if the game
    declares them.

    Bad arguments are refused before any game: TypeError for a ``game`` that is not
    loaded, InvalidParameterError for a ``rate`` outside [0, 1], InvalidArgumentError for a
    count that is not an int from 0 up, an ``invariant`` that is no function, an
    ``interop`` that is not a bool or None, or a ``seed`` outside 0..2**64-1.
    """
    if not isinstance(game, Game):
        raise TypeError(f"check_game needs a loaded Game (clangames.load(...)), got {game!r}")
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
        raise InvalidParameterError(f"check_game: rate must be a number in [0, 1], got {rate!r}")
    # Checked before any game: a count of -1 used to give a report of -1 playouts, 1.5 or
    # "3" a TypeError part way, and an invariant that is no function failed at the first state.
    playouts, replays, max_applied = (
        count_argument("check_game", name, value)
        for name, value in (
            ("playouts", playouts),
            ("replays", replays),
            ("max_applied", max_applied),
        )
    )
    if invariant is not None and not callable(invariant):
        raise InvalidArgumentError(
            f"check_game: invariant must be a function of a state or None, got {invariant!r:.80}"
        )
    if interop is not None and not isinstance(interop, bool):
        raise InvalidArgumentError(
            f"check_game: interop must be True, False or None, got {interop!r:.80}"
        )
    base = Rng(seed)
    seen: dict[tuple[str, int, bool], int] = {}  # states met of each kind of node
    verified: dict[Any, int] = {}  # the ids of the actions checked so far
    sorted_tuples: dict[int, tuple[Any, ...]] = {}  # legal-action tuples found sorted
    full = [0]  # states given the full checks
    total_steps = 0
    longest = 0
    declared = interop_checks.check_declaration(game, _Context(game, seed, None, 0).fail, interop)
    check_statistics(game, seed, _Context(game, seed, None, 0).fail)
    for i in range(playouts):
        playout_seed = base.fork(i).state
        ctx = _Context(
            game, playout_seed, invariant, max_applied, ids=verified, sorted_tuples=sorted_tuples
        )
        ctx.interop = declared is not None
        streams = [Rng(playout_seed).fork(_CHECKS_STREAM), Rng(playout_seed).fork(_SAMPLING_STREAM)]
        history = interop_checks.HistoryChecks(game, declared, ctx.fail) if declared else None

        def on_state(
            state: State,
            moves: Sequence[Move],
            ctx: _Context = ctx,
            streams: list[Rng] = streams,
            history: interop_checks.HistoryChecks | None = history,
        ) -> None:
            ctx.moves = moves
            _check_cheap(ctx, state)
            if history is not None:
                history.on_moves(state, moves)
            phase = state.phase
            kind = (phase.name, len(phase.to_move), phase.simultaneous)
            k = seen.get(kind, 0) + 1
            seen[kind] = k
            if k > ALWAYS_FIRST:
                u, streams[1] = streams[1].random()
                if u >= rate and u * k >= ALWAYS_FIRST:
                    return
            streams[0] = _check_full(ctx, state, streams[0])
            if history is not None:
                history.check_full(state, streams[0])
            full[0] += 1

        record, final, _ = random_playout(game, Rng(playout_seed), on_state, seed=playout_seed)
        steps = len(record.moves)
        total_steps += steps
        longest = max(longest, steps)
        if i < replays:
            again, final_again, _ = random_playout(game, Rng(playout_seed), seed=playout_seed)
            if again != record or final_again != final:
                raise ConformanceError(
                    "deterministic", "the same seed gave a different game", playout_seed, record
                )
            try:
                replayed = GameRecord.from_json(json.loads(record.dumps())).final_state()
            except ClanGamesError as exc:
                raise ConformanceError(
                    "record", f"replaying the record failed: {exc}", playout_seed, record
                ) from exc
            if replayed != final:
                raise ConformanceError(
                    "record",
                    "replaying the record gave a different final state",
                    playout_seed,
                    record,
                )
    return Report(
        game=game.name,
        players=game.num_players,
        playouts=playouts,
        steps=total_steps,
        max_length=longest,
        mean_length=total_steps / playouts if playouts else 0.0,
        fully_checked=full[0],
    )
