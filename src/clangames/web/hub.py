"""The games a server runs, without any web framework: creating them, what each seat may
be sent, accepting or refusing a move, bots and chance moving, persistence and restart.

Secrecy is structural: :meth:`Room.view` builds a seat's payload from
``state.observation(seat)`` (its SVG picture, and its options' labels),
``state.legal_actions(seat)`` and that seat's own narration, and nothing else; a
spectator's from ``public_observation()``. A token names exactly one seat of one game; an
action is accepted only from the seat's own token, for the seat's current decision
(``turn``: a counter that moves on when the seat acts or its options or their labels change,
so a stale or replayed message is refused), and only if legal in the current state.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import attrs

from clangames.bots.ismcts import ISMCTSBot
from clangames.bots.registry import bot_names, make_bot
from clangames.engine.chance import sample_chance
from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.match import Policy
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord, Move
from clangames.engine.registry import game_spec, load
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State
from clangames.rendering.svg import state_picture
from clangames.rendering.text import (
    Renderer,
    legal_list,
    narrate,
    narrate_public,
    renderer_for,
    step_line,
)
from clangames.web.final import Final, FinalError, read_final, write_final
from clangames.web.store import Incident, Store, StoredGame, StoreError, digest

log = logging.getLogger("clangames.web")

MAX_GAMES = 64
"""Games one server plays at once by default (``--max-games``): games that are over, stopped
at the move limit or paused for good do not count."""
KEEP_FINISHED = 16
"""Rooms of games that are no longer played (over, stopped, paused for good) kept in
memory, the most recently used; any other is loaded again from the store when asked for,
so a server that has run thousands of games holds only the ones being played."""
KEEP_REFUSED = 1024
"""Games that could not be set up again remembered (the most recent), so a request for one
is refused at once instead of trying, and logging, again."""
MAX_PARAMS = 16
MAX_TEXT = 256
"""Longest action text or parameter string a client may send."""
MAX_BOT_ITERATIONS = 2000
MAX_BOT_SECONDS = 5.0
"""A bot's budget per decision: ISMCTS iterations and seconds at most."""
MAX_MOVES = 20_000
"""Moves a game may take before the server stops it (every registered game ends far
sooner; this bounds a misbehaving parameter set)."""
OVER = "over"
MOVE_LIMIT = "move limit"
"""How a game ended (:attr:`Room.ended`): played to its end, or stopped at MAX_MOVES."""
TOKEN_BYTES = 24
"""Seat tokens are 192 random bits (URL-safe base64)."""
FALLBACK_STREAM = 1 << 20
"""The Rng stream of a fallback move: apart from every seat's own (``p + 1``)."""


class WebError(ClanGamesError):
    """A request the server refuses: ``status`` is the HTTP status, the message says what
    was wrong and what was expected (sent to the client as is)."""

    def __init__(self, status: int, message: str) -> None:
        # A message quoting the client's own text may hold lone surrogates (JSON's
        # "\ud800"), which no response can encode: they are spelled out instead.
        super().__init__(message.encode("utf-8", "backslashreplace").decode("utf-8"))
        self.status = status


@attrs.frozen(slots=True)
class SeatSpec:
    """Who sits at a seat: a human (with a secret link) or a bot with its budget."""

    kind: str
    bot: str | None = None
    iterations: int | None = None
    seconds: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (the stored game spec)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "bot":
            out["bot"] = self.bot
            if self.iterations is not None:
                out["iterations"] = self.iterations
            if self.seconds is not None:
                out["seconds"] = self.seconds
        return out


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebError(400, f"{where}: expected an integer in {low}..{high}, got {value!r:.60}")
    return value


def parse_seat(value: Any, index: int) -> SeatSpec:
    """A seat from JSON: ``{"kind": "human"}`` or ``{"kind": "bot", "bot": "ismcts",
    "iterations": 200, "seconds": 1.0}`` (the budget optional and bounded)."""
    where = f"seats[{index}]"
    if not isinstance(value, dict):
        raise WebError(400, f'{where}: expected an object like {{"kind": "human"}}')
    kind = value.get("kind")
    if kind == "human":
        if set(value) - {"kind"}:
            raise WebError(400, f"{where}: a human seat takes only 'kind'")
        return SeatSpec("human")
    if kind != "bot":
        raise WebError(400, f"{where}.kind: expected 'human' or 'bot', got {kind!r:.60}")
    unknown = set(value) - {"kind", "bot", "iterations", "seconds"}
    if unknown:
        raise WebError(400, f"{where}: unknown keys {sorted(unknown)!r:.100}")
    bot = value.get("bot", "random")
    if bot not in bot_names():
        raise WebError(400, f"{where}.bot: expected one of {list(bot_names())}, got {bot!r:.60}")
    iterations = value.get("iterations")
    if iterations is not None:
        iterations = _int(iterations, f"{where}.iterations", 1, MAX_BOT_ITERATIONS)
    seconds = value.get("seconds")
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds <= MAX_BOT_SECONDS
    ):
        raise WebError(400, f"{where}.seconds: expected a number in (0, {MAX_BOT_SECONDS}]")
    return SeatSpec("bot", bot, iterations, None if seconds is None else float(seconds))


