"""A tiny but complete game on the kernel, and faulty variants of it for the harness tests.

Toy Duel, for two players. A deck holds five cards of three kinds (two "low", two "mid",
one "high"). Chance deals each player one hidden card, seat 0 then seat 1. Seat 0 then
chooses the stake (1 or 2). Chance turns up a public community card from the rest of the
deck. Both players then secretly bid 0..``max_bid`` at once (a bid may not exceed the
bidder's card rank, low = 1, mid = 2, high = 3); bids stay sealed until both are in.

Scoring: a player's card is worth its rank, times the stake if the player bid strictly
more than the other; a card of the community card's kind is worth 2 more; the bid is paid
out of the points. Most points wins; ties share the win.

The game exercises every piece of the kernel: a Multiset deck with collapsed identical
cards, a sequential decision, a chance node after a decision (undo must stop there), a
simultaneous node with sealed Commitments, and a terminal with shared wins.

``toy_duel`` is the correct game. ``toy_duel_faulty`` takes a ``fault`` parameter naming
one way of breaking the kernel's contract; ``check_game`` must catch each of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import attrs

from clangames.engine import registry
from clangames.engine.actions import ActionTable
from clangames.engine.errors import IllegalActionError, StateDecodeError
from clangames.engine.game import Game, GameInfo, GameSpec, Parameter
from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.engine.registry import canonical_name, register
from clangames.engine.rng import Rng
from clangames.engine.seats import left_of
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments
from clangames.engine.state import State

KINDS = ("low", "mid", "high")
DECK = Multiset((2, 2, 1))
STAKES = (1, 2)
MAX_LENGTH = 6  # two deals, the stake, the community card, two bids


@attrs.frozen(slots=True, cache_hash=True)
class Draw:
    """Chance: a card of kind ``kind`` comes off the deck."""

    kind: int


@attrs.frozen(slots=True, cache_hash=True)
class Stake:
    """Seat 0 sets the multiplier for the winner of the bidding."""

    amount: int


@attrs.frozen(slots=True, cache_hash=True)
class Bid:
    """A sealed bid of ``amount`` points."""

    amount: int


ToyAction = Draw | Stake | Bid


def _text(action: ToyAction) -> str:
    if isinstance(action, Draw):
        return f"draw {KINDS[action.kind]}"
    if isinstance(action, Stake):
        return f"stake {action.amount}"
    return f"bid {action.amount}"


@attrs.frozen(slots=True)
class ToyObservation:
    """What one seat (``viewer`` -1: everyone) may know of a Toy Duel state."""

    viewer: int
    phase: str
    to_move: tuple[int, ...]
    card: int
    """The viewer's own card, -1 if not dealt yet (or in the public view)."""
    opponent_card: int
    """The other card: -1 until the showdown at the end."""
    community: int
    deck_size: int
    stake: int
    committed: tuple[bool, ...]
    bids: tuple[int, ...]
    """The viewer's own sealed bid; everyone's once the game is over."""


