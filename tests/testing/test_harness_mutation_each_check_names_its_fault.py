"""Each of the harness's checks is the one that catches its fault (the harness's mutation
audit): a toy game breaks exactly one promise that only that check guards, and the harness
must reject it under that check's name with a message that names the offending input. A
check that stopped checking (a dropped comparison, a bound off by one, a skipped seat) lets
its toy through or hands it to a vaguer check further on, and fails here.

The cheap checks promise to run on every state, so their faults are also caught with the
full checks switched off entirely."""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.game import Game
from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng
from clangames.engine.seats import left_of
from clangames.engine.state import State
from clangames.testing import ConformanceError, check_game, conformance
from testing import toys

PLAYOUTS = 60
SEED = 11

# fault -> (the check that must catch it, a fragment of the message naming the input)
FAULTS = {
    "stuck_at_end": ("flow", "is_terminal is False but to_move is ()"),
    "chance_unflagged": ("flow", "is_chance is False but to_move is (-1,)"),
    "bool_weights": ("chance-exact", "has weight True"),
    "chance_lists_empty_kinds": ("chance", "legal_actions(CHANCE) differs from the chance weights"),
    "duplicate_legal": ("legal-sorted", "legal actions of player 0"),
    "lossy_json": ("json-roundtrip", "not an equal state"),
    "json_not_canonical": ("json-roundtrip", "not an equal state"),
    "unstable_hash": ("hash", "different hashes"),
    "accepts_illegal_bid": ("illegal-rejected", "Bid(amount=2) was applied without an error"),
    "anyone_may_stake": ("illegal-rejected", "from seat 1 (not to move): Stake(amount=1)"),
    "accepts_none": ("illegal-rejected", "malformed: None was applied without an error"),
    "seat_minus_one": ("bad-seat", "observation(-1) was answered"),
    "silent_seat_refusal": ("error-message", "observation(2): InvalidArgumentError with no"),
    "resample_takes_any_rng": ("bad-seat", "resample(0, 12) was answered"),
    "leak_to_seat_one": ("resample-leak", "resample(1) changed player 1's observation"),
    "resample_drops_a_mover": ("resample-leak", "legal actions or who is to move"),
    "resample_loses_class": ("resample", "returned a state of another game"),
    "apply_loses_class": ("legal-applies", "apply(Stake(amount=1)) returned ToyState"),
    "unencodable_public_observation": ("observation-json", "public_observation()"),
    "mask_extra": ("legal-mask", "legal_mask(0)"),
    "mask_shifted": ("legal-mask", "does not match legal_actions"),
    "mask_long": ("legal-mask", "does not match legal_actions"),
    "uniform_outcomes": ("chance-weights", "has probability 1/3 but weight 2/5"),
    "outcomes_reversed": ("chance", "differs from the chance outcomes"),
    "float_probabilities": ("chance-exact", "has probability 0.4"),
    "winner_out_of_range": ("winners", "(0, 2)"),
    "no_winner": ("winners", "at least one: ()"),
    "extra_return": ("returns", "(1.0, 0.0, 0.0)"),
    "explain_names_card": ("explain-private", "changed under resample("),
}

CHEAP = [
    ("seat_out_of_range", "flow"),
    ("stuck_at_end", "flow"),
    ("chance_unflagged", "flow"),
    ("legal_for_everyone", "legal-only-to-move"),
    ("no_bids", "legal-exist"),
    ("unsorted", "legal-sorted"),
    ("duplicate_legal", "legal-sorted"),
    ("zero_weight", "chance-exact"),
    ("bool_weights", "chance-exact"),
    ("chance_lists_empty_kinds", "chance"),
    ("bad_returns", "returns"),
    ("extra_return", "returns"),
    ("duplicate_winners", "winners"),
    ("winner_out_of_range", "winners"),
    ("no_winner", "winners"),
    ("lowest_wins", "winners-scores"),
]
"""Faults of the cheap tier: caught on every state, full checks or not."""


def faulty(fault: str) -> Game:
    """The toy broken as ``fault`` says, through the registry (as its records replay)."""
    return clangames.load("toy_duel_faulty", fault=fault)


def caught(game: Game, **options: Any) -> ConformanceError:
    with pytest.raises(ConformanceError) as info:
        check_game(game, **{"playouts": PLAYOUTS, "seed": SEED, **options})
    return info.value


@pytest.mark.parametrize(("fault", "check", "names"), [(f, *v) for f, v in FAULTS.items()])
def test_the_check_for_the_fault_catches_it_and_names_the_input(
    fault: str, check: str, names: str
) -> None:
    err = caught(faulty(fault))
    assert err.check == check
    assert names in str(err)
    assert err.record is not None
    # The record replays to a state where the same check fails again.
    failing = GameRecord.from_json(err.record.dumps()).final_state()
    found = set()
    for k in range(40):
        try:
            conformance.check_state(failing, Rng(k))
        except ConformanceError as again:
            found.add(again.check)
    assert check in found


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_every_new_fault_is_caught_from_other_seeds_at_rate_zero(fault: str) -> None:
    check = FAULTS[fault][0]
    for seed in (1, 2):
        assert caught(faulty(fault), seed=seed, rate=0.0).check == check


