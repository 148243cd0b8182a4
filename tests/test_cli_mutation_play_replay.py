"""``replay`` tells each seat only what it could know, ``--boards`` and ``--as`` do what
they say, the end shows the whole table to everyone, and ``--step`` answers every key
(any case, any number) without ever failing."""

from __future__ import annotations

import io
import re
from pathlib import Path

import attrs
import pytest

import clangames
from clangames import GameRecord
from clangames.cli.demo import run_demo
from clangames.cli.replay import ReplayError, replay
from clangames.rendering.explain import end_report
from clangames.rendering.text import renderer_for, reveal
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse


@pytest.fixture(name="whole", scope="module")
def whole_fixture() -> GameRecord:
    """A whole two-player King's Kilt game between random bots (secret families and hands)."""
    game = clangames.load("kings_kilt", players=2)
    return run_demo(game, 4, ["random"], io.StringIO(), narrate=False).match.record


def _told(record: GameRecord, viewer: int | None, **options: object) -> str:
    out = io.StringIO()
    assert replay(record, out, viewer, **options) == 0  # type: ignore[arg-type]
    return out.getvalue()


def _secrets(record: GameRecord, seat: int) -> list[str]:
    """What the end of ``record`` reveals about ``seat`` only."""
    game = record.load_game()
    return [
        line
        for line in reveal(renderer_for(game), record.final_state())
        if line.startswith(f"player {seat}'s")
    ]


def test_the_header_says_whose_view_the_parameters_and_the_length(whole: GameRecord) -> None:
    lines = _told(whole, 1).splitlines()
    assert lines[:3] == [
        "King's Kilt (kings_kilt) replay, as player 1 saw it",
        "parameters: players=2, first_player=0, betrayal_match='traitor', components=None",
        f"{len(whole.moves)} moves",
    ]


def test_as_takes_every_seat_and_refuses_the_next(whole: GameRecord) -> None:
    assert _told(whole, 0).startswith("King's Kilt (kings_kilt) replay, as player 0 saw it")
    with pytest.raises(ReplayError, match=r"^--as 2: seats are 0\.\.1$"):
        replay(whole, io.StringIO(), 2)


@pytest.mark.parametrize("boards", [False, True])
def test_a_seat_never_sees_anothers_secrets_before_the_end(whole: GameRecord, boards: bool) -> None:
    unfinished = attrs.evolve(whole, moves=whole.moves[:30])
    for seat in (0, 1):
        text = _told(unfinished, seat, boards=boards)
        other = _secrets(unfinished, 1 - seat)
        assert other and not any(line in text for line in other), text
        assert not any(line in text for line in _secrets(unfinished, seat))  # never a reveal
        dealt = re.findall(r"card is dealt to player (\d)", text)
        assert dealt and set(dealt) == {str(seat)}, text
    everything = _told(unfinished, None)
    assert all(line in everything for line in _secrets(unfinished, 0) + _secrets(unfinished, 1))


def test_boards_draws_the_table_before_each_of_the_seats_own_decisions(
    whole: GameRecord, tmp_path: Path
) -> None:
    decisions = sum(1 for move in whole.moves if move.player == 0)
    assert _told(whole, 0, boards=True).count("Draw pile:") == decisions + 1  # + the end
    assert _told(whole, 0).count("Draw pile:") == 2  # the first decision's table, the end
    path = tmp_path / "whole.json"
    path.write_text(whole.dumps())
    code, out, _ = run_main(["replay", str(path), "--as", "0", "--boards"])
    assert code == 0 and out.count("Draw pile:") == decisions + 1
    code, out, _ = run_main(["replay", str(path), "--as", "1"])
    assert code == 0 and "replay, as player 1 saw it" in out


def test_the_end_shows_the_whole_table_and_how_the_scores_came_about(
    whole: GameRecord,
) -> None:
    ends = [_told(whole, viewer).split("===== Game over =====")[1] for viewer in (None, 0, 1)]
    assert ends[0] == ends[1] == ends[2]
    states = list(whole.replay())
    assert "\n".join(end_report(states).lines()) in ends[0]
    assert all(line in ends[0] for line in _secrets(whole, 0) + _secrets(whole, 1))


def test_an_unfinished_record_ends_on_the_table_not_on_a_result(whole: GameRecord) -> None:
    text = _told(attrs.evolve(whole, moves=whole.moves[:30]), 0)
    assert "The record ends before the game does; the table now:" in text
    assert "Game over" not in text


def _stepped(record: GameRecord, keys: str, viewer: int | None = None) -> list[str]:
    """What ``--step`` printed before its first prompt, then what each key printed."""
    out = io.StringIO()
    assert replay(record, out, viewer, inp=io.StringIO(keys)) == 0
    return re.split(r"\(at move \d+ of \d+\) > ", out.getvalue())


def test_step_keys_in_capitals_jump_words_and_huge_numbers(whole: GameRecord) -> None:
    last = len(whole.moves)
    answers = _stepped(whole, "L\nF\njump 3\nN\nB\n" + "9" * 5000 + "\nQ\n")[1:]
    assert f"jumped to after move {last}" in answers[0]
    assert "back at the start" in answers[1]
    assert answers[2].startswith("jumped to after move 3\n[3] ")
    assert answers[3].startswith("[4] ")  # one step forward: its line only
    assert answers[4].startswith("jumped to after move 3\n[3] ")
    assert answers[5].startswith("no move ")
    assert f"moves are 0..{last} (the last move is as far as it goes)" in answers[5]
    assert answers[6] == ""  # Q stopped at once


def test_step_says_which_end_stops_it_and_ends_with_the_input(whole: GameRecord) -> None:
    answers = _stepped(whole, "b\n")[1:]
    assert answers[0].startswith("no move -1: moves are 0..")
    assert answers[0].rstrip().endswith("(the start is as far as it goes)")
    assert answers[1] == "\n"  # end of input: a clean stop


def test_stepping_as_a_seat_starts_on_its_table_and_jumps_keep_its_secrets(
    whole: GameRecord,
) -> None:
    unfinished = attrs.evolve(whole, moves=whole.moves[:30])
    start, *answers = _stepped(unfinished, "20\nf\nl\n", viewer=0)
    assert "Draw pile:" in start and "Your family: " in start
    assert all("Draw pile:" in answer for answer in answers[:3])
    assert not any(line in "".join(answers) for line in _secrets(unfinished, 1))