@attrs.frozen(slots=True)
class ToyState(State):
    """A Toy Duel position. Kinds are indices into ``KINDS``; -1 means "none yet"."""

    game: ToyGame = attrs.field(repr=False, metadata={"json": False})
    phase: Phase
    deck: Multiset
    cards: tuple[int, int]
    community: int
    stake: int
    commitments: Commitments

    # -- rules -----------------------------------------------------------------------------
    def bid_cap(self, player: int) -> int:
        """The highest bid ``player`` may make: their card's rank, at most ``max_bid``."""
        return min(self.game.max_bid, self.cards[player] + 1)

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        if self.phase.name == "stake":
            return self.game.stake_actions
        return self.game.bid_actions[: self.bid_cap(player) + 1]

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        if not self.phase.is_chance:
            return ()
        draws = self.game.draw_actions
        return tuple((draws[k], n) for k, n in self.deck.draw_weights())

    def _apply(self, action: Any, player: int) -> ToyState:
        name = self.phase.name
        if name == "deal":
            deck = self.deck.remove(action.kind)
            if self.cards[0] < 0:
                return attrs.evolve(self, deck=deck, cards=(action.kind, -1))
            return attrs.evolve(
                self, deck=deck, cards=(self.cards[0], action.kind), phase=Phase.turn("stake", 0)
            )
        if name == "stake":
            return attrs.evolve(self, stake=action.amount, phase=Phase.chance("flip"))
        if name == "flip":
            return attrs.evolve(
                self,
                deck=self.deck.remove(action.kind),
                community=action.kind,
                phase=Phase.together("bid", (0, 1)),
            )
        commitments = self.commitments.commit(player, self.game.action_id(action))
        waiting = commitments.waiting((0, 1))
        phase = Phase.together("bid", waiting) if waiting else Phase.over()
        return attrs.evolve(self, commitments=commitments, phase=phase)

    def explain_illegal(self, action: Any, player: int) -> str:
        """Why ``action`` is not allowed (the bid cap gets its own sentence)."""
        if isinstance(action, Bid) and self.phase.name == "bid":
            return f"player {player} may bid at most {self.bid_cap(player)}, not {action.amount}"
        return f"{self.game.action_text(action)!r} is not allowed now ({self.prompt()})"

    # -- results ---------------------------------------------------------------------------
    def bids(self) -> tuple[int, int]:
        """The sealed bids by seat, as amounts (-1 for no bid yet)."""
        amount = self.game.bid_amount
        ids = self.commitments.ids
        return (amount.get(ids[0], -1), amount.get(ids[1], -1))

    def scores(self) -> tuple[int, ...]:
        """Points per seat; 0 for both until the game is over."""
        if not self.is_terminal:
            return (0, 0)
        bids = self.bids()
        out = []
        for p in (0, 1):
            rank = self.cards[p] + 1
            o = left_of(p, 2)
            points = rank * (self.stake if bids[p] > bids[o] else 1)
            points += 2 if self.cards[p] == self.community else 0
            out.append(points - bids[p])
        return tuple(out)

    def winners(self) -> tuple[int, ...]:
        """The seats with the most points (ties share); empty before the end."""
        if not self.is_terminal:
            return ()
        scores = self.scores()
        best = max(scores)
        return tuple(p for p in (0, 1) if scores[p] == best)

    # -- views -------------------------------------------------------------------------------
    def observation(self, player: int) -> ToyObservation:
        """Seat ``player``'s view: own card and own sealed bid; the rest at the end."""
        over = self.is_terminal
        return ToyObservation(
            viewer=player,
            phase=self.phase.name,
            to_move=self.to_move,
            card=self.cards[player],
            opponent_card=self.cards[left_of(player, 2)] if over else -1,
            community=self.community,
            deck_size=len(self.deck),
            stake=self.stake,
            committed=self.commitments.committed(),
            bids=self.commitments.ids if over else self.commitments.seen_by(player),
        )

    def public_observation(self) -> ToyObservation:
        """What everyone may know: the stake, the community card, who has bid."""
        over = self.is_terminal
        return ToyObservation(
            viewer=-1,
            phase=self.phase.name,
            to_move=self.to_move,
            card=-1,
            opponent_card=-1,
            community=self.community,
            deck_size=len(self.deck),
            stake=self.stake,
            committed=self.commitments.committed(),
            bids=self.commitments.ids if over else (NOT_COMMITTED, NOT_COMMITTED),
        )

    def resample(self, player: int, rng: Rng) -> ToyState:
        """Re-deal the other seat's hidden card from the cards ``player`` has not seen, and
        redraw its sealed bid (if any) among the bids that card allows."""
        other = left_of(player, 2)
        if self.is_terminal or self.cards[other] < 0:
            return self
        pool = self.deck.add(self.cards[other])
        weights = pool.draw_weights()
        index, rng = rng.weighted([n for _, n in weights])
        kind = weights[index][0]
        cards = list(self.cards)
        cards[other] = kind
        new = attrs.evolve(self, deck=pool.remove(kind), cards=(cards[0], cards[1]))
        if self.commitments.has_committed(other):
            bid, rng = rng.below(new.bid_cap(other) + 1)
            ids = list(self.commitments.ids)
            ids[other] = self.game.action_id(self.game.bid_actions[bid])
            new = attrs.evolve(new, commitments=Commitments(tuple(ids)))
        return new

    def describe(self, action: Any) -> str:
        """A sentence for people."""
        if isinstance(action, Draw):
            who = {"flip": "the community card"}.get(self.phase.name, "a hidden card")
            return f"{who} is a {KINDS[action.kind]} card"
        if isinstance(action, Stake):
            return f"the bidding winner's card will count {action.amount} times"
        return f"secretly bid {action.amount} points"

    def prompt(self) -> str:
        """What is being decided now."""
        return {
            "deal": "a card is dealt face down",
            "stake": "seat 0 chooses the stake",
            "flip": "the community card is turned up",
            "bid": "both seats bid in secret",
        }.get(self.phase.name, "the game is over")

    def check_consistency(self) -> None:
        """Every card is accounted for, and the phase matches what has happened."""
        if any(c < -1 or c >= len(KINDS) for c in (*self.cards, self.community)):
            raise StateDecodeError(f"state.cards: unknown card kind in {self.cards!r}")
        seen = [c for c in (*self.cards, self.community) if c >= 0]
        try:
            rest = DECK.difference(Multiset.from_kinds(len(KINDS), seen))
        except ValueError:
            raise StateDecodeError(f"state.cards: more cards than the deck holds: {seen}") from None
        if rest != self.deck:
            raise StateDecodeError(f"state.deck: expected {rest!r}, got {self.deck!r}")
        if self.stake not in (0, *STAKES):
            raise StateDecodeError(f"state.stake: expected 0, 1 or 2, got {self.stake}")
        for p, i in enumerate(self.commitments.ids):
            if i != NOT_COMMITTED and i not in self.game.bid_ids[: self.bid_cap(p) + 1]:
                raise StateDecodeError(f"state.commitments.ids[{p}]: {i} is not a legal bid")