@pytest.mark.parametrize(("fault", "check"), CHEAP)
def test_the_cheap_checks_alone_catch_their_faults(
    fault: str, check: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_full_checks(ctx: Any, state: State, rng: Rng) -> Rng:
        return rng

    monkeypatch.setattr(conformance, "_check_full", no_full_checks)
    err = caught(faulty(fault))
    assert err.check == check
    assert check_game(faulty("none"), playouts=5).fully_checked > 0  # counted, not run


def test_a_game_that_plays_the_same_moves_to_another_end_is_not_deterministic() -> None:
    err = caught(faulty("stamps_edition"), playouts=5)
    assert err.check == "deterministic"
    assert err.seed == Rng(SEED).fork(0).state
    assert err.record is not None and len(err.record.moves) == 6


# -- faults of the game object: action ids, texts and reprs ---------------------------------


class ShiftedIds(toys.ToyGame):
    """``action_from_id`` answers the action after the one asked for."""

    def action_from_id(self, action_id: int) -> Any:
        return self.actions.get((action_id + 1) % len(self.actions))


class StakesParsedAsOne(toys.ToyGame):
    """``parse_action`` reads "stake 2" as stake 1."""

    def parse_action(self, text: str) -> Any:
        return super().parse_action("stake 1" if text == "stake 2" else text)


Stake = toys.Stake
"""The name LoudStake's repr evaluates to (in this module, the action's own)."""


class LoudStake(Stake):
    """A stake whose repr rebuilds a plain Stake, another value."""

    def __repr__(self) -> str:
        return f"Stake(amount={self.amount})"


class LoudStakes(toys.ToyGame):
    """Its stakes are LoudStakes, whose repr does not rebuild them."""

    def __init__(self, spec: Any, params: Any) -> None:
        super().__init__(spec, params)
        actions: list[Any] = [toys.Draw(k) for k in range(len(toys.KINDS))]
        actions += [LoudStake(a) for a in toys.STAKES]
        actions += [toys.Bid(b) for b in range(self.max_bid + 1)]
        self._actions = toys.ActionTable(actions, toys._text)
        self.draw_actions = tuple(self._actions.intern(toys.Draw(k)) for k in range(3))
        self.stake_actions = tuple(self._actions.intern(LoudStake(a)) for a in toys.STAKES)
        self.bid_actions = tuple(self._actions.intern(toys.Bid(b)) for b in range(self.max_bid + 1))


def loaded(cls: type[toys.ToyGame]) -> toys.ToyGame:
    return cls(toys.SPEC, toys.SPEC.resolve({}))


@pytest.mark.parametrize(
    ("cls", "check", "names"),
    [
        (ShiftedIds, "action-id", "action_from_id(0) != Draw(kind=0)"),
        (StakesParsedAsOne, "action-text", "parse_action('stake 2') != Stake(amount=2)"),
        (LoudStakes, "action-repr", "repr Stake(amount=1) does not rebuild the action"),
    ],
)
def test_an_action_that_does_not_round_trip_is_named(
    cls: type[toys.ToyGame], check: str, names: str
) -> None:
    err = caught(loaded(cls), playouts=5)
    assert err.check == check
    assert names in str(err)


class Unregistered(toys.ToyGame):
    """A toy whose states are of its own class: the registry's toy_duel, which its records
    name, replays them to plain ToyStates."""

    @property
    def state_type(self) -> type[toys.ToyState]:
        return Variant


@attrs.frozen(slots=True)
class Variant(toys.ToyState):
    """Plays exactly as Toy Duel."""


def test_a_record_that_replays_to_another_state_is_named() -> None:
    err = caught(loaded(Unregistered), playouts=3)
    assert err.check == "record"
    assert "replaying the record gave a different final state" in str(err)


def test_the_error_shows_the_last_forty_moves_of_a_long_record() -> None:
    game = toys.toy()
    state = game.initial_state()
    record = GameRecord.start(game)
    for _ in range(50):  # a long record: the same six moves over and over
        if state.is_terminal:
            state = game.initial_state()
        action = state.legal_actions(state.to_move[0])[0]
        record = record.with_move(state, action, state.to_move[0])
        state = state.apply(action, state.to_move[0])
    actions = [m.action for m in record.moves]
    err = ConformanceError("flow", "broken", 7, record)
    assert "after 50 moves: ['...', " + repr(actions[-40:])[1:] in str(err)


def test_random_playout_commits_simultaneous_players_in_a_random_order() -> None:
    game = toys.toy()
    first: set[int] = set()
    for seed in range(20):
        record, _, _ = conformance.random_playout(game, Rng(seed))
        first.add(record.moves[4].player)  # the first of the two sealed bids
    assert first == {0, 1}


def test_the_report_measures_games_of_different_lengths() -> None:
    game = clangames.load("kilt_castle", players=2)
    report = check_game(game, playouts=3, seed=4, rate=0.0)
    lengths = [
        len(conformance.random_playout(game, Rng(Rng(4).fork(i).state))[0].moves) for i in range(3)
    ]
    assert len(set(lengths)) > 1
    assert report.steps == sum(lengths)
    assert report.max_length == max(lengths)
    assert report.mean_length == sum(lengths) / 3


def test_a_legal_apply_that_changes_the_state_is_named_as_such() -> None:
    # Not only "changed": the rejections further on would see the change too, under a
    # name that blames the illegal actions.
    err = caught(faulty("mutate_on_apply"), playouts=5)
    assert err.check == "legal-unchanged"
    assert "applying a legal action changed the state it was applied to" in str(err)


def test_the_report_names_the_game_and_its_player_count() -> None:
    report = check_game(clangames.load("kilt_castle", players=3), playouts=1, seed=1, rate=0.0)
    assert (report.game, report.players, report.playouts) == ("kilt_castle", 3, 1)


# -- explanations: what a seat is told of a refused action is only what it may know -----------


def test_an_explanation_naming_a_hidden_card_is_caught_naming_the_action_and_seat() -> None:
    err = caught(faulty("explain_names_card"))
    assert err.check == "explain-private"
    found = re.search(
        r"explain_illegal\('([^']+)', (\d)\) changed under resample\((\d)\)", str(err)
    )
    assert found is not None, str(err)
    text, seat, redealt = found.group(1), int(found.group(2)), int(found.group(3))
    assert seat == redealt
    assert err.record is not None
    state = GameRecord.from_json(err.record.dumps()).final_state()
    action = state.parse_action(text)
    assert not state.is_legal(action, seat)
    other = left_of(seat, 2)
    # the state's own explanation is quoted, and it names the hidden card
    told = state.explain_illegal(action, seat)
    assert repr(told) in str(err)
    assert told.endswith(f"player {other} holds {toys.KINDS[state.cards[other]]}")  # type: ignore[attr-defined]


def test_the_same_reasons_in_every_re_deal_pass() -> None:
    # The toy's own explanation names the seat's own card cap only: nothing is flagged.
    assert check_game(toys.toy(), playouts=PLAYOUTS, seed=SEED).fully_checked > 0


@attrs.frozen(slots=True)
class ExplainsOnlyLowCards(toys.ToyState):
    """Cannot explain anything while the other seat holds the high card."""

    def explain_illegal(self, action: Any, player: int) -> str:
        if self.cards[left_of(player, 2)] == 2:
            raise KeyError("high")
        return toys.ToyState.explain_illegal(self, action, player)


def test_an_explanation_that_raises_in_a_re_deal_is_named() -> None:
    game = toys.toy()
    state = game.initial_state()
    for text in ("draw mid", "draw low"):
        state = state.apply_text(text)
    fields = {f.name: getattr(state, f.name) for f in attrs.fields(toys.ToyState) if f.init}
    plain = ExplainsOnlyLowCards(**fields)
    redealt = ExplainsOnlyLowCards(
        **{**fields, "cards": (1, 2), "deck": state.deck.add(0).remove(2)}
    )
    ctx = conformance._Context(game, 5, None, 64)
    with pytest.raises(ConformanceError) as info:
        conformance._check_explanations(ctx, plain, redealt, 0, Rng(3))
    assert info.value.check == "explain"
    assert "explain_illegal('" in str(info.value) and "', 0) raised KeyError: 'high'" in str(
        info.value
    )


def test_the_explained_actions_are_few_never_legal_and_include_the_other_seats() -> None:
    game = toys.toy()
    state = game.initial_state()
    for text in ("draw low", "draw high", "stake 1", "draw mid"):
        state = state.apply_text(text)
    assert state.to_move == (0, 1)  # seat 0 may bid 0 or 1, seat 1 up to 2
    ctx = conformance._Context(game, 5, None, 64)
    seen: set[Any] = set()
    for k in range(30):
        sample = conformance._not_legal_sample(ctx, state, 0, Rng(k))
        assert 1 <= len(sample) <= 4  # the other seat's, a neighbour, two at random
        assert not set(sample) & set(state.legal_actions(0))
        seen.update(sample)
    assert toys.Bid(2) in seen  # seat 1's legal bid, which seat 0 may not make
