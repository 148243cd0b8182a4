"""Clan Feud's words for people: every step is narrated in plain words (what was recruited
or moved where, which die was raised, who took which place), never as the action's text
followed by the prompt (the play-tester read "move (player 0: recruit or move)"); a
territory option shows the map's name beside its id, which stays what is typed and
recorded; an objective's condition reads in words, not in the card file's notation."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.actions import (
    Lose,
    PayFeud,
    Place,
    Seat,
    Take,
    ToThree,
    Word,
)
from clangames.clan_feud.effects import parse_expression
from clangames.clan_feud.playing import card_text, condition_text
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.clan_feud.words import told as narrated
from clangames.engine.rng import Rng
from clangames.rendering.text import renderer_for

from .cf_rules_helpers import after_roll, load, play, position, tid
from .cf_walk import random_step

WHITE, GOLD = 0, 2


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


def _fallback(state: ClanFeudState, action: Any) -> bool:
    """The old narration's form: the action's text, then the prompt in brackets."""
    said = state.describe(action)
    return f"({state.prompt()})" in said or said == state.action_text(action)


# -- narration -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("england_start", [0, 10])
def test_no_step_of_a_seeded_game_is_narrated_as_its_text_and_the_prompt(
    players: int, england_start: int
) -> None:
    # every step of seeded random games, England at war too: decisions and chance alike
    seen: set[tuple[str, str]] = set()
    for seed in range(3):
        state = load(players, england_start=england_start).initial_state()
        rng = Rng(100 * players + seed)
        while not state.is_terminal:
            if state.is_chance:
                options = [a for a, _ in state.chance_weights()]
            else:
                options = [a for p in state.to_move for a in state.legal_actions(p)]
            for action in options:
                assert not _fallback(state, action), (state.phase.name, state.describe(action))
                seen.add((type(action).__name__, state.phase.name))
            state, rng = random_step(state, rng)
    # the decisions the play-tester met, among those walked
    assert seen >= {
        ("Word", "military"),
        ("Place", "recruit"),
        ("Take", "recruit"),
        ("Place", "move"),
        ("Take", "army"),
        ("Place", "step"),
        ("Seat", "order"),
        ("Raise", "feud"),
        ("Place", "upkeep"),
        ("Word", "upkeep"),
        ("Commit", "btokens"),
    }


def test_a_military_die_recruits_or_moves_in_words(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("military", 0, 2)],
        troops={(0, "moray"): (2, 0, 0)},
        control={"moray": 0},
        castles=("moray",),
    )
    # Moray is the only place to recruit: the choice is taken at once, and said
    assert narrated(s, Word("recruit")) == (
        "recruit troops with the level II Military die; then player 0's only option:"
        " recruit in Moray"
    )
    assert narrated(s, Word("move")) == (
        "move up to 2 armies with the level II Military die; then player 0's only option:"
        " move an army from Moray"
    )


def test_a_recruit_says_where_what_and_its_price(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("recruit", 0, 2, -1)],
        control={"moray": 0, "banff": 0},
        castles=("moray",),
        towers={"banff": 1},
    )
    moray = tid(game, "moray")
    assert s.describe(Place(moray)) == "recruit in Moray"
    s = play(s, "territory moray")  # level II: cavalry first, then infantry
    assert s.describe(Take(1, 1)) == "recruit 1 cavalry in Moray for £3"
    assert s.describe(Take(0, 1)) == "recruit no cavalry in Moray"


def test_a_move_says_which_troops_go_where_and_whom_they_attack(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (2, 0, 0), (1, "banff"): (1, 1, 0)},
        control={"moray": 0, "banff": 1},
        regent=0,
        king=tid(game, "moray"),
    )
    assert s.phase.name == "army"  # the only army, chosen at once
    assert s.describe(Take(1, 0)) == "move 1 infantry from Moray"
    s = play(s, "take 1 infantry")
    assert s.describe(Word("king goes")) == "King James goes with the army from Moray"
    assert s.describe(Word("king stays")) == "King James stays in Moray"
    s = play(s, "king stays")
    banff = tid(game, "banff")
    assert narrated(s, Place(banff)) == (
        "march from Moray into Banff and attack player 1's army there; then player 1 wins"
        " battle round 1"
    )


def test_the_turn_order_and_its_tie_break_in_words() -> None:
    game = load(3)
    s = position(game, [Task("order", 0, data=(1,))])
    assert s.describe(Seat(0)) == "put player 0 in place 2 of this turn's order"
    s = position(game, [Task("tiebreak", 0, data=(1, 2))])
    assert s.describe(Seat(2)) == "name player 2, of those tied for fewest dice, to set the order"


def test_upkeep_removals_and_payments_in_words(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("upkeep", 0)],
        troops={(0, "moray"): (2, 0, 0), (0, "banff"): (1, 1, 0)},
        control={"moray": 0, "banff": 0},
        money=(5, 0),
    )
    assert s.describe(Word("pay upkeep")) == "pay the £5 upkeep (in £, feud tokens or both)"
    assert s.describe(Place(tid(game, "banff"))) == (
        "remove troops from Banff before paying upkeep"
    )
    s = play(s, "territory banff")
    assert s.describe(Lose(0)) == "remove one infantry from Banff (no upkeep for it)"
    s = position(game, [Task("upkeep_pay", 0, 3)], money=(2, 0), feud=(2, 0))
    assert s.describe(PayFeud(1)) == "pay the £3 upkeep with 1 feud token and £2"
    s = position(game, [Task("upkeep_pay", 0, 3)], money=(5, 0), feud=(3, 0))
    assert s.describe(PayFeud(0)) == "pay the £3 upkeep all in £"
    assert s.describe(PayFeud(3)) == "pay the £3 upkeep with 3 feud tokens"


def test_a_second_purchase_and_a_cards_die_change_in_words(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("build", 0, 3, 1)], control={"moray": 0})
    assert s.describe(Word("stop")) == "buy nothing more with this Build die"
    # Bond of Manrent with two dice showing 1: which one becomes a 3 is asked
    s = play(after_roll(game, {"AC07": 1}, pool={0: {(WHITE, 1): 1, (GOLD, 1): 1}}), "play AC07")
    assert s.phase.name == "modify"
    assert s.describe(ToThree(GOLD)) == "turn an unassigned gold 1 into a 3"


def test_narration_never_falls_back_in_the_rare_decisions(game) -> None:  # type: ignore[no-untyped-def]
    # the decisions above, which random games seldom reach: no option in the old form
    states = [
        position(game, [Task("build", 0, 3, 1)], control={"moray": 0}),
        position(load(3), [Task("tiebreak", 0, data=(1, 2))]),
        play(after_roll(game, {"AC07": 1}, pool={0: {(WHITE, 1): 1, (GOLD, 1): 1}}), "play AC07"),
    ]
    for s in states:
        for action in s.legal_actions(s.to_move[0]):
            assert not _fallback(s, action), s.describe(action)


# -- territory options -----------------------------------------------------------------------


def test_a_territory_option_shows_its_name_and_keeps_its_text(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("recruit", 0, 1, -1)],
        control={"moray": 0, "the_lennox": 0},
        castles=("moray", "the_lennox"),
    )
    legal = s.legal_actions(0)
    texts = renderer_for(game).option_texts(s.observation(0), legal)
    assert texts == ["territory the_lennox (The Lennox)", "territory moray (Moray)"]
    # the text typed and recorded is still the id's: the start of each label parses back
    for action, label in zip(legal, texts, strict=True):
        assert game.parse_action(label.split(" (")[0]) == action
    assert [s.action_text(a) for a in legal] == ["territory the_lennox", "territory moray"]


# -- objective conditions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "words"),
    [
        ("feud >= 5", "you hold at least 5 feud tokens"),
        ("feud <= 1", "you hold at most 1 feud token"),
        ("troops(cavalry) >= 3", "you have at least 3 cavalry on the board"),
        ("money >= 4", "you hold at least £4"),
        ("hand <= 2", "you hold at most 2 action cards in hand"),
        (
            "troops_in(edinburgh, edinburgh_castle) == 0",
            "you have no troops in Edinburgh or Edinburgh Castle",
        ),
        ("territories_in(I..V) == 2", "you control exactly 2 territories numbered I to V"),
        (
            "most(territories)",
            "no one controls more territories than you and you control at least 1 territory",
        ),
        ("most(money)", "no one holds more money than you and you hold at least £1"),
        ("fewest(troops)", "no one has fewer troops on the board than you"),
        ("controls(edinburgh_castle)", "you control Edinburgh Castle"),
        ("is_regent", "you are regent"),
        (
            "cities >= 1 and castles >= 1",
            "you control at least 1 city and you control at least 1 castle",
        ),
    ],
)
def test_each_condition_form_reads_in_words(game, written: str, words: str) -> None:  # type: ignore[no-untyped-def]
    e = parse_expression(f"if {written} then gain_vp(3)")
    assert condition_text(e.condition, game.board) == words
    assert card_text(e, board=game.board) == f"if {words}, score 3 VP"


def test_every_objective_of_the_deck_reads_without_notation(game) -> None:  # type: ignore[no-untyped-def]
    for event in game.events.regular:
        said = card_text(event.objective, board=game.board)
        for notation in ("<=", ">=", "==", "(", "_", "most(", "fewest("):
            assert notation not in said.replace("(ties", ""), (event.id, said)
