"""clangames: complete, fast, reproducible rules for four tabletop games about Scottish clans.

>>> import clangames
>>> game = clangames.load("kings_kilt", players=3)
>>> state = clangames.resolve_chance(game.initial_state(), clangames.Rng(42))
>>> state.to_move
(0,)
"""

from clangames.engine import (
    CHANCE,
    Action,
    ClanGamesError,
    Commitments,
    Follower,
    Game,
    GameInfo,
    GameRecord,
    GameSpec,
    GameStatistics,
    IllegalActionError,
    InvalidActionError,
    InvalidArgumentError,
    InvalidParameterError,
    Match,
    Move,
    Multiset,
    Parameter,
    Phase,
    Pile,
    Playout,
    Policy,
    PositionError,
    Rng,
    RolloutError,
    State,
    StateDecodeError,
    StatisticsError,
    UndoError,
    UnknownGameError,
    compiled_modules,
    game_spec,
    games,
    is_compiled,
    load,
    play_chance,
    register,
    resolve_chance,
    rollout,
    rollout_moves,
    rollout_seats,
    sample_chance,
)
from clangames.engine.display import set_drawer
from clangames.engine.pictures import set_svg_drawer

# Built-in games register themselves on import.
from clangames import clan_feud, kilt_castle, kings_kilt, koa_kingmaker  # noqa: F401  isort: skip


def _draw(state: State, seat: int | None, width: int | None) -> str:
    """The kernel's drawing hook until the rendering layer is loaded: it loads it on the
    first picture asked for (and that layer then installs its own drawer), so importing
    clangames does not pay for the terminal library."""
    from clangames.rendering.plain import render_state

    return render_state(state, seat, width)


set_drawer(_draw)


def _draw_svg(state: State, seat: int | None) -> str:
    """Stand-in SVG drawer: imports the SVG pictures on the first one asked for (which
    then install their own drawer and give observations their ``_repr_svg_``)."""
    from clangames.rendering.svg import state_picture

    return state_picture(state, seat)


set_svg_drawer(_draw_svg)


def _observation_svg(observation: object) -> str:
    """Stand-in ``_repr_svg_`` of observations (a picture in Jupyter), loading the SVG
    pictures on first use."""
    from clangames.rendering.svg import picture

    return picture(observation)


def _give_observations_svg() -> None:
    from clangames.clan_feud.observation import ClanFeudObservation
    from clangames.kilt_castle.observation import KiltCastleObservation
    from clangames.kings_kilt.observation import KingsKiltObservation
    from clangames.koa_kingmaker.observation import KoaObservation

    for cls in (ClanFeudObservation, KiltCastleObservation, KingsKiltObservation, KoaObservation):
        setattr(cls, "_repr_svg_", _observation_svg)  # noqa: B010 - a class hook


_give_observations_svg()

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "Action",
    "ClanGamesError",
    "Commitments",
    "Follower",
    "Game",
    "GameInfo",
    "GameRecord",
    "GameSpec",
    "GameStatistics",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidArgumentError",
    "InvalidParameterError",
    "Match",
    "Move",
    "Multiset",
    "Parameter",
    "Phase",
    "Pile",
    "Playout",
    "Policy",
    "PositionError",
    "Rng",
    "RolloutError",
    "State",
    "StateDecodeError",
    "StatisticsError",
    "UndoError",
    "UnknownGameError",
    "__version__",
    "compiled_modules",
    "game_spec",
    "games",
    "is_compiled",
    "load",
    "play_chance",
    "register",
    "resolve_chance",
    "rollout",
    "rollout_moves",
    "rollout_seats",
    "sample_chance",
]
