"""A seat's £, Feud tokens and VP stop at the declared cap (999, ``rows.AMOUNT_CAP``): a
gain past it is lost, and the final count keeps VP within -999..999.

The rulebook sets no limit and the bundled cards never come near one; a user's events file
can give any amount. Found by the fuzz3 sweep: with every event giving each player
``gain_feud(600)`` a seat reached 1,198 Feud tokens, a state its own JSON did not read back
(the saved-state check and the observation encoding declare the cap)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

import clangames
from clangames import Rng
from clangames.clan_feud import ClanFeudState
from clangames.clan_feud.rows import AMOUNT_CAP, gain
from clangames.testing.conformance import random_playout

from .cf_helpers import bundled_text


def _events(tmp_path: Path, each_player: str, scoring: str | None = None) -> str:
    """The bundled events file with every event's ``each_player`` line replaced (and the
    final count's scoring, if given)."""
    lines = []
    for line in bundled_text("events.toml").splitlines():
        if line.startswith("each_player = "):
            line = f'each_player = "{each_player}"'
        lines.append(line)
    text = "\n".join(lines) + "\n"
    if scoring is not None:
        start = text.index('scoring = """')
        end = text.index('"""', start + len('scoring = """')) + 3
        text = text[:start] + f'scoring = "{scoring}"' + text[end:]
    path = tmp_path / "my-events.toml"
    path.write_text(text, "utf-8")
    return str(path)


def _play(game: clangames.Game, seed: int) -> list[ClanFeudState]:
    """Every state of a seeded random game (the conformance harness's driver)."""
    states: list[ClanFeudState] = []
    random_playout(game, Rng(seed), lambda s, _moves: states.append(cast(ClanFeudState, s)))
    return states


def test_gain_stops_at_the_cap_and_pays_below_it_in_full() -> None:
    assert gain((5, 990), 1, 20) == (5, AMOUNT_CAP)
    assert gain((5, 990), 0, 20) == (25, 990)
    assert gain((5, AMOUNT_CAP), 1, 3) == (5, AMOUNT_CAP)
    assert gain((5, 990), 1, -4) == (5, 986)


@pytest.mark.parametrize("field", ["feud", "money", "vp"])
def test_huge_event_gains_stop_at_the_cap_and_every_state_reads_back(
    tmp_path: Path, field: str
) -> None:
    events = _events(tmp_path, f"gain_{field}(600)")
    game = clangames.load("clan_feud", players=2, events=events)
    states = _play(game, 0)
    highest = max(max(getattr(s, field)) for s in states)
    assert highest == AMOUNT_CAP  # reached, never passed (1,198 before the cap)
    for s in states:
        assert all(v <= AMOUNT_CAP for v in s.money + s.feud + s.vp)
        assert game.state_from_json(s.to_json()) == s


@pytest.mark.parametrize(("factor", "bound"), [(5, AMOUNT_CAP), (-5, -AMOUNT_CAP)])
def test_the_final_count_keeps_vp_within_the_cap(tmp_path: Path, factor: int, bound: int) -> None:
    events = _events(tmp_path, "gain_feud(600)", f"gain_vp({factor}*feud)")
    game = clangames.load("clan_feud", players=2, events=events)
    final = _play(game, 0)[-1]
    assert bound in final.vp
    assert all(-AMOUNT_CAP <= v <= AMOUNT_CAP for v in final.vp)
    assert game.state_from_json(final.to_json()) == final