def make_policy(seat: SeatSpec, rng: Rng) -> Policy:
    """The bot at ``seat``, seeded with ``rng`` and held to its budget."""
    if seat.bot == "ismcts":
        return ISMCTSBot(
            rng,
            iterations=seat.iterations or 200,
            time_limit=seat.seconds or MAX_BOT_SECONDS,
        )
    return make_bot(seat.bot or "random", rng)


@attrs.frozen(slots=True)
class Step:
    """One move worked out in full before anything changes (:meth:`Room.prepare`): the
    state after it, the move as saved, each seat's and the spectators' log line, each
    seat's options, their labels and its decision counter after it, and whether it ends the
    game (``ends``: OVER, MOVE_LIMIT or None). Installing it cannot fail, so a room is never
    left with half a move."""

    state: State
    move: Move
    lines: tuple[str, ...]
    public_line: str
    options: tuple[tuple[Action, ...], ...]
    labels: tuple[tuple[str, ...], ...]
    turns: tuple[int, ...]
    ends: str | None = None


@attrs.frozen(slots=True)
class Halt:
    """Why a game is paused: ``message`` for its players; ``retry`` False when only a
    server started with a version of clangames that can replay the game will do."""

    message: str
    retry: bool = True


def notice(incident: Incident) -> str:
    """What the players are told of an incident: who failed at which move and what the
    server did; never the exception's message (it may quote hidden cards)."""
    if incident.player == CHANCE:
        who_failed = "the server's chance move"
    else:
        who_failed = f"player {incident.player}'s bot ({incident.bot})"
    head = f"Move {incident.move}: {who_failed} failed ({incident.error});"
    if incident.kind == "fallback":
        return f"{head} the server played a random legal move instead."
    return f"{head} the game paused. The server's log has the details."


