"""Record headers, autosave files, and continuing a saved game (``play --resume``).

The command writes every record with headers (:attr:`GameRecord.headers`), like PGN's tag
pairs: who played and how, and everything needed to continue the game exactly where it
stopped. The keys it writes:

- ``clangames``: the version that wrote the record; ``command``: ``play`` or ``demo``
- ``game``, ``title``, ``params``: the game as loaded; ``seed``: the ``--seed``
- ``date``: when the game started (UTC, ISO 8601)
- ``seats``: one object per seat, ``{"kind": "human"}`` or ``{"kind": "bot", "bot": NAME}``
  plus the bot's settings (``iterations``, ``rollout_limit`` for ``ismcts``)
- ``rng``: ``{"chance": STATE, "seats": [STATE or null, ...]}``, the generators' states
  after the last move (the match's chance Rng and each bot's), so a resumed game goes on
  exactly as the uninterrupted one would have
- ``result`` once the game is over: ``{"scores": [...], "winners": [...], "returns": [...]}``
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from clangames import __version__
from clangames.bots import make_bot
from clangames.bots.ismcts import ISMCTSBot
from clangames.cli.errors import CommandFailure
from clangames.cli.files import read_text
from clangames.engine.codec import encode
from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.match import Match, Policy
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng

HUMAN = "human"
_MAX_STATE = (1 << 64) - 1


def utc_now() -> str:
    """The current time as the ``date`` header writes it: ``2026-11-22T18:40:05Z``."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def bot_settings(bot: Policy) -> dict[str, Any]:
    """The settings that make ``bot`` play as it does, for the ``seats`` header."""
    if isinstance(bot, ISMCTSBot):
        return {"iterations": bot.iterations, "rollout_limit": bot.rollout_limit}
    return {}


def _rng_state(bot: Policy | None) -> int | None:
    rng = getattr(bot, "rng", None)
    return rng.state if isinstance(rng, Rng) else None


def record_headers(
    match: Match, names: Sequence[str], seed: int, date: str, command: str
) -> dict[str, Any]:
    """The headers of ``match``'s record as it stands (seat ``i`` is ``names[i]``)."""
    game = match.game
    seats: list[dict[str, Any]] = []
    for seat in range(game.num_players):
        bot = match.policies.get(seat)
        if bot is None:
            seats.append({"kind": HUMAN})
        else:
            name = names[seat].strip().lower()  # the registry's spelling, as resume expects
            seats.append({"kind": "bot", "bot": name, **bot_settings(bot)})
    headers: dict[str, Any] = {
        "clangames": __version__,
        "command": command,
        "game": game.name,
        "title": game.info.title,
        "params": encode(dict(game.params)),
        "seed": seed,
        "date": date,
        "seats": seats,
        "rng": {
            "chance": match.rng.state,
            "seats": [_rng_state(match.policies.get(seat)) for seat in range(game.num_players)],
        },
    }
    if match.is_over:
        state = match.state
        headers["result"] = {
            "scores": list(state.scores()),
            "winners": list(state.winners()),
            "returns": list(state.returns()),
        }
    return headers


def with_headers(
    match: Match, names: Sequence[str], seed: int, date: str, command: str
) -> GameRecord:
    """``match``'s record with its headers filled in."""
    return attrs.evolve(match.record, headers=record_headers(match, names, seed, date, command))


def autosave_directory() -> Path:
    """Where autosaves go by default: ``$XDG_STATE_HOME/clangames/autosave``, else
    ``~/.local/state/clangames/autosave`` (the XDG base directory rules)."""
    state_home = os.environ.get("XDG_STATE_HOME", "")
    base = Path(state_home) if os.path.isabs(state_home) else Path.home() / ".local" / "state"
    return base / "clangames" / "autosave"


def default_autosave_path(directory: Path, game: str, now: datetime.datetime) -> Path:
    """A new file in ``directory``, ``GAME-YYYYmmdd-HHMMSS[-k].json``, created empty here so
    that two games started in the same second never share it (OSError if none can be)."""
    stem = f"{game}-{now:%Y%m%d-%H%M%S}"
    for count in range(1, 1000):
        path = directory / (f"{stem}.json" if count == 1 else f"{stem}-{count}.json")
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"{directory}: every name for {stem} is taken")


def read_record(path: str) -> GameRecord:
    """The record saved in ``path``; CommandFailure if the file cannot be read or is not
    UTF-8, StateDecodeError (a ClanGamesError naming the field) if it is not a record."""
    text = read_text(path, "record")
    try:
        return GameRecord.from_json(text)
    except RecursionError:  # a decoder without a depth guard; never a traceback here
        raise CommandFailure(f"the record {path!r} is nested too deeply to be a record") from None


# -- resuming ----------------------------------------------------------------------------------
@attrs.frozen(slots=True)
class SavedSeat:
    """One seat of a saved game: ``human`` or a bot name, its settings and Rng."""

    name: str
    settings: Mapping[str, Any] = attrs.field(factory=dict)
    rng: Rng | None = None

    def bot(self, fallback: Rng) -> Policy:
        """The seat's bot, with its saved Rng (``fallback`` if none was saved)."""
        rng = self.rng if self.rng is not None else fallback
        if self.name == "ismcts" and self.settings:
            return ISMCTSBot(
                rng,
                iterations=self.settings["iterations"],
                rollout_limit=self.settings["rollout_limit"],
            )
        return make_bot(self.name, rng)


