"""``clangames play``: play a game in the terminal against bots or with friends (hot seat).

``clangames play kings-kilt --players 3 --seats human,random,ismcts --seed 7``

A human seat sees only its own observation; with two or more human seats a "pass to player
k" screen (which also clears the scrollback) hides the previous seat's secrets before the
next one looks. The screen fits the terminal (:mod:`clangames.rendering.screen`): a summary
board and a folded option list on a small one. Options are chosen by number or by their text
form, or narrowed by typed words; ``more``, ``options``, ``explain N`` (``? N``), ``rules``,
``undo``, ``save FILE``, ``board``, ``help`` and ``quit`` are commands, and the end screen
explains the scores (:mod:`clangames.rendering.explain`). Steps are narrated to each human
seat only in a form it may know (:func:`clangames.rendering.text.narrate`). Everything
random comes from ``--seed``: the match samples chance with ``Rng(seed)`` and the bot at seat
``i`` gets ``Rng(seed).fork(i + 1)`` (as ``clangames demo`` does).

After every move the record, with headers holding the seats and the generators' states, is
written to an autosave file (atomically), so ``clangames play --resume FILE`` continues a
game that was interrupted, killed or saved, exactly as it would have gone on.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

import clangames.bots.ismcts  # noqa: F401  (registers the "ismcts" bot)
from clangames.bots import make_bot
from clangames.bots.ismcts import ISMCTSBot
from clangames.cli.errors import CommandFailure, Interrupted, UsageError
from clangames.cli.files import (
    atomic_write,
    check_directory_writable,
    check_writable,
    input_stream,
    os_reason,
)
from clangames.cli.params import parse_params, seed_type
from clangames.cli.prose import fold_line
from clangames.cli.saving import (
    HUMAN,
    autosave_directory,
    default_autosave_path,
    read_record,
    restore_match,
    saved_game,
    seat_rng,
    utc_now,
    with_headers,
)
from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.match import Match, Policy, Step
from clangames.engine.phases import CHANCE
from clangames.engine.record import GameRecord
from clangames.engine.registry import game_spec, load
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State
from clangames.rendering.explain import end_report, explain_action, rules_text
from clangames.rendering.plain import text_of
from clangames.rendering.screen import (
    MIN_OPTION_ROWS,
    board_fits,
    fold,
    matching,
    option_rows,
)
from clangames.rendering.text import (
    Renderer,
    legal_list,
    narrate,
    print_reveal,
    renderer_for,
    results,
    seat_view,
    step_line,
    who,
)

_MAX_CHOICE_DIGITS = 9
"""Longer numbers are not list entries (and ``int`` of a huge digit string is refused)."""

HELP = """Commands:
  NUMBER       take the option with that number in the list
  ACTION TEXT  take the option written out (e.g. 'pass'); a unique beginning
               is enough
  WORDS        list only the options containing those words ({example})
  more         list the next options of a long list
  options      list all the options again from the first
  explain N    what option N does and why it is legal now (also: ? N)
  rules        the game's rules in brief
  undo         take back your last decision (and the bots' moves since); not
               past something it may have shown you, such as a card turned up
  save FILE    write the game record so far (JSON) to FILE
  board        draw the whole table (a small screen may show a summary)
  help         this list
  quit         stop the game"""
"""The commands, in lines of at most 79 characters: they fit the smallest screen
(:func:`help_text` fills in an example of the game being played)."""


def help_text(options: Sequence[str]) -> str:
    """:data:`HELP` with an example of filtering taken from ``options`` (the seat's own
    option texts): the first two words of the first, or one if two do not fit the line.
    A game's own words teach more than another game's ('betray 2.1' in every game)."""
    words = options[0].split() if options else []
    for count in (2, 1):
        example = repr(" ".join(words[:count])) if words else "'pass'"
        text = HELP.format(example=example)
        if max(map(len, text.splitlines())) < 80:
            return text
    return HELP.format(example="'pass'")


_NEVER_PAST = ", and undo never goes back past it"

CLEAR_SCROLLBACK = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, clear the scrollback (xterm's ED 3): the next player
cannot scroll up to the previous player's secrets."""


def reflowed(text: str) -> str:
    """``text`` with each paragraph (lines between blank lines) joined into one line, to be
    folded to the screen's width: a text written folded at another width."""
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
    return "\n\n".join(paragraphs)


def shown(line: str) -> str:
    """``line`` quoted as typed, cut to about 60 characters (a cut one ends with ...)."""
    quoted = repr(line)
    return quoted if len(quoted) <= 60 else quoted[:56] + "...'"


class PlayError(UsageError):
    """A ``play`` or ``simulate`` command that cannot run as asked (bad seat list, say)."""


def seat_names(text: str, players: int, default_rest: str | None = None) -> list[str]:
    """The comma-separated seat list ``text``: one name for every seat or one per seat
    (with ``default_rest``, a shorter list is completed with that name)."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if len(names) == 1 and default_rest is None:
        names = names * players
    if default_rest is not None and len(names) < players:
        names += [default_rest] * (players - len(names))
    if len(names) != players:
        raise PlayError(f"--seats names {len(names)} seats for {players} players")
    return names


def make_seat_bot(
    name: str, rng: Rng, iterations: int | None = None, rollout_limit: int | None = None
) -> Policy:
    """A bot for a seat: ``ismcts`` with the given budget, or any registered bot by name."""
    if name == "ismcts" and (iterations is not None or rollout_limit is not None):
        return ISMCTSBot(
            rng,
            iterations=200 if iterations is None else iterations,
            rollout_limit=40 if rollout_limit is None else rollout_limit,
        )
    return make_bot(name, rng)


def seat_policies(
    names: Sequence[str],
    seed: int | Rng,
    iterations: int | None = None,
    rollout_limit: int | None = None,
) -> dict[int, Policy]:
    """A policy for each non-human seat; seat ``i`` is seeded with :func:`seat_rng`."""
    root = seed if isinstance(seed, Rng) else Rng(seed)
    return {
        seat: make_seat_bot(name, seat_rng(root, seat), iterations, rollout_limit)
        for seat, name in enumerate(names)
        if name != HUMAN
    }


def load_game(name: str, players: int | None, params: Sequence[str]) -> Game:
    """The game ``name`` with ``--players`` and ``--param key=value`` words applied: the
    process's loaded game (``load``), so commands run one after another in a process share
    its tables and caches rather than building and filling them again."""
    spec = game_spec(name)
    return load(spec.name, **parse_params(spec, params, players))


def add_common_game_arguments(parser: argparse.ArgumentParser) -> None:
    """GAME, --players, --param and --seed, shared by ``play`` and ``simulate``."""
    add_game_arguments(parser, "a game name, e.g. kings-kilt")


def positive_int(text: str) -> int:
    """argparse type for a count that must be at least 1 (iterations, games, jobs)."""
    return _int_at_least(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type for a limit that may be 0 (``--rollout-limit``)."""
    return _int_at_least(text, 0)


def _int_at_least(text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r:.40}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {value}")
    return value


def add_game_arguments(
    parser: argparse.ArgumentParser, game_help: str, nargs: str | None = None
) -> None:
    """GAME, --players, --param, --seed and the ISMCTS budget (the seed's default is None,
    meaning 0, so that ``play --resume`` can tell an explicit seed from none)."""
    if nargs is None:
        parser.add_argument("game", metavar="GAME", help=game_help)
    else:
        parser.add_argument("game", metavar="GAME", nargs=nargs, default=None, help=game_help)
    parser.add_argument("--players", type=int, default=None, help="number of players")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game parameter (repeatable); see 'clangames list'",
    )
    parser.add_argument("--seed", type=seed_type, default=None, help="random seed (default 0)")
    parser.add_argument(
        "--iterations",
        type=positive_int,
        default=None,
        help="ISMCTS playouts per decision for 'ismcts' seats, >= 1 (default 200)",
    )
    parser.add_argument(
        "--rollout-limit",
        type=non_negative_int,
        default=None,
        help="ISMCTS random rollouts stop after this many steps, >= 0 (default 40)",
    )


