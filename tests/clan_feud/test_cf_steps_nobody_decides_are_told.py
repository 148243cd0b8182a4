"""The narration tells the steps nobody decides: a choice taken because it was a seat's only
option, England's track, spawns and marches, a battle round's winner, casualties and end,
an event's effects, Income and Intrigue; a die bought with the Build die says it goes to
the Feud column (the Feud benefit that follows read as if from nowhere); and the prompts
and explanations name a part of the turn in words, never a bare "phase (3)"."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import attrs

import clangames
from clangames.bots import RandomBot
from clangames.clan_feud import words
from clangames.clan_feud.actions import TROOPS, Word
from clangames.clan_feud.aftermath import walk
from clangames.clan_feud.phases import phase_words
from clangames.clan_feud.state import Task
from clangames.clan_feud.words import describe
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.rendering.text import narrate, renderer_for

from .cf_helpers import variant
from .cf_rules_helpers import load, play, position


def _build(s: Any, text: str) -> Any:
    return next(a for a in s.legal_actions(0) if s.action_text(a) == text)


def test_a_die_bought_with_the_build_die_says_it_brings_the_feud_benefit() -> None:
    game = load(2)
    # level I: the die's Feud benefit is a decision of its own, narrated next
    s = position(game, [Task("build", 0, 1)], control={"moray": 0}, pool={0: {(0, 1): 1}})
    assert words.told(s, _build(s, "build build I-right")) == (
        "pay £3 for the build column's I-right slot and the black die on it; the die goes on"
        " the Feud column at level I at once, for its Feud benefit"
    )
    # no die to raise: the tokens are the only benefit, taken at once and said
    s = position(game, [Task("build", 0, 1)], control={"moray": 0})
    assert words.told(s, _build(s, "build build I-right")) == (
        "pay £3 for the build column's I-right slot and the black die on it; the die goes on"
        " the Feud column at level I at once, for its Feud benefit; then player 0's only"
        " option: take 1 feud token (the Feud benefit); player 0 gains 1 feud token"
    )
    # a full Feud column: no benefit, and the purchase says so
    s = position(
        game, [Task("build", 0, 1)], control={"moray": 0}, filled={0: ((0, 0), (0, 2), (0, 3))}
    )
    assert words.told(s, _build(s, "build build I-right")).endswith(
        "; the Feud column has no free slot, so the die brings no Feud benefit"
    )
    # level III: the second purchase waits under the benefit, which names its die
    s = position(game, [Task("build", 0, 3)], control={"moray": 0}, pool={0: {(0, 1): 1}})
    s = s.apply(_build(s, "build build I-right"), 0)
    assert s.phase.name == "feud" and s.tasks[-2].kind == "build"
    assert words.told(s, Word("tokens")) == (
        "take 1 feud token (the Feud benefit of the black die just bought with the Build die)"
    )
    assert s.prompt() == (
        "player 0: your Build puts a black die on your Feud column at level I: take 1 feud"
        " token or raise a die"
    )


def _march_into(target: str) -> Any:
    """Seat 0's two infantry march from Lothian into ``target`` with a level I Military die,
    to the Feud benefit its arrival brings."""
    game = load(2)
    s = position(
        game,
        [Task("military", 0, 1)],
        troops={(0, "lothian"): (2, 0, 0)},
        control={"lothian": 0},
        pool={0: {(0, 1): 1}},
    )
    s = play(s, "take 2 infantry")
    place = next(a for a in s.legal_actions(0) if s.action_text(a) == f"territory {target}")
    told = words.told(s, place)
    return told, s.apply(place, 0)


def test_a_die_gained_by_a_march_names_the_city_or_king_james() -> None:
    told, s = _march_into("edinburgh_castle")
    assert told == (
        "march from Lothian into Edinburgh Castle; then player 0 takes control of Edinburgh"
        " Castle; player 0 holds King James"
    )
    assert s.prompt() == (
        "player 0: taking King James puts the gold die on your Feud column at level I: take 1"
        " feud token or raise a die"
    )
    assert words.told(s, Word("tokens")) == (
        "take 1 feud token (the Feud benefit of King James's gold die)"
    )
    told, s = _march_into("edinburgh")
    assert told == "march from Lothian into Edinburgh; then player 0 takes control of Edinburgh"
    assert s.prompt() == (
        "player 0: the city you took puts a black die on your Feud column at level I: take 1"
        " feud token or raise a die"
    )
    assert words.told(s, Word("tokens")) == (
        "take 1 feud token (the Feud benefit of the black die for taking Edinburgh)"
    )


def test_prompts_and_explanations_name_the_part_of_the_turn_in_words() -> None:
    game = load(2)
    s = position(game, [Task("upkeep", 0), Task("p3cards", 0)], hands={0: {"AC28": 1}})
    assert s.prompt() == "player 0: play an action card, or pass (phase 3: cards before upkeep)"
    assert phase_words("p3cards") == "phase 3: cards before upkeep"
    s = position(
        game,
        [Task("p1cards", -1, 0, 0)],
        hands={0: {"AC19": 1}},
        pool={0: {(0, 1): 2}, 1: {(0, 3): 3}},
        order=(0, 1),
    )
    if s.phase.name == "p1cards":  # AC19 may not be a card of that window
        assert "phase (" not in s.prompt()
    said = s.explain_illegal(Word("pay upkeep"), s.to_move[0])
    assert "phase (" not in said and "(phase 3: upkeep)" in said


@functools.cache
def _game_steps(seed: int, england_start: int = 0) -> list[tuple[Any, Any, int, Any]]:
    """(before, action, mover, after) of a seeded random 3-player game."""
    state = load(3, england_start=england_start).initial_state()
    _, _, moves = clangames.rollout_moves(state, Rng(100 + seed))  # the harness's stream
    out = []
    for player, action in moves:
        after = state.apply(action, player)
        out.append((state, action, player, after))
        state = after
    return out


def test_englands_spawn_march_and_battles_are_told() -> None:
    # England starts near war: armies spawn, march and fight in these games
    said: dict[str, str] = {}
    for seed in range(8):
        for before, action, _, after in _game_steps(seed, 10):
            text = words.told(before, action)
            if not before.english and after.english and before.battle is None:
                said["spawn"] = text
                assert "a new English army (level " in text, text
            if before.battle is not None and after.battle is None:
                assert f"the battle in {_where(before)} is over: " in text, text
                b = before.battle
                held = any(army.territory == b.territory for army in after.english)
                if b.owners[0] < 0 and not held:
                    # England never retreats: its attackers all fell, and that is told
                    said["fell"] = text
                    assert f"England loses {_english_troops(b.attackers)} attacking" in text
            if before.battle is None and after.battle is not None:
                # a march that attacks says so; anything else names the battle begun
                said.setdefault("begun", text)
                where = _where(after)
                assert " attack" in text or f"a battle begins in {where}: " in text, text
            if after.is_terminal and not before.is_terminal:
                said["end"] = text
                assert "the game is over: the final count" in text, text
            won = after.battle is not None and after.battle.roller >= 0
            if won and before.battle is not None and before.battle.roller < 0:
                said["round"] = text
                assert " wins battle round " in text, text
            if "marches" in text and "decide for England" in text:
                said["march"] = text
            then = text.partition("; then ")[2]
            # England's lone way is told as England's move, not as someone's decision
            assert "decide for England" not in then, text
    assert set(said) == {"spawn", "round", "march", "begun", "end", "fell"}, said


def _english_troops(troops: tuple[int, int, int]) -> str:
    parts = [f"{k} {name}" for k, name in zip(troops, TROOPS, strict=True) if k]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _where(s: Any) -> str:
    return str(s.game.board.territories[s.battle.territory].name)


def test_the_told_walk_keeps_in_step_with_the_rules() -> None:
    # the narration's walk of the stack ends where the rules' own settle does
    for seed, start in ((0, 0), (1, 10)):
        for before, action, player, after in _game_steps(seed, start):
            _, walked = walk(before, action, player, describe)
            assert attrs.evolve(walked, phase=after.phase) == after


def test_every_step_nobody_decides_has_a_plain_sentence() -> None:
    said: dict[str, str] = {}
    for seed in range(3):
        for before, action, player, after in _game_steps(seed):
            text = words.told(before, action)
            for key in (
                "only option",
                "the England track goes from",
                "a new English army",
                "wins battle round",
                "is over:",
                "gains £",
                "scores",
            ):
                if key in text:
                    said.setdefault(key, text)
            if _stage(before) == 0 and _stage(after) > 0 and before.events:
                # phase 3 has begun in this step: the objective's scoring is named
                name = after.game.events.regular[before.events[-1]].name
                said.setdefault("objective", text)
                assert f"phase 3 begins: the objective of {name} is scored" in text
            if before.england != after.england and player == CHANCE:
                # a track move after a chance step (an event's line) is told with it
                assert "England track" in text, text
    missing = [
        k for k in ("only option", "the England track goes from", "gains £") if k not in said
    ]
    assert not missing, missing
    for text in said.values():
        assert "_" not in text and "[" not in text


def _stage(s: Any) -> int:
    """The stage of the turn's phase 3 (-1 once it is done or before a turn)."""
    return next((t.a for t in s.tasks if t.kind == "phase3"), -1)


