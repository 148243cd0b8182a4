"""The end-of-game reveal ("Revealed:", every seat's secrets) of ``play`` and ``replay`` is
folded on an 80-column screen only between the items it lists, as a seat's own "Your hand:"
lines are: a card's name is never cut over two lines (it was folded at any space, so Clan
Feud's "Seat on the Privy Council" could end a line with "Privy"). Into a pipe each seat's
line stays whole."""

from __future__ import annotations

import io

import pytest

import clangames
from clangames.bots import make_bot
from clangames.cli.play import PlaySession
from clangames.cli.replay import replay
from clangames.engine.match import Match
from clangames.engine.rng import Rng
from clangames.rendering.text import renderer_for, reveal
from cli_helpers import autosave_in_tmp_fixture  # noqa: F401 - autouse

GAMES = [("clan_feud", 3, 0), ("koa_kingmaker", 5, 0)]
"""Finished games (name, players, seed) with a reveal longer than a line of 80. (King's
Kilt's was, while the families stayed face down at the end: since they are all turned face
up as the game ends, each seat's line fits, see the last test.)"""


def _finished(name: str, players: int, seed: int) -> Match:
    game = clangames.load(name, players=players)
    bots = {seat: make_bot("random", Rng(seed).fork(seat + 1)) for seat in range(players)}
    match = Match(game, seed, bots)
    match.run()
    assert match.is_over
    return match


def _played(match: Match, width: int | None) -> str:
    """``play``'s end screen for the finished ``match`` (resumed), seat 0 a human."""
    out = io.StringIO()
    names = ["human"] + ["random"] * (match.game.num_players - 1)
    size = {} if width is None else {"width": width, "height": 24}
    session = PlaySession(match.game, 0, names, io.StringIO("quit\n"), out, match=match, **size)
    assert session.run() == 0
    return out.getvalue()


def _replayed(match: Match, width: int | None) -> str:
    out = io.StringIO()
    assert replay(match.record, out, None, width=width) == 0
    return out.getvalue()


def _revealed(text: str) -> list[str]:
    """The lines under "Revealed:" (up to the Result table)."""
    lines = text.splitlines()
    start = lines.index("Revealed:") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "Result")
    return lines[start:end]


def _paragraphs(lines: list[str]) -> list[list[str]]:
    """The lines grouped by seat's line: a line two spaces in starts one, four continues it."""
    groups: list[list[str]] = []
    for line in lines:
        if line.startswith("    "):
            groups[-1].append(line)
        else:
            assert line.startswith("  player "), line
            groups.append([line])
    return groups


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
@pytest.mark.parametrize("show", [_played, _replayed])
def test_the_reveal_folds_only_between_items_at_80_columns(
    name: str, players: int, seed: int, show: object
) -> None:
    match = _finished(name, players, seed)
    expected = reveal(renderer_for(match.game), match.state)
    groups = _paragraphs(_revealed(show(match, 80)))  # type: ignore[operator]
    assert any(len(group) > 1 for group in groups)  # something was folded
    assert [" ".join(" ".join(group).split()) for group in groups] == [
        " ".join(line.split()) for line in expected
    ]
    for group, line in zip(groups, expected, strict=True):
        assert all(len(part) <= 80 for part in group)
        # a line goes on to the next only after a whole item and its comma (or after the
        # label, when the label and the first item are wider than the screen)
        assert all(part.endswith(",") for part in group[1:-1]), group
        assert group[0].endswith((",", ":")) or len(group) == 1, group
        for item in line.partition(": ")[2].split(", "):
            assert any(item in part for part in group), (item, group)


@pytest.mark.parametrize("show", [_played, _replayed])
def test_into_a_pipe_each_seats_reveal_line_stays_whole(show: object) -> None:
    match = _finished(*GAMES[0])
    expected = reveal(renderer_for(match.game), match.state)
    assert _revealed(show(match, None)) == ["  " + line for line in expected]  # type: ignore[operator]


@pytest.mark.parametrize("show", [_played, _replayed])
def test_king_s_kilt_s_reveal_fits_80_columns_with_every_family_face_up(show: object) -> None:
    match = _finished("kings_kilt", 4, 0)
    expected = reveal(renderer_for(match.game), match.state)
    assert all(line.count("(face up)") == 3 for line in expected if "family" in line)
    assert _revealed(show(match, 80)) == ["  " + line for line in expected]  # type: ignore[operator]
