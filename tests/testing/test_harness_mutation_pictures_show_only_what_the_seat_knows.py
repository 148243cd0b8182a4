"""The harness's picture checks (``testing/pictures.py``, ``testing/svg_checks.py``) each
catch the fault they are for (the harness's mutation audit): a picture wider than the
narrowest terminal, a seat's or the public picture that shows what it may not know,
``str(state)`` or ``str(action)`` that is not what the front-ends print, an end report that
does not add up, an SVG that is not an SVG document or changes under a re-deal, and a
drawing module whose list of fields is stale. ``check_game`` runs them on a sample of the
fully checked states."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.rendering.explain import EndReport, SeatBreakdown, end_report
from clangames.testing import ConformanceError, check_game, pictures, svg_checks
from testing import toys
from testing.toys import Stake, ToyState


class Failure(Exception):
    """What ``fail`` builds: the check's name and message."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"[{check}] {message}")
        self.check = check


def fail(check: str, message: str) -> Exception:
    return Failure(check, message)


def dealt() -> ToyState:
    """A toy state with both hidden cards dealt and a stake to choose."""
    state = toys.toy().initial_state()
    for text in ("draw mid", "draw low"):
        state = state.apply_text(text)
    assert isinstance(state, ToyState) and state.phase.name == "stake"
    return state


def as_class(state: ToyState, cls: type[ToyState]) -> ToyState:
    return cls(**{f.name: getattr(state, f.name) for f in attrs.fields(ToyState) if f.init})


@attrs.frozen(slots=True)
class WidePicture(ToyState):
    """Draws one line of 81 characters."""

    def render(self, seat: int | None = None, width: int | None = None) -> str:
        return "x" * 81


@attrs.frozen(slots=True)
class FullWidthPicture(ToyState):
    """Draws one line of exactly 80 characters (the most allowed)."""

    def render(self, seat: int | None = None, width: int | None = None) -> str:
        return "x" * 80

    def __str__(self) -> str:
        return self.render()


@attrs.frozen(slots=True)
class SeatPictureLeaks(ToyState):
    """A seat's picture shows both cards."""

    def render(self, seat: int | None = None, width: int | None = None) -> str:
        text = ToyState.render(self, seat, width)
        return text if seat is None else f"{text}\ncards {self.cards}"


@attrs.frozen(slots=True)
class PublicPictureLeaks(ToyState):
    """The public picture shows both cards."""

    def render(self, seat: int | None = None, width: int | None = None) -> str:
        text = ToyState.render(self, seat, width)
        return f"{text}\ncards {self.cards}" if seat is None else text

    def __str__(self) -> str:
        return self.render(None, None)


@attrs.frozen(slots=True)
class StrIsNotThePicture(ToyState):
    """``str(state)`` says something else than the public picture."""

    def __str__(self) -> str:
        return "a toy duel"


@pytest.mark.parametrize(
    ("cls", "check", "names"),
    [
        (WidePicture, "picture-width", "a line of 81 characters at width 80"),
        (SeatPictureLeaks, "picture-leak", "player 0's picture changes under resample(0)"),
        (PublicPictureLeaks, "picture-leak", "the public picture changes under resample(0)"),
        (StrIsNotThePicture, "picture", "str(state) is not the public picture"),
    ],
)
def test_a_broken_picture_is_named(cls: type[ToyState], check: str, names: str) -> None:
    state = as_class(dealt(), cls)
    with pytest.raises(Failure) as info:
        pictures.check_pictures(state, fail, Rng(1))
    assert info.value.check == check
    assert names in str(info.value)


def test_a_picture_of_the_full_width_and_a_correct_one_pass() -> None:
    pictures.check_pictures(as_class(dealt(), FullWidthPicture), fail, Rng(1))
    pictures.check_pictures(dealt(), fail, Rng(1))


def test_an_action_printed_otherwise_than_its_text_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Stake, "__str__", lambda self: "stake")
    with pytest.raises(Failure) as info:
        pictures.check_pictures(dealt(), fail, Rng(1))
    assert info.value.check == "action-str"
    assert "str(Stake(amount=1)) is 'stake', not its text form 'stake 1'" in str(info.value)


class Pictured(toys.ToyGame):
    """A toy whose states draw too wide a picture (for ``check_game``)."""

    @property
    def state_type(self) -> type[ToyState]:
        return WideEverywhere


@attrs.frozen(slots=True)
class WideEverywhere(ToyState):
    """Draws one line of 81 characters (the state's JSON stays of this class)."""

    def render(self, seat: int | None = None, width: int | None = None) -> str:
        return "x" * 81


def test_check_game_checks_the_pictures_of_a_sample_of_states() -> None:
    game = Pictured(toys.SPEC, toys.SPEC.resolve({}))
    with pytest.raises(ConformanceError) as info:
        # replays=0: its records replay as the registry's toy, another state class
        check_game(game, playouts=200, seed=3, rate=1.0, replays=0)
    assert info.value.check == "picture-width"


# -- the end report ---------------------------------------------------------------------------


def final() -> State:
    state: State = toys.toy().initial_state()
    while not state.is_terminal:
        state = state.apply(state.legal_actions(state.to_move[0])[-1], state.to_move[0])
    return state


def test_an_end_report_that_does_not_add_up_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    def short(states: Sequence[State]) -> EndReport:
        report = end_report(states)
        first = report.seats[0]
        seats = (attrs.evolve(first, items=(("final score", first.score - 1),)), *report.seats[1:])
        return attrs.evolve(report, seats=seats)

    monkeypatch.setattr(pictures, "end_report", short)
    state = final()
    with pytest.raises(Failure) as info:
        pictures.check_end_report(state, fail)
    assert info.value.check == "end-report"
    assert f"adds up to {state.scores()[0] - 1}, the score is {state.scores()[0]}" in str(
        info.value
    )


