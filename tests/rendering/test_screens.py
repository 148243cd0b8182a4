"""Every game's pictures across seeded games: they fit the width, a decision fits an 80x24
screen with its prompt and first option, a seat's picture shows only what that seat may
know, ``str(action)`` is the action's text, and the end-of-game breakdown sums to the
scores."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clangames
from clangames.cli.play import PlaySession
from clangames.engine import display
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.rollout import rollout_moves
from clangames.engine.state import Action, State
from clangames.rendering import render_observation
from clangames.rendering.explain import end_report, explain_action, rules_text
from clangames.rendering.screen import fold, matching, ranges

CASES = [
    ("kings_kilt", 2),
    ("kings_kilt", 4),
    ("koa_kingmaker", 2),
    ("koa_kingmaker", 5),
    ("kilt_castle", 2),
    ("kilt_castle", 4),
    ("clan_feud", 2),
    ("clan_feud", 5),
]
"""Every game at its smallest and largest player count."""
WIDTHS = (80, 100, 160)


def _game(name: str, players: int, seed: int) -> list[tuple[State, int, Action]]:
    """A random game from ``seed``: each state with who moved next and how."""
    game = clangames.load(name, players=players)
    state = game.initial_state()
    _, _, moves = rollout_moves(state, Rng(seed))
    steps = []
    for player, action in moves:
        steps.append((state, player, action))
        state = state.apply(action, player)
    steps.append((state, CHANCE, None))
    return steps


def _decisions(name: str, players: int, seed: int, count: int) -> list[State]:
    """About ``count`` states spread over a random game where a seat decides."""
    states = [s for s, p, _ in _game(name, players, seed) if p != CHANCE and not s.is_terminal]
    stride = max(1, len(states) // count)
    return states[::stride][:count]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_picture_fits_its_width(name: str, players: int) -> None:
    for seed in (0, 1):
        steps = _game(name, players, seed)
        final = steps[-1][0]
        for state in [*_decisions(name, players, seed, 4), final]:
            for width in WIDTHS:
                for seat in (None, *range(players)):
                    text = state.render(seat, width)
                    longest = max(len(line) for line in text.splitlines())
                    assert longest <= width, (seed, width, seat, text)


def _screen(state: State, seat: int, width: int, height: int) -> list[str]:
    """The decision screen ``play`` shows ``seat`` on a ``width`` x ``height`` terminal."""
    out = io.StringIO()
    game = state.game
    session = PlaySession(
        game, 0, ["human"] * game.num_players, io.StringIO(), out, width=width, height=height
    )
    session.match.state = state  # the screen reads the match's state only
    session._show(seat)
    return out.getvalue().splitlines()


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_decision_fits_an_80x24_screen_with_its_prompt_and_first_option(
    name: str, players: int
) -> None:
    for seed in (0, 1, 2):
        for state in _decisions(name, players, seed, 5):
            seat = state.to_move[0]
            lines = _screen(state, seat, 80, 24)
            assert len(lines) <= 23, "\n".join(lines)  # the 24th line is the input line
            assert all(len(line) <= 80 for line in lines), "\n".join(lines)
            prompt = state.prompt()
            assert any(line.startswith(prompt[:40]) for line in lines), "\n".join(lines)
            first = state.action_text(state.legal_actions(seat)[0])
            assert any(line.strip() == f"1. {first}" for line in lines), "\n".join(lines)


@pytest.mark.parametrize(("name", "players"), CASES[::3])
def test_decision_screens_fit_wider_terminals_too(name: str, players: int) -> None:
    for state in _decisions(name, players, 4, 3):
        seat = state.to_move[0]
        for width in WIDTHS:
            for height in (24, 50, None):
                lines = _screen(state, seat, width, height if height else 1000)
                assert all(len(line) <= width for line in lines), (width, "\n".join(lines))
                if height:
                    assert len(lines) < height


def test_a_tall_screen_draws_the_full_board_and_every_option() -> None:
    state = _decisions("kings_kilt", 3, 0, 1)[0]
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    lines = _screen(state, seat, 100, 200)
    assert "Draw pile:" in "\n".join(lines)  # the full board, not the summary
    assert sum(1 for line in lines if line.lstrip()[:1].isdigit() and ". " in line) >= len(legal)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_seats_picture_shows_only_what_it_may_know(name: str, players: int) -> None:
    # The picture of a state for a seat is the same for every state that seat cannot tell
    # apart from it (its re-deals): so it shows nothing of anyone else's hidden cards.
    for seed in (0, 3):
        for state in _decisions(name, players, seed, 3):
            for seat in range(players):
                mine = state.render(seat, 100)
                public = str(state)
                for k in range(3):
                    other = state.resample(seat, Rng(seed).fork(k))
                    assert other.render(seat, 100) == mine
                    assert str(other) == public


def test_another_seats_secrets_do_not_show() -> None:
    # King's Kilt: player 1's face-down family appears in player 1's picture only
    state = _decisions("kings_kilt", 3, 0, 1)[0]
    assert state.render(1).count("Your family:") == 1
    family_of_1 = state.render(1).split("Your family:")[1].splitlines()[0]
    family_of_0 = state.render(0).split("Your family:")[1].splitlines()[0]
    assert family_of_1 != family_of_0
    assert "Your family" not in str(state)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_str_of_an_action_is_its_text_form(name: str, players: int) -> None:
    # In a fresh process: other tests load games with custom components whose wording of the
    # same action values differs, and an ambiguous value rightly prints as its repr.
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_screens import check_action_texts\n"
        f"check_action_texts({name!r}, {players})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("actions checked")


def check_action_texts(name: str, players: int) -> None:
    """Every legal action of a few decisions prints as its text form and parses back."""
    checked = 0
    for state in _decisions(name, players, 0, 3):
        for action in state.legal_actions(state.to_move[0]):
            assert str(action) == state.action_text(action)
            assert state.parse_action(str(action)) == action
            checked += 1
    print(f"{checked} actions checked")


def test_an_observation_renders_like_the_seats_picture() -> None:
    state = _decisions("koa_kingmaker", 3, 1, 1)[0]
    obs_text = render_observation(state.game, state.observation(2), 100)
    assert obs_text in state.render(2, 100)
    for width in (10, "wide", True):
        with pytest.raises(InvalidArgumentError, match=r"width must be an int >= 40"):
            state.render(0, width)  # type: ignore[arg-type]
    for seat in (7, -1, "0"):
        with pytest.raises(
            InvalidArgumentError,
            match=r"render: .* is not a seat of koa_kingmaker \(expected an int from 0 to 2\)",
        ):
            state.render(seat)  # type: ignore[arg-type]
    np = pytest.importorskip("numpy")
    assert state.render(np.int64(2), 100) == state.render(2, 100)  # a framework's seat


@settings(max_examples=12, deadline=None)
@given(
    case=st.sampled_from(
        [
            (g, n)
            for g, lo, hi in [
                ("kings_kilt", 2, 4),
                ("koa_kingmaker", 2, 5),
                ("kilt_castle", 2, 4),
                ("clan_feud", 2, 5),
            ]
            for n in range(lo, hi + 1)
        ]
    ),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_end_breakdown_sums_to_the_scores(case: tuple[str, int], seed: int) -> None:
    name, players = case
    states = [s for s, _, _ in _game(name, players, seed)]
    final = states[-1]
    report = end_report(states)
    assert [b.seat for b in report.seats] == list(range(players))
    for breakdown in report.seats:
        assert breakdown.score == final.scores()[breakdown.seat]
        assert sum(points for _, points in breakdown.items) == breakdown.score
    winners = ", ".join(f"player {p}" for p in final.winners())
    assert report.decided_by.startswith(winners)
    # the final state alone still adds up (one item for what only the course knew)
    alone = end_report([final])
    for breakdown in alone.seats:
        assert sum(points for _, points in breakdown.items) == breakdown.score


def test_the_koa_end_report_says_who_was_out_and_the_tie_break() -> None:
    # find seeded games where a higher score was out, and where a tie was split
    said_out = said_tie = False
    for seed in range(60):
        states = [s for s, _, _ in _game("koa_kingmaker", 4, seed)]
        report = end_report(states)
        text = "\n".join(report.lines())
        final: object = states[-1]
        out = [p for p in range(4) if final.out_round[p]]  # type: ignore[attr-defined]
        for p in out:
            assert f"out of the game in round {final.out_round[p]}" in text  # type: ignore[attr-defined]
        said_out |= "could not win" in report.decided_by and "out of the game" in report.decided_by
        said_tie |= "the lower inheritance number won" in report.decided_by
    assert said_out and said_tie


def test_rules_and_explanations_for_every_game() -> None:
    for name, players in CASES[::2]:
        state = _decisions(name, players, 0, 2)[-1]
        assert len(rules_text(state).splitlines()) >= 5
        seat = state.to_move[0]
        action = state.legal_actions(seat)[0]
        text = explain_action(state, action, seat)
        assert text.startswith(f"{state.action_text(action)}: {state.describe(action)}.")
        assert "Now: " + state.prompt() in text


def test_folding_keeps_numbers_and_counts_the_rest() -> None:
    texts = [f"advance {i}" for i in range(12)] + [f"betray {i} with x" for i in range(30)]
    lines, nxt = fold(texts, list(range(len(texts))), 0, 6, 80)
    assert lines[0] == " 1. advance 0" and len(lines) == 6 and nxt == 5
    assert lines[-1] == "... 37 more (advance 6-12; betray 13-42): 'more', or type words to filter"
    lines, nxt = fold(texts, list(range(len(texts))), nxt, 6, 80)
    assert lines[0] == " 6. advance 5"
    assert ranges([1, 2, 3, 7, 9, 10]) == "1-3, 7, 9-10"
    assert matching(texts, "betray 7") == [19]
    every, end = fold(texts, list(range(len(texts))), 0, None)
    assert len(every) == 42 and end == 42


def test_import_clangames_draws_without_loading_rich_first() -> None:
    code = (
        "import sys, clangames\n"
        "assert 'rich' not in sys.modules\n"
        "state = clangames.load('kilt_castle', players=2).initial_state()\n"
        "print(str(state).splitlines()[0])\n"
        "assert 'clangames.rendering' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Kilt Castle\n"


def test_without_a_drawer_render_says_what_to_do() -> None:
    saved = list(display._drawer)
    display._drawer.clear()
    try:
        state = clangames.load("kings_kilt", players=2).initial_state()
        with pytest.raises(display.RenderingUnavailableError, match="no renderer is installed"):
            state.render()
    finally:
        display._drawer[:] = saved


def test_the_deciding_tie_break_is_named_with_its_values() -> None:
    shared = end_report([_game("kings_kilt", 2, 6)[-1][0]]).decided_by
    assert shared == (
        "player 0, player 1 share the win with 3 each; the tie-break is the most Influence"
        " cards left (player 0 0, player 1 0), level there too."
    )
    split = end_report([_game("kilt_castle", 2, 33)[-1][0]]).decided_by
    assert split == (
        "player 1 won: player 0, player 1 tied on 64; the tie-break is the most floors built"
        " (player 0 18, player 1 30)."
    )
