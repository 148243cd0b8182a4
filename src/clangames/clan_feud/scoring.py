"""The final count, provisional scores and the winners."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clangames.clan_feud.interpret import evaluate

if TYPE_CHECKING:
    from clangames.clan_feud.state import ClanFeudState


def final_count(w: Any, p: int) -> int:
    """The VP King James Comes of Age gives seat ``p`` on this position (may be < 0)."""
    return evaluate(w, p, w.game.events.final.scoring)


def scores(s: ClanFeudState) -> tuple[int, ...]:
    """VP once the game is over; before, each seat's VP plus the final count now."""
    if s.is_terminal:
        return s.vp
    return tuple(v + final_count(s, p) for p, v in enumerate(s.vp))


def winners(s: ClanFeudState) -> tuple[int, ...]:
    """Every seat with the most VP (tied players share the win)."""
    best = max(s.vp)
    return tuple(p for p, v in enumerate(s.vp) if v == best)