class ToyGame(Game):
    """Toy Duel, loaded; ``fault`` (only for ``toy_duel_faulty``) picks a broken variant."""

    def __init__(self, spec: GameSpec, params: Mapping[str, Any]) -> None:
        super().__init__(spec, params)
        self.max_bid: int = params["max_bid"]
        self.fault: str = params.get("fault", "none")
        actions: list[ToyAction] = [Draw(k) for k in range(len(KINDS))]
        actions += [Stake(a) for a in STAKES]
        actions += [Bid(b) for b in range(self.max_bid + 1)]
        self._actions = ActionTable(actions, _text)
        self.draw_actions = tuple(self._actions.intern(Draw(k)) for k in range(len(KINDS)))
        self.stake_actions = tuple(self._actions.intern(Stake(a)) for a in STAKES)
        self.bid_actions = tuple(self._actions.intern(Bid(b)) for b in range(self.max_bid + 1))
        self.bid_ids = tuple(self._actions.id(b) for b in self.bid_actions)
        self.bid_amount = {i: b for b, i in enumerate(self.bid_ids)}
        """Action id of a bid -> its amount."""
        self._info = GameInfo(
            name=spec.name,
            title=spec.title,
            num_players=2,
            min_players=2,
            max_players=2,
            has_chance=True,
            has_simultaneous_moves=True,
            has_hidden_information=True,
            max_game_length=MAX_LENGTH,
            num_distinct_actions=len(self._actions),
        )

    @property
    def info(self) -> GameInfo:
        """Declared facts: 2 players, chance, simultaneous bids, hidden cards, 6 steps."""
        return self._info

    @property
    def actions(self) -> ActionTable[ToyAction]:
        """Draws, stakes, then bids."""
        return self._actions

    @property
    def state_type(self) -> type[ToyState]:
        """The state class (a faulty one for ``toy_duel_faulty``)."""
        return FAULTS[self.fault]

    def initial_state(self) -> ToyState:
        """Nothing dealt yet: the first chance node."""
        return self.state_type(
            game=self,
            phase=Phase.chance("deal"),
            deck=DECK,
            cards=(-1, -1),
            community=-1,
            stake=0,
            commitments=Commitments.open(2),
        )


# -- faulty variants: each breaks one promise of the kernel's contract ---------------------


@attrs.frozen(slots=True)
class LeakCard(ToyState):
    """The observation shows the opponent's hidden card."""

    def observation(self, player: int) -> ToyObservation:
        """Leaks ``cards[other]``."""
        obs = ToyState.observation(self, player)
        return attrs.evolve(obs, opponent_card=self.cards[left_of(player, 2)])


@attrs.frozen(slots=True)
class LeakBid(ToyState):
    """The observation shows sealed bids before both are in."""

    def observation(self, player: int) -> ToyObservation:
        """Leaks every commitment."""
        return attrs.evolve(ToyState.observation(self, player), bids=self.commitments.ids)


@attrs.frozen(slots=True)
class LegalPeek(ToyState):
    """A bid is capped by the *opponent's* card, which the bidder cannot see."""

    def bid_cap(self, player: int) -> int:
        """Reads the wrong seat's card."""
        return min(self.game.max_bid, self.cards[left_of(player, 2)] + 1)


@attrs.define
class Notebook:
    """A mutable scrap of state: what a buggy game scribbles into while checking."""

    entries: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class MutateOnIllegal(ToyState):
    """Explaining an illegal action writes into a mutable object that is part of the JSON."""

    notes: Notebook = attrs.field(factory=Notebook, eq=False, hash=False)

    def explain_illegal(self, action: Any, player: int) -> str:
        """Writes into ``notes`` (the bug) before explaining."""
        self.notes.entries += (repr(action),)
        return ToyState.explain_illegal(self, action, player)


@attrs.frozen(slots=True)
class MutateOnApply(ToyState):
    """Applying a *legal* action writes into a mutable object shared by every state."""

    notes: Notebook = attrs.field(factory=Notebook, eq=False, hash=False)

    def _apply(self, action: Any, player: int) -> ToyState:
        """Writes into ``notes`` (the bug), then applies."""
        self.notes.entries += (repr(action),)
        return ToyState._apply(self, action, player)


@attrs.frozen(slots=True)
class ListsRejected(ToyState):
    """Lists every bid, but ``_apply`` rejects the ones above the cap."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        if self.phase.name == "bid":
            return self.game.bid_actions
        return ToyState._legal(self, player)

    def _apply(self, action: Any, player: int) -> ToyState:
        if isinstance(action, Bid) and action.amount > self.bid_cap(player):
            raise IllegalActionError(f"bid {action.amount} is above the cap")
        return ToyState._apply(self, action, player)


@attrs.frozen(slots=True)
class Unsorted(ToyState):
    """Legal actions in decreasing id order."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        return tuple(reversed(ToyState._legal(self, player)))


@attrs.frozen(slots=True)
class ChanceSum(ToyState):
    """Chance probabilities that sum to less than 1."""

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Divides by one more than the total weight."""
        weights = self._chance_weights()
        total = sum(w for _, w in weights) + 1
        return tuple((a, Fraction(w, total)) for a, w in weights)


@attrs.frozen(slots=True)
class ZeroWeight(ToyState):
    """Lists kinds with no card left as chance outcomes of weight 0."""

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        if not self.phase.is_chance:
            return ()
        draws = self.game.draw_actions
        return tuple((draws[k], n) for k, n in enumerate(self.deck.counts))


@attrs.frozen(slots=True)
class ChanceEverywhere(ToyState):
    """Gives the deck's draw weights at every node, not only at chance nodes."""

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        draws = self.game.draw_actions
        return tuple((draws[k], n) for k, n in self.deck.draw_weights())


