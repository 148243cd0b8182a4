"""The England track data (``clan-feud-cards.md`` section 4): the bundled values, the flame
crossing rule, and bad files refused naming the entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from clangames import InvalidParameterError
from clangames.clan_feud import EnglandTrack, load_england

from .cf_helpers import variant


@pytest.fixture(scope="module")
def track() -> EnglandTrack:
    return load_england()


def test_bundled_track(track: EnglandTrack) -> None:
    assert (track.last_step, track.war_from) == (17, 11)
    assert [(f.step, f.level) for f in track.flames] == [
        (11, 1),
        (13, 1),
        (14, 2),
        (16, 3),
        (17, 3),
    ]
    assert {f.provenance for f in track.flames} == {"reconstructed"}
    assert [(lv.troops, lv.vp, lv.money, lv.steps_back) for lv in track.levels] == [
        ((3, 1, 0), 1, 2, 1),
        ((4, 2, 0), 2, 4, 2),
        ((3, 2, 1), 3, 6, 3),
    ]
    assert {lv.provenance for lv in track.levels} == {"rulebook"}
    assert track.supply == (16, 8, 2)
    # the five flames together use England's whole supply (guess 11)
    total = [sum(track.level(f.level).troops[i] for f in track.flames) for i in range(3)]
    assert tuple(total) == track.supply


def test_flames_crossed(track: EnglandTrack) -> None:
    def crossed(a: int, b: int) -> list[int]:
        return [f.step for f in track.flames_crossed(a, b)]

    assert crossed(10, 11) == [11]  # landing on a flame counts
    assert crossed(11, 11) == []
    assert crossed(9, 17) == [11, 13, 14, 16, 17]
    assert crossed(12, 14) == [13, 14]
    assert crossed(15, 12) == []  # a net move down crosses none
    assert crossed(0, 10) == []


def test_war_and_clamp(track: EnglandTrack) -> None:
    assert not track.at_war(10) and track.at_war(11) and track.at_war(17)
    assert track.clamp(-3) == 0 and track.clamp(20) == 17 and track.clamp(12) == 12


ENGLAND_CASES = [
    ("step = 13", "step = 11", r"flame\[1\]\.step 11 must be above the previous flame's step"),
    ("\nstep = 17", "\nstep = 18", r"flame\[4\]\.step must be an integer 1\.\.17, got 18"),
    ("step = 16\nlevel = 3", "step = 16\nlevel = 4", r"flame\[3\]\.level 4: no such \[\[level\]\]"),
    ("level = 2\ninfantry = 4", "level = 3\ninfantry = 4", r"level\[1\]\.level must be 2"),
    ("infantry = 3\ncavalry = 1\nartillery = 0", "infantry = 0\ncavalry = 0\nartillery = 0",
     r"level\[0\]: an army level needs at least one troop"),
    ("war_from = 11", "war_from = 18", r"track\.war_from must be an integer 1\.\.17"),
    ("war_from = 11", "", r"track: missing war_from"),
    ("vp = 1\n", "vp = 1\nbanner = 2\n", r"level\[0\]: unknown key\(s\) banner"),
    ("[supply]\ninfantry = 16", "[supply]\ninfantry = -1", r"supply\.infantry must be an integer"),
    ('provenance = "rulebook"\n\n# Each', 'provenance = "folklore"\n\n# Each',
     r"track\.provenance must be one of"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "message"), ENGLAND_CASES)
def test_bad_england_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = variant(tmp_path, "england.toml", old, new)
    with pytest.raises(InvalidParameterError, match=message) as info:
        load_england(path)
    assert path in str(info.value)