def test_a_seat_whose_only_option_was_taken_is_told_what_it_was() -> None:
    # the rules take a lone option at once; the seat reads it in the narration of the step
    # that led there, as every other seat does
    renderer = renderer_for(load(3))
    for seed in range(3):
        for before, action, player, after in _game_steps(seed):
            text = words.told(before, action)
            for seat in range(3):
                mark = f"player {seat}'s only option: "
                if seat == player or mark not in text:
                    continue
                told = narrate(renderer, before, action, player, after, seat)
                assert mark in told
                return
    raise AssertionError("no seat's only option taken after another's step in three games")


def test_a_hidden_step_tells_its_public_changes() -> None:
    game = load(2)
    renderer: Any = renderer_for(game)
    s = position(game, [Task("upkeep", 0)], troops={(0, "moray"): (1, 0, 0)})
    before = s.observation(1)
    after = attrs.evolve(before, england=4, vp=(3, 0))
    told = renderer.hidden_step(before, after, CHANCE)
    assert told == (
        "a chance outcome you cannot see; then the England track goes from 0 to 4;"
        " player 0 scores 3 VP"
    )


def test_a_seat_that_can_afford_one_way_of_an_event_is_told_taking_it() -> None:
    # Raid of the Redeswire: each seat pays £3 or moves the England track up. A seat short
    # of £3 takes the track at once, inside the program; the narration names it, so the
    # track's move is not read as the paying seat's doing.
    game = clangames.load("clan_feud", players=4)
    match = clangames.Match(game, 5, {p: RandomBot(Rng(5).fork(p + 1)) for p in range(4)})
    match.run()
    raid = "the event Raid of the Redeswire"
    told = [
        words.told(step.before, step.action)
        for step in match.history
        if describe(step.before, step.action) == f"pay £3 (option 1 of {raid})"
    ]
    assert (
        f"pay £3 (option 1 of {raid}); then player 2 loses £3; player 0's only option: move"
        f" the England track 1 step up (option 2 of {raid}); the England track goes from 2 to 3"
    ) in told