class _Quit(Exception):
    """The player typed quit, or the input ran out."""

    def __init__(self, eof: bool) -> None:
        super().__init__("eof" if eof else "quit")
        self.eof = eof


_CHECKPOINTS = 4
"""Earlier worlds kept per counterfactual option still being followed, besides the newest:
enough to rewind it across a run of undos without replaying it from its start."""


_WORLDS_KEPT = 10_000
"""At most this many counterfactual worlds (a few kB each) are kept between commands: past
it the checkpoints go, then the oldest steps' worlds, to be replayed again if asked for. A
bundled game keeps a few thousand at most; a game of tens of thousands of moves with hidden
steps never shown would otherwise keep worlds in proportion to its length."""


def _keeps(position: int, head: int) -> bool:
    """True if a world at ``position`` is kept as a checkpoint when the newest one stands at
    ``head``: a world ``d`` steps back stays when ``position`` is a multiple of the largest
    power of two at most ``d``, so the checkpoints thin out going back (about two per
    doubling of the distance) and a rewind by ``d`` steps replays fewer than ``2 * d``."""
    back = head - position
    if back <= 0:
        return back == 0
    return position & ((1 << (back.bit_length() - 1)) - 1) == 0


class _Told:
    """What one step's other options have told one viewer so far: per option, the step by
    which the history told it apart (None while it has not), and, while it has not, the
    counterfactual world followed along the history (checkpoints, the newest last; none
    before the option is first looked at)."""

    __slots__ = ("answer", "at", "options", "version", "worlds")

    def __init__(self, options: list[Action]) -> None:
        self.options = options
        self.at: list[int | None] = [None] * len(options)
        self.worlds: dict[int, list[tuple[int, State]]] = {}
        """By option, only for those being followed (a told one needs none)."""
        self.answer: int | None = None
        self.version = -1
        """The history version ``answer`` was worked out for (-1: none)."""

    def truncate(self, kept: int) -> None:
        """Forget what depended on steps from ``kept`` on (they were taken back or differ)."""
        for o, told in enumerate(self.at):
            if told is not None:
                if told > kept:  # told by a step now gone: follow the option again
                    self.at[o] = None
            else:
                worlds = self.worlds.get(o)
                if worlds and worlds[-1][0] > kept:
                    self.worlds[o] = [w for w in worlds if w[0] <= kept]