@attrs.frozen(slots=True)
class BadJson(ToyState):
    """``to_json`` writes the stake off by one, so it does not round trip."""

    def to_json(self) -> dict[str, Any]:
        """The stake is wrong in the output."""
        data = ToyState.to_json(self)
        data["state"]["stake"] = (self.stake + 1) % 3
        return data


@attrs.frozen(slots=True)
class Endless(ToyState):
    """Bidding starts over after every round: the game never ends."""

    def _apply(self, action: Any, player: int) -> ToyState:
        new = ToyState._apply(self, action, player)
        if new.is_terminal:
            return attrs.evolve(
                new, phase=Phase.together("bid", (0, 1)), commitments=Commitments.open(2)
            )
        return new


@attrs.frozen(slots=True)
class BadReturns(ToyState):
    """Pays a full win to every seat."""

    def returns(self) -> tuple[float, ...]:
        """1.0 each at the end."""
        return (1.0, 1.0) if self.is_terminal else (0.0, 0.0)


@attrs.frozen(slots=True)
class DuplicateWinners(ToyState):
    """Lists each winner twice (its returns, computed from the distinct seats, are fine)."""

    def winners(self) -> tuple[int, ...]:
        """Each winning seat twice."""
        return tuple(p for p in ToyState.winners(self) for _ in range(2))

    def returns(self) -> tuple[float, ...]:
        """1/k for the k distinct winners."""
        won = set(self.winners())
        if not self.is_terminal:
            return (0.0, 0.0)
        return tuple(1.0 / len(won) if p in won else 0.0 for p in (0, 1))


@attrs.frozen(slots=True)
class LowestWins(ToyState):
    """The fewest points win, although the game declares that winners follow scores."""

    def winners(self) -> tuple[int, ...]:
        """The seats with the least points."""
        if not self.is_terminal:
            return ()
        scores = self.scores()
        worst = min(scores)
        return tuple(p for p in (0, 1) if scores[p] == worst)


@attrs.frozen(slots=True)
class EmptyPrompt(ToyState):
    """Says nothing about what is being decided."""

    def prompt(self) -> str:
        """An empty prompt."""
        return ""


@attrs.frozen(slots=True)
class EmptyDescription(ToyState):
    """Describes actions with an empty sentence."""

    def describe(self, action: Any) -> str:
        """An empty description."""
        return ""


@attrs.frozen(slots=True)
class SilentRefusal(ToyState):
    """Refuses illegal actions without saying why."""

    def explain_illegal(self, action: Any, player: int) -> str:
        """An empty reason."""
        return ""


@attrs.frozen(slots=True)
class CrashingRefusal(ToyState):
    """Crashes with a KeyError while explaining an illegal action."""

    def explain_illegal(self, action: Any, player: int) -> str:
        """Looks the action up in an empty table."""
        reasons: dict[Any, str] = {}
        return reasons[action]


@attrs.frozen(slots=True)
class LegalForEveryone(ToyState):
    """Hands the stake choice to seat 1 too, although only seat 0 is to move."""

    def legal_actions(self, player: int | None = None) -> tuple[Any, ...]:
        """The stakes for every seat at the stake node."""
        if self.phase.name == "stake" and player is not None and player >= 0:
            return self.game.stake_actions
        return ToyState.legal_actions(self, player)


@attrs.frozen(slots=True)
class NoBids(ToyState):
    """A low card allows no bid at all, yet its holder must bid."""

    def bid_cap(self, player: int) -> int:
        """One less than the card's kind: -1 (nothing) for a low card."""
        return min(self.game.max_bid, self.cards[player]) - 1


@attrs.frozen(slots=True)
class SeatOutOfRange(ToyState):
    """Gives the stake to seat 2 of a 2-player game."""

    def _apply(self, action: Any, player: int) -> ToyState:
        new = ToyState._apply(self, action, player)
        if new.phase.name == "stake":
            return attrs.evolve(new, phase=Phase.turn("stake", 2))
        return new


@attrs.frozen(slots=True)
class NoOutcomes(ToyState):
    """A chance node that reports no outcomes (its legal actions still list the draws)."""

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Nothing."""
        return ()


@attrs.frozen(slots=True)
class UnencodableJson(ToyState):
    """``to_json`` puts a Python set in the data."""

    def to_json(self) -> dict[str, Any]:
        """Adds a set, which JSON cannot hold."""
        return {**ToyState.to_json(self), "extra": {1, 2}}


@attrs.frozen(slots=True)
class UnencodableObservation(ToyState):
    """The observation is a dict holding a set, which the codec cannot encode."""

    def observation(self, player: int) -> Any:
        """A set of the player's card."""
        return {"card": {self.cards[player]}}


