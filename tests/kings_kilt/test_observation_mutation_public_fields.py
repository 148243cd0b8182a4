"""The public part of a King's Kilt observation, field by field (rulings, *Hidden information*).

The rulings make public the pyramid, the pile's top card and size, the discards, the cards
out of the game, revealed family cards, hand sizes and who has passed; the triggers, the
crown, an open vacancy and the reveals still owed follow from public moves. The hidden-card
tests check what is kept private; these check that every public field is shown, with its
value, to every viewer and in the public view. A mutation audit found that blanking any of
the discards, the removed cards, the passes, the reshuffled pile, the crown, the triggers,
the vacancy, the reveal queue or the family sizes in the observation failed no test.
"""

from __future__ import annotations

import clangames
from clangames import Phase
from clangames.kings_kilt import KingsKiltObservation, KingsKiltState

from .helpers import FULL, counts, do, load, mask, pos, position

NOBLES = """
.
. .
. . .
Do Ha . .
Mk Mb Br . .
Ml Mk Mb Br Bu Do
"""


def _views(state: KingsKiltState) -> list[KingsKiltObservation]:
    """The public view and every seat's view."""
    n = state.game.num_players
    return [state.public_observation(), *(state.observation(p) for p in range(n))]


def test_public_piles_passes_and_crown_are_shown_to_everyone() -> None:
    game = load(3)
    state = position(
        game,
        FULL,
        player=2,
        hands=[["Ha"], [], ["Ha", "St"]],
        revealed=[["Mb"], [], ["Bu"]],
        passed=[1],
        discards=["Ha", "St", "St"],
        removed=["Bu"],
        reshuffled=["Ml", "Mk"],
        top="St",
        rest="removed",
    )
    k = len(game.clans)
    none = (0,) * k
    for obs in _views(state):
        assert obs.phase == "turn" and obs.to_move == (2,) and obs.actor == 2
        assert obs.top == game.clans.index("Stewart")
        assert obs.pile_size == 3  # the two reshuffled cards and the face-up top card
        assert obs.leaders_in_pile == none
        assert obs.reshuffled_in_pile == counts(game, ["Ml", "Mk"]).counts
        assert obs.discards == counts(game, ["Ha", "St", "St"]).counts
        assert obs.removed == state.removed.counts
        assert obs.removed[game.clans.index("Buchanan")] >= 1
        assert obs.passed == 0b010
        assert obs.hand_sizes == (1, 0, 2)
        assert obs.family_sizes == (3, 3, 3)
        assert obs.revealed == (mask(game, ["Mb"]), 0, mask(game, ["Bu"]))
        assert obs.crowned and obs.nobles_triggered and obs.guardians_triggered
        assert obs.vacancy == -1 and obs.reveal_queue == ()


def test_public_views_differ_when_only_a_spent_card_or_a_pass_differs() -> None:
    # the cards placed nowhere go to the hidden member layer, so only the named part differs
    game = load(3)
    hands = [["Ha"], ["Ha"], ["Ha"]]
    base = position(game, FULL, hands=hands, top="St", discards=["Ha"])
    variants = [
        position(game, FULL, hands=hands, top="St", discards=["St"]),
        position(game, FULL, hands=hands, top="St", discards=["Ha"], passed=[2]),
        position(game, FULL, hands=hands, top="St", discards=["Ha"], removed=["Do"]),
    ]
    for other in variants:
        for a, b in zip(_views(base), _views(other), strict=True):
            assert a != b


def test_leaders_left_in_the_pile_are_public() -> None:
    game = load(3)
    state = position(game, NOBLES, leaders=["Br", "Br", "Do"], top="St")
    for obs in _views(state):
        assert obs.leaders_in_pile == counts(game, ["Br", "Br", "Do"]).counts
        assert obs.reshuffled_in_pile == (0,) * len(game.clans)
        assert obs.pile_size == state.draw_pile_size
        assert not obs.crowned and not obs.nobles_triggered and not obs.guardians_triggered


def test_the_open_vacancy_and_the_reveals_owed_are_public() -> None:
    game = load(3)
    state = position(game, NOBLES, player=1, top="St")
    s = do(state, "advance 3.1 up-left")
    assert s.phase == Phase.turn("fill", 1)
    for obs in _views(s):
        assert obs.phase == "fill" and obs.to_move == (1,)
        assert obs.vacancy == pos(game, 3, 1)
        assert obs.reveal_queue == (1, 2)
        assert obs.nobles_triggered and not obs.guardians_triggered and not obs.crowned
    s = do(s, "fill from 2.2", "fill from 1.3")
    s = do(s, s.action_text(s.legal_actions()[0]))  # the pile's new top card
    assert s.phase == Phase.turn("reveal", 1)
    for obs in _views(s):
        assert obs.phase == "reveal" and obs.to_move == (1,)
        assert obs.vacancy == -1 and obs.reveal_queue == (1, 2)


def test_family_sizes_and_the_deal_count_follow_the_setup() -> None:
    game = load(3)
    state: clangames.State = game.initial_state()
    sizes = []
    rng = clangames.Rng(5)
    while state.is_chance and state.phase.name in ("deal_family", "deal_third"):
        assert isinstance(state, KingsKiltState)
        sizes.append((state.public_observation().family_sizes, state.phase.name, state.dealt))
        for obs in _views(state):
            assert obs.family_deck_size == state.family_deck.bit_count()
            assert obs.dealt == state.dealt
        action, rng = clangames.sample_chance(state, rng)
        state = state.apply(action)
    assert sizes == [
        ((0, 0, 0), "deal_family", 0),
        ((1, 0, 0), "deal_family", 1),
        ((1, 1, 0), "deal_family", 2),
        ((1, 1, 1), "deal_family", 3),
        ((2, 1, 1), "deal_family", 4),
        ((2, 2, 1), "deal_family", 5),
        ((2, 2, 2), "deal_third", 0),
        ((3, 2, 2), "deal_third", 1),
        ((3, 3, 2), "deal_third", 2),
    ]
    assert state.public_observation().family_sizes == (3, 3, 3)