class _Hindsight:
    """What a game's history has told each seat about its steps, kept across a session's
    commands: one undo limit asks it of every decision it walks over, and undos late in a
    game would replay the whole game each time without it.

    A step's "told at ``t``" depends only on the first ``t`` steps of the history, so it
    stays true while they do; an option not told yet is followed on from the world where it
    stopped when the history grows; when the history is cut (an undo) what depended on the
    removed steps is forgotten and the options being followed rewind to a checkpoint."""

    def __init__(self) -> None:
        self.history: list[Step] = []
        self.real: list[State] = []
        """The state before each step, then the state now."""
        self._seen: dict[int, dict[int, object]] = {}
        """Per viewer, its observation of ``real[j]`` by ``j``, as asked for."""
        self._told: dict[tuple[int, int], _Told] = {}
        self._version = 0

    def sync(self, history: Sequence[Step], now: State) -> None:
        """Follow the match's present ``history`` and state: keep what the steps it shares
        with the last history synced still show, forget the rest."""
        old = self.history
        start = history[0].before if history else now
        if not self.real or not (self.real[0] is start or self.real[0] == start):
            kept = -1  # another game altogether: nothing carries over
        else:
            kept = 0
            limit = min(len(old), len(history))
            while kept < limit:
                a, b = old[kept], history[kept]
                if a is not b and (a.player != b.player or a.action != b.action):
                    break
                kept += 1
        unchanged = kept == len(old) == len(history)
        self.history = list(history)
        self.real = [step.before for step in history] + [now]
        if unchanged:
            return
        self._version += 1
        for seen in self._seen.values():
            for j in [j for j in seen if j > kept]:
                del seen[j]
        for key in [key for key in self._told if key[0] >= kept]:
            del self._told[key]
        if kept < len(old):
            for record in self._told.values():
                record.truncate(kept)
        self._shed()

    def _shed(self) -> None:
        """Keep the worlds held within ``_WORLDS_KEPT``: drop the checkpoints, then, if the
        newest worlds alone are too many, those of the earliest steps."""
        records = sorted(self._told.items())
        if sum(len(w) for _, r in records for w in r.worlds.values()) <= _WORLDS_KEPT:
            return
        for _, record in records:
            record.worlds = {o: w[-1:] for o, w in record.worlds.items()}
        held = sum(len(r.worlds) for _, r in records)
        for _, record in records:
            if held <= _WORLDS_KEPT:
                break
            held -= len(record.worlds)
            record.worlds = {}

    def seen(self, j: int, viewer: int) -> object:
        """``viewer``'s observation of ``real[j]``."""
        seen = self._seen.setdefault(viewer, {})
        if j not in seen:
            seen[j] = self.real[j].observation(viewer)
        return seen[j]

    def told(self, i: int, viewer: int) -> int | None:
        """The latest step by which ``viewer`` has told ``history[i]`` apart from one of its
        other options, or None if the history so far tells none of them apart.

        Per other option, the history is replayed from it: it is told apart at the first
        ``j`` where the viewer's observation differs from ``real[j]``, or at ``j + 1`` when
        ``history[j]`` could not have been made there. A step was hidden from the viewer at
        a decision at ``index`` and has been shown since exactly when this is beyond
        ``index``."""
        record = self._record(i, viewer)
        if record.version != self._version:
            record.answer = self._latest(record, i, viewer)
            record.version = self._version
        return record.answer

    def shown(self, i: int, viewers: Sequence[int]) -> bool:
        """True if the history so far tells one of ``viewers`` ``history[i]`` apart from one
        of its other options (``told`` is not None for one of them). The options are
        followed, each for every viewer in turn, only until one is told apart: a chance
        outcome needs only whether (:meth:`PlaySession.chance_seen`), not by which step."""
        following = []
        for viewer in viewers:
            record = self._record(i, viewer)
            if record.version == self._version:
                if record.answer is not None:
                    return True
            elif any(told is not None for told in record.at):
                return True
            else:
                following.append((viewer, record))
        options = len(following[0][1].options) if following else 0
        for o in range(options):
            for viewer, record in following:
                if self._follow(record, o, i, viewer) is not None:
                    return True
        for _, record in following:
            record.answer, record.version = None, self._version  # followed to now: none told
        return False

    def _record(self, i: int, viewer: int) -> _Told:
        """What ``history[i]``'s other options have told ``viewer`` (made when first asked)."""
        key = (i, viewer)
        record = self._told.get(key)
        if record is None:
            step = self.history[i]
            options = (
                [a for a, _ in step.before.chance_weights()]
                if step.player == CHANCE
                else list(step.before.legal_actions(step.player))
            )
            record = _Told([a for a in options if a != step.action])
            self._told[key] = record
        return record

    def _latest(self, record: _Told, i: int, viewer: int) -> int | None:
        now = len(self.history)
        latest: int | None = None
        for o, told in enumerate(record.at):
            if told is None:
                told = self._follow(record, o, i, viewer)
            if told is not None and (latest is None or told > latest):
                latest = told
                if latest == now:
                    break  # nothing is told later than now
        return latest

    def _follow(self, record: _Told, o: int, i: int, viewer: int) -> int | None:
        """Replay option ``o`` of ``history[i]`` on from where it stopped to now: the step
        that tells it apart, or None (its world then stands where the present state does)."""
        history = self.history
        now = len(history)
        worlds = record.worlds.setdefault(o, [])
        if worlds:
            j, world = worlds[-1]
        else:
            step = history[i]
            j, world = i + 1, step.before.apply(record.options[o], step.player)
            worlds.append((j, world))
        told: int | None = None
        while True:  # ``world`` stands where real[j] does
            if world.observation(viewer) != self.seen(j, viewer):
                told = j
                break
            if j == now:
                break  # the same observations all along: nothing told
            try:
                world = world.apply(history[j].action, history[j].player)
            except ClanGamesError:
                told = j + 1  # history[j] shows the option was not taken
                break
            j += 1
            if _keeps(j, now):
                worlds.append((j, world))
        if told is not None:
            record.at[o] = told
            del record.worlds[o]
        else:
            if worlds[-1][0] != j:
                worlds.append((j, world))
            kept = [w for w in worlds[:-1] if _keeps(w[0], j)]
            record.worlds[o] = [*kept[-_CHECKPOINTS:], worlds[-1]]
        return told


