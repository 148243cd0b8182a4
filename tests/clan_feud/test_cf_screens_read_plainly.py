"""What a play-tester read on Clan Feud's screens, in plain words: the status line names the
part of the turn ("phase 3: cards before upkeep", not the task ``p3cards``) and the turn
order without a Python list; cards are named by their names and their combat effects in
words ("in battle +1 strength", not ``cs+1``); a card played with a die says which die;
a battle says who has committed in words (it read "committed: [False, False]"); a drawn
card says who drew it; England's choices say they are made for England; the prompts say
where troops are recruited and for how much, which troops of which army move, and how
much upkeep is owed (the prompt offered "pay upkeep" when paying was not possible)."""

from __future__ import annotations

import functools
import re
from typing import Any

import attrs
import pytest

from clangames.clan_feud.actions import Assign, BuildSlot, Place, PlayAction
from clangames.clan_feud.effects import CombatEffect
from clangames.clan_feud.playing import combat_text
from clangames.clan_feud.rules import HANDLERS
from clangames.clan_feud.state import Task
from clangames.clan_feud.words import told as narrated
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.rendering.clan_feud import phase_words
from clangames.rendering.explain import explain_action
from clangames.rendering.plain import text_of
from clangames.rendering.text import renderer_for

from .cf_rules_helpers import load, position, upkeep
from .cf_walk import random_step

NOTATION = re.compile(
    r"\bAC\d\d\b|\bEV\d\d\b|cs\+|skulls|two_is_three|LVL|\[|\bFalse\b|\bTrue\b|\(cancel\)"
)
"""Ids, the card file's notation and Python reprs: none is for a player to read."""


def test_every_task_that_can_be_decided_has_words_for_the_status_line() -> None:
    # the kinds with options or chance weights: the decisions (the rest run on their own)
    decided = [
        kind for kind, (_, weights, _, options, _, _) in HANDLERS.items() if weights or options
    ]
    assert "p3cards" in decided and "emove" in decided
    for kind in decided:
        said = phase_words(kind)
        assert said != kind and "_" not in said, kind
    assert phase_words("p3cards") == "phase 3: cards before upkeep"
    assert phase_words("bdeclare") == "battle: attacker goes on or retreats"


@pytest.mark.parametrize(
    ("kind", "amount", "words"),
    [
        ("cs", 2, "+2 strength"),
        ("skulls+", 1, "1 more casualty for the enemy"),
        ("skulls-", 2, "2 fewer casualties of your own"),
        ("cancel", 0, "cancels the other side's card"),
        ("two_is_three", 0, "casualty dice rolling 2 count as 3"),
    ],
)
def test_a_combat_effect_reads_in_words(kind: str, amount: int, words: str) -> None:
    assert combat_text(CombatEffect(kind, amount)) == words


@functools.cache
def _seen(players: int, england_start: int, seed: int) -> list[tuple[Any, Any, int]]:
    """Every (state, action, mover) of a seeded random game: decisions and chance."""
    out = []
    state = load(players, england_start=england_start).initial_state()
    rng = Rng(7 * players + seed)
    while not state.is_terminal:
        if state.is_chance:
            out += [(state, a, CHANCE) for a, _ in state.chance_weights()]
        else:
            out += [(state, a, p) for p in state.to_move for a in state.legal_actions(p)]
        state, rng = random_step(state, rng)
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_no_narration_prompt_or_screen_shows_ids_notation_or_reprs(players: int) -> None:
    # England at war from the start: English armies, battles and England's choices too
    renderer: Any = renderer_for(load(players))
    kinds = set()
    drawn = None
    for seed in range(2):
        for state, action, mover in _seen(players, 11, seed):
            said = state.describe(action)
            assert not NOTATION.search(said), said
            kinds.add(type(action).__name__)
            if mover >= 0 and state is not drawn:  # each screen once
                drawn = state
                assert not NOTATION.search(state.prompt()), state.prompt()
                screen = text_of(renderer.board(state.observation(mover)), 200)
                screen += "\n".join(renderer.secrets(state.observation(mover)))
                assert not NOTATION.search(screen), NOTATION.search(screen)
    assert {"PlayAction", "DrawCard", "DrawEvent", "Place", "Commit"} <= kinds


def test_a_card_played_with_a_die_says_which_die_and_what_it_does() -> None:
    game = load(2)
    s = position(
        game,
        [Task("assign", 0)],
        hands={0: {"AC19": 1}},
        pool={0: {(0, 2): 1}},
        control={"moray": 0},
        troops={(0, "moray"): (2, 0, 0)},
    )
    card = next(a for a in s.legal_actions(0) if isinstance(a, PlayAction))
    assert narrated(s, card) == (
        "play Voyage to the Isles (take the Intrigue column's level I action without a die),"
        " with a die you assign next to the Military column; then player 0's only option:"
        " put a white 2 on the military column, level I; player 0 gains £1; player 0 scores"
        " 2 VP"
    )


def test_drawn_cards_starts_and_englands_choices_say_who() -> None:
    seen: dict[str, str] = {}
    for state, action, _ in _seen(2, 11, 0) + _seen(2, 11, 1):
        kind = state.tasks[-1].kind if state.tasks else ""
        seen.setdefault(kind, state.describe(action))
    assert re.fullmatch(r"player [01] starts in [A-Z].*", seen["start"])
    assert re.fullmatch(r"player [01] draws [A-Z].*", seen["draw"])
    assert seen["emove"].startswith("decide for England that the English army in ")