@attrs.frozen(slots=True)
class InconsistentResample(ToyState):
    """Re-deals the opponent's card but forgets to take it out of the deck."""

    def resample(self, player: int, rng: Rng) -> ToyState:
        """The deck keeps its old contents."""
        return attrs.evolve(ToyState.resample(self, player, rng), deck=self.deck)


@attrs.frozen(slots=True)
class UncheckedSeat(ToyState):
    """Its observation is put on the class after the kernel has checked the class's
    seat-taking methods, so seat -1 reads the last seat's card."""


def _unchecked_observation(self: ToyState, player: int) -> ToyObservation:
    """The toy's own observation without the kernel's seat check."""
    own: Any = ToyState.observation
    return own.__wrapped__(self, player)  # type: ignore[no-any-return]


UncheckedSeat.observation = _unchecked_observation  # type: ignore[method-assign]


_FAVOURED = [0]
"""Nondeterminism on purpose: each new game favours another card kind."""


@attrs.frozen(slots=True)
class Nondeterministic(ToyState):
    """Chance weights depend on a module-level counter bumped by every new game."""

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        if not self.phase.is_chance:
            return ()
        draws = self.game.draw_actions
        favoured = _FAVOURED[0] % len(KINDS)
        return tuple(
            (draws[k], n * (10**6 if k == favoured else 1)) for k, n in self.deck.draw_weights()
        )


class NondeterministicGame(ToyGame):
    """Its ``initial_state`` bumps the module-level counter."""

    def initial_state(self) -> ToyState:
        """A new game: another kind becomes (almost certainly) the first card dealt."""
        _FAVOURED[0] += 1
        return ToyGame.initial_state(self)


FAULTS: dict[str, type[ToyState]] = {
    "none": ToyState,
    "leak_card": LeakCard,
    "leak_bid": LeakBid,
    "legal_peek": LegalPeek,
    "mutate": MutateOnIllegal,
    "mutate_on_apply": MutateOnApply,
    "lists_rejected": ListsRejected,
    "unsorted": Unsorted,
    "chance_sum": ChanceSum,
    "zero_weight": ZeroWeight,
    "chance_everywhere": ChanceEverywhere,
    "bad_json": BadJson,
    "endless": Endless,
    "bad_returns": BadReturns,
    "duplicate_winners": DuplicateWinners,
    "lowest_wins": LowestWins,
    "nondeterministic": Nondeterministic,
    "empty_prompt": EmptyPrompt,
    "empty_description": EmptyDescription,
    "silent_refusal": SilentRefusal,
    "crashing_refusal": CrashingRefusal,
    "legal_for_everyone": LegalForEveryone,
    "no_bids": NoBids,
    "seat_out_of_range": SeatOutOfRange,
    "no_outcomes": NoOutcomes,
    "unencodable_json": UnencodableJson,
    "unencodable_observation": UnencodableObservation,
    "inconsistent_resample": InconsistentResample,
    "unchecked_seat": UncheckedSeat,
}
"""The state class of each ``fault`` of ``toy_duel_faulty``."""


def _factory(params: Mapping[str, Any]) -> Game:
    return ToyGame(SPEC, params)


def _faulty_factory(params: Mapping[str, Any]) -> Game:
    if params["fault"] == "nondeterministic":
        return NondeterministicGame(FAULTY_SPEC, params)
    return ToyGame(FAULTY_SPEC, params)


_PARAMETERS = (
    Parameter("players", 2, "number of players (always 2)", int, minimum=2, maximum=2),
    Parameter("max_bid", 2, "the highest bid anyone may make", int, minimum=1, maximum=3),
    Parameter(
        "scoring", "standard", "the scoring rule (only one exists)", str, choices=("standard",)
    ),
)

SPEC = GameSpec(
    name="toy_duel",
    title="Toy Duel",
    summary="Test-only: hidden cards, a stake, a community card, sealed bids.",
    min_players=2,
    max_players=2,
    parameters=_PARAMETERS,
    factory=_factory,
)

FAULTY_SPEC = GameSpec(
    name="toy_duel_faulty",
    title="Toy Duel (faulty)",
    summary="Test-only: Toy Duel broken in the way the 'fault' parameter names.",
    min_players=2,
    max_players=2,
    parameters=(
        *_PARAMETERS,
        Parameter("fault", "none", "which contract to break", str, choices=tuple(FAULTS)),
    ),
    factory=_faulty_factory,
)


def toy(**params: Any) -> ToyGame:
    """Toy Duel with ``params``, built without the registry (usable at import time)."""
    game = SPEC.factory(SPEC.resolve(params))
    assert isinstance(game, ToyGame)
    return game


def faulty(fault: str, **params: Any) -> ToyGame:
    """Toy Duel broken in the way ``fault`` names, built without the registry."""
    game = FAULTY_SPEC.factory(FAULTY_SPEC.resolve({**params, "fault": fault}))
    assert isinstance(game, ToyGame)
    return game


