"""Conformance checks of a game's pictures (issue 17): ``check_game`` runs them on a sample
of the states it checks fully, and on every final state's score breakdown.

A game's pictures come from the rendering layer, drawn from observations; what these checks
catch is a renderer (or a new observation field) that breaks the promises the front-ends
rely on: every line fits the width asked for, a seat's picture is the same for every state
that seat cannot tell apart from the real one (so it shows nothing hidden from it),
``str(action)`` is the action's text form, and the end-of-game breakdown adds up to the
scores.
"""

from __future__ import annotations

from collections.abc import Callable

from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.state import State
from clangames.rendering.explain import end_report
from clangames.rendering.plain import boards_reused

PICTURE_ODDS = 256
"""About one fully checked state in this many also gets its pictures checked (drawing is
slow next to a step: a picture costs about as much as a thousand steps)."""
PICTURE_STREAM = 3 << 32
"""The fork of the full checks' Rng that decides and drives the picture checks."""
PICTURE_WIDTH = 80
"""The width the pictures are drawn at: the narrowest terminal the screens support."""

Fail = Callable[[str, str], Exception]
"""``fail(check, message)``: the harness's error for a broken promise."""


def wants_pictures(rng: Rng) -> bool:
    """True for about one state in PICTURE_ODDS, decided by a fork of ``rng`` (so the
    full checks' own stream is not disturbed)."""
    draw, _ = rng.fork(PICTURE_STREAM).below(PICTURE_ODDS)
    return draw == 0


def _fits(fail: Fail, text: str, who: str) -> None:
    if not isinstance(text, str) or not text:
        raise fail("picture", f"the picture {who} is not a non-empty string")
    longest = max(len(line) for line in text.splitlines())
    if longest > PICTURE_WIDTH:
        raise fail(
            "picture-width",
            f"the picture {who} has a line of {longest} characters at width {PICTURE_WIDTH}",
        )


def check_pictures(state: State, fail: Fail, rng: Rng) -> None:
    """The public picture and every seat's fit the width and do not change under a re-deal
    of what the seat cannot see; ``str(action)`` is each legal action's text form.

    A board drawn from an observation equal to one drawn before in the same check is
    reused (:func:`~clangames.rendering.plain.boards_reused`): the board is a function of
    the observation, which the harness has compared already, so what a re-deal can still
    change is what the picture adds from the state (the status line) or a ``render`` of
    the game's own; drawing the board again would cost two thirds of the check for
    nothing."""
    with boards_reused():
        _check_pictures(state, fail, rng)


def _check_pictures(state: State, fail: Fail, rng: Rng) -> None:
    game = state.game
    public = state.render(None, PICTURE_WIDTH)
    _fits(fail, public, "for everyone")
    if str(state) != state.render(None, None):
        raise fail("picture", "str(state) is not the public picture")
    stream = rng.fork(PICTURE_STREAM)
    for p in range(game.num_players):
        mine = state.render(p, PICTURE_WIDTH)
        _fits(fail, mine, f"for player {p}")
        other = state.resample(p, stream.fork(p + 1))
        if other.render(p, PICTURE_WIDTH) != mine:
            raise fail(
                "picture-leak",
                f"player {p}'s picture changes under resample({p}): it shows something"
                f" player {p} cannot know (a renderer reading beyond the observation?)",
            )
        if other.render(None, PICTURE_WIDTH) != public:
            raise fail("picture-leak", f"the public picture changes under resample({p}): it leaks")
    for p in state.to_move:
        if p == CHANCE:
            continue
        for action in state.legal_actions(p):
            if str(action) != game.action_text(action):
                raise fail(
                    "action-str",
                    f"str({action!r}) is {str(action)!r}, not its text form"
                    f" {game.action_text(action)!r}",
                )


def check_end_report(state: State, fail: Fail) -> None:
    """A final state's score breakdown has one entry per seat, each adding up to its score
    (from the final state alone: the end screen's fallback when the course is unknown)."""
    report = end_report([state])
    scores = state.scores()
    if [b.seat for b in report.seats] != list(range(state.game.num_players)):
        raise fail("end-report", "the score breakdown does not list every seat once, in order")
    for b in report.seats:
        total = sum(points for _, points in b.items)
        if b.score != scores[b.seat] or total != b.score:
            raise fail(
                "end-report",
                f"player {b.seat}'s breakdown adds up to {total}, the score is {scores[b.seat]}",
            )
