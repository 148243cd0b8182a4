"""The SVG pictures in docs/pictures/: one seeded game in progress per game, as player 0 sees it.

    python scripts/pictures.py          # write them again (after a change to the pictures)
    python scripts/pictures.py --check  # exit 1, naming the stale ones, if any differs

Each is a 3-player game played by ``clangames.rollout_moves`` from ``Rng(7)``, shown before
a fixed step (Clan Feud: the first action card resolved in turn 4), so the files can be
made again exactly and a test (tests/test_docs_pictures.py) keeps them true.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import clangames
from clangames.rendering.svg import state_picture

PICTURES = Path(__file__).resolve().parent.parent / "docs" / "pictures"
PLAYERS = 3
SEED = 7
BEFORE_STEP = {"kings_kilt": 40, "kilt_castle": 30, "koa_kingmaker": 25}
"""The step each older game's picture is drawn before (0-based, in the seeded game)."""


def shown_state(name: str) -> clangames.State:
    """The state the picture of ``name`` shows."""
    state = clangames.load(name, players=PLAYERS).initial_state()
    _, _, moves = clangames.rollout_moves(state, clangames.Rng(SEED))
    for step, (player, action) in enumerate(moves):
        if name in BEFORE_STEP:
            if step == BEFORE_STEP[name]:
                return state
        elif getattr(state, "turn", 0) == 4 and state.phase.name == "prog":
            return state
        state = state.apply(action, player)
    raise SystemExit(f"{name}: the seeded game ended before the pictured step")


def picture(name: str) -> str:
    """The SVG of ``name``'s picture, as player 0 sees it."""
    return state_picture(shown_state(name), 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name in ("kings_kilt", "kilt_castle", "koa_kingmaker", "clan_feud"):
        path = PICTURES / f"{name}.svg"
        made = picture(name)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != made:
                stale.append(path.name)
        else:
            path.write_text(made, encoding="utf-8")
    if stale:
        print(
            f"docs/pictures out of date: {', '.join(stale)} (run: python scripts/pictures.py)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
