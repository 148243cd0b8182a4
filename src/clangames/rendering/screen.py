"""Fitting a decision to a terminal: which board to draw and how to list the options.

A decision screen is the board, the prompt, the options and the input line. On a tall
terminal all of it fits; on a small one (80x24 is the least supported) the board falls back
to the renderer's summary and a long option list is *folded*: the first options are listed,
the rest are counted by group (what the action does, its first word: ``betray 19-40``), and
the player pages on with ``more`` or narrows the list by typing words (``betray 2.1``). The
numbers never change with folding or filtering, so ``17`` always means the same option.
Front-end neutral: plain strings in, plain strings out.
"""

from __future__ import annotations

from collections.abc import Sequence

SCREEN_OVERHEAD = 3
"""Lines around the board and the options: the prompt, a blank line and the input line."""
MIN_OPTION_ROWS = 4
"""Fewest option lines a screen offers before it shrinks the board to its summary."""


def ranges(numbers: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` as ``"1-3, 7"``."""
    parts: list[str] = []
    start = prev = None
    for n in numbers:
        if prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    if start is not None:
        parts.append(str(start) if start == prev else f"{start}-{prev}")
    return ", ".join(parts)


def groups(texts: Sequence[str], indices: Sequence[int]) -> list[tuple[str, list[int]]]:
    """The options ``indices`` (0-based into ``texts``) grouped by their first word, in
    order of first appearance; each group with its 1-based numbers."""
    found: dict[str, list[int]] = {}
    for i in indices:
        word = texts[i].split(" ", 1)[0] if texts[i] else ""
        found.setdefault(word, []).append(i + 1)
    return list(found.items())


def matching(texts: Sequence[str], words: str) -> list[int]:
    """The options (0-based) whose text contains every typed word (case-insensitive), as
    a filter: ``betray 2.1`` keeps every betrayal of space 2.1."""
    wanted = words.lower().split()
    return [i for i, t in enumerate(texts) if all(w in t.lower().split() for w in wanted)]


def fold(
    texts: Sequence[str],
    indices: Sequence[int],
    start: int,
    rows: int | None,
    width: int = 80,
) -> tuple[list[str], int]:
    """The lines listing options ``indices[start:]`` in at most ``rows`` lines (None: no
    limit), none longer than ``width`` unless an option's own text is, and where ``more``
    continues (``len(indices)`` once all were shown)."""
    digits = len(str(len(texts)))
    rest = list(indices[start:])
    if rows is None or len(rest) <= rows:
        return [f"{i + 1:>{digits}}. {texts[i]}" for i in rest], len(indices)
    shown = max(1, rows - 1)
    lines = [f"{i + 1:>{digits}}. {texts[i]}" for i in rest[:shown]]
    hidden = rest[shown:]
    found = groups(texts, hidden)
    for summary in (
        "; ".join(f"{word} {ranges(nums)}" for word, nums in found),
        ", ".join(f"{word} x{len(nums)}" for word, nums in found),
    ):
        line = f"... {len(hidden)} more ({summary}): 'more', or type words to filter"
        if len(line) <= width:
            break
    else:
        line = f"... {len(hidden)} more: 'more' lists them, or type words to filter"
    lines.append(line)
    return lines, start + shown


def option_rows(height: int | None, board_lines: int, least: int = MIN_OPTION_ROWS) -> int | None:
    """Lines left for the options under a board of ``board_lines`` lines on a terminal of
    ``height`` lines (None: no limit), but at least ``least`` (2 under a summary board:
    the first option and the line counting the rest)."""
    if height is None:
        return None
    return max(least, height - board_lines - SCREEN_OVERHEAD)


def board_fits(height: int | None, board_lines: int, options: int) -> bool:
    """True if the full board leaves room for the prompt and enough options."""
    if height is None:
        return True
    return board_lines + SCREEN_OVERHEAD + min(options, MIN_OPTION_ROWS) <= height