class Room:
    """One game on the server: its state, seats, moves and what each seat has been told."""

    def __init__(
        self, game_id: str, game: Game, seed: int, seats: tuple[SeatSpec, ...], created: float
    ) -> None:
        self.id = game_id
        self.game = game
        self.seed = seed
        self.seats = seats
        self.created = created
        self.state: State = game.initial_state()
        self.moves: list[Move] = []
        self.renderer: Renderer = renderer_for(game)
        n = game.num_players
        self.logs: list[list[str]] = [[] for _ in range(n)]
        self.public_log: list[str] = []
        self.turns = [0] * n
        self.options: list[tuple[Action, ...]] = [self._options(self.state, p) for p in range(n)]
        self.labels: list[tuple[str, ...]] = [
            self._labels(self.state, p, self.options[p]) for p in range(n)
        ]
        """Each seat's options in words (:meth:`Renderer.option_texts`), worked out once per
        move, not per page."""
        self.incidents: list[Incident] = []
        """The server's own moves that failed, oldest first (shown to every page)."""
        self.halt: Halt | None = None
        """Set while the game is paused by a failure the server cannot work round."""
        self.ended: str | None = None
        """OVER once the game is over, MOVE_LIMIT once stopped at the server's move limit:
        from then on nothing changes and its record is offered."""
        self.tokens: dict[str, int] = {}
        """Seat token digest -> seat: who may act here."""
        self.unsaved: str | None = None
        """The final table of a finished game replayed because the store had none it could
        use, until :meth:`Hub.adopt` saves it (so the next load need not replay)."""

    @property
    def done(self) -> bool:
        """True once the game is no longer played: over, stopped at the move limit, or
        paused for good (its saved moves do not replay). Nothing changes it any more, so
        it does not count toward the server's limit and it may be loaded again at will."""
        return self.ended is not None or (self.halt is not None and not self.halt.retry)

    # -- what a seat may see ------------------------------------------------------------------
    @staticmethod
    def _options(state: State, seat: int) -> tuple[Action, ...]:
        if state.is_terminal or seat not in state.to_move:
            return ()
        return state.legal_actions(seat)

    def _labels(self, state: State, seat: int, options: tuple[Action, ...]) -> tuple[str, ...]:
        """``options`` as listed to ``seat``: each action's text and what it is, from the
        seat's own observation only (as the terminal lists them)."""
        if not options:
            return ()
        labels = tuple(self.renderer.option_texts(state.observation(seat), options))
        if len(labels) != len(options):
            raise ValueError(f"{len(labels)} labels for {len(options)} options of seat {seat}")
        return labels

    def result(self) -> dict[str, Any] | None:
        """Scores and winners once the game is over (public then), else None."""
        if not self.state.is_terminal:
            return None
        return {"scores": list(self.state.scores()), "winners": list(self.state.winners())}

    def view(self, seat: int | None) -> dict[str, Any]:
        """The whole payload sent to ``seat`` (None: a spectator)."""
        state = self.state
        stopped = self.halt is not None and not self.halt.retry
        options = () if seat is None or stopped else self.options[seat]
        labels = () if not options or seat is None else self.labels[seat]
        return {
            "type": "view",
            "game": self.id,
            "title": self.game.info.title,
            "seat": seat,
            "moves": len(self.moves),
            "turn": None if seat is None else self.turns[seat],
            "to_move": [p for p in state.to_move if p != CHANCE],
            "svg": state_picture(state, seat),
            "prompt": state.prompt() if options else "",
            "legal": [state.action_text(a) for a in options],
            "labels": list(labels),
            "log": list(self.public_log if seat is None else self.logs[seat]),
            "result": self.result(),
            "notices": [notice(i) for i in self.incidents],
            "halted": None if self.halt is None else attrs.asdict(self.halt),
            "record": None if self.ended is None else f"/api/games/{self.id}/record",
        }

    # -- moving -------------------------------------------------------------------------------
    def apply(self, action: Action, player: int) -> None:
        """Apply one move (already checked legal) and tell each seat about it."""
        self.install(self.prepare(action, player))

    def prepare(self, action: Action, player: int) -> Step:
        """Work out one move (already checked legal) without changing anything: this is
        where the rules, the narration and the pictures' options may fail."""
        before = self.state
        after = before.apply(action, player)
        index = len(self.moves)
        n = self.game.num_players
        lines = tuple(
            step_line(index, player, narrate(self.renderer, before, action, player, after, v))
            for v in range(n)
        )
        public = narrate_public(self.renderer, before, action, player, after)
        options = tuple(self._options(after, seat) for seat in range(n))
        labels = tuple(self._labels(after, seat, options[seat]) for seat in range(n))
        turns = tuple(
            # An option that now means something else (its label changed) is a new
            # decision too: a click on the old page must not choose it.
            turn + 1
            if seat == player
            or options[seat] != self.options[seat]
            or labels[seat] != self.labels[seat]
            else turn
            for seat, turn in enumerate(self.turns)
        )
        ends = None
        if after.is_terminal:
            ends = OVER
        elif index + 1 >= MAX_MOVES:
            # Without this the bots would stop here and the game would wait for ever.
            ends = MOVE_LIMIT
        return Step(
            after,
            Move(player, before.action_text(action)),
            lines,
            step_line(index, player, public),
            options,
            labels,
            turns,
            ends,
        )

    def install(self, step: Step) -> None:
        """Make a prepared move the room's own (plain assignments: it cannot fail)."""
        self.state = step.state
        self.moves.append(step.move)
        for log_lines, line in zip(self.logs, step.lines, strict=True):
            log_lines.append(line)
        self.public_log.append(step.public_line)
        self.options = list(step.options)
        self.labels = list(step.labels)
        self.turns = list(step.turns)
        if step.ends == MOVE_LIMIT:
            self.stop_at_limit()
        elif step.ends is not None:
            self.ended = step.ends

    def final(self, step: Step | None = None) -> Final:
        """What the room holds once it is finished (after ``step`` if given, changing
        nothing): saved so that loading the game again need not replay it."""
        if step is None:
            return Final(
                self.state,
                tuple(self.turns),
                tuple(tuple(lines) for lines in self.logs),
                tuple(self.public_log),
            )
        return Final(
            step.state,
            step.turns,
            tuple((*lines, line) for lines, line in zip(self.logs, step.lines, strict=True)),
            (*self.public_log, step.public_line),
        )

    def resume(self, moves: tuple[tuple[int, str], ...], final: Final) -> None:
        """Take a saved final table (checked against ``moves``) as the room's, in place
        of replaying ``moves``: the same state, logs, counters and options."""
        state = final.state
        n = self.game.num_players
        options = [self._options(state, p) for p in range(n)]
        labels = [self._labels(state, p, options[p]) for p in range(n)]
        self.state = state
        self.moves = [Move(player, action) for player, action in moves]
        self.logs = [list(lines) for lines in final.logs]
        self.public_log = list(final.public_log)
        self.turns = list(final.turns)
        self.options = options
        self.labels = labels

    def stop_at_limit(self) -> None:
        """Stop the game for good at the server's move limit: it offers its record (with
        a ``stopped`` header) like a game that is over."""
        self.ended = MOVE_LIMIT
        self.halt = Halt(
            f"This game stopped at the server's limit of {len(self.moves)} moves without"
            " ending; its record can be downloaded, and is kept in the server's database.",
            retry=False,
        )

    def find(self, player: int, text: str) -> Action | None:
        """The legal action of ``player`` whose text is ``text`` (None if there is none)."""
        state = self.state
        if player == CHANCE:
            candidates: tuple[Action, ...] = tuple(a for a, _ in state.chance_weights())
        else:
            candidates = state.legal_actions(player)
        for action in candidates:
            if state.action_text(action) == text:
                return action
        return None

    def refusal(self, player: int, text: str) -> str:
        """Why ``text`` is not a move of ``player`` now (no legal action of theirs is
        written so): if it is an action of the game, the seat's own explanation (it tells
        only what the seat may know), else that it is no legal action; then the seat's
        legal actions."""
        state = self.state
        legal = legal_list(state, self.options[player])
        try:
            action = state.parse_action(text)
        except ClanGamesError:
            return f"{text!r:.80} is not a legal action for seat {player}; legal: {legal}"
        if action in self.options[player]:
            # The game reads it (case and spacing aside), but a move is taken only as the
            # view lists it: say how it is written.
            written = state.action_text(action)
            return f"{text!r:.80} is not written as listed: send {written!r}; legal: {legal}"
        return f"{state.explain_illegal(action, player)}; legal: {legal}"

    def automatic(self) -> tuple[int, Callable[[State], Action]] | None:
        """The next move the server makes itself: a chance outcome, or a bot's decision
        (a bot seat that is to move), as (player, chooser); None when only humans are to
        move, the game is over or paused. Choosers are seeded from the game's seed and the
        move index, so a restarted server makes the same choices."""
        state = self.state
        if self.halt is not None or state.is_terminal or len(self.moves) >= MAX_MOVES:
            return None
        index = len(self.moves)
        rng = Rng(self.seed).fork(index + 1)
        if state.is_chance:
            return CHANCE, lambda s: sample_chance(s, rng)[0]
        for p in state.to_move:
            if self.seats[p].kind == "bot":
                policy = make_policy(self.seats[p], rng.fork(p + 1))
                return p, lambda s, pol=policy, who=p: pol.act(s, who)
        return None

    def fallback(self, player: int) -> Action:
        """A random legal action of ``player``, played when its bot failed: seeded from the
        game's seed and the move index, apart from every bot's own stream."""
        legal = self.state.legal_actions(player)
        rng = Rng(self.seed).fork(len(self.moves) + 1).fork(FALLBACK_STREAM)
        return legal[rng.below(len(legal))[0]]


