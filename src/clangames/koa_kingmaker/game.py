"""The KOA Kingmaker game object: parameters, declared facts, action tables, registration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clangames.engine.actions import ActionTable
from clangames.engine.bits import bit_tables
from clangames.engine.game import Game, GameInfo, GameSpec, Parameter
from clangames.engine.phases import Phase
from clangames.engine.position import Notation
from clangames.engine.registry import register
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments
from clangames.engine.statistics import GameStatistics
from clangames.koa_kingmaker.actions import (
    DISCARDABLE,
    Discard,
    Inherit,
    KoaAction,
    Nominate,
    Play,
    Recover,
    RecoverNothing,
    Seal,
    build_action_table,
)
from clangames.koa_kingmaker.cards import (
    CHARACTERS,
    KINDS,
    MAX_HOUSES,
    NOMINATION,
    ROYAL,
    CardValues,
    full_set,
    load_cards,
)
from clangames.koa_kingmaker.rules import INHERIT
from clangames.koa_kingmaker.state import KoaState


class KoaGame(Game):
    """KOA Kingmaker for 2 to 5 players; the missing houses are automated households.
    Load it with ``clangames.load("koa_kingmaker", players=...)``."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        n = self.num_players
        self.values: CardValues = load_cards(params["cards"])
        self.houses = MAX_HOUSES if n >= 3 else MAX_HOUSES - 1
        """Houses in the game: five, or four with two players."""
        self.max_number = MAX_HOUSES
        """Inheritance cards are numbered 1..5 (with four houses one stays undealt)."""
        self.seats: tuple[int, ...] = tuple(range(n))
        self.automated: tuple[int, ...] = tuple(range(n, self.houses))
        self.automated_mask = sum(1 << h for h in self.automated)
        self.real_mask = (1 << n) - 1
        self.bits = bit_tables(KINDS)
        self._actions = build_action_table()
        table = self._actions
        self.play_action: tuple[KoaAction, ...] = tuple(
            table.intern(Play(c)) for c in range(NOMINATION)
        ) + tuple(table.intern(Nominate(h)) for h in range(MAX_HOUSES))
        self.seal_action = tuple(table.intern(Seal(c)) for c in range(NOMINATION))
        self.inherit_action: dict[int, KoaAction] = {
            k: table.intern(Inherit(k)) for k in range(1, self.max_number + 1)
        }
        self.recover_action = tuple(table.intern(Recover(c)) for c in range(NOMINATION))
        self.recover_nothing: KoaAction = table.intern(RecoverNothing())
        self.discard_action: dict[int, KoaAction] = {
            c: table.intern(Discard(c)) for c in DISCARDABLE
        }
        self.commit_phase: dict[int, Phase] = {
            mask: Phase.together("commit", self.bits[mask]) for mask in range(1, 1 << n)
        }
        self.return_phase = tuple(Phase.turn("return", h) for h in range(MAX_HOUSES))
        self.discard_phase = tuple(Phase.turn("discard", h) for h in range(MAX_HOUSES))
        self.nobody_played = (NOT_COMMITTED,) * MAX_HOUSES
        values = self.values
        # Automated households keep what is worth most: they take back the character with
        # the highest hand value and give up the court card with the lowest court value
        # (ties: the lower card kind).
        self.recover_preference = tuple(
            sorted(range(NOMINATION), key=lambda c: (-values.hand[c], c))
        )
        self.discard_preference = tuple(sorted(DISCARDABLE, key=lambda c: (values.court[c], c)))
        self.play_memo: dict[int, tuple[KoaAction, ...]] = {}
        """:meth:`play_actions` by the playable cards' mask (the rules read it directly)."""
        self._recover_cache: dict[int, tuple[KoaAction, ...]] = {}
        self._discard_cache: dict[int, tuple[KoaAction, ...]] = {}
        self.seal_memo: dict[int, tuple[tuple[KoaAction, int], ...]] = {}
        """:meth:`seal_weights` by the hand's mask (the rules read it directly)."""
        self.hits_memo: dict[int, tuple[tuple[int, int], ...]] = {}
        """A reveal's hits by the key of its count (see
        :func:`clangames.koa_kingmaker.rules.count_hits`)."""
        self._info = GameInfo(
            name=spec.name,
            title=spec.title,
            num_players=n,
            min_players=spec.min_players,
            max_players=spec.max_players,
            has_chance=True,
            has_simultaneous_moves=True,
            has_hidden_information=True,
            max_game_length=self._length_bound(),
            num_distinct_actions=len(self._actions),
            winners_follow_scores=False,
        )

    def _length_bound(self) -> int:
        """A bound on the number of steps of any game (see docs/games/koa-kingmaker.md).

        Let C be the characters in all hands, G the Golds in hands and K the Royals and
        Jesters in courts. Every round lowers 2 * (5C + G) + K by at least one: a played
        character lowers 5C + G (a Jester by 5 while adding 1 to K; an unstolen Gold that
        takes a card back by 1; a stolen Gold by 6, of which each of at most four fed
        Thieves can win back 1), and a round without characters has a hit that lowers K.
        Each round has at most one step per house for sealing or committing, one per house
        for returns and two per house for hits.
        """
        h = self.houses
        rounds = 2 * (5 * 7 * h + h) + 3 * h
        return h + rounds * 4 * h

    @property
    def info(self) -> GameInfo:
        return self._info

    @property
    def actions(self) -> ActionTable[KoaAction]:
        return self._actions

    @property
    def state_type(self) -> type[KoaState]:
        return KoaState

    def make_notation(self) -> Notation:
        """Positions with cards and houses by name (koa_kingmaker/position.py)."""
        from clangames.koa_kingmaker.position import notation

        return notation(self)

    def statistics(self) -> GameStatistics:
        """KOA Kingmaker's balance statistics (koa_kingmaker/statistics.py)."""
        from clangames.koa_kingmaker.statistics import statistics

        return statistics(self)

    def initial_state(self) -> KoaState:
        """The houses seated: Royalty in court, the other cards in hand, nothing dealt."""
        hands = []
        courts = []
        out_round = []
        for h in range(MAX_HOUSES):
            if h < self.houses:
                full = full_set(h, self.is_automated(h), self.houses)
                hands.append(full & ~(0b111 << ROYAL))
                courts.append(full & 0b111 << ROYAL)
                out_round.append(0)
            else:
                hands.append(0)
                courts.append(0)
                out_round.append(-1)
        return KoaState(
            game=self,
            phase=INHERIT,
            round=0,
            inheritance=(0,) * MAX_HOUSES,
            alive=(1 << self.houses) - 1,
            out_round=tuple(out_round),
            hands=tuple(hands),
            courts=tuple(courts),
            discards=(0,) * MAX_HOUSES,
            centre=(0,) * MAX_HOUSES,
            table=Commitments.open(MAX_HOUSES),
            played=self.nobody_played,
            recovering=(),
            hits=(),
            scored=0,
        )

    def is_automated(self, house: int) -> bool:
        """True for an automated household (a house no player owns)."""
        return bool(self.automated_mask >> house & 1)

    # -- shared action tuples (hot path) ----------------------------------------------------
    def play_actions(self, cards: int) -> tuple[KoaAction, ...]:
        """The commit actions for a bitmask of playable cards, sorted by id."""
        found = self.play_memo.get(cards)
        if found is None:
            found = self.play_memo[cards] = tuple(self.play_action[c] for c in self.bits[cards])
        return found

    def recover_actions(self, cards: int) -> tuple[KoaAction, ...]:
        """Taking back one of the characters in ``cards``, or nothing."""
        found = self._recover_cache.get(cards)
        if found is None:
            found = tuple(self.recover_action[c] for c in self.bits[cards])
            found = self._recover_cache[cards] = (*found, self.recover_nothing)
        return found

    def discard_actions(self, cards: int) -> tuple[KoaAction, ...]:
        """Giving up one of the Royals or the Jester in ``cards``."""
        found = self._discard_cache.get(cards)
        if found is None:
            found = self._discard_cache[cards] = tuple(
                self.discard_action[c] for c in self.bits[cards]
            )
        return found

    def seal_weights(self, hand: int) -> tuple[tuple[KoaAction, int], ...]:
        """Chance outcomes of an automated household's card: each card in hand, weight 1."""
        found = self.seal_memo.get(hand)
        if found is None:
            found = self.seal_memo[hand] = tuple(
                (self.seal_action[c], 1) for c in self.bits[hand & CHARACTERS]
            )
        return found

    def auto_recover(self, options: int) -> int:
        """The character an automated household takes back: the highest hand value."""
        for c in self.recover_preference:
            if options >> c & 1:
                return c
        raise ValueError(f"no character to take back in {options:#x}")

    def auto_discard(self, options: int) -> int:
        """The court card an automated household (or a house with one option) gives up:
        the lowest court value."""
        for c in self.discard_preference:
            if options >> c & 1:
                return c
        raise ValueError(f"no Royal or Jester to give up in {options:#x}")


def _factory(params: Mapping[str, Any]) -> Game:
    return KoaGame(SPEC, params)


SPEC = register(
    GameSpec(
        name="koa_kingmaker",
        title="KOA Kingmaker",
        summary="Five houses play one card each round in secret; hit, block, steal, survive.",
        min_players=2,
        max_players=5,
        parameters=(
            Parameter(
                "players",
                5,
                "number of real players (the other houses are automated households)",
                int,
                minimum=2,
                maximum=5,
            ),
            Parameter(
                "cards",
                None,
                "path of a card values TOML file; None for the bundled one",
                str,
            ),
        ),
        factory=_factory,
    )
)

__all__ = ["SPEC", "KoaGame"]
