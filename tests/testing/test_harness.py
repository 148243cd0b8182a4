"""The conformance harness: it passes a correct game and names each way a game can break
the kernel's contract (the check, the seed, and a record that replays to the failure)."""

from __future__ import annotations

import math
import os
from collections import Counter
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine import registry
from clangames.engine.errors import InvalidParameterError
from clangames.engine.game import Game
from clangames.engine.record import GameRecord
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.testing import (
    ALWAYS_FIRST,
    DEFAULT_RATE,
    ConformanceError,
    Report,
    check_game,
    check_state,
    conformance,
    random_playout,
)
from clangames.testing.conformance import eval_repr
from testing import toys
from testing.toys import Bid, Draw, Stake, ToyState

PLAYOUTS = 60
SEED = 11


def faulty(fault: str) -> Game:
    """The toy game broken in the way ``fault`` names (loaded through the registry, as
    the records that replay it will be)."""
    return clangames.load("toy_duel_faulty", fault=fault)


def checks_raised(state: State, tries: int = 40) -> set[str]:
    """The checks ``check_state`` fails on ``state`` over ``tries`` different Rngs."""
    found = set()
    for k in range(tries):
        try:
            check_state(state, Rng(k))
        except ConformanceError as exc:
            found.add(exc.check)
    return found


def playout_seeds(seed: int, playouts: int) -> set[int]:
    """The per-playout seeds ``check_game(seed=seed)`` uses."""
    return {Rng(seed).fork(i).state for i in range(playouts)}


Kind = tuple[str, int, bool]


def kind_of(state: State) -> Kind:
    """The kind of node the harness samples by: phase name, players to move, simultaneous."""
    return (state.phase.name, len(state.to_move), state.phase.simultaneous)


def visited(game: Game, seed: int, playouts: int) -> list[tuple[int, int, Kind]]:
    """Every state ``check_game(seed=seed)`` meets, in order: (playout seed, moves, kind)."""
    out: list[tuple[int, int, Kind]] = []
    for i in range(playouts):
        s = Rng(seed).fork(i).state
        random_playout(game, Rng(s), lambda st, m, s=s: out.append((s, len(m), kind_of(st))))
    return out


def full_check_probability(k: int, rate: float) -> float:
    """The documented chance that the k-th state of a kind gets the full checks."""
    return 1.0 if k <= ALWAYS_FIRST else max(rate, ALWAYS_FIRST / k)


def assert_plausible_full_checks(
    fully_checked: int, game: Game, seed: int, playouts: int, rate: float
) -> None:
    """``fully_checked`` is within five standard deviations of what the schedule gives."""
    counts = Counter(kind for _, _, kind in visited(game, seed, playouts))
    probabilities = [
        full_check_probability(k, rate) for n in counts.values() for k in range(1, n + 1)
    ]
    mean = sum(probabilities)
    spread = math.sqrt(sum(p * (1 - p) for p in probabilities))
    assert abs(fully_checked - mean) <= 5 * spread + 1e-9, (fully_checked, mean, spread)


# -- the correct game ------------------------------------------------------------------------


def playout_count(default: int) -> int:
    """``default`` playouts, or ``CLANGAMES_SOAK_GAMES`` (3000 unless set) when
    ``CLANGAMES_SOAK=1``."""
    if os.environ.get("CLANGAMES_SOAK") == "1":
        return int(os.environ.get("CLANGAMES_SOAK_GAMES", "3000"))
    return default


@pytest.mark.parametrize("max_bid", [1, 2, 3])
def test_toy_duel_passes_the_harness(max_bid: int) -> None:
    game = clangames.load("toy_duel", max_bid=max_bid)
    playouts = playout_count(150)
    report = check_game(game, playouts=playouts, seed=max_bid, rate=DEFAULT_RATE)
    assert attrs.evolve(report, fully_checked=0) == Report(
        game="toy_duel",
        players=2,
        playouts=playouts,
        steps=6 * playouts,
        max_length=6,
        mean_length=6.0,
    )
    assert_plausible_full_checks(report.fully_checked, game, max_bid, playouts, DEFAULT_RATE)


