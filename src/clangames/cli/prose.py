"""Folding the command line's prose to the terminal's width: one rule for every command
(``play``'s sentences, ``replay``'s narration, ``list``'s descriptions), so a folded line
looks the same wherever it is printed."""

from __future__ import annotations

import textwrap


def fold_line(line: str, width: int, *, hyphens: bool = False) -> str:
    """``line`` folded at spaces to lines of at most ``width`` characters (a word longer
    than that is cut), each folded part indented two spaces more than the line; a line
    that fits is left as it is. ``hyphens``: a hyphenated word may also break after a
    hyphen (``list``'s descriptions do; a sentence about a game keeps its words whole)."""
    if len(line) <= width:
        return line
    text = line.lstrip(" ")
    indent = line[: len(line) - len(text)]
    return "\n".join(
        textwrap.wrap(
            text,
            width,
            initial_indent=indent,
            subsequent_indent=indent + "  ",
            break_on_hyphens=hyphens,
        )
    )
