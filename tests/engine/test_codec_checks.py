"""The decoder's consistency checks keep every check while taking a quick path (issue 11).

King's Kilt and KOA Kingmaker test a decoded state with a few whole-tuple built-ins first
and run their field-by-field checks (which word the error) only when that quick test says
no; Kilt Castle guards each of its loops the same way. A quick test may refuse more than
the detailed one (that only costs time) but must never accept a state the detailed check
refuses. These tests decode real states of every game and player count with one integer
changed at a time (every integer of the state, each set to a few nearby and far values;
the decoder alone, without the checks) and compare the two paths on each.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from clangames.engine.codec import decode
from clangames.engine.errors import StateDecodeError
from clangames.engine.state import State
from clangames.kilt_castle import observation as kilt_castle
from clangames.kings_kilt import observation as kings_kilt
from clangames.koa_kingmaker import observation as koa

from . import legacy_checks
from .codec_samples import loaded, player_counts, playout_states

JSONData = Any


def int_paths(data: JSONData, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every integer (not bool) in JSON data."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from int_paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from int_paths(value, (*prefix, i))
    elif isinstance(data, int) and not isinstance(data, bool):
        yield prefix


def mutants(name: str, players: int, every: int) -> Iterator[State]:
    """Decoded (unchecked) states: every ``every``-th state of a seeded game with one
    integer set to old +- 1, -1, 0 or 2**20 (and the originals)."""
    game = loaded(name, players)
    for state in playout_states(name, players, 3)[::every]:
        data = state.to_json()["state"]
        yield from one_int_changed(game, data, lambda old: {old + 1, old - 1, -1, 0, 1 << 20})


def one_int_changed(
    game: Any, data: dict[str, Any], values: Callable[[int], set[int]]
) -> Iterator[State]:
    """``data`` decoded unchecked, then once for each of its integers set to each of
    ``values(old)`` other than its own, the rest as it was."""
    extra = {"game": game}
    yield decode(game.state_type, data, "state", extra)
    for path in int_paths(data):
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        old = holder[path[-1]]
        for value in values(old) - {old}:
            holder[path[-1]] = value
            yield decode(game.state_type, data, "state", extra)
        holder[path[-1]] = old


def passes(check: Callable[[Any], object], state: State) -> bool:
    """True if ``check`` accepts ``state`` (a StateDecodeError is a refusal)."""
    try:
        check(state)
    except StateDecodeError:
        return False
    return True


def agree(quick: Callable[[Any], bool], detailed: Callable[[Any], object], name: str) -> None:
    """Over the mutants of every player count: quick acceptance implies detailed
    acceptance, and both paths are taken (the mutations do reach the checks)."""
    accepted = refused = 0
    for players in player_counts(name):
        for state in mutants(name, players, every=25):
            if quick(state):
                accepted += 1
                assert passes(detailed, state), (name, players, state)
            else:
                refused += 1
                # The quick test refuses only what the detailed check refuses, for these
                # single changes (so the slow path is not taken for nothing).
                assert not passes(detailed, state), (name, players, state)
    assert accepted > 10
    assert refused > 100


def test_kings_kilt_quick_card_test_never_accepts_more() -> None:
    agree(
        lambda s: kings_kilt._cards_look_consistent(s, s.game.num_players),
        kings_kilt._check_cards,
        "kings_kilt",
    )


def _count_moved(state: Any, seat: int, to: str | int) -> Any:
    """``state`` with the last count of seat ``seat``'s hand moved to the end of the pile
    named ``to`` or of seat ``to``'s hand: the same cards and total length."""
    hands = list(state.hands)
    counts = hands[seat].counts
    hands[seat] = attrs.evolve(hands[seat], counts=counts[:-1])
    if isinstance(to, int):
        hands[to] = attrs.evolve(hands[to], counts=(*hands[to].counts, counts[-1]))
        return attrs.evolve(state, hands=tuple(hands))
    pile = getattr(state, to)
    pile = attrs.evolve(pile, counts=(*pile.counts, counts[-1]))
    return attrs.evolve(state, hands=tuple(hands), **{to: pile})


@pytest.mark.parametrize("players", player_counts("kings_kilt"))
def test_kings_kilt_quick_card_test_checks_each_pile_and_hand_length(players: int) -> None:
    """The quick card test gathers every pile's and hand's counts into one list, but still
    holds each of them to one count per clan: a count moved from a hand to a pile or to
    the next hand (the same cards, the same total length) is refused by the quick test,
    and the check's message is the detailed card check's, naming the first field."""
    checked = 0
    for state in playout_states("kings_kilt", players, 3)[::20]:
        for seat in range(players):
            after = (seat + 1) % players
            for to, field in (
                ("leaders", "leaders"),
                ("removed", "removed"),
                (after, f"hands[{min(seat, after)}]"),
            ):
                moved = _count_moved(state, seat, to)
                assert not kings_kilt._cards_look_consistent(moved, players)
                message = _message(kings_kilt.check_consistency, moved)
                assert message is not None and message.startswith(f"state.{field}:")
                assert message == _message(kings_kilt._check_cards, moved)
                checked += 1
    assert checked > 10


