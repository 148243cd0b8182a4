"""Hidden information: what each player sees, and re-dealing what they cannot see."""

from __future__ import annotations

import attrs
import pytest

import clangames
from clangames.kings_kilt import KingsKiltObservation, KingsKiltState

from .helpers import check_invariants, counts, load, mask, position

PICTURE = """
Mb . .
Mk Ha . .
Ml Br Do . .
Ml Mk Mb Br Bu Do
"""


def test_observation_hides_other_families_and_hands() -> None:
    game = load(3)
    fams = [["Ml", "Mk", "Mb"], ["Br", "Bu", "Do"], ["Ha", "St", "Ml"]]
    a = position(game, PICTURE, families=fams, hands=[["St"], ["Ha", "Ha"], ["Bu"]])
    b = position(
        game,
        PICTURE,
        families=[fams[0], ["Mk", "Ha", "St"], fams[2]],
        hands=[["St"], ["Br", "Do"], ["Bu"]],
    )
    assert a.observation(0) == b.observation(0)
    assert a.observation(2) == b.observation(2)
    assert a.public_observation() == b.public_observation()
    assert a.observation(1) != b.observation(1)
    obs = a.observation(1)
    assert obs.family == mask(game, fams[1])
    assert obs.hand == counts(game, ["Ha", "Ha"]).counts
    assert obs.hand_sizes == (1, 2, 1)
    assert obs.family_sizes == (3, 3, 3)


def test_observation_public_view_shows_no_private_cards() -> None:
    state = position(load(3), PICTURE, hands=[["St"], ["Ha"], []])
    pub = state.public_observation()
    assert (pub.viewer, pub.family, pub.hand) == (-1, 0, ())
    assert pub.pyramid == state.pyramid and pub.top == state.top
    assert pub.pile_size == state.draw_pile_size
    names = {f.name for f in attrs.fields(KingsKiltObservation)}
    assert not names & {"families", "hands", "members"}


def test_observation_revealed_cards_are_public() -> None:
    game = load(3)
    fams = [["Ml", "Mk", "Mb"], ["Br", "Bu", "Do"], ["Ha", "St", "Ml"]]
    state = position(game, PICTURE, families=fams, revealed=[[], ["Bu"], []])
    assert state.observation(0).revealed == (0, mask(game, ["Bu"]), 0)
    assert state.public_observation().revealed == (0, mask(game, ["Bu"]), 0)


def _midgame(players: int, seed: int, steps: int) -> KingsKiltState:
    game = load(players)
    rng = clangames.Rng(seed)
    state: clangames.State = game.initial_state()
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            j, rng = rng.below(len(legal))
            action = legal[j]
        state = state.apply(action)
    assert isinstance(state, KingsKiltState)
    return state


PUBLIC = (
    "phase",
    "pyramid",
    "top",
    "leaders",
    "reshuffled",
    "discards",
    "removed",
    "revealed",
    "passed",
    "crowned",
    "nobles_triggered",
    "guardians_triggered",
    "actor",
    "vacancy",
    "reveal_queue",
    "dealt",
    "turns",
)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [3, 20, 45, 90])
def test_resample_keeps_the_view_and_changes_only_hidden_cards(players: int, steps: int) -> None:
    state = _midgame(players, 100 + steps, steps)
    seen: set[tuple[object, ...]] = set()
    for p in range(players):
        for i in range(8):
            other = state.resample(p, clangames.Rng(1000 * p + i))
            assert isinstance(other, KingsKiltState)
            assert other.observation(p) == state.observation(p)
            assert other.legal_actions(p) == state.legal_actions(p)
            assert other.to_move == state.to_move
            for name in PUBLIC:
                assert getattr(other, name) == getattr(state, name), name
            assert other.families[p] == state.families[p]
            assert other.hands[p] == state.hands[p]
            for q in range(players):
                assert other.families[q].bit_count() == state.families[q].bit_count()
                assert other.families[q] & state.revealed[q] == state.revealed[q]
                assert len(other.hands[q]) == len(state.hands[q])
            assert len(other.members) == len(state.members)
            assert other.family_deck.bit_count() == state.family_deck.bit_count()
            other.check_consistency()
            check_invariants(other)
            seen.add((other.families, other.hands, other.members, other.family_deck))
    # something hidden was dealt differently at least once
    assert len(seen) > 1


def test_resample_during_the_family_deal_keeps_the_member_pool() -> None:
    state = _midgame(3, 5, 2)
    assert state.phase.name == "deal_family"
    for i in range(10):
        other = state.resample(0, clangames.Rng(i))
        assert isinstance(other, KingsKiltState)
        assert other.members == state.members
        assert other.families[0] == state.families[0]
        assert other.families[1] & other.family_deck == 0
        assert other.families[1] | other.family_deck == state.families[1] | state.family_deck
        assert other.families[1].bit_count() == 1 and other.family_deck.bit_count() == 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resample_respects_the_one_per_clan_deck(players: int) -> None:
    """The two cards each player got from the one-per-clan deck are all of different clans,
    and the viewer knows which of theirs came from it: a resampled deal never gives another
    player a deck card of a clan the viewer's deck cards already have (the reading that
    ignores the deal's history would, often)."""
    game = clangames.load("kings_kilt", players=players)
    for seed in range(30):
        state = clangames.resolve_chance(game.initial_state(), clangames.Rng(seed))
        viewer = seed % players
        mine = state.from_deck[viewer]
        assert mine.bit_count() == 2
        rng = clangames.Rng(seed + 1000)
        for i in range(20):
            other = state.resample(viewer, rng.fork(i))
            assert other.from_deck[viewer] == mine
            seen = mine
            for p in range(players):
                if p == viewer:
                    continue
                assert other.from_deck[p].bit_count() == 2
                assert other.from_deck[p] & other.families[p] == other.from_deck[p]
                assert not other.from_deck[p] & seen
                seen |= other.from_deck[p]
            other.check_consistency()


def test_observation_shows_the_viewers_deck_cards_only() -> None:
    game = clangames.load("kings_kilt", players=3)
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(4))
    assert state.observation(1).family_from_deck == state.from_deck[1]
    assert state.public_observation().family_from_deck == 0