@contextmanager
def registered() -> Iterator[None]:
    """Register the toy games while the block runs, and remove them afterwards.

    The toys are test-only: left in the process-wide registry they would show up in every
    other test that lists ``clangames.games()`` (CLI listings, benchmarks, demos), so this
    removes the entries it added itself.
    """
    known = {spec.name for spec in registry.games()}
    added = []
    for spec in (SPEC, FAULTY_SPEC):
        if canonical_name(spec.name) not in known:
            register(spec)
            added.append(spec.name)
    try:
        yield
    finally:
        for name in added:
            registry.unregister(name)


# -- more faulty variants (the harness's mutation audit): each breaks one promise that only
# -- one check of the harness guards, so a check that stops checking lets its toy through.


from clangames.engine.errors import InvalidArgumentError  # noqa: E402 (appended block)


def _as_plain(state: ToyState) -> ToyState:
    """``state`` rebuilt as a plain ToyState (another class than the faulty one)."""
    return ToyState(
        game=state.game,
        phase=state.phase,
        deck=state.deck,
        cards=state.cards,
        community=state.community,
        stake=state.stake,
        commitments=state.commitments,
    )


@attrs.frozen(slots=True)
class StuckAtEnd(ToyState):
    """``is_terminal`` stays False at the end, where nobody is to move."""

    @property
    def is_terminal(self) -> bool:
        """Never over."""
        return False


@attrs.frozen(slots=True)
class ChanceUnflagged(ToyState):
    """``is_chance`` stays False at the chance nodes."""

    @property
    def is_chance(self) -> bool:
        """Never chance."""
        return False


@attrs.frozen(slots=True)
class BoolWeights(ToyState):
    """A kind with one card left gets the weight True (a bool, not an integer)."""

    def _chance_weights(self) -> tuple[tuple[ToyAction, int], ...]:
        return tuple((a, True if n == 1 else n) for a, n in ToyState._chance_weights(self))


@attrs.frozen(slots=True)
class ChanceListsEmptyKinds(ToyState):
    """``legal_actions(CHANCE)`` lists every kind, also those with no card left (the
    chance weights list only the ones that can come)."""

    def legal_actions(self, player: int | None = None) -> tuple[Any, ...]:
        """Every draw at a chance node."""
        if self.phase.is_chance and player in (None, -1):
            return self.game.draw_actions
        return ToyState.legal_actions(self, player)


@attrs.frozen(slots=True)
class DuplicateLegal(ToyState):
    """Lists the first stake twice."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        legal = ToyState._legal(self, player)
        return (legal[0], *legal) if self.phase.name == "stake" else legal


@attrs.frozen(slots=True)
class LossyJson(ToyState):
    """``to_json`` writes stake 2 as 1, which reads back (and writes again) as stake 1."""

    def to_json(self) -> dict[str, Any]:
        """The stake is capped at 1 in the output."""
        data = ToyState.to_json(self)
        data["state"]["stake"] = min(self.stake, 1)
        return data


@attrs.frozen(slots=True)
class JsonNotCanonical(ToyState):
    """``to_json`` writes the object's identity, so an equal state writes other JSON."""

    def to_json(self) -> dict[str, Any]:
        """Adds ``written_by``: this object's id."""
        return {**ToyState.to_json(self), "written_by": id(self)}


@attrs.frozen(slots=True, unsafe_hash=False)
class UnstableHash(ToyState):
    """Hashes by identity, so equal states have different hashes."""

    def __hash__(self) -> int:
        return id(self)


@attrs.frozen(slots=True)
class AcceptsIllegalBid(ToyState):
    """Applies any bid of a player to move, also one above the player's cap."""

    def _check(self, action: Any, player: int | None) -> int:
        if isinstance(action, Bid) and self.phase.name == "bid" and player in self.to_move:
            assert player is not None
            return player
        return ToyState._check(self, action, player)


@attrs.frozen(slots=True)
class AnyoneMayStake(ToyState):
    """Applies a stake from seat 1 too, though only seat 0 chooses it."""

    def _check(self, action: Any, player: int | None) -> int:
        if isinstance(action, Stake) and self.phase.name == "stake" and player == 1:
            return 1
        return ToyState._check(self, action, player)


@attrs.frozen(slots=True)
class AcceptsNone(ToyState):
    """Takes None (not an action) as "the first legal action"."""

    def apply(self, action: Any, player: int | None = None) -> State:
        """None applies the first legal action."""
        if action is None:
            action = self.legal_actions(player)[0]
        return ToyState.apply(self, action, player)


@attrs.frozen(slots=True)
class SeatMinusOne(ToyState):
    """Its own seat check (put on the class after the kernel's) refuses seats beyond the
    last and non-integers, but lets -1 through: it reads the last seat's card."""


def _observation_minus_one(self: ToyState, player: int) -> ToyObservation:
    if type(player) is not int or player >= self.game.num_players:
        raise InvalidArgumentError(f"observation: {player!r} is not a seat")
    return _unchecked_observation(self, player)


SeatMinusOne.observation = _observation_minus_one  # type: ignore[method-assign]


@attrs.frozen(slots=True)
class SilentSeatRefusal(ToyState):
    """Refuses a bad seat in ``observation`` (its own check, put on the class after the
    kernel's) with an InvalidArgumentError that says nothing."""


