"""The text layer's small promises, each pinned exactly: how seats and steps are named, the
generic picture of a game without a renderer, which renderer a game gets (and a broken
renderer module is not hidden), a seat's view with its secrets and the compact one, the
results table and the end-of-game reveal, narration that tells a seat its own sealed
move but nobody else's, and the plain-text pictures' width, status line and refusals."""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout
from clangames.engine.state import State
from clangames.rendering import plain, text
from clangames.rendering.plain import render_observation, status_line, text_of
from clangames.rendering.text import (
    GenericRenderer,
    Renderer,
    generic_board,
    narrate,
    numbered,
    renderer_for,
    results,
    reveal,
    seat_view,
    step_line,
    who,
)
from rendering.test_screens import _decisions, _game
from testing import toys


@pytest.fixture(name="toy")
def toy_fixture() -> Iterator[State]:
    """A Toy Duel (a game with no renderer of its own) just after both cards are dealt."""
    with toys.registered():
        state = clangames.load("toy_duel").initial_state()
        while state.is_chance:
            state = state.apply(state.chance_weights()[0][0], CHANCE)
        yield state


def test_seats_and_steps_are_named_as_the_logs_name_them() -> None:
    assert who(CHANCE) == "chance" and who(0) == "player 0" and who(3) == "player 3"
    assert step_line(12, 1, "passes") == "[12] player 1: passes"
    assert step_line(0, CHANCE, "deals") == "[0] chance: deals"
    assert numbered(["a", "b"]) == "1. a\n2. b"
    assert numbered([str(i) for i in range(10)]).splitlines()[0] == " 1. 0"


def test_the_base_renderer_tells_a_hidden_step_generically(toy: State) -> None:
    renderer = Renderer(toy.game)
    assert renderer.hidden_step(None, None, CHANCE) == "a chance outcome you cannot see"
    assert renderer.hidden_step(None, None, 1) == "player 1 makes a choice you cannot see"
    assert renderer.secrets(None) == []


@attrs.frozen
class _Inner:
    x: int


@attrs.frozen
class _Observation:
    cards: tuple[int, ...]
    seen: frozenset[int]
    inner: _Inner


def test_the_generic_picture_lists_every_field_in_a_stable_form() -> None:
    drawn = text_of(generic_board(_Observation((3, 1), frozenset({12, 3, 7}), _Inner(5)), "T"), 80)
    rows = [line.split(None, 1) for line in drawn.splitlines()[1:]]
    assert rows == [["cards", "(3, 1)"], ["seen", "{12, 3, 7}"], ["inner", "_Inner(x=5)"]]
    assert text_of(generic_board(42, "T"), 80).splitlines()[1].split() == ["observation", "42"]


def test_a_game_without_a_renderer_gets_the_generic_one(toy: State) -> None:
    renderer = renderer_for(toy.game)
    assert type(renderer) is GenericRenderer
    obs = toy.observation(0)
    assert text_of(renderer.board(obs), 80).splitlines()[1].split() == ["viewer", "0"]


