"""Rules of Clan Feud's phase 3, the end and the hidden hands that a hand-made mutation
audit found unpinned.

Each test fails on a named small bug ("mutant") that every older test let through
(docs/games/clan-feud.md, "Mutation audit"): turn order for an event's player lines and
for last turn's objective, artillery's upkeep, an upkeep removal leaving the King alone,
``most`` needing at least one and ``fewest`` counting zero, comparisons at their bound,
``territories_in``/``troops_in``/``hand``, an OR's payments judged together and an OR with
nothing payable skipped, the score of a finished game, uniform event draws, and resample (a
card stolen from the viewer kept by its taker; sealed tokens chosen again).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.interpret import program
from clangames.clan_feud.state import Task
from clangames.engine.rng import Rng

from .cf_helpers import variant
from .cf_rules_helpers import done, legal_texts, load, play, position, tid


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


def _event(game: ClanFeudGame, ident: str) -> int:
    return [e.id for e in game.events.regular].index(ident)


# -- turn order in phase 3 ------------------------------------------------------------------------


def test_an_events_player_lines_go_in_turn_order() -> None:
    """The top line's choice is made by each player in turn order, first place first
    (mutant: last place first)."""
    g = load(3)
    s = position(
        g, [Task("phase3", -1, 2)], events=(_event(g, "EV01"),), order=(2, 0, 1), money=(5, 5, 5)
    )
    seen = []
    while s.phase.name == "prog":
        seen.append(s.to_move[0])
        assert legal_texts(s) == ["option 1", "option 2"]
        s = play(s, "option 1")
    assert seen == [2, 0, 1] and s.money == (2, 2, 2)


def test_last_turns_objective_is_resolved_in_turn_order() -> None:
    """Last turn's objective is scored player by player in turn order, first place first
    (mutant: last place first)."""
    g = load(3)
    s = position(
        g,
        [Task("phase3", -1, 0)],
        events=(_event(g, "EV13"),),  # repeat(2) [pay_money(5); gain_vp(2)]
        order=(1, 2, 0),
        money=(5, 5, 5),
    )
    seen = []
    while s.phase.name == "prog":
        seen.append(s.to_move[0])
        s = play(s, "accept")
    assert seen == [1, 2, 0] and s.vp == (2, 2, 2) and s.money == (0, 0, 0)


# -- upkeep ---------------------------------------------------------------------------------------


def test_artillery_upkeep_is_four(game: ClanFeudGame) -> None:
    """Upkeep: 1 per infantry, 2 per cavalry, 4 per artillery (mutant: artillery 3)."""
    s = position(game, [Task("upkeep", 0)], troops={(0, "moray"): (1, 1, 1)}, money=(7, 0))
    s = play(s, "pay upkeep")
    assert done(s) and s.money[0] == 0 and s.troops_at(0, tid(game, "moray")) == (1, 1, 1)
    s = position(game, [Task("upkeep", 0)], troops={(0, "moray"): (0, 0, 1)}, money=(3, 0))
    # £3 cannot keep the artillery: it is removed, unasked (the one choice each time)
    assert done(s) and not any(s.troops[0]) and s.money[0] == 3


def test_an_upkeep_removal_of_the_kings_last_troop_leaves_him_alone(game: ClanFeudGame) -> None:
    """A regent who cannot pay and removes the King's last troop loses him: no regent, and
    a feud token for the loss (mutant: the regent kept with no army)."""
    moray = tid(game, "moray")
    s = position(
        game,
        [Task("upkeep", 0)],
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0},
        money=(0, 0),
        regent=0,
        king=moray,
        gold_out=True,
    )
    assert done(s) and not any(s.troops[0])
    assert s.regent == -1 and s.king == moray and s.feud[0] == 1


# -- the objectives' conditions -------------------------------------------------------------------


def _score_objective(game: ClanFeudGame, ident: str, **facts: object) -> tuple[int, ...]:
    """The VP each seat has after last turn's objective ``ident`` (none had any before)."""
    s = position(game, [Task("phase3", -1, 0)], events=(_event(game, ident),), **facts)
    assert s.is_chance and s.tasks[-1].kind == "draw_event"  # the objective is done
    return s.vp


def test_most_needs_at_least_one_and_fewest_counts_zero(game: ClanFeudGame) -> None:
    """``most(Q)`` needs Q >= 1 (all tied players qualify); ``fewest(Q)`` includes 0
    (the cards spec, 1.2) (mutants: most with nothing scores; fewest needs one)."""
    assert _score_objective(game, "EV07") == (0, 0)  # most(castles): nobody has one
    assert _score_objective(
        game, "EV07", control={"moray": 0, "banff": 1}, castles=("moray", "banff")
    ) == (4, 4)
    assert _score_objective(game, "EV12") == (3, 3)  # fewest(troops): both have none
    assert _score_objective(
        game, "EV12", troops={(0, "moray"): (1, 0, 0)}, control={"moray": 0}
    ) == (0, 3)


def test_comparisons_hold_at_their_bound(game: ClanFeudGame) -> None:
    """``Q >= k`` and ``Q <= k`` hold when Q equals k (mutants: strict comparisons)."""
    assert _score_objective(game, "EV05", feud=(5, 4)) == (3, 0)  # feud >= 5
    assert _score_objective(game, "EV10", feud=(1, 2)) == (3, 0)  # feud <= 1


# -- the end --------------------------------------------------------------------------------------


def test_a_finished_games_scores_are_its_vp(game: ClanFeudGame) -> None:
    """Once the final count is done, ``scores()`` is the VP, not VP plus the final count
    again (mutant: counted twice)."""
    s = position(game, [Task("final")], control={"moray": 0}, vp=(3, 2), money=(0, 0))
    assert s.is_terminal and s.vp == (4, 2) and s.scores() == (4, 2)
    assert s.winners() == (0,)


