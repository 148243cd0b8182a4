"""The Clan Feud game object: parameters, data files, declared facts, the action table,
the lookup tables the rules use on the hot path, and registration."""

from __future__ import annotations

from collections.abc import Mapping
from math import factorial
from typing import Any

from clangames.clan_feud.actions import (
    COLOURS,
    FACE_MAX,
    MAX_COMMIT,
    MAX_OPTIONS,
    MAX_ROLL,
    MAX_TAKE,
    MAX_UPKEEP,
    WORDS,
    Assign,
    BuildSlot,
    ClanFeudAction,
    Commit,
    Discard,
    DrawCard,
    DrawEvent,
    Hits,
    Lose,
    Lot,
    Option,
    PayFeud,
    Place,
    PlayAction,
    PlayCard,
    Raise,
    Reroll,
    Roll,
    Rolled,
    Seat,
    StartAt,
    Take,
    Total,
    ToThree,
    Word,
    build_action_table,
    max_dice,
)
from clangames.clan_feud.board import Board, load_board
from clangames.clan_feud.cards import ActionDeck, EventDeck, load_actions, load_events
from clangames.clan_feud.effects import Or
from clangames.clan_feud.england import EnglandTrack, load_england
from clangames.clan_feud.interpret import child_nodes, number_nodes
from clangames.clan_feud.rules import assign_candidates, assign_plans
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.actions import ActionTable
from clangames.engine.errors import InvalidParameterError
from clangames.engine.game import Game, GameInfo, GameSpec, Parameter
from clangames.engine.position import Notation
from clangames.engine.registry import register
from clangames.engine.statistics import GameStatistics

DECK_SIZE = {2: 8, 3: 7, 4: 6, 5: 6}
"""Regular events in the event deck by player count (King James Comes of Age below)."""


def _check_or_width(events: EventDeck) -> None:
    from clangames.clan_feud.cards import expressions

    for where, expr in expressions(events):
        stack = [expr]
        while stack:
            e = stack.pop()
            if isinstance(e, Or) and len(e.options) > MAX_OPTIONS:
                raise InvalidParameterError(
                    f"events {events.source}: {where} offers {len(e.options)} options;"
                    f" at most {MAX_OPTIONS} are supported"
                )
            for attr in ("items", "options"):
                stack.extend(getattr(e, attr, ()))
            body = getattr(e, "body", None)
            if body is not None:
                stack.append(body)


def _check_card_draws(deck: ActionDeck) -> None:
    """A phase (1) or (3) card that draws cards could be played again and again without
    end (each play discards one and draws another): the game's length would have no
    bound. Only phase (2) cards, one per die, may draw."""
    from clangames.clan_feud.playing import draws_cards

    for d in deck.designs:
        if d.timing.window != "P2.assign" and draws_cards(d.action):
            raise InvalidParameterError(
                f"actions {deck.source}: {d.id} draws cards in {d.timing.window} (a bonus"
                " Intrigue action draws too); only a P2.assign card (one per die) may draw, or"
                " plays could go on without end"
            )


