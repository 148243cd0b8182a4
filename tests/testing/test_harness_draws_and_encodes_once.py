"""The harness's picture and tensor checks do not pay twice for what they already know
(issue 11's cost per step): a board drawn from an observation equal to one drawn before in
the same picture check is reused, and the kernel's tensor of a re-dealt state is not
encoded again once the observations were found equal. What a re-deal can still change (the
status line a picture adds from the state, a game's own ``render`` or tensor) is still
compared, and drawing outside the check is not cached."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.encoding import ObservationSpec
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.rendering.plain import boards_reused
from clangames.rendering.text import renderer_for
from clangames.testing import ConformanceError, check_state, pictures
from clangames.testing import interop as interop_checks
from testing import toys
from testing.toys import ToyState


class Failure(Exception):
    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"[{check}] {message}")
        self.check = check


def fail(check: str, message: str) -> Exception:
    return Failure(check, message)


def koa_state() -> State:
    """A KOA Kingmaker state with the hidden inheritance numbers dealt."""
    game = clangames.load("koa_kingmaker", players=3)
    return clangames.resolve_chance(game.initial_state(), Rng(3))


def count_boards(monkeypatch: pytest.MonkeyPatch, state: State) -> list[Any]:
    """Record every observation the game's renderer draws a board from."""
    cls = type(renderer_for(state.game))
    real = cls.board
    drawn: list[Any] = []

    def board(self: Any, obs: Any) -> Any:
        drawn.append(obs)
        return real(self, obs)

    monkeypatch.setattr(cls, "board", board)
    return drawn


def test_a_picture_check_draws_each_distinct_board_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state = koa_state()
    drawn = count_boards(monkeypatch, state)
    pictures.check_pictures(state, fail, Rng(1))
    # The public board and one per seat; the re-deals' boards (equal observations) and
    # str(state) reuse them, where each used to be drawn again (12 boards for 3 seats).
    assert len(drawn) == 1 + state.game.num_players
    assert len(set(drawn)) == len(drawn)


def test_a_reused_board_is_the_text_drawn_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    state = koa_state()
    fresh = [state.render(p, 80) for p in (None, 0, 1, 2)]
    with boards_reused():
        first = [state.render(p, 80) for p in (None, 0, 1, 2)]
        again = [state.render(p, 80) for p in (None, 0, 1, 2)]
        narrow = state.render(None, 60)  # another width is another board
    assert first == again == fresh
    assert narrow == state.render(None, 60) != fresh[0]


def test_boards_are_drawn_anew_outside_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    state = koa_state()
    drawn = count_boards(monkeypatch, state)
    state.render(0)
    state.render(0)
    with boards_reused():
        state.render(0)
    state.render(0)
    assert len(drawn) == 4


@attrs.frozen(slots=True)
class PromptLeaks(ToyState):
    """The prompt (so the status line of every picture) names both hidden cards."""

    def prompt(self) -> str:
        return f"{ToyState.prompt(self)} (cards {self.cards})"


def test_a_status_line_that_leaks_is_still_caught_with_the_board_reused() -> None:
    state = toys.toy().initial_state()
    for text in ("draw mid", "draw low"):
        state = state.apply_text(text)
    fields = {f.name: getattr(state, f.name) for f in attrs.fields(ToyState) if f.init}
    leaky = PromptLeaks(**fields)
    with pytest.raises(Failure) as info:
        pictures.check_pictures(leaky, fail, Rng(1))
    assert info.value.check == "picture-leak"
    assert "player 0's picture changes under resample(0)" in str(info.value)


def test_the_kernels_tensor_of_a_redeal_is_not_encoded_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = koa_state()
    other = state.resample(0, Rng(5))
    assert other.observation(0) == state.observation(0)
    real = ObservationSpec.encode
    calls: list[Any] = []

    def encode(self: ObservationSpec, obs: Any) -> list[float]:
        calls.append(obs)
        return real(self, obs)

    monkeypatch.setattr(ObservationSpec, "encode", encode)
    interop_checks.check_resampled_tensor(state, other, 0, fail)
    assert calls == []


def test_a_leaky_tensor_patched_onto_every_state_is_still_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = State.observation_tensor

    def leaky(self: Any, player: int) -> list[float]:
        # Everyone's inheritance numbers, which only their houses know until the end.
        return [*real(self, player), *map(float, self.inheritance)]

    monkeypatch.setattr(State, "observation_tensor", leaky)
    with pytest.raises(ConformanceError) as caught:
        check_state(koa_state(), Rng(1))
    assert caught.value.check == "tensor-resample"
