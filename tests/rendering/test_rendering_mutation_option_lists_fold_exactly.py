"""A long option list folds at exactly the right place: every option is listed when they
fit, the numbers keep their width and meaning, ``more`` goes on from where the page ended,
the summary of the rest shortens to fit the screen, filtering ignores case, groups keep
their order of appearance, and the board gives way to its summary at the right height."""

from __future__ import annotations

from clangames.rendering.screen import (
    MIN_OPTION_ROWS,
    SCREEN_OVERHEAD,
    board_fits,
    fold,
    groups,
    matching,
    option_rows,
)

TEXTS = [f"advance {i}" for i in range(12)] + [f"betray {i} with x" for i in range(30)]
EVERY = list(range(len(TEXTS)))


def test_options_that_fit_are_all_listed_without_a_more_line() -> None:
    lines, end = fold(TEXTS, EVERY[:6], 0, 6, 80)
    assert lines == [f"{i + 1:>2}. {TEXTS[i]}" for i in range(6)] and end == 6


def test_more_goes_on_from_where_the_last_page_ended() -> None:
    _, first = fold(TEXTS, EVERY, 0, 6, 80)
    lines, second = fold(TEXTS, EVERY, first, 6, 80)
    assert (first, second) == (5, 10)
    assert lines[0] == " 6. advance 5" and lines[4] == "10. advance 9"
    _, third = fold(TEXTS, EVERY, 40, 6, 80)
    assert third == len(EVERY)


def test_numbers_are_as_wide_as_the_largest_option_number() -> None:
    lines, _ = fold(TEXTS, [0, 1], 0, None)
    assert lines == [" 1. advance 0", " 2. advance 1"]


def test_the_rest_is_counted_by_group_when_the_ranges_do_not_fit() -> None:
    texts = [f"{word}{i % 2} {i}" for i in range(40) for word in ("advance", "betray")]
    lines, _ = fold(texts, list(range(len(texts))), 0, 3, 100)
    assert lines[-1] == (
        "... 78 more (advance1 x20, betray1 x20, advance0 x19, betray0 x19): 'more', or type"
        " words to filter"
    )
    lines, _ = fold(texts, list(range(len(texts))), 0, 3, 40)
    assert lines[-1] == "... 78 more: 'more' lists them, or type words to filter"


def test_filtering_ignores_case_and_groups_keep_their_first_appearance() -> None:
    assert matching(TEXTS, "BETRAY 7") == matching(TEXTS, "betray 7") == [19]
    assert groups(["pass", "advance 1", "pass again", ""], [0, 1, 2, 3]) == [
        ("pass", [1, 3]),
        ("advance", [2]),
        ("", [4]),
    ]


def test_the_board_gives_way_at_exactly_the_screen_height() -> None:
    assert option_rows(None, 10) is None
    assert option_rows(24, 10) == 24 - 10 - SCREEN_OVERHEAD
    assert option_rows(24, 30) == MIN_OPTION_ROWS
    assert option_rows(24, 30, least=2) == 2
    assert board_fits(None, 500, 80)
    assert board_fits(24, 24 - SCREEN_OVERHEAD - MIN_OPTION_ROWS, 50)
    assert not board_fits(24, 24 - SCREEN_OVERHEAD - MIN_OPTION_ROWS + 1, 50)
    assert board_fits(24, 24 - SCREEN_OVERHEAD - 1, 1)  # one option needs one line


def test_a_summary_a_little_too_wide_gives_way_to_the_shorter_one() -> None:
    lines, _ = fold(TEXTS, EVERY, 0, 6, 72)  # the ranges' line is 73 columns
    assert lines[-1] == "... 37 more (advance x7, betray x30): 'more', or type words to filter"