def full(playing: int, limit: int) -> str:
    """The refusal of a new game when ``playing`` games are being played and the server
    plays at most ``limit`` at once: both numbers, since a server started again resumes
    every game being played, which may be more than its limit (saying only the limit
    would then miscount the games), and how many must end before a new one can start."""
    games = "1 game" if playing == 1 else f"{playing} games"
    if playing > limit:
        now = f"{games}, more than its limit of {limit} (it resumed them all when it started)"
    else:
        now = f"{games}, its limit"
    ending = playing - limit + 1
    if ending > 1:
        wait = f"{ending} of them have"
    else:
        wait = "it has" if playing == 1 else "one of them has"
    return f"this server is full: it is playing {now}; a new game can start when {wait} ended"


def unservable(game_id: str) -> WebError:
    """The refusal of a saved game this server cannot set up again (its game or a
    parameter gone, a row it cannot read): the same for every request."""
    return WebError(
        404,
        f"game {game_id[:40]!r} is saved on this server but cannot be set up again by this"
        " version of clangames, so it is not served (the server's log says why; its moves"
        " are kept)",
    )


def final_text(
    room: Room, moves: tuple[tuple[int, str], ...], step: Step | None = None
) -> str | None:
    """The final table of ``room`` (after ``step`` if given) as saved, for ``moves``; None
    if it cannot be written (logged: the game is then loaded by replaying its moves, as
    before finals were saved, rather than not ending)."""
    try:
        return write_final(room.final(step), moves)
    except Exception:
        log.exception("game %s: its final table could not be written", room.id)
        return None