def test_each_event_draw_is_uniform_over_the_undrawn(game: ClanFeudGame) -> None:
    """Each regular event not yet drawn is equally likely (mutant: uneven weights)."""
    drawn = (_event(game, "EV01"), _event(game, "EV04"))
    s = position(game, [Task("draw_event")], events=drawn)
    weights = s.chance_weights()
    assert len(weights) == len(game.events.regular) - 2
    assert {w for _, w in weights} == {1}
    assert not {a.event for a, _ in weights} & set(drawn)


# -- hidden hands ---------------------------------------------------------------------------------


def test_resample_keeps_a_card_stolen_from_the_viewer_in_the_takers_hand(
    game: ClanFeudGame,
) -> None:
    """The victim of a theft knows which card its taker holds: resampling for the victim
    deals that card to the taker every time (mutant: dealt again like any unseen card)."""
    designs = [d.id for d in game.deck.designs]
    ac07 = designs.index("AC07")
    s = position(
        game,
        [Task("feud", 0, 1)],
        pool={0: {(0, 1): 1}},
        hands={0: {"AC05": 1}, 1: {"AC07": 1, "AC05": 1}},
        known=((1, 0, ac07),),
    )
    assert not s.is_chance and s.to_move == (0,)
    for seed in range(12):
        r = s.resample(0, Rng(seed))
        assert r.hands[1][ac07] >= 1 and sum(r.hands[1]) == 2
        assert r.hands[0] == s.hands[0]


def test_resample_chooses_a_sealed_token_commitment_again() -> None:
    """Another side's sealed feud tokens are hidden: resampling chooses them again among
    0..the tokens it holds, not always one value (mutant: always 0, which a bot's
    determinization would read as 'the enemy never commits tokens')."""
    g = load(2)
    s = position(
        g,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (3, 0, 0), (1, "inverness"): (3, 0, 0)},
        control={"moray": 0, "inverness": 1},
        feud=(3, 3),
    )
    s = play(s, "take 3 infantry", "territory inverness")
    assert s.phase.name == "btokens" and s.to_move == (0, 1)  # no cards: no card node
    s = s.apply_text("commit 2", 0)
    seen = set()
    for seed in range(16):
        other = s.resample(1, Rng(seed))
        assert other.battle is not None
        assert other.observation(1) == s.observation(1)
        seen.add(g.action_from_id(other.battle.tokens.ids[0]).k)
    assert seen <= {0, 1, 2, 3} and len(seen) > 1


def test_counts_of_named_places_are_the_players_own(game: ClanFeudGame) -> None:
    """``territories_in(I..V)`` counts the player's own red-numeral territories, and
    ``troops_in(...)`` every troop type there, artillery too (mutants: anyone's
    territories; artillery left out)."""
    control = {"nithisdale": 0, "dumfries": 1, "annandale": 1}
    assert _score_objective(game, "EV04", control=control) == (2, 4)
    # EV18: troops_in(edinburgh, edinburgh_castle) == 0 scores 2
    troops = {(0, "edinburgh"): (0, 0, 1)}
    assert _score_objective(game, "EV18", troops=troops, control={"edinburgh": 0}) == (0, 2)


def test_the_hand_quantity_counts_cards(game: ClanFeudGame) -> None:
    """``hand`` is the number of cards held (two copies of one design are two), for a
    user's event or card file (mutant: the number of designs)."""
    from clangames.clan_feud.effects import Quantity
    from clangames.clan_feud.interpret import quantity

    s = position(
        game, [Task("feud", 0, 1)], pool={0: {(0, 1): 1}}, hands={1: {"AC05": 2, "AC07": 1}}
    )
    assert quantity(s, 1, Quantity("hand")) == 3 and quantity(s, 0, Quantity("hand")) == 0


def test_an_or_option_with_two_payments_needs_both(tmp_path: Path) -> None:
    """An option is available only if all its costs can be paid together: two £3
    payments need £6, so with £4 the other option is forced (mutant: each payment judged
    alone)."""
    path = variant(
        tmp_path,
        "events.toml",
        'each_player = "pay_money(3) OR england_track(+1)"',
        'each_player = "[pay_money(3); pay_money(3)] OR england_track(+1)"',
    )
    g = load(2, events=path)
    s = position(g, [program(0, g.each_player_nodes[0])], money=(4, 0))
    assert done(s) and s.money[0] == 4 and s.england == 1


def test_an_or_with_no_payable_option_does_nothing(tmp_path: Path) -> None:
    """An OR whose every option costs what the player cannot pay is skipped (mutant: a
    decision with no legal action)."""
    path = variant(
        tmp_path,
        "events.toml",
        'each_player = "pay_money(3) OR england_track(+1)"',
        'each_player = "pay_money(3) OR pay_feud(2)"',
    )
    g = load(2, events=path)
    s = position(g, [program(0, g.each_player_nodes[0])], money=(2, 0), feud=(1, 0))
    assert done(s) and s.money == (2, 0) and s.feud == (1, 0)


def test_and_needs_both_conditions(game: ClanFeudGame) -> None:
    """EV14 ``cities >= 1 and castles >= 1``: a city alone scores nothing, a city and a
    castle score 3 (mutant: either one enough)."""
    assert _score_objective(game, "EV14", control={"inverness": 0}) == (0, 0)
    facts = {"control": {"inverness": 0, "moray": 0}, "castles": ("moray",)}
    assert _score_objective(game, "EV14", **facts) == (3, 0)
