"""King's Kilt ``resample`` draws its re-deal lazily (fewer Rng draws than the original
implementation, kept below verbatim as the reference): the distribution of re-deals must
be the same. Compared on the marginals a search sees (which clans each player's family
holds, each hand's clan counts, the pile), over a few thousand re-deals of several states."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator

import attrs
import pytest

import clangames
from clangames.engine.piles import Multiset
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState

SAMPLES = 2500


# -- the original implementation (before the lazy draw order), as the reference -----------
def reference_resample(s: KingsKiltState, viewer: int, rng: Rng) -> KingsKiltState:
    """A state ``viewer`` cannot tell apart from ``s``: the cards they cannot see (other
    players' face-down family cards and hands, the Clan Members in the pile, the undealt
    family deck) are dealt again at random, keeping every size and what the viewer knows of
    the deal: a family holds distinct clans, and the cards dealt from the one-per-clan deck
    are all of different clans (so none repeats a clan the viewer got from that deck)."""
    game = s.game
    k = len(game.clans)
    n = game.num_players
    others = [p for p in range(n) if p != viewer]
    in_family_deal = s.phase.name == "deal_family"
    # The hidden cards, pooled. During the family deal the member pool is still the
    # untouched, publicly known remainder, so it stays out of the pool.
    pool = [0] * k
    for p in others:
        for c in game.bits[s.families[p] & ~s.revealed[p]]:
            pool[c] += 1
        for c, count in enumerate(s.hands[p].counts):
            pool[c] += count
    for c in game.bits[s.family_deck]:
        pool[c] += 1
    if not in_family_deal:
        for c, count in enumerate(s.members.counts):
            pool[c] += count
    deal = _FamilyDeal(s, pool, rng)
    if not deal.solve(others, s.from_deck[viewer]):
        raise ValueError("no consistent deal exists: the state is inconsistent")
    families = list(s.families)
    from_deck = list(s.from_deck)
    for p, (deck_part, family) in deal.plan.items():
        families[p] = family
        from_deck[p] = deck_part
    rng = deal.rng
    hands = list(s.hands)
    remaining = Multiset(tuple(pool))
    for p in others:
        hand, rng = remaining.sample(rng, len(s.hands[p]))
        remaining = remaining.difference(hand)
        hands[p] = hand
    members = s.members if in_family_deal else remaining
    return attrs.evolve(
        s,
        families=tuple(families),
        from_deck=tuple(from_deck),
        family_deck=deal.deck,
        hands=tuple(hands),
        members=members,
    )


class _FamilyDeal:
    """Randomised depth-first search for other players' families (and the undealt part of
    the family deck) consistent with what one player knows. The true deal is a solution,
    so one always exists; candidates are tried in a random order weighted by how many
    copies of each clan are hidden, and the pool is updated as cards are taken."""

    def __init__(self, s: KingsKiltState, pool: list[int], rng: Rng) -> None:
        self.s = s
        self.pool = pool
        self.rng = rng
        self.bits = s.game.bits
        self.plan: dict[int, tuple[int, int]] = {}
        self.deck = 0

    def _order(self, candidates: list[int]) -> list[int]:
        """A random order of candidate clans, weighted by their hidden copies."""
        options = list(candidates)
        weights = [max(self.pool[c], 1) for c in options]
        out = []
        while options:
            j, self.rng = self.rng.weighted(weights)
            out.append(options.pop(j))
            weights.pop(j)
        return out

    def _take(self, size: int, forbidden: int) -> Iterator[int]:
        """Each way (as a clan bitmask) to take ``size`` distinct hidden clans outside
        ``forbidden``, in random order, with the pool reduced while it is used."""
        if size == 0:
            yield 0
            return
        candidates = [c for c in range(len(self.pool)) if self.pool[c] and not forbidden >> c & 1]
        for combo in itertools.combinations(self._order(candidates), size):
            for c in combo:
                self.pool[c] -= 1
            yield sum(1 << c for c in combo)
            for c in combo:
                self.pool[c] += 1

    def solve(self, others: list[int], deck_used: int) -> bool:
        """Fill ``plan`` for ``others``; ``deck_used`` holds clans already known to have
        come from the family deck."""
        if not others:
            size = self.s.family_deck.bit_count()
            for rest in self._take(size, deck_used):
                self.deck = rest
                return True
            return False
        p, later = others[0], others[1:]
        s = self.s
        shown = s.revealed[p]
        hidden = (s.families[p] & ~shown).bit_count()
        from_deck = s.from_deck[p].bit_count()
        # x of the player's deck cards are among their revealed cards, the rest hidden.
        low = max(0, from_deck - hidden)
        high = min(from_deck, shown.bit_count())
        xs = list(range(low, high + 1))
        for x in self._shuffle(xs):
            free_shown = [c for c in self.bits[shown] if not deck_used >> c & 1]
            for subset in itertools.combinations(self._shuffle(free_shown), x):
                shown_deck = sum(1 << c for c in subset)
                for new_deck in self._take(from_deck - x, shown | deck_used):
                    deck_part = shown_deck | new_deck
                    for third in self._take(hidden - (from_deck - x), shown | deck_part):
                        self.plan[p] = (deck_part, shown | deck_part | third)
                        if self.solve(later, deck_used | deck_part):
                            return True
        return False

    def _shuffle(self, items: list[int]) -> list[int]:
        shuffled, self.rng = self.rng.shuffled(items)
        return list(shuffled)


def _midgame(players: int, seed: int, steps: int) -> KingsKiltState:
    game = clangames.load("kings_kilt", players=players)
    state, _, _ = clangames.rollout(game.initial_state(), Rng(seed), steps, first_mover=True)
    assert isinstance(state, KingsKiltState)
    return state


def _marginals(states: list[KingsKiltState], viewer: int) -> Counter[tuple[object, ...]]:
    """How often each (player, clan) is in a family, and hand and pile clan totals."""
    seen: Counter[tuple[object, ...]] = Counter()
    for s in states:
        k = len(s.game.clans)
        for p in range(s.game.num_players):
            if p == viewer:
                continue
            for c in range(k):
                seen["family", p, c] += s.families[p] >> c & 1
                seen["deck part", p, c] += s.from_deck[p] >> c & 1
                seen["hand", p, c] += s.hands[p].counts[c]
        for c in range(k):
            seen["members", c] += s.members.counts[c]
            seen["family deck", c] += s.family_deck >> c & 1
    return seen


@pytest.mark.parametrize(
    ("players", "seed", "steps"), [(2, 1, 3), (3, 2, 8), (3, 3, 40), (4, 4, 25), (4, 5, 70)]
)
def test_lazy_resample_has_the_original_distribution(players: int, seed: int, steps: int) -> None:
    state = _midgame(players, seed, steps)
    viewer = state.to_move[0] if state.to_move and state.to_move[0] >= 0 else 0
    root = Rng(seed + 77)
    new = [state.resample(viewer, root.fork(i)) for i in range(SAMPLES)]
    old = [reference_resample(state, viewer, root.fork(SAMPLES + i)) for i in range(SAMPLES)]
    a, b = _marginals(new, viewer), _marginals(old, viewer)
    assert set(a) | set(b)
    for key in set(a) | set(b):
        # Frequencies (per sample) must agree within 5 standard errors of a difference.
        pa, pb = a[key] / SAMPLES, b[key] / SAMPLES
        spread = max(pa, pb, 1 / SAMPLES)
        assert abs(pa - pb) <= 5 * math.sqrt(2 * spread / SAMPLES) + 1e-9, (key, pa, pb)
    # And every re-deal is one the original could produce: same sizes, same view.
    for other in new[:50]:
        assert other.observation(viewer) == state.observation(viewer)
        other.check_consistency()