def test_koa_quick_house_test_never_accepts_more() -> None:
    agree(koa._houses_look_consistent, koa._check_houses, "koa_kingmaker")


@pytest.mark.parametrize("players", player_counts("kilt_castle"))
def test_kilt_castle_guards_agree_with_their_loops(players: int) -> None:
    """Each guarded loop: the per-card loop passes whenever its guard does, and when the
    floors and the supply pass together, the floor test passes, the floor counts are the
    loop's and the supply check passes."""
    game = loaded("kilt_castle", players)
    board = game.board
    checked = 0
    for state in mutants("kilt_castle", players, every=25):
        positions = state.positions
        if len(positions) != len(game.cards) or len(state.inner) != len(game.cards):
            continue
        ordered = sorted(positions)
        if (
            ordered[0] >= 0
            and ordered[-1] < board.num_positions
            and all(c in colours for c, colours in zip(state.inner, game.card_colours, strict=True))
        ):
            assert passes(kilt_castle._check_cards, state)
        towers = state.towers
        if len(towers) != board.rows * board.cols:
            continue
        floors = "".join(towers)
        counts = state.supply.counts
        built = [floors.count(letter) for letter in game.letter]
        if (
            len(counts) == len(built)
            and min(counts) >= 0
            and [c + b for c, b in zip(counts, built, strict=True)] == game.floors_in_all
            and sum(built) == len(floors)
            and not any(towers[w] for w in board.water)
        ):
            assert set(floors) <= game.letters_in_play
            assert built == kilt_castle._count_floors(state)
            kilt_castle._check_supply(state, built)  # raises if it refuses
            checked += 1
    assert checked > 10


def tower_mutants(players: int) -> Iterator[State]:
    """Decoded (unchecked) Kilt Castle states with one tower changed: a floor added,
    removed or replaced by another letter, one of a colour out of play, or no floor."""
    game = loaded("kilt_castle", players)
    extra = {"game": game}
    letters = [*game.letter, "z", "A"]
    for state in playout_states("kilt_castle", players, 3)[::20]:
        data = state.to_json()["state"]
        for space, tower in enumerate(data["towers"]):
            for changed in {tower + "a", tower[1:], letters[space % len(letters)] + tower[1:]}:
                if changed != tower:
                    towers = [*data["towers"]]
                    towers[space] = changed
                    yield decode(game.state_type, {**data, "towers": towers}, "state", extra)


@pytest.mark.parametrize("players", player_counts("kilt_castle"))
def test_kilt_castle_check_refuses_what_it_refused_before(players: int) -> None:
    """The whole check against the one before issue 11's last speed-ups (frozen in
    ``legacy_checks``): the same verdict and the same message for every mutant."""
    refused = 0
    for state in (*mutants("kilt_castle", players, every=15), *tower_mutants(players)):
        expected = _message(legacy_checks.kilt_castle_check_consistency, state)
        assert _message(kilt_castle.check_consistency, state) == expected
        refused += expected is not None
    assert refused > 100


def test_kings_kilt_trigger_rows_skip_only_what_passes() -> None:
    """The trigger-row loop is skipped (every flag set, or no card from the first trigger
    space on) only when it would pass: for mutants with every setting of the flags."""
    skipped = 0
    for players in player_counts("kings_kilt"):
        for state in mutants("kings_kilt", players, every=40):
            if not kings_kilt._cards_look_consistent(state, players):
                continue
            start = kings_kilt._tally_of(state.game).trigger_start
            for flags in itertools.product((False, True), repeat=3):
                nobles, guardians, crowned = flags
                flagged = attrs.evolve(
                    state, nobles_triggered=nobles, guardians_triggered=guardians, crowned=crowned
                )
                if all(flags) or max(flagged.pyramid[start:], default=-1) < 0:
                    skipped += 1
                    for (row, span, _), flag in zip(state.game.trigger_rows, flags, strict=True):
                        assert row < 2 or flag or max(flagged.pyramid[span]) < 0
    assert skipped > 100