def test_an_end_report_whose_score_is_not_the_seats_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def inflated(states: Sequence[State]) -> EndReport:
        report = end_report(states)
        seats = tuple(
            SeatBreakdown(b.seat, b.score + 1, (("final score", b.score + 1),))
            for b in report.seats
        )
        return attrs.evolve(report, seats=seats)

    monkeypatch.setattr(pictures, "end_report", inflated)
    with pytest.raises(Failure, match=r"\[end-report\] player 0's breakdown"):
        pictures.check_end_report(final(), fail)


def test_an_end_report_missing_a_seat_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    def one_seat(states: Sequence[State]) -> EndReport:
        report = end_report(states)
        return attrs.evolve(report, seats=report.seats[:1])

    monkeypatch.setattr(pictures, "end_report", one_seat)
    with pytest.raises(Failure, match=r"\[end-report\] .* every seat once"):
        pictures.check_end_report(final(), fail)
    with pytest.raises(ConformanceError) as info:
        check_game(toys.toy(), playouts=1)  # every final state's report is checked
    assert info.value.check == "end-report"


# -- SVG pictures ------------------------------------------------------------------------------


def koa_state() -> State:
    """A KOA Kingmaker state with the hidden inheritance numbers dealt."""
    game = clangames.load("koa_kingmaker", players=3)
    return clangames.resolve_chance(game.initial_state(), Rng(3))


def test_an_svg_picture_that_shows_hidden_information_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = svg_checks.state_picture

    def leaky(state: State, seat: int | None = None) -> str:
        svg = real(state, seat)
        return svg.replace("</svg>", f"<!-- {state.to_position()} --></svg>")

    monkeypatch.setattr(svg_checks, "state_picture", leaky)
    with pytest.raises(Failure) as info:
        svg_checks.check_svg(koa_state(), fail, Rng(1))
    assert info.value.check == "svg-leak"
    assert "player 0's SVG picture changes under resample(0)" in str(info.value)


def test_an_svg_picture_that_is_not_an_svg_document_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(svg_checks, "state_picture", lambda state, seat=None: "<html/>")
    with pytest.raises(Failure) as info:
        svg_checks.check_svg(koa_state(), fail, Rng(1))
    assert info.value.check == "svg"
    assert "is not an <svg> document (got html)" in str(info.value)


def test_a_correct_svg_picture_passes() -> None:
    svg_checks.check_svg(koa_state(), fail, Rng(1))


def coverage_of(kind: type) -> tuple[frozenset[str], frozenset[str]]:
    from clangames.rendering import svg

    drawn, left_out = svg.COVERAGE[kind]
    return frozenset(drawn), frozenset(left_out)


@pytest.mark.parametrize(
    ("change", "names"),
    [
        ("stale", "lists fields it does not have (['ghost'])"),
        ("twice", "or lists one twice (['round'])"),
    ],
)
def test_a_stale_or_doubled_field_list_is_named(
    change: str, names: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from clangames.koa_kingmaker.observation import KoaObservation
    from clangames.rendering import svg

    drawn, left_out = coverage_of(KoaObservation)
    assert "round" in drawn | left_out
    if change == "stale":
        changed: tuple[Any, Any] = (drawn | {"ghost"}, left_out)
    else:
        changed = (drawn | {"round"}, left_out | {"round"})
    monkeypatch.setitem(svg.COVERAGE, KoaObservation, changed)
    with pytest.raises(Failure) as info:
        svg_checks.check_coverage(KoaObservation, fail)
    assert info.value.check == "svg-coverage"
    assert names in str(info.value)


def test_check_svg_checks_the_field_list_of_the_observation_it_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clangames.koa_kingmaker.observation import KoaObservation
    from clangames.rendering import svg

    drawn, left_out = coverage_of(KoaObservation)
    monkeypatch.setitem(svg.COVERAGE, KoaObservation, (drawn - {"round"}, left_out - {"round"}))
    with pytest.raises(Failure) as info:
        svg_checks.check_svg(koa_state(), fail, Rng(1))
    assert info.value.check == "svg-coverage"
    assert "KoaObservation fields ['round'] are neither drawn" in str(info.value)


@attrs.frozen(slots=True)
class BlankPicture(ToyState):
    """Draws nothing at all."""

    def render(self, seat: int | None = None, width: int | None = None) -> str:
        return ""


def test_an_empty_picture_is_named() -> None:
    with pytest.raises(Failure) as info:
        pictures.check_pictures(as_class(dealt(), BlankPicture), fail, Rng(1))
    assert info.value.check == "picture"
    assert "the picture for everyone is not a non-empty string" in str(info.value)


def test_an_svg_picture_that_is_not_xml_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svg_checks, "state_picture", lambda state, seat=None: "<svg")
    with pytest.raises(Failure) as info:
        svg_checks.check_svg(koa_state(), fail, Rng(1))
    assert info.value.check == "svg"
    assert "the SVG picture for everyone is not well-formed XML" in str(info.value)


def test_a_built_in_game_without_an_svg_picture_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(svg_checks, "has_picture", lambda kind: False)
    with pytest.raises(Failure) as info:
        svg_checks.check_svg(koa_state(), fail, Rng(1))
    assert info.value.check == "svg"
    assert "koa_kingmaker has no SVG picture" in str(info.value)