class ClanFeudGame(Game):
    """Clan Feud for 2 to 5 players. Load it with ``clangames.load("clan_feud", ...)``."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        # Everything is loaded and checked before anything is kept: nothing half-loaded.
        board = load_board(params["board"])
        events = load_events(params["events"])
        deck = load_actions(params["actions"])
        events.check_board(board)
        deck.check_board(board)
        _check_card_draws(deck)
        _check_or_width(events)
        if len(events.regular) < DECK_SIZE[self.num_players]:
            raise InvalidParameterError(
                f"clan_feud: events {events.source} has {len(events.regular)} regular events;"
                f" {self.num_players} players draw {DECK_SIZE[self.num_players]}"
            )
        self.board: Board = board
        self.events: EventDeck = events
        self.deck: ActionDeck = deck
        england = load_england(params["england"])
        start = params["england_start"]
        if not 0 <= start <= england.last_step:
            raise InvalidParameterError(
                f"clan_feud: england_start {start} is off the England track; expected a step"
                f" 0..{england.last_step}"
            )
        self.england: EnglandTrack = england
        self.england_start: int = start
        """The track's step at set-up (the rulebook's 0; a higher one brings war sooner,
        so that tests and the conformance harness reach it)."""
        self.deck_size = DECK_SIZE[self.num_players]
        self.seat_count: int = self.num_players
        """``num_players`` as a plain attribute: the rules read it on the hot path, where
        the kernel's property (a parameter lookup) costs a call."""
        table = build_action_table(board, deck, events)
        self._actions = table
        self.words: dict[str, ClanFeudAction] = {w: table.intern(Word(w)) for w in WORDS}
        self.seat_actions = tuple(table.intern(Seat(s)) for s in range(5))
        self.lot_actions = tuple(table.intern(Lot(s)) for s in range(5))
        self.place_actions = tuple(table.intern(Place(t)) for t in range(board.size))
        self.start_actions = tuple(table.intern(StartAt(t)) for t in range(board.size))
        self.assign_actions: dict[tuple[int, int, int, int], ClanFeudAction] = {
            (a.colour, a.value, a.column, a.level): a
            for a in table.actions
            if isinstance(a, Assign)
        }
        self.assign_table: tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...] = tuple(
            tuple(
                tuple(
                    tuple(self.assign_actions.get((c, v, col, lvl)) for lvl in range(4))
                    for col in range(5)
                )
                for v in range(1, 4)
            )
            for c in range(len(COLOURS))
        )
        """The assignment actions by colour, value - 1, column and level (None: none)."""
        self.assign_candidates = assign_candidates(self.assign_table)
        """Per dice-pool index, what a die there may do (see rules.assign_candidates)."""
        self.assign_plans = assign_plans(self.assign_candidates)
        """What each assignment action does (see rules.assign_plan), by its identity."""
        self.assign_memo: dict[int, tuple[ClanFeudAction, ...]] = {}
        """A die's assignments per pool index and open slots (see rules.die_assignments)."""
        self.raise_actions: dict[tuple[int, int], ClanFeudAction] = {
            (a.colour, a.value): a for a in table.actions if isinstance(a, Raise)
        }
        self.three_actions: dict[int, ClanFeudAction] = {
            a.colour: a for a in table.actions if isinstance(a, ToThree)
        }
        self.raise_by_die = tuple(
            tuple(
                self.raise_actions.get((i // 3, i % 3 + 1)) if i % 3 == 0 or high else None
                for i in range(3 * len(COLOURS))
            )
            for high in (False, True)
        )
        """Per Feud level above I (False, True) and dice-pool index, the raise of a die
        there (None: none at that level), for picking from a pool in C."""
        self.three_by_die = tuple(
            self.three_actions.get(i // 3) if i % 3 == 0 and i // 3 != 1 else None
            for i in range(3 * len(COLOURS))
        )
        """Per dice-pool index, Feud III's turning of a 1 into a 3 (None: none; never a
        black die)."""
        self.build_actions: dict[tuple[int, int], ClanFeudAction] = {
            (a.column, a.slot): a for a in table.actions if isinstance(a, BuildSlot)
        }
        self.take_actions = tuple(
            tuple(table.intern(Take(k, kind)) for k in range(MAX_TAKE + 1)) for kind in range(3)
        )
        self.option_actions = {k: table.intern(Option(k)) for k in range(1, MAX_OPTIONS + 1)}
        designs = len(deck.designs)
        self.card_actions = tuple(table.intern(PlayCard(d)) for d in range(designs))
        self.discard_actions = tuple(table.intern(Discard(d)) for d in range(designs))
        self.draw_actions = tuple(table.intern(DrawCard(d)) for d in range(designs))
        self.commit_actions = tuple(table.intern(Commit(k)) for k in range(MAX_COMMIT + 1))
        self.roll_actions = {k: table.intern(Roll(k)) for k in range(1, MAX_ROLL + 1)}
        self.lose_actions = tuple(table.intern(Lose(k)) for k in range(3))
        self.pay_actions = tuple(table.intern(PayFeud(k)) for k in range(MAX_UPKEEP + 1))
        self.event_actions = tuple(table.intern(DrawEvent(e)) for e in range(len(events.regular)))
        self.event_outcomes = tuple((action, 1) for action in self.event_actions)
        """Each regular event's draw with its weight: the draw's outcomes are those not
        drawn yet (rules._draw_event_weights picks them in C)."""
        totals = [a for a in table.actions if isinstance(a, Total)]
        self.total_actions = tuple(totals)
        self.roll_table = self._roll_table(table, board)
        self.white_sums = tuple(self._white_sums(m) for m in range(5))
        exprs = [e for card in events.regular for e in (card.each_player, card.objective)]
        exprs.append(events.final.scoring)
        # the action cards' actions come after the events', so event node numbers stay
        exprs += [d.action for d in deck.designs]
        self.nodes, self.node_index = number_nodes(exprs)
        self.node_children = child_nodes(self.nodes, self.node_index)
        """Per node number, its sub-expressions' numbers (see interpret.child_nodes)."""
        self.objective_nodes = tuple(self.node_index[c.objective] for c in events.regular)
        self.each_player_nodes = tuple(self.node_index[c.each_player] for c in events.regular)
        # the cards' module builds on the rules, imported above
        from clangames.clan_feud.playing import (
            always_changes,
            card_candidates,
            card_info,
            card_masks,
            die_only_plays,
            held_of,
        )

        self.card_info = tuple(card_info(d, self.node_index[d.action]) for d in deck.designs)
        """Per design, its window, program node, die filter and modifiers (part 3)."""
        self.window_designs = {
            window: tuple(d for d, info in enumerate(self.card_info) if info.window == window)
            for window in ("P1.before_order", "P1.after_roll", "P2.assign", "P3.upkeep")
        }
        """The designs of each timing window, in design order."""
        self.card_candidates = tuple(
            card_candidates(info, self.assign_candidates) for info in self.card_info
        )
        """Per design, the assignments its die filter allows (see playing.card_candidates)."""
        self.card_masks = tuple(card_masks(c) for c in self.card_candidates)
        """Per design, its candidates folded into slot masks (see playing.card_masks)."""
        self.die_only = die_only_plays(self.card_info, self.card_candidates)
        """Per design, the ids of the assignments it may go with when its die needs nothing
        from the card, and whether it needs troops to move (None: the die needs the card;
        see playing.die_only_plays)."""
        self.always_changes = tuple(always_changes(d.action) for d in deck.designs)
        """Per design, whether its action changes the game in every position (then a play
        is offered without working that out; see playing.always_changes)."""
        self.window_held = {
            window: held_of(designs) for window, designs in self.window_designs.items()
        }
        """Per timing window, the designs of it that a hand holds (see playing.held_of)."""
        self.play_actions = tuple(table.intern(PlayAction(d)) for d in range(designs))
        self.reroll_actions = tuple(
            table.intern(Reroll(c, v)) if v <= FACE_MAX[c] else None
            for c in range(len(COLOURS))
            for v in range(1, 4)
        )
        """Per dice-pool index (``3 * colour + value - 1``), the reroll pick (None: no
        such face)."""
        self._hits: dict[tuple[int, bool], tuple[tuple[ClanFeudAction, int], ...]] = {}
        self._max_length = self._length_bound()
        self._info = GameInfo(
            name=spec.name,
            title=spec.title,
            num_players=self.num_players,
            min_players=spec.min_players,
            max_players=spec.max_players,
            has_chance=True,
            has_simultaneous_moves=True,
            has_hidden_information=True,
            max_game_length=self._max_length,
            num_distinct_actions=len(table),
        )

    def _roll_table(
        self, table: ActionTable[ClanFeudAction], board: Board
    ) -> tuple[tuple[tuple[tuple[ClanFeudAction, int], ...], ...], ...]:
        """Per colour and die count, each outcome's action and weight."""
        from clangames.clan_feud.rules import roll_weights

        most = max_dice(board)
        out = []
        for c in range(len(COLOURS)):
            rows: list[tuple[tuple[ClanFeudAction, int], ...]] = [()]
            for n in range(1, most[c] + 1):
                rows.append(
                    tuple(
                        (table.intern(Rolled(c, o, t, h)), wt) for o, t, h, wt in roll_weights(c, n)
                    )
                )
            out.append(tuple(rows))
        return tuple(out)

    def _white_sums(self, m: int) -> tuple[tuple[ClanFeudAction, int], ...]:
        """The sum of ``m`` white dice (faces 1, 1, 1, 2, 2, 3) as Total outcomes."""
        dist = {0: 1}
        for _ in range(m):
            nxt: dict[int, int] = {}
            for total, wt in dist.items():
                for face, ways in ((1, 3), (2, 2), (3, 1)):
                    nxt[total + face] = nxt.get(total + face, 0) + wt * ways
            dist = nxt
        return tuple((self.total_actions[k], wt) for k, wt in sorted(dist.items()))

    def hit_table(self, dice: int, two_is_three: bool) -> tuple[tuple[ClanFeudAction, int], ...]:
        """Casualty dice: (Hits(loser, winner), weight) for ``dice`` white dice; a 1 hits
        the loser, a 2 both (only the winner with ``two_is_three``), a 3 the winner.
        Kept per game object: the outcomes must be this table's own shared actions."""
        key = (dice, two_is_three)
        table = self._hits.get(key)
        if table is None:
            table = self._hits[key] = self._hit_outcomes(dice, two_is_three)
        return table

    def _hit_outcomes(
        self, dice: int, two_is_three: bool
    ) -> tuple[tuple[ClanFeudAction, int], ...]:
        found: dict[tuple[int, int], int] = {}
        for ones in range(dice + 1):
            for twos in range(dice - ones + 1):
                threes = dice - ones - twos
                ways = factorial(dice) // (factorial(ones) * factorial(twos) * factorial(threes))
                wt = ways * 3**ones * 2**twos
                loser = ones + (0 if two_is_three else twos)
                key = (loser, twos + threes)
                found[key] = found.get(key, 0) + wt
        return tuple(
            (self._actions.intern(Hits(lo, wi)), wt) for (lo, wi), wt in sorted(found.items())
        )

    def _length_bound(self) -> int:
        """An upper bound of a game's steps (decisions, commitments and chance outcomes):
        twice the decision bound plus the chance bound of :mod:`clangames.clan_feud.bounds`
        (``game_budget``, which derives both from the loaded files). A step is a decision,
        a chance outcome or one seat's sealed commitment, and the decision bound counts a
        simultaneous round (a battle's two sides committing cards, or tokens) once, so it
        is at most two steps. The per-turn bound used before (every die charged every
        column, every battle the longest: 4.0M-7.1M steps) was over 80 times larger and
        left out the cards' extra armies and speed, which the budgets count."""
        from clangames.clan_feud.bounds import game_budget

        budget = game_budget(self)
        return 2 * budget.decisions + budget.chance

    @property
    def info(self) -> GameInfo:
        """Players, chance, simultaneous moves, hidden hands, sizes and the length bound."""
        return self._info

    @property
    def actions(self) -> ActionTable[ClanFeudAction]:
        """Every distinct action, in id order."""
        return self._actions

    @property
    def state_type(self) -> type[ClanFeudState]:
        """The state class, for decoding saved states."""
        return ClanFeudState

    def make_notation(self) -> Notation:
        """Positions with territories, cards, events and dice by name (clan_feud/position.py)."""
        from clangames.clan_feud.position import notation

        return notation(self)

    def statistics(self) -> GameStatistics:
        """Clan Feud's balance statistics (clan_feud/statistics.py)."""
        from clangames.clan_feud.statistics import statistics

        return statistics(self)

    def initial_state(self) -> ClanFeudState:
        """A chance node that deals the start territories, then the first turn order."""
        from clangames.clan_feud.rules import initial_state

        return initial_state(self)


def _factory(params: Mapping[str, Any]) -> Game:
    """Build the game from checked parameters (the registry calls this)."""
    return ClanFeudGame(SPEC, params)


SPEC = register(
    GameSpec(
        name="clan_feud",
        title="Clan Feud",
        summary="Clans roll dice to build, raise armies and fight over Scotland for the boy king.",
        min_players=2,
        max_players=5,
        parameters=(
            Parameter("players", 4, "number of players", int, minimum=2, maximum=5),
            Parameter("board", None, "path of a board TOML file; None for the bundled map", str),
            Parameter("events", None, "path of an events TOML file; None for the bundled", str),
            Parameter("actions", None, "path of an actions TOML file; None for the bundled", str),
            Parameter(
                "england", None, "path of an England track TOML file; None for the bundled", str
            ),
            Parameter("england_start", 0, "the England track's step at set-up", int, minimum=0),
        ),
        factory=_factory,
    )
)
