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
    Game,
    GameInfo,
    GameRecord,
    GameSpec,
    IllegalActionError,
    InvalidActionError,
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
    UndoError,
    UnknownGameError,
    game_spec,
    games,
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

# Built-in games register themselves on import.
from clangames import clan_feud, kilt_castle, kings_kilt, koa_kingmaker  # noqa: F401  isort: skip


def _draw(state: State, seat: int | None, width: int | None) -> str:
    """The kernel's drawing hook until the rendering layer is loaded: it loads it on the
    first picture asked for (and that layer then installs its own drawer), so importing
    clangames does not pay for the terminal library."""
    from clangames.rendering.plain import render_state

    return render_state(state, seat, width)


set_drawer(_draw)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "Action",
    "ClanGamesError",
    "Commitments",
    "Game",
    "GameInfo",
    "GameRecord",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
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
    "UndoError",
    "UnknownGameError",
    "__version__",
    "game_spec",
    "games",
    "load",
    "play_chance",
    "register",
    "resolve_chance",
    "rollout",
    "rollout_moves",
    "rollout_seats",
    "sample_chance",
]