def test_faulty_game_without_a_fault_passes() -> None:
    report = check_game(faulty("none"), playouts=40, seed=3)
    assert (report.game, report.steps) == ("toy_duel_faulty", 240)


def test_invariant_failure_is_reported_with_its_message() -> None:
    def stake_is_one(state: State) -> None:
        assert isinstance(state, ToyState)
        assert state.stake != 2, "the stake reached 2"

    with pytest.raises(ConformanceError) as info:
        check_game(clangames.load("toy_duel"), playouts=PLAYOUTS, seed=SEED, invariant=stake_is_one)
    err = info.value
    assert err.check == "invariant"
    assert "the stake reached 2" in str(err)
    assert err.record is not None
    failing = err.record.final_state()
    assert isinstance(failing, ToyState)
    assert failing.stake == 2
    assert err.record.moves[-1].action == "stake 2"


def test_zero_playouts_report() -> None:
    report = check_game(clangames.load("toy_duel"), playouts=0)
    assert report == Report("toy_duel", 2, 0, 0, 0, 0.0)


def test_toys_leave_the_registry_as_they_found_it() -> None:
    # The module fixture registered them; a nested block adds nothing and removes nothing.
    with toys.registered():
        assert clangames.game_spec("toy_duel") is toys.SPEC
    assert clangames.game_spec("toy_duel") is toys.SPEC
    # Without the fixture's registration, the block adds the toy and takes it away again.
    registry.unregister("toy_duel_faulty")
    try:
        with toys.registered():
            assert clangames.game_spec("toy_duel_faulty") is toys.FAULTY_SPEC
        with pytest.raises(clangames.UnknownGameError):
            clangames.game_spec("toy_duel_faulty")
    finally:
        registry.register(toys.FAULTY_SPEC)


def test_check_game_needs_a_loaded_game() -> None:
    with pytest.raises(TypeError, match="needs a loaded Game"):
        check_game("toy_duel", playouts=1)  # type: ignore[arg-type]


def test_random_playout_is_seeded_and_visits_every_state() -> None:
    game = clangames.load("toy_duel")
    seen: list[tuple[State, int]] = []
    record, final, rng = random_playout(game, Rng(5), lambda s, m: seen.append((s, len(m))))
    again, final_again, rng_again = random_playout(game, Rng(5))
    assert (again, final_again, rng_again) == (record, final, rng)
    assert len(record.moves) == 6
    assert [n for _, n in seen] == [0, 1, 2, 3, 4, 5, 6]
    assert seen[0][0] == game.initial_state()
    assert seen[-1][0] == final and final.is_terminal
    assert list(record.replay()) == [s for s, _ in seen]


# -- sampling the full checks ---------------------------------------------------------------