def test_a_renderer_module_that_fails_to_import_is_not_hidden(
    toy: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(name: str) -> Any:
        raise ModuleNotFoundError("No module named 'missing_dependency'", name="missing_dependency")

    monkeypatch.setattr(text.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="missing_dependency"):
        renderer_for(toy.game)


def test_a_seats_view_is_its_board_and_its_secrets_and_the_public_view_has_none() -> None:
    state = _decisions("kings_kilt", 3, 0, 1)[0]
    renderer = renderer_for(state.game)
    for seat in range(3):
        obs = state.observation(seat)
        full = text_of(seat_view(renderer, state, seat), 120)
        assert full.startswith(text_of(renderer.board(obs), 120))
        assert full.endswith("\n".join(f"Your {line}" for line in renderer.secrets(obs)))
        compact = text_of(seat_view(renderer, state, seat, compact=True), 120)
        assert compact.startswith(text_of(renderer.summary(obs), 120))
        assert compact != full
    public = text_of(seat_view(renderer, state, None), 120)
    assert public == text_of(renderer.board(state.public_observation()), 120)
    assert "Your" not in public


def test_the_results_table_marks_exactly_the_winners() -> None:
    final, _, _ = rollout(clangames.load("kilt_castle", players=3).initial_state(), Rng(3))
    rows = text_of(results(final), 80).splitlines()[2:]
    winners = set(final.winners())
    for seat, row in enumerate(rows):
        score, ret = final.scores()[seat], final.returns()[seat]
        expected = f"player {seat}\\s+{score}\\s+{ret:.3g}" + (
            "\\s+winner" if seat in winners else ""
        )
        assert re.fullmatch(expected, row.strip()), row


def test_the_results_table_heads_the_win_share_in_a_players_words() -> None:
    # the column was headed "return" (reinforcement-learning jargon) in play and replay
    final, _, _ = rollout(clangames.load("kilt_castle", players=3).initial_state(), Rng(3))
    lines = text_of(results(final), 80).splitlines()
    assert lines[0].strip() == "Result"
    assert lines[1].split() == ["seat", "score", "win", "share"]
    assert "return" not in "\n".join(lines)
    assert max(len(line) for line in lines) <= 80


def test_the_reveal_tells_each_seats_own_secrets() -> None:
    final = _game("kings_kilt", 3, 2)[-1][0]
    renderer = renderer_for(final.game)
    lines = reveal(renderer, final)
    expected = [
        f"player {seat}'s {line}"
        for seat in range(3)
        for line in renderer.secrets(final.observation(seat))
    ]
    assert lines == expected and len(set(lines)) == len(lines)


def _sealed_koa_card() -> tuple[State, Any, int, State]:
    """3-player KOA in its first commit step: (before, a seat's card, that seat, after)."""
    state = clangames.load("koa_kingmaker", players=3).initial_state()
    rng = Rng(5)
    while state.phase.name != "commit":
        state, rng, _ = rollout(state, rng, max_steps=1)
    seat = state.to_move[0]
    action = state.legal_actions(seat)[0]
    return state, action, seat, state.apply(action, seat)


def test_a_sealed_card_is_told_in_full_only_to_its_owner() -> None:
    before, action, seat, after = _sealed_koa_card()
    renderer = renderer_for(before.game)
    assert narrate(renderer, before, action, seat, after, seat) == before.describe(action)
    assert narrate(renderer, before, action, seat, after, None) == before.describe(action)
    for viewer in range(3):
        if viewer != seat:
            told = narrate(renderer, before, action, seat, after, viewer)
            assert told == f"player {seat} puts a card face down", told


def test_plain_pictures_keep_the_asked_width_and_the_status_line_whole() -> None:
    state = _decisions("kilt_castle", 2, 0, 2)[-1]
    status = status_line(state)
    assert len(status) > plain.DEFAULT_WIDTH  # it would wrap on 80 columns
    wide = state.render(0, 200)
    assert wide.splitlines()[-1] == status
    assert all(line == line.rstrip() for line in wide.splitlines())
    assert str(state) == state.render(None, 80) == state.render()
    assert state.render(0, 40).splitlines()  # the narrowest width is allowed
    for width in (39, 0):
        with pytest.raises(InvalidArgumentError, match=f"got {width}"):
            state.render(0, width)


def test_a_simultaneous_decision_names_every_seat_to_move_and_the_prompt() -> None:
    before, _, _, _ = _sealed_koa_card()
    movers = ", ".join(f"player {p}" for p in before.to_move)
    assert len(before.to_move) > 1
    assert status_line(before) == f"{movers} to move: {before.prompt()}"
    chance = clangames.load("kings_kilt", players=3).initial_state()
    assert status_line(chance) == "Chance is to move"


def test_render_observation_is_the_full_board_and_the_viewers_secrets() -> None:
    state = _decisions("kings_kilt", 3, 0, 1)[0]
    renderer = renderer_for(state.game)
    obs = state.observation(1)
    drawn = render_observation(state.game, obs, 100)
    board = text_of(renderer.board(obs), 100)
    secrets = "\n".join(f"Your {line}" for line in renderer.secrets(obs))
    assert drawn == f"{board}\n{secrets}"
    assert "Draw pile:" in drawn  # the full board, not the summary
    public = state.public_observation()
    assert render_observation(state.game, public, 100) == text_of(renderer.board(public), 100)


def test_a_finished_open_game_without_winners_says_nobody_won(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    done, _, _ = rollout(clangames.load("kilt_castle", players=2).initial_state(), Rng(3))
    monkeypatch.setattr(type(done), "winners", lambda self: ())
    scores = ", ".join(map(str, done.scores()))
    assert status_line(done) == f"Game over; won by nobody; scores {scores}"


def test_a_rendering_module_without_a_maker_gives_the_generic_renderer(
    toy: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(text.importlib, "import_module", lambda name: types.ModuleType(name))
    assert type(renderer_for(toy.game)) is GenericRenderer
