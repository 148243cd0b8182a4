"""Clan Feud part 3 across whole games: cards played for their actions in every window
keep the 50 cards, the game's invariants and its length bound; a stolen card stays hidden
from all but the taker and the victim, and ``resample`` keeps what each of them knows."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clangames
from clangames.clan_feud.actions import PlayAction
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.rng import Rng

from .cf_rules_helpers import invariant, legal_texts, load, play, position

WHITE = 0
AC05 = 4  # North Berwick Witches: a P1.after_roll card
AC18 = 17


def conserved(s: ClanFeudState) -> None:
    """Per design: draw pile + hands + discards = its copies; 50 cards in all."""
    designs = s.game.deck.designs
    for d, design in enumerate(designs):
        held = s.deck[d] + s.discards[d] + sum(h[d] for h in s.hands)
        assert held == design.copies, f"{design.id}: {held} cards"
    assert sum(s.deck) + sum(s.discards) + sum(map(sum, s.hands)) == 50


def step(s: Any, rng: Rng, eager: bool) -> tuple[Any, Rng, str | None]:
    """One random step; with ``eager`` a card play is chosen whenever one is legal.
    Returns the window of a card played for its action, if any."""
    if s.is_chance:
        action, rng = clangames.sample_chance(s, rng)
        return s.apply(action), rng, None
    k, rng = rng.below(len(s.to_move))
    p = s.to_move[k]
    legal = s.legal_actions(p)
    plays = [a for a in legal if isinstance(a, PlayAction)]
    pick = plays if eager and plays else legal
    j, rng = rng.below(len(pick))
    action = pick[j]
    window = None
    if isinstance(action, PlayAction):
        window = s.game.deck.designs[action.design].timing.window
    return s.apply(action, p), rng, window


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    eager=st.booleans(),
    steps=st.integers(50, 600),
)
def test_card_plays_keep_the_fifty_cards(players: int, seed: int, eager: bool, steps: int) -> None:
    s: Any = load(players).initial_state()
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        s, rng, _ = step(s, rng, eager)
        conserved(s)
        for taker, _victim, d in s.known:
            assert s.hands[taker][d] >= 1  # what a victim knows is true


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_play_cards_in_every_window(players: int) -> None:
    game = load(players)
    windows: Counter[str] = Counter()
    longest = 0
    # a few games each, more until every window has been used (England's wars change
    # which cards random games draw and keep)
    for seed in range(24):
        if seed >= (6 if players < 4 else 4) and len(windows) == 4:
            break
        s: Any = game.initial_state()
        rng = Rng(1000 * players + seed)
        n = 0
        while not s.is_terminal:
            s, rng, window = step(s, rng, eager=True)
            n += 1
            if window is not None:
                windows[window] += 1
            invariant(s)
            s.check_consistency()
        longest = max(longest, n)
    assert set(windows) == {"P1.before_order", "P1.after_roll", "P2.assign", "P3.upkeep"}
    assert longest <= game.info.max_game_length


# -- a stolen card ----------------------------------------------------------------------------


def stolen() -> ClanFeudState:
    """Three players: seat 0 takes seat 1's only card (AC05) with AC18; seat 2 watches."""
    game = load(3)
    s = position(
        game,
        [Task("assign", 0)],
        hands={0: {"AC18": 1, "AC10": 1}, 1: {"AC05": 1}, 2: {"AC02": 1}},
        pool={0: {(WHITE, 1): 1}},
        order=(0, 1, 2),
    )
    # the victim is named; the card is drawn at random from the victim's hand (only one
    # here, so at once); then the die's Intrigue draws (a chance node, left pending)
    s = play(s, "play AC18", "seat 1")
    assert s.phase.name == "draw"
    assert s.known == ((0, 1, AC05),) and s.hands[0][AC05] == 1
    return s