def test_a_lone_way_behind_a_condition_is_told_too() -> None:
    # The Tounis College: each seat controlling a city pays £2 per city or moves the track.
    # The OR stands inside an IF, so the program reaches it only after testing the
    # condition; a seat short of the money still takes the track by itself, and says so.
    game = clangames.load("clan_feud", players=5)
    match = clangames.Match(game, 2, {p: RandomBot(Rng(2).fork(p + 1)) for p in range(5)})
    match.run()
    college = "(option 2 of the event The Tounis College)"
    told = [
        words.told(step.before, step.action)
        for step in match.history
        if describe(step.before, step.action) == f"move the England track 1 step up {college}"
    ]
    assert (
        f"move the England track 1 step up {college}; then the England track goes from 11 to"
        f" 12; player 1's only option: move the England track 1 step up {college}; the"
        " England track goes from 12 to 13"
    ) in [t.split("; a new English army")[0] for t in told]


def test_a_lone_way_in_a_hand_built_program_is_told_where_the_or_stands() -> None:
    game = load(2)
    college = [e.name for e in game.events.regular].index("The Tounis College")
    node = game.each_player_nodes[college]
    tasks = [Task("prog", 1, 0, data=(node, -1)), Task("prog", 0, 0, data=(node, -1))]
    s = position(game, tasks, control={"glasgow": 0, "edinburgh": 1}, money=(5, 1))
    pay = next(a for a in s.legal_actions(0) if s.action_text(a) == "option 1")
    assert words.told(s, pay) == (
        "pay £2 per city you control (option 1 of the card); then player 0 loses £2; player"
        " 1's only option: move the England track 1 step up (option 2 of the card); the"
        " England track goes from 0 to 1"
    )
    # with the money for it, player 1 has a choice, and the narration stops there
    s = position(game, tasks, control={"glasgow": 0, "edinburgh": 1}, money=(5, 2))
    assert (
        words.told(s, pay)
        == "pay £2 per city you control (option 1 of the card); then player 0 loses £2"
    )


