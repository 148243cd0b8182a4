"""Build KOA Kingmaker positions by name and play whole rounds in one call.

``start(players)`` deals the inheritance cards (houses 0.. get 1.. unless told otherwise)
and stops at round 1. ``arrange`` moves named cards of a house from one place to another
(hand, court, discard, centre), so a scenario sets up the position it needs while every
card stays accounted for (``check_consistency`` runs on every position built here).
``play_round`` seals the automated households' cards and commits the players' cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

import clangames
import clangames.koa_kingmaker  # registers the game
from clangames.koa_kingmaker import Inherit, KoaGame, KoaState, Nominate, Play, Seal
from clangames.koa_kingmaker.cards import CHARACTER_NAMES, NOMINATION, ROYAL, ROYAL_NAMES
from clangames.koa_kingmaker.rules import sealing_house

PLACES = ("hands", "courts", "discards", "centre")


def load(players: int = 5, **params: object) -> KoaGame:
    """A KOA Kingmaker game (typed)."""
    game = clangames.load("koa_kingmaker", players=players, **params)
    if not isinstance(game, KoaGame):
        raise TypeError(f"expected a KoaGame, got {game!r}")
    return game


def kind(name: str | int) -> int:
    """A card kind from a name: a character ("Seer"), a Royal ("Royal 2"), or a house
    number (int) for the nomination of that house."""
    if isinstance(name, int):
        return NOMINATION + name
    if name in CHARACTER_NAMES:
        return CHARACTER_NAMES.index(name)
    if name in ROYAL_NAMES:
        return ROYAL + ROYAL_NAMES.index(name)
    raise ValueError(f"unknown card {name!r}")


def mask(*names: str | int) -> int:
    """A bitmask of named cards."""
    out = 0
    for n in names:
        out |= 1 << kind(n)
    return out


def start(players: int = 5, inheritance: Sequence[int] | None = None, **params: object) -> KoaState:
    """Round 1 about to start: inheritance dealt (house h gets ``inheritance[h]``)."""
    game = load(players, **params)
    state = game.initial_state()
    numbers = list(inheritance or range(1, game.houses + 1))
    for k in numbers:
        state = apply(state, Inherit(k))
    return state


def apply(state: KoaState, action: object, player: int | None = None) -> KoaState:
    """``state.apply`` typed for KOA states."""
    nxt = state.apply(action, player)
    if not isinstance(nxt, KoaState):
        raise TypeError(f"expected a KoaState, got {nxt!r}")
    return nxt


def arrange(state: KoaState, house: int, src: str, dst: str, *names: str | int) -> KoaState:
    """Move the named cards of ``house`` from place ``src`` to place ``dst`` (places:
    hands, courts, discards, centre). A house left without Royalty or Jester is out."""
    bits = mask(*names)
    have = getattr(state, src)[house]
    if have & bits != bits:
        raise ValueError(f"house {house} does not have {names} in {src}")
    changes: dict[str, Any] = {src: _put(getattr(state, src), house, have & ~bits)}
    target = changes.get(dst, getattr(state, dst))
    changes[dst] = _put(target, house, target[house] | bits)
    state = attrs.evolve(state, **changes)
    state.check_consistency()
    return state


def _put(seq: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


def card_action(name: str | int) -> object:
    """The commit action for a named card (int: the nomination of that house)."""
    if isinstance(name, int):
        return Nominate(name)
    return Play(kind(name))


def play_round(state: KoaState, cards: Mapping[int, str | int]) -> KoaState:
    """Seal the automated households' cards and commit each player's card, as named in
    ``cards`` (house -> card name, or target house for a nomination); players commit in
    seat order. Stops at the first decision of the resolution (or the next round)."""
    while state.phase.name == "seal":
        state = apply(state, Seal(kind(cards[sealing_house(state)])))
    if state.phase.name != "commit":
        raise ValueError(f"expected the commit step, got {state.phase.name}")
    for p in state.to_move:
        state = apply(state, card_action(cards[p]), p)
    return state


def names(state: KoaState, place: str, house: int) -> set[str]:
    """The names of the cards of ``house`` in ``place`` (nominations as 'nom N')."""
    cards = getattr(state, place)[house]
    out = set()
    for k in range(15):
        if cards >> k & 1:
            if k < NOMINATION:
                out.add(CHARACTER_NAMES[k])
            elif k < ROYAL:
                out.add(f"nom {k - NOMINATION}")
            else:
                out.add(ROYAL_NAMES[k - ROYAL])
    return out


ALL_CHARACTERS = set(CHARACTER_NAMES)
ROYALS = set(ROYAL_NAMES)


def noms(house: int, houses: int = 5) -> set[str]:
    """The names of a real house's nomination cards."""
    return {f"nom {t}" for t in range(houses) if t != house}


def card_invariant(state: object) -> None:
    """The game's own invariants, for the harness and the state machine: each house's
    cards (10 plus a nomination against each other house at the table for a player's
    house: 14, or 13 in a 2-player game of four houses; 10 for an automated household, whose
    nominations stay in the box) are each in exactly one place among hand, court, discard
    pile, centre pile and table; the centre holds only Royalty; houses that are out never
    act or owe a decision; the houses in the game hold distinct inheritance numbers once dealt."""
    from clangames.koa_kingmaker.cards import CHARACTERS, KEEPERS, ROYALTY, full_set

    if not isinstance(state, KoaState):
        raise AssertionError(f"not a KOA state: {state!r}")
    game = state.game
    for h in range(5):
        places = [state.hands[h], state.courts[h], state.discards[h], state.centre[h]]
        card = state.table.ids[h]
        if card >= 0:
            places.append(1 << card)
        union = 0
        for cards in places:
            assert not union & cards, f"house {h}: a card is in two places"
            union |= cards
        if h < game.houses:
            expected = full_set(h, game.is_automated(h), game.houses)
            assert union == expected, f"house {h}: cards {union:#x} != {expected:#x}"
            assert union.bit_count() == (10 if game.is_automated(h) else 10 + game.houses - 1)
        else:
            assert union == 0, f"house {h} is not in the game but holds cards"
        assert not state.centre[h] & ~ROYALTY, f"house {h}: a non-Royal in the centre"
        assert not state.discards[h] & ~CHARACTERS, f"house {h}: a non-character discarded"
        assert state.is_in(h) == bool(state.courts[h] & KEEPERS), f"house {h}: alive flag"
    for p in state.to_move:
        if p >= 0:
            assert state.is_in(p), f"house {p} is out but is to move"
    for h, _ in state.hits:
        assert h < game.houses
    for h in state.recovering:
        assert state.is_in(h), f"house {h} is out but owes a return"
    dealt = [k for k in state.inheritance if k]
    assert len(dealt) == len(set(dealt))
    if state.round:
        assert len(dealt) == game.houses