def test_a_stolen_card_is_seen_by_the_taker_and_the_victim_only() -> None:
    s = stolen()
    assert s.observation(0).known == ((0, 1, AC05),)
    assert s.observation(1).known == ((0, 1, AC05),)
    assert s.observation(2).known == ((0, 1, -1),)
    assert s.public_observation().known == ((0, 1, -1),)
    # the others see only that one card moved
    assert s.observation(2).hand_sizes == (2, 0, 1)


def test_resample_from_the_victims_view_keeps_the_stolen_card() -> None:
    s = stolen()
    for seed in range(30):
        other = s.resample(1, Rng(seed))
        assert other.hands[0][AC05] >= 1 and other.known == s.known
        assert other.observation(1) == s.observation(1)
        other.check_consistency()


def test_resample_from_a_third_players_view() -> None:
    s = stolen()
    designs: set[int] = set()
    for seed in range(40):
        other = s.resample(2, Rng(seed))
        assert other.observation(2) == s.observation(2)
        ((taker, victim, d),) = other.known
        assert (taker, victim) == (0, 1) and other.hands[0][d] >= 1
        designs.add(d)
        other.check_consistency()
    assert len(designs) > 1  # the third player does not know which card moved


def test_the_knowledge_ends_when_the_taker_plays_the_card() -> None:
    s = stolen()
    game = s.game
    s = position(
        game,
        [Task("p1cards", -1, 0, 0)],
        hands={0: {"AC05": 1}},
        order=(0, 1, 2),
        pool={1: {(WHITE, 3): 1}},
        known=((0, 1, AC05),),
    )
    assert legal_texts(s) == ["pass", "play AC05"]
    s = play(s, "play AC05")
    assert s.known == ()


def test_a_later_random_steal_from_the_taker_ends_the_knowledge() -> None:
    s = stolen()
    game = s.game
    s = position(
        game,
        [Task("assign", 2)],
        hands={0: {"AC05": 1, "AC10": 1}, 2: {"AC18": 1}},
        pool={2: {(WHITE, 1): 1}},
        known=((0, 1, AC05),),
    )
    s = play(s, "play AC18")  # seat 0 is the only one holding cards: named at once
    assert s.phase.name == "steal_card"
    s = s.apply(s.chance_weights()[0][0])
    assert all(k[0] != 0 for k in s.known) and len(s.known) == 1 and s.known[0][:2] == (2, 0)


def test_a_phase_one_or_three_card_that_draws_is_refused(tmp_path: Any) -> None:
    from importlib.resources import files

    from clangames.engine.errors import InvalidParameterError

    text = (files("clangames.clan_feud") / "actions.toml").read_text(encoding="utf-8")
    changed = text.replace('action = "reduce_upkeep(3)"', 'action = "draw_cards(1)"')
    assert changed != text
    path = tmp_path / "actions.toml"
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"AC28 draws cards in P3\.upkeep"):
        clangames.load("clan_feud", players=2, actions=str(path))


def test_the_screen_shows_what_a_stolen_card_tells(tmp_path: Any) -> None:
    from clangames.rendering.clan_feud import make_renderer
    from clangames.rendering.plain import text_of
    from clangames.rendering.text import seat_view

    s = stolen()
    screen = make_renderer(s.game)
    assert "card stolen by player 0: North Berwick Witches" in screen.secrets(s.observation(1))
    assert "card taken from player 1: North Berwick Witches" in screen.secrets(s.observation(0))
    # the seat view reads "Your card stolen by ...", not "Your player 0 holds your ..."
    shown = text_of(seat_view(screen, s, 1), 80)
    assert "Your card stolen by player 0: North Berwick Witches" in shown
    assert not any("North Berwick" in line for line in screen.secrets(s.observation(2)))


def test_every_card_reads_like_a_card() -> None:
    game = load(2)
    s = game.initial_state()
    for d, design in enumerate(game.deck.designs):
        text = s.describe(game.play_actions[d])
        assert text.startswith(f"play {design.name} (") and "(s)" not in text
        assert design.id not in text
        assert game.action_text(game.play_actions[d]) == f"play {design.id}"