@pytest.mark.parametrize("name", ["kings_kilt", "koa_kingmaker"])
def test_checks_refuse_what_they_refused_before(name: str) -> None:
    """The whole check_consistency against the detailed path alone: the same verdict and
    the same message for every mutant (the detailed checks, then the step checks, as
    check_consistency ran before the quick path)."""
    module: Any = kings_kilt if name == "kings_kilt" else koa
    detailed = module._check_cards if name == "kings_kilt" else module._check_houses

    def before(state: State) -> None:
        detailed(state)
        if name == "kings_kilt":  # the step checks as they were (frozen)
            legacy_checks.kings_kilt_check_steps(state, state.game.num_players)
        else:
            legacy_checks.koa_check_steps(state)

    for players in player_counts(name):
        for state in mutants(name, players, every=40):
            expected = _message(before, state)
            assert _message(module.check_consistency, state) == expected


def _message(check: Callable[[Any], object], state: State) -> str | None:
    try:
        check(state)
    except StateDecodeError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("players", player_counts("kilt_castle"))
def test_kilt_castle_floor_number_takes_no_carry(players: int) -> None:
    """The quick supply test adds the towers' floors and the supply in one number with a
    byte per floor kind. 256 more floors of kind 0 in a tower and one floor fewer of kind
    1 in the supply give the same number (the byte carries), so the test must leave such
    a state to the detailed check, which refuses it as the check before did."""
    game = loaded("kilt_castle", players)
    board = game.board
    tried = 0
    for state in playout_states("kilt_castle", players, 3)[::5]:
        data = state.to_json()["state"]
        counts = data["supply"]["counts"]
        if counts[1] < 1:
            continue
        space = next(q for q in range(len(data["towers"])) if q not in board.water)
        towers = [*data["towers"]]
        towers[space] += "a" * 256
        changed = {
            **data,
            "towers": towers,
            "supply": {"counts": [counts[0], counts[1] - 1, *counts[2:]]},
        }
        mutant = decode(game.state_type, changed, "state", {"game": game})
        expected = _message(legacy_checks.kilt_castle_check_consistency, mutant)
        assert expected is not None and "supply" in expected
        assert _message(kilt_castle.check_consistency, mutant) == expected
        tried += 1
    assert tried > 3


def setup_mutants(players: int) -> Iterator[State]:
    """Decoded (unchecked) King's Kilt states of the setup (every deal step, the base and
    the first turn-up) with one integer changed as in :func:`mutants`."""
    game = loaded("kings_kilt", players)
    for state in playout_states("kings_kilt", players, 3):
        if state.actor >= 0:
            break
        yield from one_int_changed(
            game, state.to_json()["state"], lambda old: {old + 1, old - 1, 0}
        )


@pytest.mark.parametrize("players", player_counts("kings_kilt"))
def test_kings_kilt_setup_holdings_refuse_what_they_refused_before(players: int) -> None:
    """The players' holdings during the setup, compared as whole lists before the loop
    that words a problem: the same verdict and message as the step checks before, for
    every setup state with one integer changed."""
    refused = 0
    for state in setup_mutants(players):
        if not kings_kilt._cards_look_consistent(state, players):
            continue
        expected = _message(lambda s: legacy_checks.kings_kilt_check_steps(s, players), state)
        assert _message(lambda s: kings_kilt._check_steps(s, players), state) == expected
        refused += expected is not None and "should hold" in expected
    assert refused > 20
    # The real setup states pass the whole-list comparison itself (the loop is for errors).
    comps = loaded("kings_kilt", players).components
    hand = loaded("kings_kilt", players).hand_size
    for state in playout_states("kings_kilt", players, 3):
        if state.actor >= 0:
            break
        step = kings_kilt._STEP.get(state.phase.name, len(kings_kilt.SETUP_STEPS))
        held = [
            [f.bit_count() for f in state.from_deck],
            [f.bit_count() for f in state.families],
            [len(h) for h in state.hands],
        ]
        assert held == kings_kilt._holdings(
            step, state.dealt, players, comps.family_from_deck, comps.family_size, hand
        )