def spy_on_full_checks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Record (playout seed, moves so far) of every state ``check_game`` checks fully."""
    seen: list[tuple[int, int]] = []
    full = conformance._check_full

    def spy(ctx: Any, state: State, rng: Rng) -> Rng:
        assert ctx.seed is not None
        seen.append((ctx.seed, len(ctx.moves)))
        return full(ctx, state, rng)

    monkeypatch.setattr(conformance, "_check_full", spy)
    return seen


def test_rate_one_checks_every_state_fully() -> None:
    report = check_game(clangames.load("toy_duel"), playouts=20, seed=4, rate=1.0)
    assert report.fully_checked == report.steps + report.playouts == 140


@pytest.mark.parametrize("rate", [0.0, DEFAULT_RATE, 0.3])
def test_full_checks_follow_the_documented_schedule(rate: float) -> None:
    game = clangames.load("toy_duel")
    report = check_game(game, playouts=400, seed=9, rate=rate)
    assert report.steps == 2400
    assert_plausible_full_checks(report.fully_checked, game, 9, 400, rate)


def test_sampling_is_seeded_and_checks_the_first_states_of_every_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = clangames.load("toy_duel")
    checked = spy_on_full_checks(monkeypatch)
    first = check_game(game, playouts=100, seed=5, rate=0.0)
    first_checked = list(checked)
    checked.clear()
    assert check_game(game, playouts=100, seed=5, rate=0.0) == first
    assert checked == first_checked  # the same seed checks the very same states
    states = visited(game, 5, 100)
    kinds = {kind for _, _, kind in states}
    assert len(kinds) == 6  # two deals, stake, flip, two bidding nodes, the end
    for kind in kinds:
        of_kind = [(s, n) for s, n, k in states if k == kind]
        assert of_kind[:ALWAYS_FIRST] == [x for x in first_checked if x in of_kind][:ALWAYS_FIRST]
    assert first.fully_checked == len(first_checked) < len(states) // 4
    checked.clear()
    check_game(game, playouts=100, seed=6, rate=0.0)
    assert checked != first_checked  # another seed, another sample


def test_cheap_checks_and_the_invariant_run_on_every_state() -> None:
    calls: list[State] = []
    report = check_game(clangames.load("toy_duel"), playouts=30, seed=2, invariant=calls.append)
    assert len(calls) == report.steps + report.playouts == 210
    assert report.fully_checked < len(calls)


@pytest.mark.parametrize("rate", [-0.1, 1.5, float("nan"), "0.5", True, None])
def test_a_bad_rate_is_refused(rate: Any) -> None:
    with pytest.raises(InvalidParameterError, match=r"rate must be a number in \[0, 1\]"):
        check_game(clangames.load("toy_duel"), playouts=1, rate=rate)


def test_the_driver_reports_a_legal_action_that_does_not_apply() -> None:
    # Without any check, the driver itself names a listed action that apply refuses.
    game = faulty("lists_rejected")
    errors = []
    for seed in range(30):
        try:
            random_playout(game, Rng(seed), seed=seed)
        except ConformanceError as exc:
            errors.append(exc)
    assert errors and {e.check for e in errors} == {"legal-applies"}
    for err in errors:
        assert err.record is not None
        failing = err.record.final_state()
        assert isinstance(failing, ToyState) and failing.phase.name == "bid"
        assert any(
            bid.amount > failing.bid_cap(p)  # listed as legal, refused by apply
            for p in failing.to_move
            for bid in failing.legal_actions(p)
        )


def test_check_state_returns_the_advanced_rng() -> None:
    state = clangames.load("toy_duel").initial_state()
    rng = check_state(state, Rng(3))
    assert isinstance(rng, Rng) and rng != Rng(3)
    assert check_state(state, Rng(3)) == rng  # deterministic


def test_eval_repr_rebuilds_toy_actions() -> None:
    for action in (Draw(2), Stake(1), Bid(0)):
        assert eval_repr(action) == action


# -- faulty games ----------------------------------------------------------------------------

# fault -> the check that must catch it. The first twelve are the ones every game must be
# protected against; the rest cover the harness's remaining checks.
FAULTS = [
    ("leak_card", "resample-leak"),
    ("leak_bid", "resample-leak"),
    ("legal_peek", "resample-leak"),
    ("mutate", "illegal-unchanged"),
    ("lists_rejected", "legal-applies"),
    ("unsorted", "legal-sorted"),
    ("chance_sum", "chance-exact"),
    ("zero_weight", "chance-exact"),
    ("bad_json", "json-roundtrip"),
    ("bad_returns", "returns"),
    ("duplicate_winners", "winners"),
    ("lowest_wins", "winners-scores"),
    ("empty_prompt", "prompt"),
    ("empty_description", "describe"),
    ("silent_refusal", "error-message"),
    ("crashing_refusal", "illegal-rejected"),
    ("legal_for_everyone", "legal-only-to-move"),
    ("no_bids", "legal-exist"),
    ("seat_out_of_range", "flow"),
    ("no_outcomes", "chance"),
    ("unencodable_observation", "observation-json"),
    ("inconsistent_resample", "resample"),
    ("unchecked_seat", "bad-seat"),
]


@pytest.mark.parametrize(("fault", "check"), FAULTS)
def test_harness_names_the_broken_check(fault: str, check: str) -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty(fault), playouts=PLAYOUTS, seed=SEED)
    err = info.value
    assert err.check == check
    assert str(err).startswith(f"[{check}] ")
    assert err.seed in playout_seeds(SEED, PLAYOUTS)
    assert f"(seed {err.seed})" in str(err)
    assert err.record is not None
    assert err.record.game == "toy_duel_faulty"
    assert f"after {len(err.record.moves)} moves" in str(err)
    # The record is a real save file: it survives JSON and replays to the failing state,
    # where the harness finds the same fault again.
    record = GameRecord.from_json(err.record.dumps())
    assert record == err.record
    failing = record.final_state()
    assert check in checks_raised(failing)


ALSO_SHOWS_AS = {"no_bids": "resample", "legal_peek": "resample"}
"""Faults that also break ``resample`` on some seeds: it may re-deal the opponent a card
that the broken bid cap cannot handle (no bid at all, or a committed bid above the cap),
and a seed may reach that state before the one the fault is named after."""


@pytest.mark.parametrize("rate", [0.0, DEFAULT_RATE])
@pytest.mark.parametrize(("fault", "check"), FAULTS)
def test_every_fault_is_caught_from_other_seeds_even_at_rate_zero(
    fault: str, check: str, rate: float
) -> None:
    # Faults that show only on some states (a sealed bid half committed, a low card at
    # the bidding, an exhausted card kind) are found by the first states of each kind of
    # node alone, whatever the seed.
    for seed in (1, 2, 3):
        with pytest.raises(ConformanceError) as info:
            check_game(faulty(fault), playouts=PLAYOUTS, seed=seed, rate=rate)
        assert info.value.check in {check, ALSO_SHOWS_AS.get(fault, check)}


def test_leaked_card_is_visible_in_the_failing_state() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty("leak_card"), playouts=PLAYOUTS, seed=SEED)
    assert info.value.record is not None
    state = info.value.record.final_state()
    assert isinstance(state, ToyState)
    assert not state.is_terminal
    assert state.cards[0] >= 0  # seat 1 sees seat 0's card
    assert state.observation(1).opponent_card == state.cards[0]
    assert ToyState.observation(state, 1).opponent_card == -1  # what it should show


def test_sealed_bid_leaks_only_at_the_half_committed_node() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty("leak_bid"), playouts=PLAYOUTS, seed=SEED)
    assert info.value.record is not None
    state = info.value.record.final_state()
    assert isinstance(state, ToyState)
    assert state.is_simultaneous and len(state.to_move) == 1
    waiting = state.to_move[0]
    committed = 1 - waiting
    assert state.commitments.committed() == tuple(p == committed for p in (0, 1))
    assert state.observation(waiting).bids[committed] == state.commitments.ids[committed]


def test_endless_game_breaks_its_declared_length() -> None:
    game = faulty("endless")
    with pytest.raises(ConformanceError) as info:
        check_game(game, playouts=5, seed=SEED)
    err = info.value
    assert err.check == "max-length"
    assert "declared maximum of 6 steps" in str(err)
    assert err.record is not None and len(err.record.moves) == game.info.max_game_length
    last = err.record.final_state()
    assert not last.is_terminal and last.to_move == (0, 1)


def test_endless_game_failure_names_the_seed() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty("endless"), playouts=5, seed=SEED)
    assert info.value.seed in playout_seeds(SEED, 5)
    assert f"(seed {info.value.seed})" in str(info.value)


def test_unencodable_to_json_is_reported_as_json() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty("unencodable_json"), playouts=5, seed=SEED)
    assert info.value.check == "json"


def test_unencodable_to_json_is_at_least_an_error() -> None:
    with pytest.raises((ConformanceError, TypeError), match=r"not JSON serializable|JSON-able"):
        check_game(faulty("unencodable_json"), playouts=5, seed=SEED)


def test_legal_apply_that_mutates_the_state_is_caught() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty("mutate_on_apply"), playouts=5, seed=SEED)
    assert "changed" in str(info.value)  # whatever the lead names the check


def test_nondeterministic_game_is_caught() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(faulty("nondeterministic"), playouts=5, seed=SEED)
    err = info.value
    assert err.check == "deterministic"
    assert err.seed == Rng(SEED).fork(0).state  # caught on the first replayed playout
    assert f"(seed {err.seed})" in str(err)
    assert err.record is not None and len(err.record.moves) == 6
