"""``compare`` finds each kind of disagreement, for every seat, and reports where it is
(the harness's mutation audit): who is to move, any mover's legal actions at a sealed
bidding, any seat's observation (only when asked to compare them), and a report whose game
index, seed and move count replay the divergence on their own."""

from __future__ import annotations

import json
from collections.abc import Sequence

import clangames
from clangames.engine.codec import JSON
from clangames.testing.differential import LibraryImplementation, compare
from testing import toys


class DropsTheSecondBidder(LibraryImplementation):
    """Says only seat 0 bids when both do."""

    def to_move(self) -> Sequence[int]:
        movers = list(super().to_move())
        return movers[:1] if self._state().phase.name == "bid" else movers


class SeatOneMayNotBidZero(LibraryImplementation):
    """Forgets seat 1's bid of 0 while both seats are still to bid."""

    def legal_actions(self, player: int) -> Sequence[str]:
        legal = super().legal_actions(player)
        if player == 1 and len(self._state().to_move) == 2:
            return [t for t in legal if t != "bid 0"]
        return legal


class SeatOneSeesTooMuch(LibraryImplementation):
    """Seat 1's observation names another viewer (seat 0's is right)."""

    def observation(self, player: int) -> JSON | None:
        data = super().observation(player)
        if player == 1 and isinstance(data, dict):
            return {**data, "viewer": 7}
        return data


class MiscountsAHighCommunityCard(LibraryImplementation):
    """Scores one point too many once the community card is the high one."""

    def scores(self) -> Sequence[int] | None:
        scores = list(super().scores() or ())
        if self._state().community == 2:  # type: ignore[attr-defined]
            return [s + 1 for s in scores]
        return scores


def test_a_wrong_set_of_movers_is_named() -> None:
    report = compare(DropsTheSecondBidder(), toys.toy(), games=1, seed=0)
    assert report.divergence is not None
    assert report.divergence.what == "players to move"
    assert (report.divergence.expected, report.divergence.got) == ([0, 1], [0])
    assert report.divergence.move == 4  # two deals, the stake, the community card


def test_the_second_bidders_legal_actions_are_compared_too() -> None:
    report = compare(SeatOneMayNotBidZero(), toys.toy(), games=1, seed=0)
    assert report.divergence is not None
    assert report.divergence.what == "legal actions of player 1 (missing ['bid 0'], extra [])"
    assert report.divergence.move == 4  # at the open bidding, seat 0 to move as well


def test_every_seats_observation_is_compared_unless_switched_off() -> None:
    game = toys.toy()
    report = compare(SeatOneSeesTooMuch(), game, games=1, seed=0)
    assert report.divergence is not None
    assert report.divergence.what == "observation of player 1"
    assert report.divergence.move == 0
    assert compare(SeatOneSeesTooMuch(), game, games=3, seed=0, observations=False).agreed


def test_a_divergence_replays_from_its_own_seed() -> None:
    game = toys.toy()
    report = compare(MiscountsAHighCommunityCard(), game, games=40, seed=100)
    found = report.divergence
    assert found is not None and found.what == "scores"
    assert found.game_index > 0  # the first games agree: the seed moves on with the game
    assert found.seed == 100 + found.game_index
    assert report.games == found.game_index + 1
    assert report.moves == 6 * found.game_index + found.move  # each earlier game: 6 moves
    again = compare(MiscountsAHighCommunityCard(), game, games=1, seed=found.seed)
    assert again.divergence is not None
    assert (again.divergence.game_index, again.divergence.seed) == (0, found.seed)
    assert again.divergence.move == found.move
    assert again.divergence.position == found.position
    assert again.divergence.record == found.record


def test_the_library_agrees_with_itself_on_the_toy() -> None:
    report = compare(LibraryImplementation(), toys.toy(), games=5, seed=0)
    assert report.agreed and report.games == 5 and report.moves == 30
    assert clangames.load("toy_duel") == toys.toy()


class WontStart(LibraryImplementation):
    def start(self, game: object) -> None:
        raise RuntimeError("no table")


def test_an_implementation_that_cannot_start_is_a_divergence_at_move_zero() -> None:
    report = compare(WontStart(), toys.toy(), games=2, seed=0)
    found = report.divergence
    assert found is not None
    assert (found.what, found.got, found.move) == ("start raised", "RuntimeError: no table", 0)


class Verbose(LibraryImplementation):
    """Seat 0's observation carries a long extra field."""

    def observation(self, player: int) -> JSON | None:
        data = super().observation(player)
        if player == 0 and isinstance(data, dict):
            return {**data, "zzz": "x" * 500}
        return data


def test_long_values_are_cut_to_400_characters_with_an_ellipsis() -> None:
    report = compare(Verbose(), toys.toy(), games=1, seed=0)
    found = report.divergence
    assert found is not None and found.what == "observation of player 0"
    text = json.dumps(found.got, sort_keys=True)
    assert f"  other:   {text[:397]}...\n" in str(found)
    assert f"  library: {json.dumps(found.expected, sort_keys=True)}\n" in str(found)