@attrs.frozen(slots=True)
class SavedGame:
    """What ``play --resume`` needs from a record: the game, seed, seats, date and Rngs."""

    record: GameRecord
    game: Game
    seed: int
    date: str
    seats: tuple[SavedSeat, ...]
    chance_rng: Rng

    @property
    def names(self) -> list[str]:
        """Each seat's ``human`` or bot name."""
        return [seat.name for seat in self.seats]


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= low
    if not ok or (high is not None and value > high):
        upper = "" if high is None else f" and <= {high}"
        raise CommandFailure(f"{where}: expected an integer >= {low}{upper}, got {value!r:.60}")
    return int(value)


def _seat(raw: Any, rng: Any, where: str) -> SavedSeat:
    if not isinstance(raw, dict):
        raise CommandFailure(f"{where}: expected an object, got {raw!r:.60}")
    saved_rng = None if rng is None else Rng(_int(rng, f"{where} rng", 0, _MAX_STATE))
    kind = raw.get("kind")
    if kind == HUMAN:
        return SavedSeat(HUMAN)
    if kind != "bot":
        raise CommandFailure(f"{where}.kind: expected 'human' or 'bot', got {kind!r:.60}")
    raw_name = raw.get("bot")
    if not isinstance(raw_name, str) or not raw_name.strip():
        raise CommandFailure(f"{where}.bot: expected a bot name, got {raw_name!r:.60}")
    # The registry's spelling, as the writer leaves it: a hand-edited "ISMCTS" must still
    # get its saved budget rather than the default one.
    name = raw_name.strip().lower()
    if name == HUMAN:
        raise CommandFailure(f"{where}.bot: expected a bot name, got {raw_name!r:.60}")
    settings: dict[str, Any] = {}
    if name == "ismcts":
        settings["iterations"] = _int(raw.get("iterations"), f"{where}.iterations", 1)
        limit = raw.get("rollout_limit")
        settings["rollout_limit"] = (
            None if limit is None else _int(limit, f"{where}.rollout_limit", 0)
        )
    return SavedSeat(name, settings, saved_rng)


def saved_game(record: GameRecord, path: str) -> SavedGame:
    """The saved game in ``record`` (read from ``path``), its headers checked:
    CommandFailure naming the header if the record cannot be continued."""
    where = f"{path}: headers"
    headers = record.headers
    if not headers:
        raise CommandFailure(
            f"{path}: the record has no headers, so its seats are unknown; only records"
            " written by 'clangames play' or 'demo --record' can be resumed"
        )
    try:
        game = record.load_game()
    except ClanGamesError as exc:
        raise CommandFailure(f"{path}: {exc}") from None
    seed = _int(headers.get("seed"), f"{where}.seed", 0, _MAX_STATE)
    date = headers.get("date")
    if not isinstance(date, str):
        raise CommandFailure(f"{where}.date: expected text, got {date!r:.60}")
    seats = headers.get("seats")
    n = game.num_players
    if not isinstance(seats, list) or len(seats) != n:
        raise CommandFailure(f"{where}.seats: expected a list of {n} seats, got {seats!r:.60}")
    rng = headers.get("rng")
    if not isinstance(rng, dict):
        raise CommandFailure(f"{where}.rng: expected an object, got {rng!r:.60}")
    chance = Rng(_int(rng.get("chance"), f"{where}.rng.chance", 0, _MAX_STATE))
    seat_rngs = rng.get("seats")
    if not isinstance(seat_rngs, list) or len(seat_rngs) != n:
        raise CommandFailure(
            f"{where}.rng.seats: expected a list of {n} states, got {seat_rngs!r:.60}"
        )
    parsed = tuple(_seat(raw, seat_rngs[i], f"{where}.seats[{i}]") for i, raw in enumerate(seats))
    return SavedGame(record, game, seed, date, parsed, chance)


def restore_match(saved: SavedGame, path: str) -> Match:
    """A Match in the saved game's position, its chance Rng and bots as they were: the
    record's moves are applied one by one (CommandFailure naming the first that does not
    apply). Every step keeps the Rng it was taken with, as far as undo can reach."""
    game = saved.game
    root = Rng(saved.seed)
    policies: dict[int, Policy] = {}
    for seat, info in enumerate(saved.seats):
        if info.name == HUMAN:
            continue
        try:
            policies[seat] = info.bot(seat_rng(root, seat))
        except ClanGamesError as exc:  # a bot this installation does not have: the file's fault
            raise CommandFailure(f"{path}: headers.seats[{seat}].bot: {exc}") from None
    match = Match(game, root, policies)
    moves = saved.record.moves
    # Only the Rng after the last chance outcome matters: undo never goes back across a
    # chance outcome, so earlier steps' Rngs are never restored.
    last_chance = max((i for i, m in enumerate(moves) if m.player == CHANCE), default=-1)
    if last_chance < 0:
        match.rng = saved.chance_rng
    for i, move in enumerate(moves):
        try:
            match.apply(game.parse_action(move.action), move.player)
        except (ClanGamesError, ValueError) as exc:
            where = f"{path}: record.moves[{i}] ({move.action!r:.60})"
            raise CommandFailure(f"{where}: {exc}") from None
        if i == last_chance:
            match.rng = saved.chance_rng
    return match


def seat_rng(root: Rng, seat: int) -> Rng:
    """The generator seat ``seat``'s bot draws from in a game whose chance draws from
    ``root``: ``root.fork(seat + 1)`` (``simulate`` draws a random seat's moves from it
    without making the bot), the same in every command and saved game."""
    return root.fork(seat + 1)