class PlaySession:
    """One game in the terminal: a Match, the human seats, their pending narration."""

    def __init__(
        self,
        game: Game,
        seed: int,
        names: Sequence[str],
        inp: TextIO,
        out: TextIO,
        *,
        iterations: int | None = None,
        rollout_limit: int | None = None,
        width: int | None = None,
        height: int | None = None,
        autosave: str | Path | None = None,
        match: Match | None = None,
        date: str | None = None,
        command: str = "play",
    ) -> None:
        """``autosave``: a file the record is written to after every move (None: none);
        ``match``: a match already under way (a resumed game) instead of a new one;
        ``date``: when the game started, for the headers (default: now); ``width`` and
        ``height``: the screen's size (default: the terminal's, or 100 columns and no
        height limit when the output is not a terminal)."""
        self.game = game
        self.names = list(names)
        self.humans = tuple(seat for seat, name in enumerate(names) if name == HUMAN)
        self.match = (
            match
            if match is not None
            else Match(game, seed, seat_policies(names, seed, iterations, rollout_limit))
        )
        self.autosave = None if autosave is None else Path(autosave)
        self._autosave_failed: str | None = None
        self.date = date if date is not None else utc_now()
        self.command = command
        self.renderer: Renderer = renderer_for(game)
        self.inp = inp
        self.console = Console(file=out, markup=False, highlight=False)
        terminal = self.console.is_terminal
        self.width = width or (self.console.size.width if terminal else 100)
        self.fold = terminal or width is not None
        """Prose is folded to ``width`` on a screen; into a file or a pipe its lines stay
        whole (nothing cuts them there, and a search finds a sentence on one line)."""
        self.height = height or (self.console.size.height if terminal else None)
        self.console.width = self.width
        self._listing: list[int] = []
        """The options (0-based) listed now: all of them, or those a filter kept."""
        self._listed_to = 0
        """Where ``more`` continues in ``_listing``."""
        self._seen_chance: set[int] = set()
        """History indices of chance outcomes a human may have seen (see chance_seen)."""
        self._hindsight = _Hindsight()
        """What the history has told the seats, kept from one undo limit to the next."""
        self.pending: dict[int | None, list[tuple[int, str]]] = {seat: [] for seat in self.humans}
        if not self.humans:
            self.pending[None] = []
        self.at_screen: int | None = None
        self.seed = seed

    # -- input and output ----------------------------------------------------------------------
    def say(self, text: str | Text = "", style: str | None = None) -> None:
        """Print one line (or a Text), unwrapped: the terminal folds a long line itself, and
        a file name in it stays whole for copying."""
        self.console.print(text, style=style, soft_wrap=True)

    def tell(self, text: str, style: str | None = None) -> None:
        """Print prose folded at spaces to the screen's width (the terminal would cut a
        long line mid-word): each line of ``text`` on its own, a folded line going on
        under its start, two spaces in; whole lines when the output is not a screen."""
        for line in text.splitlines() or [""]:
            self.say(fold_line(line, self.width) if self.fold else line, style=style)

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and read one line; _Quit at the end of the input."""
        self.console.print(prompt, end="", soft_wrap=True)
        self.console.file.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise _Quit(eof=True)
        return line.strip()

    # -- saving ----------------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The record so far, with its headers (seats, seed, Rng states, result)."""
        return with_headers(self.match, self.names, self.seed, self.date, self.command)

    def _write_autosave(self) -> None:
        if self.autosave is None:
            return
        try:
            atomic_write(self.autosave, self.record().dumps() + "\n")
        except (OSError, ValueError) as exc:
            # strerror, not str(exc): that names the temporary file, new at every try, so
            # the same failure would be said again after every move.
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            reason = f"cannot autosave to {str(self.autosave)!r}: {detail}"
            if reason != self._autosave_failed:  # say it once, not after every move
                self.say(reason + " (the game goes on; 'save FILE' still works)", style="red")
            self._autosave_failed = reason
        else:
            self._autosave_failed = None

    def _resume_hint(self) -> str:
        if self.autosave is None:
            return "autosave is off"
        path = self.autosave
        return f"the game is saved in {path}; continue it with: clangames play --resume {path}"

    # -- narration -------------------------------------------------------------------------------
    def _record_step(self, before: State, action: Action, player: int) -> None:
        index = len(self.match.history)
        after = self.match.state
        for viewer, lines in self.pending.items():
            text = narrate(self.renderer, before, action, player, after, viewer)
            lines.append((index, step_line(index, player, text)))
        if not self.humans:
            self._flush(None)
        self._write_autosave()

    def _flush(self, viewer: int | None) -> None:
        lines = self.pending.get(viewer)
        if not lines:
            return
        if viewer is not None:
            self.say("Since your last decision:", style="bold")
        for _, line in lines:
            self.tell(line)
        lines.clear()

    # -- the game loop ---------------------------------------------------------------------------
    def run(self, resumed_from: str | None = None) -> int:
        """Play until the game ends or someone quits: 0 when done or quit. If the input ends
        before the game does, CommandFailure (exit 1); on Ctrl-C, Interrupted (exit 130).
        Both say where the game is saved. ``resumed_from``: the file a resumed game came
        from (said at the start)."""
        names = ", ".join(f"{who(i)} {name}" for i, name in enumerate(self.names))
        self.say(
            f"{self.game.info.title} ({self.game.name}), {self.game.num_players} players,"
            f" seed {self.seed}",
            style="bold",
        )
        self.tell(f"seats: {names}")
        if resumed_from is not None:
            self.say(f"resumed from {resumed_from} after {len(self.match.history)} moves")
        if self.autosave is not None:
            self.say(f"autosave: {self.autosave} (clangames play --resume FILE continues it)")
        self.say("type 'help' at a prompt for the commands")
        try:
            self._write_autosave()
            while not self.match.is_over:
                self._advance_bots()
                if self.match.is_over:
                    break
                waiting = self.match.waiting_for
                if not waiting:
                    raise CommandFailure(
                        f"nobody can move: to_move is {self.match.state.to_move!r}"
                    )
                self._human_turn(waiting[0])
        except _Quit as stop:
            if stop.eof:
                raise CommandFailure(
                    f"the input ended before the game did; {self._resume_hint()}"
                ) from None
            self.say("game stopped" + ("" if self.autosave is None else f"; {self._resume_hint()}"))
            return 0
        except KeyboardInterrupt:
            self.say()  # off the prompt's line: the error line starts a line of its own
            raise Interrupted(f"interrupted; {self._resume_hint()}") from None
        except (CommandFailure, Interrupted):
            raise
        except Exception as exc:
            # A bot (the registry takes third-party ones) or the rules failed mid-game: the
            # moves so far are in the autosave, so say where instead of only "internal error".
            raise CommandFailure(
                f"the game stopped on an error ({type(exc).__name__}: {exc}), a bug in a bot or"
                f" in clangames; {self._resume_hint()}"
            ) from exc
        try:
            return self._game_over()
        except KeyboardInterrupt:
            raise Interrupted("interrupted after the game ended") from None

    def _advance_bots(self) -> None:
        while True:
            before = self.match.state
            step = self.match.step()
            if step is None:
                return
            self._record_step(before, step.action, step.player)

    def _clear(self) -> None:
        """Clear the screen and the scrollback, on any output: a terminal that does not
        know the sequence ignores it, and a log of a hot-seat game should show the break."""
        self.console.file.write(CLEAR_SCROLLBACK)
        self.console.file.flush()

    def _pass_screen(self, seat: int) -> None:
        if len(self.humans) < 2 or self.at_screen == seat:
            return
        self._clear()
        self.say("\n" * 3 + f"===== pass to {who(seat)} =====", style="bold reverse")
        self.ask(f"{who(seat)}: press Enter when nobody else can see the screen ")
        self._clear()
        self.at_screen = seat

    def _texts(self, seat: int) -> list[str]:
        state = self.match.state
        # the seat's own options, labelled from its own observation
        return self.renderer.option_texts(state.observation(seat), state.legal_actions(seat))

    def _show(self, seat: int, full: bool = False) -> None:
        """The decision screen: the board (its summary when the full board and the options
        would not fit the terminal, unless ``full``), the prompt and the options."""
        self.say(f"--- {who(seat)} ({self.names[seat]}) to decide ---", style="bold")
        self._flush(seat)
        state = self.match.state
        texts = self._texts(seat)
        view = seat_view(self.renderer, state, seat)
        lines = len(text_of(view, self.width).splitlines())
        # folded as any sentence (rich would wrap it flush left, reading as two lines)
        prompt = fold_line(state.prompt(), self.width) if self.fold else state.prompt()
        prompt_lines = len(text_of(prompt, self.width).splitlines())
        least = MIN_OPTION_ROWS
        if not full and not board_fits(self.height, lines + prompt_lines - 1, len(texts)):
            view = seat_view(self.renderer, state, seat, compact=True)
            lines = len(text_of(view, self.width).splitlines()) + 1
            least = 2
            self.console.print(view)
            self.say("(a summary of the table: 'board' draws all of it)", style="dim")
        else:
            self.console.print(view)
        self.say(prompt, style="bold")
        self._listing = list(range(len(texts)))
        self._listed_to = 0
        self._list_more(texts, option_rows(self.height, lines + prompt_lines - 1, least))

    def _list_more(self, texts: Sequence[str], rows: int | None) -> None:
        """The next page of the options being listed."""
        if self._listed_to >= len(self._listing):
            self._listed_to = 0  # 'more' after the last page starts again
        lines, self._listed_to = fold(texts, self._listing, self._listed_to, rows, self.width)
        for line in lines:
            self.say(line)

    def _page_rows(self) -> int | None:
        """Option lines for a page listed without the board above it."""
        return None if self.height is None else max(4, self.height - 2)

    def _explain(self, seat: int, rest: str) -> None:
        state = self.match.state
        legal = state.legal_actions(seat)
        number = rest.strip()
        if not (number.isascii() and number.isdigit() and len(number) <= _MAX_CHOICE_DIGITS):
            self.say(f"explain needs an option number, 1..{len(legal)}: explain N", style="red")
            return
        k = int(number)
        if not 1 <= k <= len(legal):
            self.say(f"{k} is not a number from the list (1..{len(legal)})", style="red")
            return
        self.tell(explain_action(state, legal[k - 1], seat))

    def _human_turn(self, seat: int) -> None:
        self._pass_screen(seat)
        self.at_screen = seat
        self._show(seat)
        if self.game.info.has_hidden_information:
            # While the player reads the screen, bring the hindsight up to the moves since
            # their last turn: an undo late in a game then answers at once instead of
            # following every hidden step's other options over the whole game.
            self._undo_limit(seat)
        while True:
            line = self.ask(f"{who(seat)}> ")
            command, _, rest = line.partition(" ")
            word = command.lower()
            if not line:
                self.say("type a number from the list, an action, or 'help'")
                continue
            if word == "quit":
                raise _Quit(eof=False)
            if word == "help":
                state = self.match.state
                options = [state.action_text(a) for a in state.legal_actions(seat)]
                self.tell(help_text(options))
                self.say(
                    f"autosave: {self.autosave} (after every move)"
                    if self.autosave is not None
                    else "autosave: off"
                )
                continue
            if word == "board" and not rest.strip():
                self._show(seat, full=True)
                continue
            if word == "rules" and not rest.strip():
                self.tell(reflowed(rules_text(self.match.state)))
                continue
            if word in ("explain", "?") or (word.startswith("?") and word[1:].isdigit()):
                self._explain(seat, rest if word in ("explain", "?") else word[1:])
                continue
            if word == "more" and not rest.strip():
                self._list_more(self._texts(seat), self._page_rows())
                continue
            if word == "options" and not rest.strip():
                self._listing = list(range(len(self._texts(seat))))
                self._listed_to = 0
                self._list_more(self._texts(seat), self._page_rows())
                continue
            if word == "save":
                self._save(rest.strip())
                continue
            if word == "undo" and not rest.strip():
                if self._undo(seat):
                    return
                continue
            action, reason = self._parse(seat, line)
            if action is None:
                texts = self._texts(seat)
                found = [] if line.isdigit() else matching(texts, line)
                if len(found) > 1:
                    self._listing, self._listed_to = found, 0
                    self.tell(f"{len(found)} options contain {shown(line)}:")
                    self._list_more(texts, self._page_rows())
                    continue
                self.tell(f"not accepted: {reason}", style="red")
                continue
            before = self.match.state
            self.match.apply(action, seat)
            self._record_step(before, action, seat)
            return

    def _parse(self, seat: int, line: str) -> tuple[Action | None, str]:
        """The action ``line`` names for ``seat``, or None and why not."""
        state = self.match.state
        legal = state.legal_actions(seat)
        # Only ASCII digits are numbers here: str.isdigit also accepts '²' or '٣', which
        # int() refuses or reads as something the player did not see in the list.
        if line.isascii() and line.isdigit():
            if len(line) > _MAX_CHOICE_DIGITS:
                return None, f"{line:.12}... is not a number from the list (1..{len(legal)})"
            k = int(line)
            if 1 <= k <= len(legal):
                return legal[k - 1], ""
            return None, f"{k} is not a number from the list (1..{len(legal)})"
        wanted = " ".join(line.split()).lower()
        texts = [state.action_text(a).lower() for a in legal]
        for action, text in zip(legal, texts, strict=True):
            if text == wanted:
                return action, ""
        quoted = shown(line)
        try:
            action = self.game.parse_action(line.strip())
        except ClanGamesError:
            starts = [a for a, t in zip(legal, texts, strict=True) if t.startswith(wanted)]
            if len(starts) == 1:
                return starts[0], ""
            if len(starts) > 1:
                return None, f"{quoted} could be any of {len(starts)} actions; say which"
            return None, f"{quoted} is neither a number, an action nor a command (try 'help')"
        try:
            state.apply(action, seat)
        except ClanGamesError as exc:
            # The game's reason says why not; the legal actions are listed here, once, as
            # the web server's refusal does.
            return None, f"{exc}; legal: {legal_list(state, legal)}"
        return action, ""

    def chance_seen(self, index: int, hindsight: _Hindsight | None = None) -> bool:
        """True if a human seat may have learned something about the chance outcome at
        ``history[index]``: for some other outcome the chance node allowed, the moves
        since would give that seat a different observation at some step up to now (or
        could not be made at all). Once seen, an outcome stays seen, also after undo
        rewinds the game past the steps that showed it. ``hindsight``: the memo to use,
        synced to the present history (default: the session's own, kept across commands),
        which follows each other outcome on from where it last stopped instead of
        replaying the game from the chance node at every question."""
        if index in self._seen_chance:
            return True
        if hindsight is None:
            hindsight = self._hindsight
            hindsight.sync(self.match.history, self.match.state)
        seen = hindsight.shown(index, self.humans)
        if seen:
            self._seen_chance.add(index)
        return seen

    def secret_seen(
        self, index: int, hindsight: _Hindsight | None = None
    ) -> tuple[int, int] | None:
        """For taking back the decision at ``history[index]``: a step before it (back to the
        start of the game, not only since its seat's previous decision) that was hidden from
        a human seat when the decision was made, but that the steps since have shown them
        (another house's face-down card turned up, say), as (step index, that human), the
        latest such step; None if there is none. Undoing the decision would let them decide
        again knowing it: the step itself stays in the game. ``hindsight``: the memo to use,
        synced to the present history (default: the session's own, kept across commands).

        A step counts as shown when, for some other option the step allowed that would have
        left the human's observations the same up to the decision, the moves since would
        give them a different observation at some step (or could not be made)."""
        if not self.game.info.has_hidden_information:
            return None
        history = self.match.history
        if hindsight is None:
            hindsight = self._hindsight
            hindsight.sync(history, self.match.state)
        for i in range(index - 1, -1, -1):
            for viewer in self.humans:
                if history[i].player != viewer:
                    told = hindsight.told(i, viewer)
                    if told is not None and told > index:
                        return i, viewer
        return None

    def _undo_limit(
        self, seat: int, hindsight: _Hindsight | None = None
    ) -> tuple[int, str, str, str]:
        """How many of ``seat``'s decisions ``undo`` can take back in a row, what stops it
        (a noun phrase), why nothing can be undone (when that is so) and why undo goes no
        further (after an undo). ``hindsight``: the memo to sync and use (default: the
        session's own, kept across commands)."""
        depth = 0
        history = self.match.history
        if hindsight is None:
            hindsight = self._hindsight
        hindsight.sync(history, self.match.state)
        for index in range(len(history) - 1, -1, -1):
            step = history[index]
            if step.player == CHANCE and self.chance_seen(index, hindsight):
                limit = f"the chance outcome at step {index + 1}"
                why = "it may have shown you something"
                refusal = f"{limit} came after your last decision{_NEVER_PAST} ({why})"
                return depth, limit, refusal, f"{limit} is before it"
            if step.player in self.humans and step.player != seat:
                limit = f"{who(step.player)}'s decision at step {index + 1}"
                why = "it is theirs to take back"
                refusal = f"{limit} came after your last decision{_NEVER_PAST} ({why})"
                return depth, limit, refusal, f"{limit} is before it"
            if step.player == seat:
                shown = self.secret_seen(index, hindsight)
                if shown is not None:
                    hidden, viewer = shown
                    whom = "you" if viewer == seat else who(viewer)
                    limit = (
                        f"step {hidden + 1}, hidden from {whom} at your decision at step"
                        f" {index + 1} and shown since"
                    )
                    why = (
                        f"step {hidden + 1} ({self._mover(history[hidden].player)}) was hidden"
                        f" from {whom} when you decided at step {index + 1}, and the moves since"
                        f" have shown it: undoing that decision would let {whom} decide again"
                        " knowing it"
                    )
                    note = (
                        f"your decision at step {index + 1} stays: step {hidden + 1} was hidden"
                        f" from {whom} then and has been shown since"
                    )
                    return depth, limit, why, note
                depth += 1
        return depth, "the start of the game", "", "the start of the game is before it"

    @staticmethod
    def _mover(player: int) -> str:
        return "a chance outcome" if player == CHANCE else f"{who(player)}'s move"

    def undo_depth(self, seat: int) -> tuple[int, str]:
        """How many of ``seat``'s decisions ``undo`` can take back in a row, and what stops
        it going further: a chance outcome a human may have seen (a card turned up, a die
        rolled: undoing would let them draw again knowing it), another human's decision,
        a move hidden from a human when the decision was made that they have seen since
        (another house's face-down card, turned up when the round was revealed: undoing
        would let them choose again knowing it), or the start of the game. A chance outcome
        nobody saw (a card dealt face down to a bot) does not stop it."""
        depth, limit, _, _ = self._undo_limit(seat)
        return depth, limit

    def _rewind(self, index: int) -> None:
        """The match as it was just before ``history[index]``: the same steps replayed into
        a new Match (``Match.undo`` refuses any chance outcome between; this crosses the
        unseen ones), with the chance generator as it was then."""
        old = self.match
        history = old.history
        new = Match(self.game, history[0].rng if history else old.rng, old.policies)
        for step in history[:index]:
            new.rng = step.rng
            new.apply(step.action, step.player)
        new.rng = history[index].rng
        self.match = new

    def _undo(self, seat: int) -> bool:
        depth, _, why, note = self._undo_limit(seat)
        if depth == 0:
            if all(step.player != seat for step in self.match.history):
                self.say("nothing to undo: you have not decided anything yet", style="red")
            else:
                self.tell(f"nothing to undo: {why}", style="red")
            return False
        history = self.match.history
        target = max(i for i, step in enumerate(history) if step.player == seat)
        if self.match.can_undo(seat):
            self.match.undo(seat)
        else:
            self._rewind(target)
        kept = len(self.match.history)
        self._seen_chance = {i for i in self._seen_chance if i < kept}
        for viewer, lines in self.pending.items():
            lines[:] = [(i, text) for i, text in lines if i <= kept]
            if viewer != seat:
                lines.append((kept, f"{who(seat)} took back their decision at step {kept + 1}"))
        more = depth - 1
        further = (
            f"you can undo {more} more decision{'s' if more != 1 else ''}"
            if more
            else f"this is as far back as undo goes ({note})"
        )
        self.tell(f"undone: back to your decision at step {kept + 1}; {further}", style="bold")
        self._write_autosave()
        return True

    def _save(self, path: str) -> None:
        if not path:
            self.say("save needs a file name: save FILE", style="red")
            return
        record = self.record()
        try:
            atomic_write(path, record.dumps() + "\n")
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            # the system's words, not the temporary file's name an OSError carries
            why = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            self.say(f"cannot save to {path!r}: {why}", style="red")
            return
        self.say(f"saved the record ({len(record.moves)} moves) to {path}")

    def _game_over(self) -> int:
        self._write_autosave()  # now with the result header
        state = self.match.state
        viewer = self.at_screen if self.at_screen is not None else None
        if viewer is not None:
            self._flush(viewer)
        self.say()
        self.say("===== Game over =====", style="bold reverse")
        self.console.print(seat_view(self.renderer, state, None))
        self.say()
        print_reveal(self.console, self.renderer, state, self.fold)
        self.console.print(results(state))
        self.say("How the scores came about:", style="bold")
        states = [step.before for step in self.match.history] + [state]
        for line in end_report(states).lines():
            self.tell(line)
        if self.autosave is not None:
            self.say(f"the record is in {self.autosave}")
        try:
            while True:
                line = self.ask("game over: 'save FILE' or 'quit'> ")
                command, _, rest = line.partition(" ")
                if command.lower() == "save":
                    self._save(rest.strip())
                elif command.lower() in ("quit", "exit"):
                    return 0
                elif command.lower() == "help":
                    self.say("save FILE writes the record; quit leaves")
                else:
                    self.say("the game is over: 'save FILE' or 'quit'", style="red")
        except _Quit:
            return 0


