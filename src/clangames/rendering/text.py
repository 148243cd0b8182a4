"""Drawing games in the terminal and narrating them without leaking hidden information.

Every picture is drawn from an *observation* (``state.observation(seat)`` or
``state.public_observation()``), never from the full state, so a renderer cannot show what
the viewing seat may not know. A game may have a module ``clangames.rendering.<game name>``
with a ``make_renderer(game) -> Renderer``; any other game gets :class:`GenericRenderer`,
which lists the observation's fields. Rendering is a layer of its own, above the games and
below the front-ends: a rules package never imports it.

Narration is filtered the same way (:func:`narrate`): ``state.describe`` knows everything,
so it is only used for a step the viewer can tell apart from every alternative (their own
decisions, public moves, outcomes they see); any other step is told from the viewer's
observations before and after it, by the game's renderer or generically.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.state import Action, State


def who(player: int) -> str:
    """``"player 2"`` or ``"chance"``."""
    return "chance" if player == CHANCE else f"player {player}"


class Items:
    """Lines of whole items: each paragraph (a list of :class:`~rich.text.Text` pieces)
    starts a line and fills it piece by piece, a space between two pieces, and a line
    breaks only between pieces, so a name such as "Royal 2" or "nom. of house 3" is never
    cut in two (rich's own wrapping breaks at any space). Continuation lines are indented
    by ``indent``. Only a piece wider than a whole line is folded, going on at the indent
    too: a label (:func:`listed`) and its first item, between the two, else at its spaces.

    It measures itself for a table: at least its widest piece, at most its longest
    paragraph on one line, so a table column holding it never gets narrower than a name
    while the table fits the terminal."""

    def __init__(self, paragraphs: Iterable[Sequence[Text]], indent: int = 0) -> None:
        self.paragraphs = [list(p) for p in paragraphs if p]
        self.indent = indent

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((t.cell_len for p in self.paragraphs for t in p), default=0)
        longest = max((sum(t.cell_len for t in p) + len(p) - 1 for p in self.paragraphs), default=0)
        return Measurement(widest + (self.indent if widest < longest else 0), longest)

    def lines(self, width: int) -> list[Text]:
        """The lines at most ``width`` cells wide (but for a word wider than that)."""
        out: list[Text] = []
        for paragraph in self.paragraphs:
            line, started = Text(), False
            for piece in paragraph:
                line, started = self._place(piece, line, started, width, out)
            out.append(line)
        return out

    def _place(
        self, piece: Text, line: Text, started: bool, width: int, out: list[Text]
    ) -> tuple[Text, bool]:
        """``piece`` added to ``line`` (after a space if ``started``), or to a new line going
        on at the indent if it does not fit (``line`` then goes to ``out``); a piece wider
        than a whole line is placed in parts (:func:`_parts`), each the same way."""
        if started and line.cell_len + 1 + piece.cell_len > width:
            out.append(line)
            line, started = Text(" " * self.indent), False
        parts = [] if started or line.cell_len + piece.cell_len <= width else _parts(piece)
        if len(parts) > 1:
            for part in parts:
                line, started = self._place(part, line, started, width, out)
            return line, started
        if started:
            line.append(" ")
        line.append_text(piece)
        return line, True

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)


class _Labelled(Text):
    """A label and the first item of its list as one piece (:func:`listed`), which knows
    where the label ends, to fold there if the two are wider than a whole line."""

    __slots__ = ("label_length",)

    def __init__(self, label: Text, item: Text) -> None:
        super().__init__()
        self.append_text(label)
        self.append_text(item)
        self.label_length = len(label)


def _parts(piece: Text) -> list[Text]:
    """A piece wider than a whole line cut in parts, styles kept: a label and its item
    (:class:`_Labelled`), else its words (spaces before the first stay with it)."""
    if isinstance(piece, _Labelled) and piece.plain[: piece.label_length].strip():
        starts = [piece.label_length]
    else:
        starts = [m.start() for m in re.finditer(r"\S+", piece.plain)][1:]
    parts = list(piece.divide(starts))
    for part in parts:
        part.rstrip()
    return [part for part in parts if part.plain.strip()]


def listed(items: Sequence[Text], label: str | Text = "", sep: str = ",") -> list[Text]:
    """``items`` as pieces for :class:`Items`: each but the last followed by ``sep``, the
    first preceded by ``label`` (a label ends a line on its own only if it and the first
    item are wider than a whole line)."""
    pieces = [item.copy() for item in items]
    for piece in pieces[:-1]:
        piece.append(sep)
    if label and pieces:
        pieces[0] = _Labelled(Text(label) if isinstance(label, str) else label, pieces[0])
    elif label:
        pieces = [Text(label) if isinstance(label, str) else label]
    return pieces


def _secret_paragraph(line: str, lead: str, style: str) -> list[Text]:
    """One line of a seat's secrets (``"hand: A, B, C"``) as :class:`Items` pieces after
    ``lead``: the label, then each item of its list (a line without a label: one piece)."""
    label, colon, rest = line.partition(": ")
    if not colon:
        return [Text(lead + line, style=style)]
    items = [Text(item, style=style) for item in rest.split(", ")]
    return listed(items, Text(f"{lead}{label}: ", style=style))


def secret_lines(secrets: Sequence[str], style: str = "") -> Items:
    """A seat's secrets (:meth:`Renderer.secrets`) as "Your ..." lines, each folded only
    between the items of its list (``"hand: A, B, C"``: after the label, at each comma), so
    a card's name never breaks across two lines; a folded line goes on two spaces in."""
    return Items((_secret_paragraph(line, "Your ", style) for line in secrets), indent=2)


class Renderer:
    """Draws one game from observations. Games subclass it; this base works for any game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def board(self, obs: Any) -> RenderableType:
        """The table as ``obs``'s viewer sees it (``obs.viewer`` < 0 or absent: public)."""
        return generic_board(obs, self.game.info.title)

    def summary(self, obs: Any) -> RenderableType:
        """A compact board for small screens (at most about 16 lines at 80 columns), drawn
        when the full :meth:`board` and the options would not fit the terminal together;
        the full board stays one command away. Games with a tall board override this."""
        return self.board(obs)

    def secrets(self, obs: Any) -> list[str]:
        """Lines naming what only ``obs``'s viewer knows (``"hand: ..."``, face-down cards),
        shown to that seat as "Your hand: ..." and to everyone in the end-of-game reveal as
        "player k's hand: ...". Empty if nothing."""
        return []

    def option_texts(self, obs: Any, actions: Sequence[Action]) -> list[str]:
        """How a decision's options are listed to ``obs``'s viewer: each action's text
        (what a player types, and what records keep), which a game may follow with words
        saying what the option is (a card's name, an event option's effect). The action
        text always comes first, so typing it, or the start of it, still chooses."""
        return [self.game.action_text(a) for a in actions]

    def told(self, before: State, action: Action) -> str:
        """The narration's sentence for a step the viewer can identify: ``describe`` by
        default. A game whose steps set more going on their own (Clan Feud's forced
        choices, England, battles) says that here too, where only the narration pays for
        it: ``describe`` is called for every option by harnesses and front-ends."""
        return before.describe(action)

    def revealed(self, before: Any, after: Any) -> str:
        """Words for what a step turned face up, from the viewer's observations ``before``
        and ``after`` it, said after the step's own sentence (a simultaneous reveal is part
        of the step that completes it, so it would otherwise go untold); empty if nothing."""
        return ""

    def hidden_step(self, before: Any, after: Any, player: int) -> str:
        """A sentence for a step the viewer cannot identify, from their observations
        ``before`` and ``after`` it (``player`` is who acted, CHANCE for chance)."""
        if player == CHANCE:
            return "a chance outcome you cannot see"
        return f"{who(player)} makes a choice you cannot see"


class GenericRenderer(Renderer):
    """The fallback: every field of the observation in a two-column table."""


def _format(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_format(v) for v in value) + ")"
    if isinstance(value, frozenset):
        return "{" + ", ".join(sorted(_format(v) for v in value)) + "}"
    if attrs.has(type(value)):
        inner = ", ".join(
            f"{f.name}={_format(getattr(value, f.name))}" for f in attrs.fields(type(value))
        )
        return f"{type(value).__name__}({inner})"
    return str(value)


def generic_board(obs: Any, title: str) -> RenderableType:
    """A table of an observation's fields (any attrs value; ``repr`` for anything else)."""
    table = Table(title=title, show_header=False, box=None, pad_edge=False)
    table.add_column("field", style="bold cyan")
    table.add_column("value")
    if attrs.has(type(obs)):
        for f in attrs.fields(type(obs)):
            table.add_row(f.name, _format(getattr(obs, f.name)))
    else:
        table.add_row("observation", repr(obs))
    return table


def renderer_for(game: Game) -> Renderer:
    """The game's own renderer (``clangames.rendering.<game name>.make_renderer``) if it
    has one, else :class:`GenericRenderer`."""
    name = f"{__package__}.{game.name}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return GenericRenderer(game)
    make = getattr(module, "make_renderer", None)
    if make is None:
        return GenericRenderer(game)
    renderer: Renderer = make(game)
    return renderer


WORLDS = 24
"""How many re-deals of the hidden information :func:`identifiable` tries."""


def identifiable(before: State, action: Action, player: int, after: State, viewer: int) -> bool:
    """True if ``viewer`` can tell ``action`` apart from every other option ``player``
    might have had: in no state the viewer cannot rule out (``before`` itself and
    ``WORLDS`` re-deals of what the viewer cannot see, from a fixed seed so narration is
    reproducible) does another option leave the viewer's observation equal to the actual
    one. Judging on ``before`` alone would not do: a card dealt from a pile whose last
    card only the full state knows has one outcome there, but several for the viewer."""
    if player == viewer:
        return True
    worlds = [before]
    if before.game.info.has_hidden_information:
        rng = Rng(0)
        worlds += [before.resample(viewer, rng.fork(k)) for k in range(WORLDS)]
    return _told_apart(worlds, action, player, after, lambda s: s.observation(viewer))


def _told_apart(
    worlds: list[State], action: Action, player: int, after: State, look: Callable[[State], Any]
) -> bool:
    """True if in none of ``worlds`` another option of ``player`` leaves what ``look``
    shows of the state as it shows ``after``: the check of :func:`identifiable` and
    :func:`publicly_identifiable`, which differ in the worlds and in what is looked at."""
    seen = look(after)
    for world in worlds:
        options = (
            tuple(a for a, _ in world.chance_weights())
            if player == CHANCE
            else world.legal_actions(player)
        )
        for other in options:
            if other != action and look(world.apply(other, player)) == seen:
                return False
    return True


def narrate(
    renderer: Renderer,
    before: State,
    action: Action,
    player: int,
    after: State,
    viewer: int | None,
) -> str:
    """One sentence about a step, for ``viewer`` (None: everything may be told), followed
    by what the step turned face up, if anything (:meth:`Renderer.revealed`)."""
    if viewer is None:
        seen = before.public_observation(), after.public_observation()
    else:
        seen = before.observation(viewer), after.observation(viewer)
    known = viewer is None or identifiable(before, action, player, after, viewer)
    return _sentence(renderer, before, action, player, seen, known)


def _sentence(
    renderer: Renderer,
    before: State,
    action: Action,
    player: int,
    seen: tuple[Any, Any],
    known: bool,
) -> str:
    """A step's narration for a viewer who sees ``seen`` (their observations before and
    after it) and can tell the step apart or not (``known``): the renderer's sentence for
    the step, or for a step they cannot identify; then what it turned face up."""
    said = renderer.told(before, action) if known else renderer.hidden_step(*seen, player)
    shown = renderer.revealed(*seen)
    return f"{said}; {shown}" if shown else said


def narrate_public(
    renderer: Renderer, before: State, action: Action, player: int, after: State
) -> str:
    """:func:`narrate` for a spectator, who sees only what is public: the step's sentence
    if a spectator can tell it apart (:func:`publicly_identifiable`), else the renderer's
    words from the public observations; then what it turned face up."""
    seen = before.public_observation(), after.public_observation()
    known = publicly_identifiable(before, action, player, after)
    return _sentence(renderer, before, action, player, seen, known)


def publicly_identifiable(before: State, action: Action, player: int, after: State) -> bool:
    """True if a spectator can tell ``action`` apart from every other option: in none of
    the worlds the seats cannot rule out (``before`` and re-deals from each seat's view,
    from a fixed seed so the log is reproducible) does another option leave the public
    observation as it is. The spectators' counterpart of the narration's check."""
    worlds = [before]
    if before.game.info.has_hidden_information:
        rng = Rng(0)
        for seat in range(before.game.num_players):
            worlds += [before.resample(seat, rng.fork(seat * WORLDS + k)) for k in range(WORLDS)]
    return _told_apart(worlds, action, player, after, lambda s: s.public_observation())


LEGAL_SHOWN = 12
"""How many legal actions a refusal names before it says how many there are in all."""


def legal_list(state: State, actions: Sequence[Action]) -> str:
    """The legal actions a refused move's message lists, as the game writes them: the
    first :data:`LEGAL_SHOWN`, then how many there are in all if more (a Clan Feud step
    may offer hundreds); ``nothing`` if none. ``play`` and the web server say it alike."""
    shown = ", ".join(state.action_text(a) for a in actions[:LEGAL_SHOWN])
    if len(actions) > LEGAL_SHOWN:
        shown += f", ... ({len(actions)} in all)"
    return shown or "nothing"


def step_line(index: int, player: int, text: str) -> str:
    """The narration line format shared by ``play`` and ``replay``: ``[12] player 1: ...``.
    A sentence that starts with the mover's own name does not repeat it after the prefix
    (``[12] player 1: puts a card face down``, not ``player 1: player 1 puts ...``); words in
    brackets after the name join the prefix (``[12] player 0 (red): moves ...``)."""
    name = who(player)
    if text.startswith(name + " ("):
        # the seat's own words in brackets (Kilt Castle's colours) stay with its name:
        # "player 0 (red): moves ...", not "player 0: (red) moves ..."
        close = text.find(") ", len(name))
        if close > 0:
            name, text = text[: close + 1], text[close + 2 :]
    elif text.startswith(name + " "):
        text = text[len(name) + 1 :]
    return f"[{index}] {name}: {text}"


def seat_view(
    renderer: Renderer, state: State, viewer: int | None, compact: bool = False
) -> RenderableType:
    """The board as ``viewer`` sees it (None: the public view), with their secrets;
    ``compact``: the renderer's summary board instead of the full one."""
    if viewer is None:
        return observation_view(renderer, state.public_observation(), True, compact)
    return observation_view(renderer, state.observation(viewer), False, compact)


def observation_view(
    renderer: Renderer, obs: Any, public: bool, compact: bool = False
) -> RenderableType:
    """What :func:`seat_view` draws, from the observation itself: the board, and unless
    ``public`` the viewer's secrets under it (a picture is a function of these alone)."""
    draw = renderer.summary if compact else renderer.board
    if public:
        return draw(obs)
    parts: list[RenderableType] = [draw(obs)]
    secrets = renderer.secrets(obs)
    if secrets:
        parts.append(secret_lines(secrets, style="bold"))
    return Group(*parts)


def results(state: State) -> Table:
    """Final scores, winners and win shares of a finished game, one row per seat. The
    share is ``state.returns()`` (1 to a sole winner, split among tied ones), headed in a
    player's words, as the docs and ``simulate`` call it."""
    table = Table(title="Result", box=None, pad_edge=False)
    table.add_column("seat")
    table.add_column("score", justify="right")
    table.add_column("win share", justify="right")
    table.add_column("")
    winners = set(state.winners())
    for seat, (score, ret) in enumerate(zip(state.scores(), state.returns(), strict=True)):
        table.add_row(who(seat), str(score), f"{ret:.3g}", "winner" if seat in winners else "")
    return table


def reveal(renderer: Renderer, state: State) -> list[str]:
    """The end-of-game reveal: each seat's secrets, from that seat's own observation."""
    lines: list[str] = []
    for seat in range(state.game.num_players):
        for line in renderer.secrets(state.observation(seat)):
            lines.append(f"{who(seat)}'s {line}")
    return lines


def reveal_items(renderer: Renderer, state: State, margin: int = 0) -> Items:
    """:func:`reveal`'s lines (``"player 1's hand: A, B"``), ``margin`` spaces in, folded as
    a seat's own "Your ..." lines are: only between the items listed, a folded line going on
    two spaces further in, so a card's name is never cut in two. ``play`` and ``replay``
    both show the reveal with it."""
    lead = " " * margin
    paragraphs = [_secret_paragraph(line, lead, "") for line in reveal(renderer, state)]
    return Items(paragraphs, indent=margin + 2)


def print_items(console: Console, items: Items, fold: bool) -> None:
    """``items`` on ``console``: on a screen (``fold``) folded between items to its width;
    into a file or a pipe each paragraph on one line, as the front-ends' sentences are."""
    if fold:
        console.print(items, soft_wrap=False)  # a piece wider than the screen is folded
        return
    for line in items.lines(sys.maxsize):
        console.print(line, soft_wrap=True)


def print_reveal(console: Console, renderer: Renderer, state: State, fold: bool) -> None:
    """The end-of-game "Revealed:" lines (:func:`reveal_items`, two spaces in), as ``play`` and
    ``replay`` both end a game; nothing if no seat has a secret."""
    items = reveal_items(renderer, state, margin=2)
    if items.paragraphs:
        console.print("Revealed:", style="bold", soft_wrap=True)
        print_items(console, items, fold)


def numbered(texts: Sequence[str]) -> str:
    """``1. text`` lines in columns-friendly plain text."""
    width = len(str(len(texts)))
    return "\n".join(f"{i:>{width}}. {t}" for i, t in enumerate(texts, 1))