def _observation_silent(self: ToyState, player: int) -> ToyObservation:
    if type(player) is not int or not 0 <= player < self.game.num_players:
        raise InvalidArgumentError("")
    return _unchecked_observation(self, player)


SilentSeatRefusal.observation = _observation_silent  # type: ignore[method-assign]


@attrs.frozen(slots=True)
class ResampleTakesAnyRng(ToyState):
    """Its ``resample`` (put on the class after the kernel's checks) checks the seat but
    not the generator: ``resample(0, 12)`` is answered where nothing is hidden."""


def _resample_any_rng(self: ToyState, player: int, rng: Rng) -> ToyState:
    if type(player) is not int or not 0 <= player < self.game.num_players:
        raise InvalidArgumentError(f"resample: {player!r} is not a seat")
    own: Any = ToyState.resample
    return own.__wrapped__(self, player, rng)  # type: ignore[no-any-return]


ResampleTakesAnyRng.resample = _resample_any_rng  # type: ignore[method-assign]


@attrs.frozen(slots=True)
class LeakToSeatOne(ToyState):
    """Seat 1's observation shows seat 0's card (seat 0's is correct)."""

    def observation(self, player: int) -> ToyObservation:
        """Leaks ``cards[0]`` to seat 1."""
        obs = ToyState.observation(self, player)
        return attrs.evolve(obs, opponent_card=self.cards[0]) if player == 1 else obs


@attrs.frozen(slots=True)
class ResampleDropsAMover(ToyState):
    """Its observations do not say who is to move, and ``resample(p)`` at the open bidding
    leaves only p to move (p's view and legal actions stay the same)."""

    def observation(self, player: int) -> ToyObservation:
        """Without ``to_move``."""
        return attrs.evolve(ToyState.observation(self, player), to_move=())

    def resample(self, player: int, rng: Rng) -> ToyState:
        """Drops the other bidder from ``to_move``."""
        new = ToyState.resample(self, player, rng)
        if self.phase.name == "bid" and len(self.to_move) == 2:
            return attrs.evolve(new, phase=Phase.together("bid", (player,)))
        return new


@attrs.frozen(slots=True)
class ResampleLosesClass(ToyState):
    """``resample`` returns a plain ToyState, not a state of its own class."""

    def resample(self, player: int, rng: Rng) -> ToyState:
        """The same state, of another class."""
        return _as_plain(ToyState.resample(self, player, rng))


@attrs.frozen(slots=True)
class ApplyLosesClass(ToyState):
    """``apply`` of a stake returns a plain ToyState, not a state of its own class."""

    def _apply(self, action: Any, player: int) -> ToyState:
        new = ToyState._apply(self, action, player)
        return _as_plain(new) if isinstance(action, Stake) else new


@attrs.frozen(slots=True)
class UnencodablePublicObservation(ToyState):
    """The public observation holds a set, which the codec cannot encode (the seats'
    observations are fine)."""

    def public_observation(self) -> Any:
        """A set of the community card."""
        return {"community": {self.community}}


@attrs.frozen(slots=True)
class MaskExtra(ToyState):
    """``legal_mask`` also marks the last action id, which is never legal at a stake."""

    def legal_mask(self, player: int | None = None) -> tuple[bool, ...]:
        """One id too many at the stake."""
        mask = ToyState.legal_mask(self, player)
        return (*mask[:-1], True) if self.phase.name == "stake" else mask


@attrs.frozen(slots=True)
class MaskShifted(ToyState):
    """``legal_mask`` marks the ids one below the legal ones (as many, all wrong)."""

    def legal_mask(self, player: int | None = None) -> tuple[bool, ...]:
        """Shifted by one id."""
        mask = ToyState.legal_mask(self, player)
        return (*mask[1:], mask[0])


@attrs.frozen(slots=True)
class MaskLong(ToyState):
    """``legal_mask`` has one entry more than there are action ids."""

    def legal_mask(self, player: int | None = None) -> tuple[bool, ...]:
        """A trailing False."""
        return (*ToyState.legal_mask(self, player), False)


@attrs.frozen(slots=True)
class UniformOutcomes(ToyState):
    """Chance probabilities uniform over the kinds left, whatever their counts (they sum
    to 1 but are not the weights' ratios)."""

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """1/k for each of k kinds."""
        weights = self.chance_weights()
        return tuple((a, Fraction(1, len(weights))) for a, _ in weights)