def play(
    game: Game,
    seed: int,
    names: Sequence[str],
    inp: TextIO,
    out: TextIO,
    **options: Any,
) -> int:
    """Play ``game`` with the seat list ``names`` (``human`` or a bot name per seat),
    reading commands from ``inp`` and writing to ``out``; the exit code."""
    return PlaySession(game, seed, names, inp, out, **options).run()


def add_parser(subparsers: Any) -> None:
    """Add the ``play`` subcommand to the ``clangames`` parser."""
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against bots or friends (hot seat)",
        description=(
            "Play in the terminal. Each human seat sees only what it may know; with several"
            " human seats a 'pass to player k' screen comes between them. The record is"
            " autosaved after every move; --resume FILE continues a saved game."
        ),
    )
    add_game_arguments(parser, "a game name, e.g. kings-kilt (not with --resume)", nargs="?")
    parser.add_argument(
        "--seats",
        default=None,
        metavar="SEATS",
        help=(
            "comma-separated, one per seat: 'human' or a bot name (random, ismcts, ...);"
            " seats not listed are random bots (default: human, then random)"
        ),
    )
    parser.add_argument(
        "--resume",
        metavar="FILE",
        default=None,
        help="continue the game saved in FILE (an autosave or 'save FILE'), same seats and seed",
    )
    saving = parser.add_mutually_exclusive_group()
    saving.add_argument(
        "--autosave",
        metavar="FILE",
        default=None,
        help=(
            "write the record here after every move (default: a new file in"
            " $XDG_STATE_HOME/clangames/autosave or ~/.local/state/clangames/autosave)"
        ),
    )
    saving.add_argument("--no-autosave", action="store_true", help="do not autosave")
    parser.set_defaults(func=run, handler=lambda args, out: run(args, out=out))


