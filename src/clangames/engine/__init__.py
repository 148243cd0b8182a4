"""The clangames engine kernel: everything shared by the games, nothing specific to one."""

from clangames.engine.actions import ActionTable
from clangames.engine.chance import play_chance, resolve_chance, sample_chance
from clangames.engine.codec import decode, decoder, encode, parse_json
from clangames.engine.compiled import compiled_modules, is_compiled
from clangames.engine.display import RenderingUnavailableError, set_drawer
from clangames.engine.encoding import (
    ObservationEncodingError,
    ObservationSpec,
    Part,
    TensorWriter,
)
from clangames.engine.errors import (
    ClanGamesError,
    IllegalActionError,
    InvalidActionError,
    InvalidArgumentError,
    InvalidParameterError,
    StateDecodeError,
    UndoError,
    UnknownGameError,
)
from clangames.engine.game import Game, GameInfo, GameSpec, Parameter
from clangames.engine.interop import (
    UTILITY,
    GameFacts,
    InformationState,
    Interop,
    InteropError,
    LengthBounds,
    Utility,
    declare,
)
from clangames.engine.liveness import check_playable
from clangames.engine.match import Match, Policy, Step
from clangames.engine.phases import CHANCE, Phase
from clangames.engine.piles import Multiset, Pile
from clangames.engine.position import Notation, PositionError
from clangames.engine.record import GameRecord, Move
from clangames.engine.registry import clear_load_cache, game_spec, games, load, register
from clangames.engine.rng import Rng
from clangames.engine.rollout import Playout, RolloutError, rollout, rollout_moves, rollout_seats
from clangames.engine.seats import clockwise_from, left_of, next_seat, right_of
from clangames.engine.simultaneous import Commitments
from clangames.engine.state import Action, State
from clangames.engine.statistics import (
    Follower,
    GameStatistics,
    StatisticsError,
    declared_statistics,
)

__all__ = [
    "CHANCE",
    "UTILITY",
    "Action",
    "ActionTable",
    "ClanGamesError",
    "Commitments",
    "Follower",
    "Game",
    "GameFacts",
    "GameInfo",
    "GameRecord",
    "GameSpec",
    "GameStatistics",
    "IllegalActionError",
    "InformationState",
    "Interop",
    "InteropError",
    "InvalidActionError",
    "InvalidArgumentError",
    "InvalidParameterError",
    "LengthBounds",
    "Match",
    "Move",
    "Multiset",
    "Notation",
    "ObservationEncodingError",
    "ObservationSpec",
    "Parameter",
    "Part",
    "Phase",
    "Pile",
    "Playout",
    "Policy",
    "PositionError",
    "RenderingUnavailableError",
    "Rng",
    "RolloutError",
    "State",
    "StateDecodeError",
    "StatisticsError",
    "Step",
    "TensorWriter",
    "UndoError",
    "UnknownGameError",
    "Utility",
    "check_playable",
    "clear_load_cache",
    "clockwise_from",
    "compiled_modules",
    "declare",
    "declared_statistics",
    "decode",
    "decoder",
    "encode",
    "game_spec",
    "games",
    "is_compiled",
    "left_of",
    "load",
    "next_seat",
    "parse_json",
    "play_chance",
    "register",
    "resolve_chance",
    "right_of",
    "rollout",
    "rollout_moves",
    "rollout_seats",
    "sample_chance",
    "set_drawer",
]
