"""The King's Kilt game object: parameters, declared facts, action tables, registration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clangames.engine.actions import ActionTable
from clangames.engine.bits import bit_tables
from clangames.engine.errors import InvalidParameterError
from clangames.engine.game import Game, GameInfo, GameSpec, Parameter
from clangames.engine.position import Notation
from clangames.engine.registry import register
from clangames.engine.statistics import GameStatistics
from clangames.kings_kilt.actions import (
    Advance,
    Betray,
    Draw,
    Fill,
    KingsKiltAction,
    Pass,
    Reveal,
    build_action_table,
)
from clangames.kings_kilt.components import PLAYER_COUNTS, Components, load_components
from clangames.kings_kilt.pyramid import Pyramid, pyramid
from clangames.kings_kilt.scoring import scoring_points
from clangames.kings_kilt.setup import initial_state
from clangames.kings_kilt.state import KingsKiltState

BETRAYAL_MATCH = ("traitor", "target")


class KingsKiltGame(Game):
    """King's Kilt for 2 to 4 players. Load it with ``clangames.load("kings_kilt", ...)``."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        # load_components refuses a file that cannot be dealt with any player count the
        # game allows (PLAYER_COUNTS), so only the seat parameter is left to check here.
        self.components: Components = load_components(params["components"])
        comps = self.components
        n = self.num_players
        if not 0 <= params["first_player"] < n:
            raise InvalidParameterError(
                f"kings_kilt: first_player must be a seat 0..{n - 1}, got {params['first_player']}"
            )
        self.clans: tuple[str, ...] = comps.clan_names
        self.geo: Pyramid = pyramid(comps.base_width)
        self.hand_size = comps.hand_size(n)
        self.betray_by_traitor = params["betrayal_match"] == "traitor"
        self._actions = build_action_table(self.clans, self.geo)
        geo, k = self.geo, len(self.clans)
        table = self._actions
        # Shared action objects by position/clan, so the hot path only indexes tuples.
        self.draw_action = tuple(table.intern(Draw(c)) for c in range(k))
        self.draw_memo: dict[tuple[int, ...], tuple[tuple[KingsKiltAction, int], ...]] = {}
        """The chance outcomes of a draw from a pile part, by its counts (see
        :func:`turn.chance_weights`): a playout draws from the same few piles again and again."""
        self.reveal_action = tuple(table.intern(Reveal(c)) for c in range(k))
        self.pass_action: KingsKiltAction = table.intern(Pass())
        self.advance_action: tuple[tuple[KingsKiltAction | None, KingsKiltAction | None], ...]
        self.advance_action = tuple(
            (
                table.intern(Advance(geo.row[p], geo.index[p], "left"))
                if geo.up_left[p] >= 0
                else None,
                table.intern(Advance(geo.row[p], geo.index[p], "right"))
                if geo.up_right[p] >= 0
                else None,
            )
            for p in range(geo.size)
        )
        self.fill_action = tuple(
            table.intern(Fill(geo.row[p], geo.index[p])) if geo.row[p] < geo.width else None
            for p in range(geo.size)
        )
        self.betray_action = tuple(
            tuple(table.intern(Betray(c, geo.row[p], geo.index[p])) for c in range(k))
            for p in range(geo.size)
        )
        self.bits = bit_tables(k)
        self.scoring_points = scoring_points(self)
        """The positions a card scores from for its clan's family cards, with the points."""
        # Positions are stored row by row: row r is one slice of the pyramid tuple.
        self.row_span: dict[int, slice] = {
            r: slice(min(ps), max(ps) + 1)
            for r in range(1, geo.width + 1)
            for ps in [geo.row_positions(r)]
        }
        # The rows whose first card sets a flag for good, with their slice and the flag.
        self.trigger_rows: tuple[tuple[int, slice, str], ...] = tuple(
            (row, self.row_span.get(row, slice(0)), field)
            for row, field in (
                (geo.nobleman_row, "nobles_triggered"),
                (geo.guardian_row, "guardians_triggered"),
                (geo.king_row, "crowned"),
            )
        )
        self.top_rows_from = geo.width - 2  # rows >= this are the top three rows
        # Positions are stored row by row, so the top three rows are a suffix.
        self.top_from_pos = min(p for p in range(geo.size) if geo.row[p] >= self.top_rows_from)
        self.betray_by_mask: tuple[tuple[tuple[KingsKiltAction, ...], ...], ...] = tuple(
            tuple(tuple(self.betray_action[p][c] for c in bits) for bits in self.bits)
            for p in range(geo.size)
        )
        comps_total = comps.cards_per_clan * k
        total_influence = self.hand_size * n
        # Length bound (see docs/games/kings-kilt.md): every advance raises the sum of
        # card heights, which is at most sum(r * cards in row r); a betrayal lowers it by
        # at most `width`. Each turn has at most `width - 1` fills and one pile reveal.
        height_cap = sum(r * (geo.width - r + 1) for r in range(1, geo.width + 1))
        turns = height_cap + total_influence * (geo.width + 1) + n
        setup = comps.family_size * n + total_influence + geo.width + 1
        self._max_length = setup + turns * (geo.width + 2) + 2 * n * comps.family_size
        self._info = GameInfo(
            name=spec.name,
            title=spec.title,
            num_players=n,
            min_players=spec.min_players,
            max_players=spec.max_players,
            has_chance=True,
            has_simultaneous_moves=False,
            has_hidden_information=True,
            max_game_length=self._max_length,
            num_distinct_actions=len(self._actions),
        )
        self.total_cards = comps_total

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def actions(self) -> ActionTable[KingsKiltAction]:
        return self._actions

    @property
    def state_type(self) -> type[KingsKiltState]:
        return KingsKiltState

    def statistics(self) -> GameStatistics:
        """King's Kilt's balance statistics (kings_kilt/statistics.py)."""
        from clangames.kings_kilt.statistics import statistics

        return statistics(self)

    def initial_state(self) -> KingsKiltState:
        return initial_state(self)

    def make_notation(self) -> Notation:
        """Positions in clan names (kings_kilt/position.py)."""
        from clangames.kings_kilt.position import notation

        return notation(self)

    def clan_name(self, clan: int) -> str:
        """The name of clan ``clan``."""
        return self.clans[clan]


def _factory(params: Mapping[str, Any]) -> Game:
    return KingsKiltGame(SPEC, params)


SPEC = register(
    GameSpec(
        name="kings_kilt",
        title="King's Kilt",
        summary="Clans climb a card pyramid; advance, betray, crown a King, then pass.",
        min_players=PLAYER_COUNTS[0],
        max_players=PLAYER_COUNTS[-1],
        parameters=(
            Parameter(
                "players",
                3,
                "number of players",
                int,
                minimum=PLAYER_COUNTS[0],
                maximum=PLAYER_COUNTS[-1],
            ),
            Parameter("first_player", 0, "the seat that takes the first turn", int, minimum=0),
            Parameter(
                "betrayal_match",
                "traitor",
                "whose clan the Influence card must match to betray in the top three rows:"
                " the betraying card's ('traitor', the rulings) or the betrayed card's ('target')",
                str,
                choices=BETRAYAL_MATCH,
            ),
            Parameter(
                "components",
                None,
                "path of a components TOML file; None for the bundled one",
                str,
            ),
        ),
        factory=_factory,
    )
)