_NOT_WITH_RESUME = (
    ("game", "GAME"),
    ("players", "--players"),
    ("seed", "--seed"),
    ("seats", "--seats"),
    ("iterations", "--iterations"),
    ("rollout_limit", "--rollout-limit"),
)


def autosave_target(args: argparse.Namespace, game: Game) -> Path | None:
    """The autosave file ``args`` ask for, checked writable (UsageError if not): None with
    --no-autosave, --autosave FILE, else a new file in the default directory."""
    if getattr(args, "no_autosave", False):
        return None
    chosen = getattr(args, "autosave", None)
    if chosen is not None:
        check_writable(chosen, "--autosave")
        path = Path(chosen)
        check_directory_writable(path.parent, "--autosave")  # the temporary file goes there
        return path
    directory = autosave_directory()
    hint = "; choose a file with --autosave FILE or --no-autosave"
    try:
        check_directory_writable(directory, "autosave")
    except UsageError as exc:
        raise UsageError(f"{exc}{hint}") from None
    try:
        return default_autosave_path(directory, game.name, datetime.datetime.now())
    except OSError as exc:
        where = str(directory)
        raise UsageError(f"autosave: cannot create a file in {where!r}: {exc}{hint}") from None


def run(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run ``clangames play`` with parsed arguments: every option is checked (and the saved
    game read) before the game starts."""
    stream = out if out is not None else sys.stdout
    if args.resume is not None:
        given = [flag for name, flag in _NOT_WITH_RESUME if getattr(args, name, None) is not None]
        if args.param:
            given.append("--param")
        if given:
            raise UsageError(
                f"--resume continues the saved game with its own game, seats and seed;"
                f" drop {', '.join(given)}"
            )
        saved = saved_game(read_record(args.resume), args.resume)
        match = restore_match(saved, args.resume)
        session = PlaySession(
            saved.game,
            saved.seed,
            saved.names,
            input_stream(inp),
            stream,
            autosave=autosave_target(args, saved.game),
            match=match,
            date=saved.date,
        )
        return session.run(resumed_from=args.resume)
    if args.game is None:
        raise UsageError("play needs a GAME (or --resume FILE)")
    game = load_game(args.game, args.players, args.param)
    names = seat_names(args.seats or HUMAN, game.num_players, default_rest="random")
    seed = 0 if args.seed is None else args.seed
    # The bots are made before anything else happens, so an unknown name stops at once.
    seat_policies(names, seed, args.iterations, args.rollout_limit)
    session = PlaySession(
        game,
        seed,
        names,
        input_stream(inp),
        stream,
        iterations=args.iterations,
        rollout_limit=args.rollout_limit,
        autosave=autosave_target(args, game),
    )
    return session.run()
