"""RandomBot and the bot registry: legal, uniform, seeded and reproducible choices."""

from __future__ import annotations

from collections import Counter

import pytest

import clangames
from clangames.bots import (
    BotSpec,
    RandomBot,
    UnknownBotError,
    bot_names,
    bot_specs,
    make_bot,
    register_bot,
)


def first_decision(seed: int = 42, players: int = 3) -> clangames.State:
    """The first state where a player decides, for a seeded King's Kilt deal."""
    game = clangames.load("kings_kilt", players=players)
    return clangames.resolve_chance(game.initial_state(), clangames.Rng(seed))


def test_random_bot_is_a_policy_and_picks_the_rng_index() -> None:
    state = first_decision()
    player = state.to_move[0]
    legal = state.legal_actions(player)
    bot: clangames.Policy = RandomBot(5)
    expected_index, after = clangames.Rng(5).below(len(legal))
    assert bot.act(state, player) == legal[expected_index]
    assert isinstance(bot, RandomBot)
    assert bot.rng == after


def test_int_seed_and_rng_seed_are_the_same_bot() -> None:
    state = first_decision(seed=3)
    player = state.to_move[0]
    a, b = RandomBot(11), RandomBot(clangames.Rng(11))
    picks_a = [a.act(state, player) for _ in range(20)]
    picks_b = [b.act(state, player) for _ in range(20)]
    assert picks_a == picks_b
    assert repr(a) == repr(b) == f"RandomBot({a.rng!r})"


def test_choices_are_uniform_over_the_legal_actions() -> None:
    state = first_decision(seed=7)
    player = state.to_move[0]
    legal = state.legal_actions(player)
    assert len(legal) >= 3
    bot = RandomBot(2024)
    draws = 400 * len(legal)
    counts = Counter(bot.act(state, player) for _ in range(draws))
    assert set(counts) == set(legal)
    for action in legal:  # each within 25% of the expected 400 (fixed seed: no flakiness)
        assert 300 <= counts[action] <= 500, (action, counts[action])


def test_rejects_chance_and_players_not_to_move() -> None:
    game = clangames.load("kings_kilt", players=3)
    root = game.initial_state()
    with pytest.raises(ValueError, match="sample_chance"):
        RandomBot(1).act(root, clangames.CHANCE)
    state = first_decision()
    idle = (state.to_move[0] + 1) % 3
    with pytest.raises(clangames.IllegalActionError, match=f"player {idle} has no legal action"):
        RandomBot(1).act(state, idle)


def play(seed: int, players: int = 3) -> clangames.Match:
    game = clangames.load("kings_kilt", players=players)
    bots = {p: RandomBot(clangames.Rng(seed).fork(p + 1)) for p in range(players)}
    match = clangames.Match(game, seed, bots)
    match.run()
    return match


def test_a_game_between_bots_is_reproducible() -> None:
    first, again, other = play(9), play(9), play(10)
    assert first.is_over and again.is_over and other.is_over
    assert first.record == again.record
    assert first.state == again.state
    assert first.record.moves != other.record.moves
    # Every decision in the record is one of the player's legal actions at that point.
    for step in first.history:
        assert step.action in step.before.legal_actions(step.player)
    # The record replays to the same final state.
    assert first.record.final_state() == first.state


def test_registry_builds_random_bots_by_name() -> None:
    assert "random" in bot_names()
    assert [s.name for s in bot_specs()] == list(bot_names())
    state = first_decision()
    player = state.to_move[0]
    by_name = make_bot("Random", 17)
    assert isinstance(by_name, RandomBot)
    assert by_name.act(state, player) == RandomBot(17).act(state, player)


def test_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(UnknownBotError, match=r"no bot called 'ismcts-9000'; known bots: .*random"):
        make_bot("ismcts-9000", 1)
    assert isinstance(UnknownBotError("x"), clangames.ClanGamesError)
    assert str(UnknownBotError("plain message")) == "plain message"


def test_register_bot_refuses_a_different_bot_under_a_taken_name() -> None:
    spec = next(s for s in bot_specs() if s.name == "random")
    assert register_bot(spec) is spec  # re-registering the same spec is harmless
    with pytest.raises(ValueError, match="already registered as 'random'"):
        register_bot(BotSpec("random", "something else", RandomBot))