@pytest.mark.parametrize("players", player_counts("koa_kingmaker"))
def test_koa_commit_and_seal_steps_refuse_what_they_refused_before(players: int) -> None:
    """The commit and seal steps' checks read the players still to commit and the houses
    out from the game's table of a mask's bits: the same verdict and message as the step
    checks before, for those steps' states with a house's card moved from its hand or
    discards onto the table, or its card taken back."""
    game = loaded("koa_kingmaker", players)
    extra = {"game": game}
    compared = refused = 0
    for state in playout_states("koa_kingmaker", players, 3):
        if state.phase.name not in ("commit", "seal"):
            continue
        data = state.to_json()["state"]
        for h, card in enumerate(data["table"]["ids"]):
            changes = []
            if card >= 0:  # taken back into the hand
                hands = [*data["hands"]]
                hands[h] |= 1 << card
                changes.append({"hands": hands, "ids": -1})
            for field in ("hands", "discards"):
                for c in range(12):
                    if card < 0 and data[field][h] >> c & 1:
                        held = [*data[field]]
                        held[h] &= ~(1 << c)
                        changes.append({field: held, "ids": c})
            for change in changes:
                ids = [*data["table"]["ids"]]
                ids[h] = change.pop("ids")
                changed = {**data, **change, "table": {**data["table"], "ids": ids}}
                mutant = decode(game.state_type, changed, "state", extra)
                if not koa._houses_look_consistent(mutant):
                    continue
                expected = _message(legacy_checks.koa_check_steps, mutant)
                assert _message(koa._check_steps, mutant) == expected
                compared += 1
                refused += expected is not None
    assert compared > 50
    assert refused > 10


@pytest.mark.parametrize("players", player_counts("kilt_castle"))
def test_kilt_castle_floor_on_water_refused_when_the_supply_adds_up(players: int) -> None:
    """A floor moved from the supply onto a water space keeps every kind's count right,
    so only the water test stops it: refused, naming that space, as before."""
    game = loaded("kilt_castle", players)
    extra = {"game": game}
    checked = 0
    for state in playout_states("kilt_castle", players, 3)[5::25]:
        data = state.to_json()["state"]
        counts = data["supply"]["counts"]
        kind = next(f for f, count in enumerate(counts) if count and game.floor_owner[f] >= 0)
        for space in sorted(game.board.water):
            towers = [*data["towers"]]
            towers[space] = game.letter[kind]
            left = [*counts]
            left[kind] -= 1
            changed = {**data, "towers": towers, "supply": {"counts": left}}
            mutant = decode(game.state_type, changed, "state", extra)
            message = _message(kilt_castle.check_consistency, mutant)
            assert message == f"state.towers[{space}]: a floor stands on water"
            assert message == _message(legacy_checks.kilt_castle_check_consistency, mutant)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", player_counts("kilt_castle"))
def test_kilt_castle_inner_colours_refused_as_before(players: int, monkeypatch: Any) -> None:
    """Every card's inner colour set to every colour of the board, through the table of
    allowed ``inner`` tuples and through the per-card test it stands in for (a board with
    too many double cards): the verdicts and messages of the check before."""
    game = loaded("kilt_castle", players)
    extra = {"game": game}
    mutated = [
        decode(
            game.state_type,
            {**data, "inner": [*inner[:i], colour, *inner[i + 1 :]]},
            "state",
            extra,
        )
        for state in playout_states("kilt_castle", players, 3)[::30]
        for data in [state.to_json()["state"]]
        for inner in [data["inner"]]
        for i in range(len(inner))
        for colour in range(len(game.board.colours))
    ]
    for most in (kilt_castle._MOST_INNERS, 1):  # 1: no table, the per-card test
        monkeypatch.setattr(kilt_castle, "_MOST_INNERS", most)
        kilt_castle._QUICK.clear()
        assert (kilt_castle._quick_of(game).inners is None) == (most == 1)
        refused = 0
        for mutant in mutated:
            expected = _message(legacy_checks.kilt_castle_check_consistency, mutant)
            assert _message(kilt_castle.check_consistency, mutant) == expected
            refused += expected is not None
        assert 0 < refused < len(mutated)
    kilt_castle._QUICK.clear()


@pytest.mark.parametrize("players", player_counts("koa_kingmaker"))
def test_koa_quick_house_test_refuses_a_number_dealt_twice(players: int) -> None:
    """Two houses given the same inheritance number: the quick test says no and the
    check refuses with the detailed message; numbers still to deal (several 0s) pass."""
    game = loaded("koa_kingmaker", players)
    extra = {"game": game}
    dealing = twice = 0
    for state in playout_states("koa_kingmaker", players, 3)[::7]:
        data = state.to_json()["state"]
        numbers = data["inheritance"]
        if numbers.count(0) > 1:
            dealing += 1
            assert koa._houses_look_consistent(state)
        for h, g in itertools.permutations(range(game.houses), 2):
            if not numbers[h]:
                continue
            same = [*numbers]
            same[g] = numbers[h]
            mutant = decode(game.state_type, {**data, "inheritance": same}, "state", extra)
            assert not koa._houses_look_consistent(mutant)
            message = _message(koa.check_consistency, mutant)
            assert message is not None and message.startswith(
                "state.inheritance: expected distinct"
            )
            assert message == _message(koa._check_houses, mutant)
            twice += 1
    assert dealing >= 1 and twice > 10
