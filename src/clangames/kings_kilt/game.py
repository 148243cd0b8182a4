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
from clangames.kings_kilt.components import Components, load_components
from clangames.kings_kilt.pyramid import Pyramid, pyramid
from clangames.kings_kilt.setup import initial_state
from clangames.kings_kilt.state import KingsKiltState

BETRAYAL_MATCH = ("traitor", "target")


class KingsKiltGame(Game):
    """King's Kilt for 2 to 4 players. Load it with ``clangames.load("kings_kilt", ...)``."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        self.components: Components = load_components(params["components"])
        comps = self.components
        n = self.num_players
        if n not in comps.influence:
            raise InvalidParameterError(
                f"kings_kilt: the components give no Influence hand size for {n} players"
                f" (they cover {sorted(comps.influence)})"
            )
        if not 0 <= params["first_player"] < n:
            raise InvalidParameterError(
                f"kings_kilt: first_player must be a seat 0..{n - 1}, got {params['first_player']}"
            )
        if comps.family_from_deck * n > len(comps.clans):
            raise InvalidParameterError(
                f"kings_kilt: {n} players need {comps.family_from_deck * n} cards from the"
                f" one-per-clan deck but there are only {len(comps.clans)} clans"
            )
        _check_enough_cards(comps, n)
        self.clans: tuple[str, ...] = comps.clan_names
        self.geo: Pyramid = pyramid(comps.base_width)
        self.hand_size = comps.hand_size(n)
        self.betray_by_traitor = params["betrayal_match"] == "traitor"
        self._actions = build_action_table(self.clans, self.geo)
        geo, k = self.geo, len(self.clans)
        table = self._actions
        # Shared action objects by position/clan, so the hot path only indexes tuples.
        self.draw_action = tuple(table.intern(Draw(c)) for c in range(k))
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

    def initial_state(self) -> KingsKiltState:
        return initial_state(self)

    def make_notation(self) -> Notation:
        """Positions in clan names (kings_kilt/position.py)."""
        from clangames.kings_kilt.position import notation

        return notation(self)

    def clan_name(self, clan: int) -> str:
        """The name of clan ``clan``."""
        return self.clans[clan]


def _check_enough_cards(comps: Components, n: int) -> None:
    """Refuse components whose setup could run out of cards with ``n`` players: the third
    family card must always find a clan the player lacks, the hands must be dealt in full
    and the draw pile must still hold the pyramid's base."""
    k = len(comps.clans)
    extra = comps.family_size - comps.family_from_deck
    # Dealing a third-deal card to a player who holds at most family_size - 1 clans: at
    # least members_per_clan - 1 of every other clan were there before the third deal.
    outside = (comps.members_per_clan - 1) * (k - comps.family_size + 1)
    if outside < extra * n:
        raise InvalidParameterError(
            f"kings_kilt: with {n} players the components may run out of Clan Members of a"
            f" new clan while topping families up to {comps.family_size}"
        )
    hand = comps.hand_size(n)
    members_left = comps.members_per_clan * k - comps.family_size * n
    if members_left < hand * n:
        raise InvalidParameterError(
            f"kings_kilt: {n} Influence hands of {hand} need {hand * n} Clan Members, only"
            f" {members_left} are left after the families"
        )
    pile = members_left - hand * n + comps.leaders_per_clan * k
    if pile < comps.base_width:
        raise InvalidParameterError(
            f"kings_kilt: the draw pile holds {pile} cards after the deal, fewer than the"
            f" {comps.base_width} the pyramid's bottom row needs"
        )


def _factory(params: Mapping[str, Any]) -> Game:
    return KingsKiltGame(SPEC, params)


SPEC = register(
    GameSpec(
        name="kings_kilt",
        title="King's Kilt",
        summary="Clans climb a card pyramid; advance, betray, crown a King, then pass.",
        min_players=2,
        max_players=4,
        parameters=(
            Parameter("players", 3, "number of players", int, minimum=2, maximum=4),
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