def test_a_lone_way_after_a_lone_chance_outcome_in_the_same_walk_is_told() -> None:
    # A draw from a deck of one design has one outcome, told by itself; the walk then
    # reaches player 1's program, whose OR has one affordable way. The walk once reused
    # its lone-way callback's name for the drawn card and crashed calling the card.
    game = load(2)
    college = [e.name for e in game.events.regular].index("The Tounis College")
    node = game.each_player_nodes[college]
    deck = [0] * len(game.deck.designs)
    deck[0] = 1
    tasks = [
        Task("prog", 1, 0, data=(node, -1)),
        Task("draw", 0, 1),
        Task("prog", 0, 0, data=(node, -1)),
    ]
    s = position(
        game, tasks, control={"glasgow": 0, "edinburgh": 1}, money=(5, 1), deck=tuple(deck)
    )
    pay = next(a for a in s.legal_actions(0) if s.action_text(a) == "option 1")
    assert words.told(s, pay) == (
        "pay £2 per city you control (option 1 of the card); then player 0 loses £2; player 0"
        " draws an action card; player 1's only option: move the England track 1 step up"
        " (option 2 of the card); the England track goes from 0 to 1"
    )
    after = s.apply(pay)
    assert after.hands[0][0] == 1 and after.england == 1


def test_an_or_with_no_way_a_seat_can_take_is_told_as_such(tmp_path: Path) -> None:
    # No bundled card has one (every event's OR may move the England track), but a user's
    # events file may: a seat that can pay neither way does nothing, and the narration
    # says so instead of passing over that seat's turn of the card in silence.
    path = variant(
        tmp_path,
        "events.toml",
        'each_player = "pay_money(3) OR england_track(+1)"',
        'each_player = "pay_money(3) OR pay_feud(2)"',
    )
    game = load(2, events=path)
    node = game.each_player_nodes[0]
    tasks = [Task("prog", 1, 0, data=(node, -1)), Task("prog", 0, 0, data=(node, -1))]
    name = game.events.regular[0].name
    s = position(game, tasks, money=(5, 2), feud=(2, 1), events=(0,))
    pay = next(a for a in s.legal_actions(0) if s.action_text(a) == "option 1")
    assert words.told(s, pay) == (
        f"pay £3 (option 1 of the event {name}); then player 0 loses £3; player 1 can take"
        f" none of the options of the event {name}"
    )
    after = s.apply(pay)
    assert after.money == (2, 2) and after.feud == (2, 1) and after.england == 0
    # with one way affordable, that way is named as before
    s = position(game, tasks, money=(5, 3), feud=(2, 1), events=(0,))
    assert words.told(s, pay) == (
        f"pay £3 (option 1 of the event {name}); then player 0 loses £3; player 1's only"
        f" option: pay £3 (option 1 of the event {name}); player 1 loses £3"
    )