@attrs.frozen(slots=True)
class OutcomesReversed(ToyState):
    """Chance outcomes listed in decreasing id order (the legal actions increase)."""

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Reversed."""
        return tuple(reversed(ToyState.chance_outcomes(self)))


@attrs.frozen(slots=True)
class FloatProbabilities(ToyState):
    """Chance probabilities as floats (inexact), not Fractions."""

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """The right values, as floats."""
        return tuple((a, float(p)) for a, p in ToyState.chance_outcomes(self))  # type: ignore[misc]


@attrs.frozen(slots=True)
class _PaysRealWinners(ToyState):
    """Returns that pay the real winners, whoever the faulty ``winners`` below names."""

    def returns(self) -> tuple[float, ...]:
        """1/k for the k real winners."""
        won = ToyState.winners(self)
        if not self.is_terminal:
            return (0.0, 0.0)
        return tuple(1.0 / len(won) if p in won else 0.0 for p in (0, 1))


@attrs.frozen(slots=True)
class WinnerOutOfRange(_PaysRealWinners):
    """Names seat 2 of a 2-player game among the winners (the returns are right)."""

    def winners(self) -> tuple[int, ...]:
        """The real winners, and seat 2."""
        won = ToyState.winners(self)
        return (*won, 2) if won else won


@attrs.frozen(slots=True)
class NoWinner(_PaysRealWinners):
    """Names no winner at the end (the returns still pay the real ones)."""

    def winners(self) -> tuple[int, ...]:
        """Nobody."""
        return ()


@attrs.frozen(slots=True)
class ExtraReturn(ToyState):
    """Returns one entry more than there are seats (a 0.0 for a seat that does not exist)."""

    def returns(self) -> tuple[float, ...]:
        """The right returns and a 0.0."""
        return (*ToyState.returns(self), 0.0)


_EDITIONS = [0]
"""Nondeterminism on purpose: the first move of every game stamps a new edition."""


@attrs.frozen(slots=True)
class StampsEdition(ToyState):
    """Its first move stamps a new edition number (from a module-level counter) into the
    state: every game plays the same moves to another final state."""

    edition: int = 0

    def _apply(self, action: Any, player: int) -> ToyState:
        new = ToyState._apply(self, action, player)
        if self.edition == 0:
            _EDITIONS[0] += 1
            return attrs.evolve(new, edition=_EDITIONS[0])
        return new


@attrs.frozen(slots=True)
class ExplainNamesCard(ToyState):
    """Its reason for refusing an action names the other seat's hidden card."""

    def explain_illegal(self, action: Any, player: int) -> str:
        """The toy's own reason, and the other seat's card (the leak)."""
        other = left_of(player, 2)
        held = KINDS[self.cards[other]] if self.cards[other] >= 0 else "nothing"
        return f"{ToyState.explain_illegal(self, action, player)}; player {other} holds {held}"


@attrs.frozen(slots=True)
class UnsortedAnew(ToyState):
    """Hands out the game's shared tuple of stakes, except when the first card dealt is
    the low one: then a new tuple of the same stakes in decreasing id order. A harness
    that remembered the shared tuple as sorted must still check the new one."""

    def _legal(self, player: int) -> tuple[ToyAction, ...]:
        legal = ToyState._legal(self, player)
        if self.phase.name == "stake" and self.cards[0] == 0:
            return tuple(reversed(legal))
        return legal


FAULTS.update(
    {
        "explain_names_card": ExplainNamesCard,
        "unsorted_anew": UnsortedAnew,
        "stuck_at_end": StuckAtEnd,
        "chance_unflagged": ChanceUnflagged,
        "bool_weights": BoolWeights,
        "chance_lists_empty_kinds": ChanceListsEmptyKinds,
        "duplicate_legal": DuplicateLegal,
        "lossy_json": LossyJson,
        "json_not_canonical": JsonNotCanonical,
        "unstable_hash": UnstableHash,
        "accepts_illegal_bid": AcceptsIllegalBid,
        "anyone_may_stake": AnyoneMayStake,
        "accepts_none": AcceptsNone,
        "seat_minus_one": SeatMinusOne,
        "silent_seat_refusal": SilentSeatRefusal,
        "resample_takes_any_rng": ResampleTakesAnyRng,
        "leak_to_seat_one": LeakToSeatOne,
        "resample_drops_a_mover": ResampleDropsAMover,
        "resample_loses_class": ResampleLosesClass,
        "apply_loses_class": ApplyLosesClass,
        "unencodable_public_observation": UnencodablePublicObservation,
        "mask_extra": MaskExtra,
        "mask_shifted": MaskShifted,
        "mask_long": MaskLong,
        "uniform_outcomes": UniformOutcomes,
        "outcomes_reversed": OutcomesReversed,
        "float_probabilities": FloatProbabilities,
        "winner_out_of_range": WinnerOutOfRange,
        "no_winner": NoWinner,
        "extra_return": ExtraReturn,
        "stamps_edition": StampsEdition,
    }
)

FAULTY_SPEC = attrs.evolve(
    FAULTY_SPEC,
    parameters=(
        *_PARAMETERS,
        Parameter("fault", "none", "which contract to break", str, choices=tuple(FAULTS)),
    ),
)
"""The faulty toy's spec again, offering the faults above too (``registered``, ``faulty``
and the factory read this name when they run)."""


def counting_spec(name: str, calls: list[object], *extra: Parameter) -> GameSpec:
    """A Toy Duel spec whose factory notes the parameters of each game it builds."""

    def factory(params: Mapping[str, Any]) -> Game:
        calls.append(dict(params))
        plain = {k: v for k, v in params.items() if k in {p.name for p in SPEC.parameters}}
        return ToyGame(spec, plain)

    spec = GameSpec(
        name=name,
        title=name,
        summary="",
        min_players=2,
        max_players=2,
        parameters=(*SPEC.parameters, *extra),
        factory=factory,
    )
    return spec
