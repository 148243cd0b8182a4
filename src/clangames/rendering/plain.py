"""Plain text pictures for library users: ``state.render()``, ``str(state)`` and
:func:`render_observation`.

The same renderers draw the command's screens; here they are printed through a colourless
console into a string, so a library user gets text with no styling codes and no need to
know ``rich``. Importing this module installs :func:`render_state` as the kernel's drawing
hook (``clangames.engine.display``), which is how a state can draw itself although the
kernel sits below this layer.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from rich.console import Console, RenderableType

from clangames.engine.display import set_drawer
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.game import Game
from clangames.engine.state import State, checked_seat
from clangames.rendering.text import observation_view, renderer_for, secret_lines, who

DEFAULT_WIDTH = 80
"""Columns of a picture when no width is given: the smallest terminal the screens support."""
MIN_WIDTH = 40
"""The narrowest picture drawn; a smaller width is a mistake, not a request."""


def text_of(renderable: RenderableType | str, width: int) -> str:
    """``renderable`` as plain text at most ``width`` columns wide (trailing blanks cut)."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system=None,
        force_terminal=False,
        no_color=True,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(renderable)
    lines = [line.rstrip() for line in buffer.getvalue().splitlines()]
    return "\n".join(lines).strip("\n")


def _width(width: int | None) -> int:
    if width is None:
        return DEFAULT_WIDTH
    if isinstance(width, bool) or not isinstance(width, int) or width < MIN_WIDTH:
        raise InvalidArgumentError(f"width must be an int >= {MIN_WIDTH}, got {width!r}")
    return width


def status_line(state: State) -> str:
    """Who is to move and what is being decided, or that the game is over (with the winners
    and scores only in a game without hidden information: elsewhere they may depend on cards
    a viewer's observation does not show, and a picture never shows more than that)."""
    if state.is_terminal:
        if state.game.info.has_hidden_information:
            return "Game over (the result: state.scores(), state.winners())"
        won = state.winners()
        names = ", ".join(who(p) for p in won) or "nobody"
        return f"Game over; won by {names}; scores {', '.join(map(str, state.scores()))}"
    if state.is_chance:
        return "Chance is to move"
    movers = ", ".join(who(p) for p in state.to_move)
    return f"{movers} to move: {state.prompt()}"


def render_state(state: State, seat: int | None = None, width: int | None = None) -> str:
    """The table as ``seat`` sees it (None: the public view), with that seat's secrets and
    a status line, as plain text at most ``width`` columns wide (None: 80)."""
    columns = _width(width)
    if seat is not None:
        seat = checked_seat(state, seat, "render")
    obs = state.public_observation() if seat is None else state.observation(seat)
    picture = _board_text(state.game, obs, seat is None, columns)
    status = text_of(status_line(state), columns)
    return f"{picture}\n{status}"


_boards: ContextVar[dict[Hashable, str] | None] = ContextVar("_boards", default=None)
"""The boards already drawn inside :func:`boards_reused` (None outside it)."""


@contextmanager
def boards_reused() -> Iterator[None]:
    """Within this block, a board drawn from an observation equal to one drawn before (same
    game, view and width) is not drawn again: its text is reused. A board is drawn from the
    observation alone, so the text is the same; drawing one through rich costs as much as
    thousands of steps, and the conformance harness draws each re-deal's pictures to compare
    them with the real state's. The status line is still written from each state."""
    token = _boards.set({})
    try:
        yield
    finally:
        _boards.reset(token)


def _board_text(game: Game, obs: Any, public: bool, columns: int) -> str:
    drawn = _boards.get()
    key = (game, type(obs), obs, public, columns)
    try:
        text = None if drawn is None else drawn.get(key)
    except TypeError:  # an unhashable observation (a game from elsewhere): drawn each time
        drawn = text = None
    if text is None:
        text = text_of(observation_view(renderer_for(game), obs, public), columns)
        if drawn is not None:
            drawn[key] = text
    return text


def render_observation(game: Game, observation: Any, width: int | None = None) -> str:
    """An observation (``state.observation(seat)`` or ``public_observation()``) of ``game``
    as plain text. Observations carry no game (they are plain values compared by
    equality), so the game is passed in to find its renderer; an observation of another
    kind (another game's, say) is refused rather than drawn as if it were this game's."""
    columns = _width(width)
    expected = type(game.initial_state().public_observation())
    if type(observation) is not expected:
        raise InvalidArgumentError(
            f"render_observation: {type(observation).__name__} {observation!r:.60} is not an"
            f" observation of {game.name} (expected a {expected.__name__}, from"
            " state.observation(seat) or state.public_observation())"
        )
    renderer = renderer_for(game)
    picture = text_of(renderer.board(observation), columns)
    secrets = renderer.secrets(observation)
    if secrets:
        picture += "\n" + text_of(secret_lines(secrets), columns)
    return picture


set_drawer(render_state)
