"""SVG pictures of every game, drawn from an observation so that a picture can never show
what its viewer may not see (issue 19).

:func:`picture` draws one observation; :func:`state_picture` draws a state as a seat (or
the public) sees it, or, for analysts, every seat's view at once. Importing this module
gives every game's observation class a ``_repr_svg_`` (as ``clangames.engine.display``
gives actions their ``__str__``) and installs the kernel's SVG hook, so states and
observations show as pictures in Jupyter. Standard library only; a module per game draws
that game (``kings_kilt``, ``kilt_castle``, ``koa_kingmaker``, ``clan_feud``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.observation import ClanFeudObservation
from clangames.engine.bits import bits_of
from clangames.engine.errors import ClanGamesError
from clangames.engine.game import Game
from clangames.engine.pictures import set_svg_drawer
from clangames.engine.registry import load
from clangames.engine.state import State
from clangames.kilt_castle.game import KiltCastleGame
from clangames.kilt_castle.observation import KiltCastleObservation
from clangames.kings_kilt.game import KingsKiltGame
from clangames.kings_kilt.observation import KingsKiltObservation
from clangames.koa_kingmaker.game import KoaGame
from clangames.koa_kingmaker.observation import KoaObservation
from clangames.rendering.svg import clan_feud, kilt_castle, kings_kilt, koa_kingmaker
from clangames.rendering.svg.canvas import Canvas


class PictureError(ClanGamesError):
    """An observation no SVG drawer knows, or a game that does not match it."""


def _koa_players(obs: KoaObservation) -> int:
    # A real player's house owns four more cards than an automated household (its
    # nominations), and every card of a house is counted in public fields.
    houses = [h for h, out in enumerate(obs.out_round) if out >= 0]
    players = 0
    for h in houses:
        cards = obs.courts[h] | obs.discards[h] | obs.centre[h]
        on_table = obs.table[h] >= 0 or obs.committed[h]
        if obs.hand_sizes[h] + len(list(bits_of(cards))) + on_table > 10:
            players += 1
    return players


_DRAWERS: dict[type, tuple[type[Game], str, Callable[[Any], int], Callable[[Any, Any], str]]] = {
    KingsKiltObservation: (
        KingsKiltGame,
        "kings_kilt",
        lambda o: len(o.family_sizes),
        kings_kilt.draw,
    ),
    KiltCastleObservation: (
        KiltCastleGame,
        "kilt_castle",
        lambda o: len(o.money),
        kilt_castle.draw,
    ),
    KoaObservation: (KoaGame, "koa_kingmaker", _koa_players, koa_kingmaker.draw),
    ClanFeudObservation: (ClanFeudGame, "clan_feud", lambda o: len(o.money), clan_feud.draw),
}
"""Per observation class: its game class, registered name, how many players the
observation shows, and the drawing function. A new game adds one entry."""


COVERAGE: dict[type, tuple[frozenset[str], frozenset[str]]] = {
    KingsKiltObservation: (kings_kilt.DRAWN, kings_kilt.LEFT_OUT),
    KiltCastleObservation: (kilt_castle.DRAWN, kilt_castle.LEFT_OUT),
    KoaObservation: (koa_kingmaker.DRAWN, koa_kingmaker.LEFT_OUT),
    ClanFeudObservation: (clan_feud.DRAWN, clan_feud.LEFT_OUT),
}
"""Per observation class: the fields its picture draws and those it leaves out on purpose
(``clangames.testing.svg_checks`` wants every field of the class in exactly one)."""


def has_picture(observation_type: type) -> bool:
    """True if :func:`picture` draws observations of this class."""
    return observation_type in _DRAWERS


def picture(observation: Any, game: Game | None = None) -> str:
    """The SVG document (a string) of ``observation``, as its viewer sees the table.

    ``game`` is the game the observation came from; without it, the game is loaded with
    its default parameters and the number of players the observation shows (a game with
    other parameters, such as its own board file, needs ``game``)."""
    entry = _DRAWERS.get(type(observation))
    if entry is None:
        raise PictureError(
            f"no SVG picture for {type(observation).__name__}; expected an observation of one"
            f" of {sorted(name for _, name, _, _ in _DRAWERS.values())}"
        )
    game_class, name, players, draw = entry
    if game is None:
        game = load(name, players=players(observation))
    elif not isinstance(game, game_class):
        given = game.name if isinstance(game, Game) else repr(game)
        raise PictureError(
            f"a {type(observation).__name__} is drawn with its own game ({name}), not {given}"
        )
    return draw(observation, game)


def state_picture(state: State, seat: int | None = None, everything: bool = False) -> str:
    """``state`` as ``seat`` sees it (None: the public view). ``everything=True`` is the
    analyst's picture: every seat's own view side by side, so every hidden card shows."""
    game = state.game
    if not everything:
        obs = state.public_observation() if seat is None else state.observation(seat)
        return picture(obs, game)
    views = [picture(state.observation(p), game) for p in range(game.num_players)]
    return _side_by_side(views, f"{game.info.title}: every seat's view")


def _side_by_side(documents: list[str], title: str) -> str:
    """Nest whole SVG documents in one, left to right."""
    sizes = [_size(doc) for doc in documents]
    canvas = Canvas(sum(w for w, _ in sizes) + 10 * len(sizes), max(h for _, h in sizes), title)
    x = 0.0
    for doc, (w, _) in zip(documents, sizes, strict=True):
        canvas.parts.append(f'<g transform="translate({x:g},0)">{doc}</g>')
        x += w + 10
    return canvas.svg()


def _size(document: str) -> tuple[float, float]:
    head = document[: document.index(">")]
    width = head.split(' width="', 1)[1].split('"', 1)[0]
    height = head.split(' height="', 1)[1].split('"', 1)[0]
    return float(width), float(height)


def _repr_svg_(observation: Any) -> str:
    return picture(observation)


def _install() -> None:
    for cls in _DRAWERS:
        if not hasattr(cls, "_repr_svg_"):
            cls._repr_svg_ = _repr_svg_  # type: ignore[attr-defined]
    set_svg_drawer(lambda state, seat: state_picture(state, seat))


_install()

__all__ = ["COVERAGE", "PictureError", "has_picture", "picture", "state_picture"]