def test_the_prompts_say_where_what_and_how_much() -> None:
    game = load(2)
    lennox = game.board.index["the_lennox"]
    s = position(
        game,
        [Task("recruit", 0, a=1, b=lennox)],
        troops={(0, "the_lennox"): (1, 0, 0)},
        control={"the_lennox": 0},
        castles=("the_lennox",),
        money=(4, 4),
    )
    assert s.prompt() == (
        "player 0: recruit in The Lennox: how many infantry, at £1 each (you have £4)"
    )
    s = position(
        game,
        [Task("army", 0, a=lennox, data=(0, 0, 0))],
        troops={(0, "the_lennox"): (2, 1, 0)},
        control={"the_lennox": 0},
    )
    # no artillery there: the cavalry are asked first
    assert s.prompt() == "player 0: choose how many cavalry of the army in The Lennox move"
    s = position(
        game,
        [Task("upkeep", 0)],
        troops={(0, "moray"): (2, 0, 0), (0, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 0},
        money=(0, 0),
        feud=(1, 0),
    )
    assert s.prompt() == (
        "player 0: your upkeep is £3 and you hold £0 and 1 feud token: remove troops until"
        " you can pay"
    )
    assert "pay upkeep" not in [s.action_text(a) for a in s.legal_actions(0)]


def test_a_battle_says_who_has_committed_in_words() -> None:
    renderer: Any = renderer_for(load(2))
    for state, _, _ in _seen(2, 11, 0) + _seen(2, 11, 1):
        obs = state.public_observation()
        if obs.battle is None or not any(obs.battle.cards.committed()):
            continue
        line = renderer.battle(obs).plain
        assert re.search(r"(England|clan \d) has committed", line), line
        assert "[" not in line
        return
    raise AssertionError("no battle with a commitment in two games")


def test_an_unidentified_casualty_roll_is_said_to_be_rolled() -> None:
    renderer: Any = renderer_for(load(2))
    for state, _, mover in _seen(2, 11, 0) + _seen(2, 11, 1):
        if mover == CHANCE and state.phase.name == "bhits":
            obs = state.observation(0)
            assert renderer.hidden_step(obs, obs, CHANCE) == "the casualty dice are rolled"
            return
    raise AssertionError("no casualty roll in two games")


def test_explain_of_a_die_names_each_columns_action_not_only_the_feuds() -> None:
    game = load(2)
    s = position(
        game,
        [Task("assign", 0)],
        pool={0: {(0, 2): 1}},
        control={"moray": 0},
        troops={(0, "moray"): (2, 0, 0)},
    )
    military = next(a for a in s.legal_actions(0) if isinstance(a, Assign) and a.column == 4)
    said = explain_action(s, military, 0)
    assert "Military: recruiting or moving" in said
    assert "(on the feud column, its benefit" not in said


def test_a_build_option_says_its_price_and_what_it_holds() -> None:
    game = load(2)
    s = position(game, [Task("build", 0, a=1)], control={"moray": 0}, money=(10, 10))
    legal = s.legal_actions(0)
    texts = renderer_for(game).option_texts(s.observation(0), legal)
    said = dict(zip([s.action_text(a) for a in legal], texts, strict=True))
    assert said["build income I-right"] == "build income I-right (£3, a tower house)"
    assert said["build build I-right"] == "build build I-right (£3, the black die)"
    assert all(isinstance(a, BuildSlot) for a in legal)
    # the building bought is placed next: the prompt says which building
    for state, action, mover in _seen(2, 11, 0) + _seen(2, 11, 1):
        if state.phase.name == "place" and mover >= 0:
            building = "castle" if state.tasks[-1].a == 2 else "tower house"
            assert state.prompt() == (
                f"player {mover}: choose the territory of yours for the new {building}"
            )
            assert isinstance(action, Place)
            name = game.board.territories[action.territory].name
            assert renderer_for(game).option_texts(state.observation(mover), [action]) == [
                f"{state.action_text(action)} ({name})"
            ]
            return
    raise AssertionError("no building placed in two games")


def test_the_status_line_reads_the_order_and_the_part_of_the_turn() -> None:
    game = load(3)
    s = upkeep(game, {}, troops={(0, "moray"): (3, 0, 0)})
    obs = attrs.evolve(s.observation(0), order=(2, 0, 1))
    line = renderer_for(game).header(obs).plain
    assert "order: players 2, 0, 1 |" in line
    assert line.endswith("| phase 3: upkeep (player 0 to act)")


def test_a_city_taken_says_why_the_feud_benefit_is_offered() -> None:
    # the play-tester marched into Inverness and was asked, out of nowhere, to "take the
    # Feud benefit"
    for seed in range(8):
        for state, _, mover in _seen(3, 0, seed):
            if mover < 0 or state.phase.name != "feud" or state.tasks[-2].kind != "move":
                continue
            assert state.prompt() == (
                f"player {mover}: the city you took puts a black die on your Feud column at"
                " level I: take 1 feud token or raise a die"
            )
            return
    raise AssertionError("no city taken in eight games")


def test_an_upkeep_a_card_took_away_reads_plainly() -> None:
    game = load(2)
    s = position(
        game,
        [Task("upkeep", 0)],
        troops={(0, "moray"): (2, 0, 0)},
        control={"moray": 0},
        upkeep_cut=(5, 0),
    )
    assert s.describe(game.words["pay upkeep"]) == "pay no upkeep: nothing is owed"
