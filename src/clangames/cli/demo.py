"""``clangames demo``: bots play one whole game, narrated step by step.

Only the kernel API and the game's renderer are used (``Match``, the renderer's
``narrate``, ``scores``, ``winners``, ``returns``), so the narration works for every
registered game: a watcher sees everything, so each step is told in full, with what it set
going on its own (Clan Feud's England and battles) and what it turned face up (KOA
Kingmaker's reveal), as ``play`` tells them. Everything random comes
from the one seed: the Match samples chance with ``Rng(seed)`` and the bot in seat ``i``
gets ``Rng(seed).fork(i + 1)``, so the same seed prints the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

import attrs

from clangames.bots import make_bot
from clangames.cli.errors import CommandFailure, UsageError
from clangames.cli.saving import seat_rng
from clangames.engine.game import Game
from clangames.engine.match import Match, Policy
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.rendering.text import narrate as narrate_step
from clangames.rendering.text import renderer_for


class DemoError(UsageError):
    """A demo that cannot run as asked (say, the wrong number of bot names)."""


class DemoFailure(CommandFailure):
    """A game that misbehaved during a demo (never ends, or nobody can move)."""

    def __str__(self) -> str:
        return f"the game failed: {super().__str__()}"


@attrs.frozen(slots=True)
class DemoResult:
    """What a finished demo game came to (for callers that want more than the text)."""

    match: Match
    steps: int
    chance_steps: int
    names: tuple[str, ...] = ()
    """The bot name at each seat."""


def seat_bots(game: Game, seed: int, names: Sequence[str]) -> dict[int, Policy]:
    """One bot per seat: ``names`` is a single bot name for every seat or one per seat;
    seat ``i`` is seeded with ``Rng(seed).fork(i + 1)``."""
    n = game.num_players
    if len(names) == 1:
        names = list(names) * n
    if len(names) != n:
        raise DemoError(f"--bots names {len(names)} bots for {n} seats; give 1 or {n} names")
    root = Rng(seed)
    return {seat: make_bot(name, seat_rng(root, seat)) for seat, name in enumerate(names)}


def _who(player: int) -> str:
    return "chance" if player == CHANCE else f"P{player}"


def _share(value: float) -> str:
    return f"{value:.4g}"


def run_demo(
    game: Game,
    seed: int,
    bots: Sequence[str],
    out: TextIO,
    *,
    narrate: bool = True,
) -> DemoResult:
    """Play ``game`` with bots from ``seed`` and write the narration to ``out``.

    The text is a header (title, players, seed, parameters, seats), one line per step
    (chance lines tagged ``chance``, decisions tagged with the seat, e.g. ``P0``), then
    the final scores, the winners and the returns.
    """
    policies = seat_bots(game, seed, bots)
    names = list(bots) * game.num_players if len(bots) == 1 else list(bots)
    match = Match(game, seed, policies)
    info = game.info
    params = ", ".join(f"{k}={v!r}" for k, v in game.params.items())
    out.write(f"{info.title} ({game.name}): {game.num_players} players, seed {seed}\n")
    out.write(f"parameters: {params}\n")
    out.write("seats: " + ", ".join(f"P{i} {name}" for i, name in enumerate(names)) + "\n")
    if narrate:
        out.write("\n step  who     what\n")
    renderer = renderer_for(game)
    steps = chance_steps = 0
    limit = info.max_game_length
    while not match.is_over:
        if steps >= limit:
            raise DemoFailure(
                f"{game.name}: still not over after {steps} steps, beyond its declared"
                f" max_game_length {limit}"
            )
        step = match.step()
        if step is None:
            raise DemoFailure(f"{game.name}: nobody can move at step {steps + 1}")
        steps += 1
        if step.player == CHANCE:
            chance_steps += 1
        if narrate:
            text = narrate_step(renderer, step.before, step.action, step.player, match.state, None)
            out.write(f"{steps:>5}  {_who(step.player):<6}  {text}\n")
    state = match.state
    scores = state.scores()
    winners = set(state.winners())
    returns = state.returns()
    out.write(
        f"\nGame over after {steps} steps"
        f" ({chance_steps} chance outcomes, {steps - chance_steps} decisions).\n"
    )
    out.write("Final scores:\n")
    for seat, score in enumerate(scores):
        mark = "  winner" if seat in winners else ""
        out.write(f"  P{seat}  {score:>4}{mark}\n")
    out.write("Winners: " + (", ".join(f"P{p}" for p in sorted(winners)) or "none") + "\n")
    out.write("Returns: " + ", ".join(f"P{p} {_share(r)}" for p, r in enumerate(returns)) + "\n")
    return DemoResult(match, steps, chance_steps, tuple(names))
