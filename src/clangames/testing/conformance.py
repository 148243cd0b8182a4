"""The conformance harness: one generic check that every game keeps the kernel's contract.

``check_game(game, playouts=300, seed=0)`` plays seeded random games and, at every step,
checks what the kernel promises (see ``check_state``). The first failure raises
:class:`ConformanceError` naming the check, the seed and the moves that led there (as a
:class:`~clangames.engine.record.GameRecord` you can replay).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from clangames.engine.chance import sample_chance
from clangames.engine.codec import encode
from clangames.engine.errors import (
    ClanGamesError,
    IllegalActionError,
    InvalidActionError,
)
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng
from clangames.engine.state import State

Invariant = Callable[[State], None]


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
    """What a harness run covered."""

    game: str
    players: int
    playouts: int
    steps: int
    max_length: int
    mean_length: float


@attrs.define
class _Context:
    game: Game
    seed: int | None
    record: GameRecord
    invariant: Invariant | None
    max_applied: int

    def fail(self, check: str, message: str) -> ConformanceError:
        return ConformanceError(check, message, self.seed, self.record)


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
    """Check one state against the kernel's contract; return the advanced Rng.

    The checks: flow properties agree; legal actions exist exactly for the players to
    move, sorted by id with unique texts; each applies (up to ``max_applied`` of them);
    illegal and malformed actions raise the right error and change nothing; chance
    probabilities are exact, positive and sum to 1; ids, masks and JSON round-trip;
    observations are JSON-able; ``resample`` keeps each player's observation and legal
    actions; terminal returns sum to 1 and agree with winners and scores; and the game's
    own ``invariant``.
    """
    game = state.game
    ctx = _Context(game, seed, record or GameRecord.start(game), invariant, max_applied)
    n = game.num_players
    to_move = state.to_move
    # -- flow ----------------------------------------------------------------------------
    if state.is_terminal != (to_move == ()):
        raise ctx.fail("flow", f"is_terminal is {state.is_terminal} but to_move is {to_move!r}")
    if state.is_chance != (to_move == (CHANCE,)):
        raise ctx.fail("flow", f"is_chance is {state.is_chance} but to_move is {to_move!r}")
    for p in to_move:
        if p != CHANCE and not 0 <= p < n:
            raise ctx.fail("flow", f"to_move names seat {p}, but seats are 0..{n - 1}")
    if not isinstance(state.prompt(), str) or not state.prompt():
        raise ctx.fail("prompt", "prompt() must be a non-empty string")
    # -- JSON ------------------------------------------------------------------------------
    data = state.to_json()
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
    # -- the state must not change under anything tried below -----------------------------
    before = json.dumps(data, sort_keys=True)
    # -- legal actions -------------------------------------------------------------------
    for p in range(n):
        legal = state.legal_actions(p)
        if p not in to_move:
            if legal:
                raise ctx.fail(
                    "legal-only-to-move", f"player {p} is not to move but has {legal[:3]!r}"
                )
            continue
        if not legal:
            raise ctx.fail("legal-exist", f"player {p} is to move but has no legal action")
        _check_action_list(ctx, state, legal, p)
    if state.is_chance:
        _check_chance(ctx, state)
    if json.dumps(state.to_json(), sort_keys=True) != before:
        raise ctx.fail(
            "legal-unchanged", "applying a legal action changed the state it was applied to"
        )
    # -- rejections ----------------------------------------------------------------------
    rng, tried = _check_rejections(ctx, state, rng)
    if json.dumps(state.to_json(), sort_keys=True) != before:
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
        other = state.resample(p, sub)
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
        try:
            other.check_consistency()
        except ClanGamesError as exc:
            raise ctx.fail("resample", f"resample({p}) gave an inconsistent state: {exc}") from exc
    # -- the end -------------------------------------------------------------------------
    if state.is_terminal:
        _check_terminal(ctx, state)
    if invariant is not None:
        try:
            invariant(state)
        except AssertionError as exc:
            raise ctx.fail("invariant", str(exc) or "the game's invariant failed") from exc
    return rng


def _check_action_list(ctx: _Context, state: State, legal: tuple[Any, ...], p: int) -> None:
    game = ctx.game
    try:
        ids = [game.action_id(a) for a in legal]
    except InvalidActionError as exc:
        raise ctx.fail("action-id", f"a legal action of player {p} has no id: {exc}") from exc
    if ids != sorted(set(ids)):
        raise ctx.fail("legal-sorted", f"legal actions of player {p} are not strictly sorted by id")
    texts = [game.action_text(a) for a in legal]
    if len(set(texts)) != len(texts):
        raise ctx.fail("legal-texts", f"legal actions of player {p} share a text form")
    for a, i, t in zip(legal, ids, texts, strict=True):
        if game.action_from_id(i) != a:
            raise ctx.fail("action-id", f"action_from_id({i}) != {a!r}")
        if game.parse_action(t) != a:
            raise ctx.fail("action-text", f"parse_action({t!r}) != {a!r}")
        if eval_repr(a) != a:
            raise ctx.fail("action-repr", f"repr {a!r} does not rebuild the action")
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
    return rng, tried


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
    if ctx.game.info.winners_follow_scores:
        best_loser = max((scores[p] for p in range(n) if p not in winners), default=None)
        if best_loser is not None and best_loser > min(scores[w] for w in winners):
            raise ctx.fail(
                "winners-scores", f"a non-winner outscores a winner: {scores!r} {winners!r}"
            )


def random_playout(
    game: Game,
    rng: Rng,
    on_state: Callable[[State, GameRecord], None] | None = None,
    seed: int | None = None,
) -> tuple[GameRecord, State, Rng]:
    """One game with chance sampled and uniformly random decisions; ``on_state`` is called
    at every state. Simultaneous players commit in a random order. The same ``rng`` gives
    the same game."""
    state = game.initial_state()
    record = GameRecord.start(game)
    limit = game.info.max_game_length
    steps = 0
    while True:
        if on_state is not None:
            on_state(state, record)
        if state.is_terminal:
            return record, state, rng
        if steps >= limit:
            raise ConformanceError(
                "max-length",
                f"game not over after its declared maximum of {limit} steps",
                seed,
                record,
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
        record = record.with_move(state, action, player)
        state = state.apply(action, player)
        steps += 1


def check_game(
    game: Game,
    playouts: int = 100,
    seed: int = 0,
    *,
    invariant: Invariant | None = None,
    replays: int = 3,
    max_applied: int = 64,
) -> Report:
    """Play ``playouts`` seeded random games of ``game`` checking every state; raise
    ConformanceError at the first failure. ``replays`` playouts are also re-run from the
    same seed and replayed from their record, which must give the same game."""
    if not isinstance(game, Game):
        raise TypeError(f"check_game needs a loaded Game (clangames.load(...)), got {game!r}")
    base = Rng(seed)
    total_steps = 0
    longest = 0
    for i in range(playouts):
        playout_seed = base.fork(i).state
        checks = [Rng(playout_seed).fork(1 << 32)]  # the checks' own stream

        def on_state(
            state: State, record: GameRecord, s: int = playout_seed, c: list[Rng] = checks
        ) -> None:
            c[0] = check_state(
                state, c[0], seed=s, record=record, invariant=invariant, max_applied=max_applied
            )

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
    )