class Hub:
    """Every game of one server, backed by a :class:`Store`.

    ``rooms`` holds the games being played: what ``max_games`` counts, restored on start.
    A game leaves it when it ends (or stops for good) for ``finished``, which keeps the
    ``keep_finished`` most recently used; an older one is loaded again from the store
    (replayed) when it is asked for, so memory does not grow with the games a server has
    run, and nothing stored is ever deleted."""

    def __init__(
        self, store: Store, max_games: int = MAX_GAMES, keep_finished: int = KEEP_FINISHED
    ) -> None:
        self.store = store
        self.max_games = max_games
        self.keep_finished = keep_finished
        self.rooms: dict[str, Room] = {}
        self.finished: OrderedDict[str, Room] = OrderedDict()
        """Games no longer played, the least recently used first."""
        self.refused: OrderedDict[str, WebError] = OrderedDict()
        """Games that could not be set up again, and the refusal that answers them, the
        least recently refused first (this process only: a server started again tries
        once more)."""
        # Games saved as ended are not replayed: a server that has run thousands of games
        # starts as fast as one that runs only its current ones.
        for stored in store.games(playing=True):
            try:
                room = self.restore(stored)
            except Exception:
                # One game this version cannot set up (its game or a parameter gone, an
                # unreadable row) must not keep the others from being served; its rows
                # stay in the database as they are.
                log.exception("game %s cannot be set up again; it is not served", stored.id)
                self.refuse(stored.id, unservable(stored.id))
                continue
            if not room.done:
                self.rooms[room.id] = room
                continue
            if room.ended is not None:
                # Ended before the database kept that (an older version): saved now, so
                # the next start skips it, with its final table, so a load skips the
                # replay.
                moves = tuple((m.player, m.action) for m in room.moves)
                try:
                    store.mark_ended(room.id, len(moves), room.ended, final_text(room, moves))
                except StoreError:
                    log.exception("game %s: its end could not be saved", room.id)
            self._keep_finished(room)
        if len(self.rooms) > max_games:
            # Every game being played is resumed (its players hold links to it); new ones
            # wait until enough of these end.
            log.warning(
                "%d games are being played, more than the limit of %d: new games are"
                " refused until enough of them end",
                len(self.rooms),
                max_games,
            )

    def restore(self, stored: StoredGame) -> Room:
        """A stored game set up again (raises if it cannot be): a finished one from its
        saved final table if the store has one that can be trusted, else (and every game
        being played) by replaying its moves. Touches nothing of the hub's, so it may run
        in another thread."""
        room = self._room(stored.id, stored.spec, stored.created)
        room.tokens = dict(stored.tokens)
        room.incidents = list(stored.incidents)
        if self._resume(room, stored):
            return room
        self._replay(room, stored.moves)
        if stored.ended == MOVE_LIMIT and not room.done:
            # Stopped at an older, lower limit: it stays stopped (its record says so).
            room.stop_at_limit()
        if stored.ended is not None and (room.ended, len(room.moves)) == (
            stored.ended,
            len(stored.moves),
        ):
            # Worked out here, where it may take long; saved by adopt, on the hub's side.
            room.unsaved = final_text(room, stored.moves)
        return room

    @staticmethod
    def _resume(room: Room, stored: StoredGame) -> bool:
        """Set a finished game's room up from its saved final table; False (and the room
        untouched) if it has none or one that cannot be trusted (logged), to be replayed."""
        if stored.final is None or stored.ended not in (OVER, MOVE_LIMIT):
            return False
        over = stored.ended == OVER
        try:
            final = read_final(stored.final, room.game, stored.moves, over)
        except FinalError as exc:
            log.warning(
                "game %s: its saved final table is not used (%s); its moves are replayed",
                room.id,
                exc,
            )
            return False
        room.resume(stored.moves, final)
        if over:
            room.ended = OVER
        else:
            room.stop_at_limit()
        return True

    @staticmethod
    def _replay(room: Room, moves: tuple[tuple[int, str], ...]) -> None:
        """Play the saved moves again; a move that no longer applies (or fails) pauses
        the game there for good, its saved moves untouched, its players told why."""
        for index, (player, text) in enumerate(moves):
            try:
                action = room.find(player, text)
                if action is None:
                    raise WebError(500, f"saved move {index} ({text!r:.80}) is not legal")
                room.apply(action, player)
            except Exception:
                log.exception("game %s: saved move %d does not replay", room.id, index)
                room.halt = Halt(
                    f"This game cannot go on: its saved move {index} does not replay with"
                    " this version of clangames. Its record is kept in the server's"
                    " database; a server that can replay it resumes it.",
                    retry=False,
                )
                return

    def _room(self, game_id: str, spec: dict[str, Any], created: float) -> Room:
        game = load(spec["game"], **spec["params"])
        seats = tuple(parse_seat(s, i) for i, s in enumerate(spec["seats"]))
        return Room(game_id, game, int(spec["seed"]), seats, created)

    def create(self, body: Any) -> tuple[Room, dict[int, str]]:
        """A new game from a JSON request ``{"game", "players", "params", "seed", "seats"}``;
        returns the room and each human seat's token (shown once, stored only hashed)."""
        if len(self.rooms) >= self.max_games:
            raise WebError(503, full(len(self.rooms), self.max_games))
        if not isinstance(body, dict):
            raise WebError(400, "expected a JSON object with 'game' and 'seats'")
        unknown = set(body) - {"game", "players", "params", "seed", "seats"}
        if unknown:
            raise WebError(400, f"unknown keys {sorted(unknown)!r:.100}")
        name = body.get("game")
        if not isinstance(name, str) or len(name) > MAX_TEXT:
            raise WebError(400, "'game': expected a game name such as 'koa_kingmaker'")
        try:
            spec = game_spec(name)
        except ClanGamesError as exc:
            raise WebError(400, str(exc)) from exc
        params = body.get("params", {})
        if not isinstance(params, dict) or len(params) > MAX_PARAMS:
            raise WebError(400, f"'params': expected an object of at most {MAX_PARAMS} entries")
        declared = {p.name: p for p in spec.parameters}
        for key, value in params.items():
            if not isinstance(value, str | int | float | bool) or (
                isinstance(value, str) and len(value) > MAX_TEXT
            ):
                raise WebError(400, f"params.{key:.40}: expected a short string or a number")
            param = declared.get(key)
            if key == "players" or param is None:
                raise WebError(
                    400,
                    f"params.{key:.40}: not a parameter of {spec.name}"
                    f" (players go in 'players'); known: {sorted(declared)}",
                )
            if param.kind is str and param.choices is None:
                # A free text parameter names a data file (a board, the cards): the
                # server's disk is not offered to its clients.
                raise WebError(400, f"params.{key}: files of the server are not offered")
        players = body.get("players", spec.min_players)
        players = _int(players, "'players'", spec.min_players, spec.max_players)
        seed = body.get("seed", secrets.randbelow(1 << 32))
        seed = _int(seed, "'seed'", 0, (1 << 63) - 1)
        raw_seats = body.get("seats")
        if not isinstance(raw_seats, list) or len(raw_seats) != players:
            raise WebError(400, f"'seats': expected a list of {players} seats (one per player)")
        seats = [parse_seat(s, i) for i, s in enumerate(raw_seats)]
        try:
            game = load(spec.name, players=players, **params)
        except ClanGamesError as exc:
            raise WebError(400, str(exc)) from exc
        game_id = secrets.token_hex(8)
        room_spec = {
            "game": game.name,
            "params": dict(game.params),
            "seed": seed,
            "seats": [s.to_json() for s in seats],
        }
        tokens = {
            secrets.token_urlsafe(TOKEN_BYTES): seat
            for seat, s in enumerate(seats)
            if s.kind == "human"
        }
        created = time.time()
        # The room first: a game that cannot be set up is never saved half-made.
        room = self._room(game_id, room_spec, created)
        room.tokens = {digest(token): seat for token, seat in tokens.items()}
        try:
            self.store.add_game(game_id, created, room_spec, tokens)
        except StoreError as exc:
            log.exception("game %s could not be saved", game_id)
            raise WebError(
                503, "the server could not save the new game (its database failed): try again"
            ) from exc
        # Counted above and added here with no await in between: requests served at the
        # same moment cannot both take the last place.
        self.rooms[game_id] = room
        return room, {seat: token for token, seat in tokens.items()}

    def room(self, game_id: Any) -> Room:
        """The game ``game_id``, loaded again from the store if it is no longer played and
        not in memory (404 if there is no such game, or if it cannot be set up)."""
        found = self.in_memory(game_id)
        if found is not None:
            return found
        stored = self.stored(game_id)
        try:
            room = self.load(stored)
        except WebError as exc:
            self.refuse(stored.id, exc)
            raise
        return self.adopt(room)

    def in_memory(self, game_id: Any) -> Room | None:
        """The game ``game_id`` if it is being played or among the finished ones kept."""
        if not isinstance(game_id, str):
            return None
        room = self.rooms.get(game_id)
        if room is None:
            room = self.finished.get(game_id)
            if room is not None:
                self.finished.move_to_end(game_id)
        return room

    def stored(self, game_id: Any) -> StoredGame:
        """The saved game ``game_id`` (404 if there is none, 503 if the store fails, and
        the same refusal again, at once, for a game that could not be set up)."""
        refused = self.refused.get(game_id) if isinstance(game_id, str) else None
        if refused is not None:
            self.refused.move_to_end(game_id)
            raise WebError(refused.status, str(refused))
        try:
            stored = self.store.game(game_id) if isinstance(game_id, str) else None
        except StoreError as exc:
            log.exception("game %s could not be read", game_id)
            raise WebError(
                503, "the server could not read this game (its database failed): try again"
            ) from exc
        if stored is None:
            raise WebError(404, f"no game {str(game_id)[:40]!r} on this server")
        return stored

    def load(self, stored: StoredGame) -> Room:
        """A game no longer played, set up again from the store (a 404 saying it cannot
        be served if it cannot be set up, as on start: the caller remembers it with
        :meth:`refuse`). Touches nothing of the hub's, so it may run in another thread."""
        try:
            room = self.restore(stored)
        except Exception as exc:
            log.exception("game %s cannot be set up again; it is not served", stored.id)
            raise unservable(stored.id) from exc
        if not room.done:
            # Every game being played is in memory from its creation or the server's
            # start: one that is not was not set up on start, and is not played here.
            log.error("game %s is not over but was not resumed on start; not served", room.id)
            raise unservable(stored.id)
        return room

    def refuse(self, game_id: str, error: WebError) -> None:
        """Answer every later request for ``game_id`` with ``error``, without setting the
        game up again (nor logging why again): it could not be set up. Only its status
        and message are kept (not the request's frames its traceback holds)."""
        self.refused[game_id] = WebError(error.status, str(error))
        self.refused.move_to_end(game_id)
        while len(self.refused) > KEEP_REFUSED:
            self.refused.popitem(last=False)

    def adopt(self, room: Room) -> Room:
        """Keep a room :meth:`load` made among the finished ones, saving its final table
        if it was replayed for want of one; if the game got into memory meanwhile, the
        room already there (a game has one room)."""
        found = self.in_memory(room.id)
        if found is not None:
            return found
        if room.unsaved is not None:
            try:
                self.store.save_final(room.id, room.unsaved)
            except StoreError:
                # Only the next load's speed is at stake: it replays the moves again.
                log.exception("game %s: its final table could not be saved", room.id)
            room.unsaved = None
        return self._keep_finished(room)

    def _keep_finished(self, room: Room) -> Room:
        self.finished[room.id] = room
        self.finished.move_to_end(room.id)
        while len(self.finished) > self.keep_finished:
            self.finished.popitem(last=False)
        return room

    def find(self, game: str | Room) -> Room:
        """``game`` itself if it is a room, else the room of that id (see :meth:`room`).
        The server passes the room it looked up, so a finished game's room it holds is not
        looked up again (it may have left memory meanwhile: it never changes)."""
        return game if isinstance(game, Room) else self.room(game)

    def seat_of(self, game: str | Room, token: Any) -> int:
        """The seat ``token`` holds in ``game`` (its id or its room; 403 if none: a token
        acts only for its own seat of its own game)."""
        seats = self.find(game).tokens
        found = seats.get(digest(token)) if isinstance(token, str) else None
        if found is None:
            raise WebError(403, "this link's token does not hold a seat in this game")
        return found

    def act(self, game: str | Room, message: Any) -> Room:
        """Accept one human move ``{"token", "turn", "action"[, "seat"]}`` in ``game`` (its
        id or its room) and save it, or refuse it with a WebError saying why (nothing
        changes then)."""
        if not isinstance(message, dict):
            raise WebError(400, "expected a JSON object with 'token', 'turn' and 'action'")
        room = self.find(game)
        seat = self.seat_of(room, message.get("token"))
        claimed = message.get("seat", seat)
        if claimed != seat:
            raise WebError(403, f"this token holds seat {seat}, not seat {claimed!r:.20}")
        text = message.get("action")
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise WebError(400, f"'action': expected an action's text of at most {MAX_TEXT} chars")
        turn = message.get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise WebError(
                400, f"'turn': expected the decision number of the view, got {turn!r:.20}"
            )
        if room.state.is_terminal:
            raise WebError(409, "the game is over")
        if room.halt is not None and not room.halt.retry:
            raise WebError(409, room.halt.message)
        if turn != room.turns[seat]:
            raise WebError(
                409,
                f"stale move: it answers decision {turn!r:.20} but seat {seat} is now at"
                f" decision {room.turns[seat]} (the table has changed; look again)",
            )
        if not room.options[seat]:
            raise WebError(409, f"seat {seat} has nothing to decide now")
        action = room.find(seat, text)
        if action is None:
            raise WebError(422, room.refusal(seat, text))
        try:
            self.commit(room, action, seat)
        except StoreError as exc:
            log.exception("game %s: a move could not be saved", room.id)
            raise WebError(
                503,
                "the server could not save this move (its database failed); nothing changed:"
                " try again",
            ) from exc
        return room

    def commit(
        self, room: Room, action: Action, player: int, incident: Incident | None = None
    ) -> None:
        """Work the move out, save it (with the incident it stands in for, if any), then
        make it the room's (the caller broadcasts after this returns). If anything fails,
        neither the database nor the room has changed."""
        step = room.prepare(action, player)
        final = None
        if step.ends is not None:
            moves = (*((m.player, m.action) for m in room.moves), (player, step.move.action))
            final = final_text(room, moves, step)
        self.store.add_move(
            room.id, len(room.moves), player, step.move.action, incident, step.ends, final
        )
        room.install(step)
        if incident is not None:
            room.incidents.append(incident)
        if room.done:
            # Its place is free for a new game, and it now waits among the finished ones.
            self.rooms.pop(room.id, None)
            self._keep_finished(room)

    def fall_back(self, room: Room, player: int, error: str, detail: str) -> None:
        """``player``'s bot failed (``error`` safe to show, ``detail`` for the log and the
        database): play a random legal move for it, saved with the incident."""
        seat = room.seats[player]
        incident = Incident(
            len(room.moves), player, "fallback", seat.bot, error, detail, time.time()
        )
        self.commit(room, room.fallback(player), player, incident)

    def halt(self, room: Room, player: int, error: str, detail: str) -> None:
        """The server's own move failed and cannot be worked round: pause the game, saying
        why, and record it (unless the same failure at the same move is recorded already;
        a database that fails too is only logged)."""
        bot = None if player == CHANCE else room.seats[player].bot
        incident = Incident(len(room.moves), player, "halt", bot, error, detail, time.time())
        last = room.incidents[-1] if room.incidents else None
        if last is None or (last.kind, last.move, last.player, last.error) != (
            "halt",
            incident.move,
            player,
            error,
        ):
            room.incidents.append(incident)
            try:
                self.store.add_incident(room.id, incident)
            except StoreError:
                log.exception("game %s: the incident could not be saved", room.id)
        room.halt = Halt(
            notice(incident) + " A player may ask the server to try again (Retry); a"
            " restarted server tries again too."
        )

    def retry(self, game: str | Room, message: Any) -> Room:
        """A seat asks the server to try its own move again after a pause of ``game`` (its
        id or its room; ``{"token"}``); refused if the game is not paused or cannot go on."""
        if not isinstance(message, dict):
            raise WebError(400, "expected a JSON object with 'token'")
        room = self.find(game)
        self.seat_of(room, message.get("token"))
        if room.halt is None:
            raise WebError(409, "the game is not paused: there is nothing to try again")
        if not room.halt.retry:
            raise WebError(409, room.halt.message)
        room.halt = None
        return room

    def record(self, game: str | Room) -> GameRecord:
        """The record of a game that is over or stopped at the move limit (then with the
        header ``stopped``: "move limit", and a null ``result``); 409 while it is played,
        or if it is paused for good because its saved moves do not replay (its record
        would end at the move that failed, short of what the database holds)."""
        room = self.find(game)
        if room.ended is None:
            if room.halt is not None and not room.halt.retry:
                raise WebError(409, room.halt.message)
            raise WebError(409, "the record is offered once the game is over")
        headers: dict[str, Any] = {
            "seed": room.seed,
            "seats": [s.to_json() for s in room.seats],
            "event": "clangames serve",
            "result": room.result(),
        }
        if room.ended == MOVE_LIMIT:
            headers["stopped"] = MOVE_LIMIT
        if room.incidents:
            headers["incidents"] = [
                {"move": i.move, "seat": i.player, "kind": i.kind, "bot": i.bot, "error": i.error}
                for i in room.incidents
            ]
        return GameRecord(room.game.name, dict(room.game.params), tuple(room.moves), headers)
