"""Replacement board files that are wrong are refused with an error naming the entry, and
nothing of them is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from clangames import InvalidParameterError
from clangames.clan_feud import load_board

from .cf_helpers import bundled_text, variant

GALLOWAY_AYR = '{ a = "galloway", b = "ayr", provenance = "reconstructed" },'
EDINBURGH_FIFE = '{ a = "edinburgh", b = "fife", crossing'
CAITHNESS_ORKNEY = (
    '{ a = "caithness", b = "orkney", crossing = "Pentland Firth: Huna / Scrabster - Burwick /'
    ' Stromness", provenance = "reconstructed" },'
)
GALLOWAY = 'id = "galloway"\nname = "Galloway"\nkind = "plain"\nmountain = false\ncoast = true\n'

CASES = [
    # an edge to nowhere
    (
        GALLOWAY_AYR,
        '{ a = "galloway", b = "atlantis", provenance = "reconstructed" },',
        r"adjacency\.land\[0\] \('galloway' - 'atlantis'\): 'atlantis' is not a territory",
    ),
    # a duplicate edge, same direction and reversed
    (
        GALLOWAY_AYR,
        GALLOWAY_AYR + "\n  " + GALLOWAY_AYR,
        r"adjacency\.land\[1\] \('galloway' - 'ayr'\): galloway and ayr are already joined by"
        r" adjacency\.land\[0\]",
    ),
    (
        GALLOWAY_AYR,
        GALLOWAY_AYR + '\n  { a = "ayr", b = "galloway", provenance = "reconstructed" },',
        r"adjacency\.land\[1\] \('ayr' - 'galloway'\): ayr and galloway are already joined",
    ),
    # a pair both a land edge and a sea lane
    (
        "sea = [",
        'sea = [\n  { a = "ayr", b = "galloway", provenance = "reconstructed" },',
        r"adjacency\.sea\[0\] \('ayr' - 'galloway'\): ayr and galloway are already joined by"
        r" adjacency\.land\[0\]",
    ),
    # a self loop
    (
        GALLOWAY_AYR,
        '{ a = "ayr", b = "ayr", provenance = "reconstructed" },',
        r"adjacency\.land\[0\] \('ayr' - 'ayr'\): a territory cannot be joined to itself",
    ),
    # a sea lane touching an inland territory
    (
        EDINBURGH_FIFE,
        '{ a = "edinburgh_castle", b = "fife", crossing',
        r"adjacency\.sea\[0\] \('edinburgh_castle' - 'fife'\): 'edinburgh_castle' is inland",
    ),
    # starts: unknown, wrong count, repeated, not plain
    (
        '2 = { territories = ["moray", "the_lennox"]',
        '2 = { territories = ["moray", "shetland"]',
        r"starts\.2: 'shetland' is not a territory of this board",
    ),
    (
        '3 = { territories = ["banff", "dingwall", "the_lennox"]',
        '3 = { territories = ["banff", "dingwall"]',
        r"starts\.3\.territories must list 3 territories",
    ),
    (
        '2 = { territories = ["moray", "the_lennox"]',
        '2 = { territories = ["moray", "moray"]',
        r"starts\.2: a territory is listed twice",
    ),
    (
        '2 = { territories = ["moray", "the_lennox"]',
        '2 = { territories = ["moray", "glasgow"]',
        r"starts\.2: 'glasgow' is a city; a start must be plain",
    ),
    (
        '5 = { territories = ["applecross", "ayr", "banff", "forfar", "kinross"],'
        ' provenance = "reconstructed" }',
        "",
        r"starts: missing 5",
    ),
    (
        "[starts]\n",
        '[starts]\n6 = { territories = ["ayr"], provenance = "reconstructed" }\n',
        r"starts: unknown key\(s\) 6",
    ),
    # territory fields: types, ranges, missing and unknown keys
    (
        'id = "galloway"\nname = "Galloway"\nkind = "plain"\nmountain = false',
        'id = "galloway"\nname = "Galloway"\nkind = "plain"\nmountain = "no"',
        r"territory\[0\] \('galloway'\)\.mountain must be true or false, got 'no'",
    ),
    (
        'id = "galloway"\nname = "Galloway"\nkind = "plain"',
        'id = "galloway"\nname = "Galloway"\nkind = "town"',
        r"territory\[0\] \('galloway'\)\.kind must be one of",
    ),
    (
        'id = "nithisdale"\nname = "Nithisdale"\nkind = "plain"\nmountain = false\ncoast = false\n'
        'numeral = "I"',
        'id = "nithisdale"\nname = "Nithisdale"\nkind = "plain"\nmountain = false\ncoast = false\n'
        'numeral = "XI"',
        r"territory\[2\] \('nithisdale'\)\.numeral must be one of I\.\.X",
    ),
    (
        'numeral = "II"',
        'numeral = "I"',
        r"territory\[3\] \('dumfries'\): numeral I is also on 'nithisdale'",
    ),
    (
        'numeral = "II"',
        'numeral = ""',
        r"no territory carries numeral\(s\) II",
    ),
    (
        GALLOWAY,
        GALLOWAY.replace("coast = true\n", ""),
        r"territory\[0\] \('galloway'\): missing coast",
    ),
    (
        GALLOWAY,
        GALLOWAY + 'colour = "green"\n',
        r"territory\[0\] \('galloway'\): unknown key\(s\) colour",
    ),
    (
        'id = "ayr"',
        'id = "galloway"',
        r"territory\[1\] \('galloway'\): id 'galloway' is used twice",
    ),
    (
        'id = "ayr"',
        'id = "Ayr Town"',
        r"territory\[1\] \('Ayr Town'\)\.id must be lower case",
    ),
    (
        'name = "Ayr"',
        'name = "Galloway"',
        r"territory\[1\] \('ayr'\): name 'Galloway' is used twice",
    ),
    (
        GALLOWAY + 'numeral = ""\nrulebook_name = false\ncovers = "Wigtownshire, Stewartry of'
        ' Kirkcudbright"\nprovenance = "reconstructed"',
        GALLOWAY + 'numeral = ""\nrulebook_name = false\ncovers = "Wigtownshire, Stewartry of'
        ' Kirkcudbright"\nprovenance = "guessed"',
        r"territory\[0\] \('galloway'\)\.provenance must be one of",
    ),
    # the file as a whole
    (
        'king_start = "edinburgh_castle"',
        'king_start = "holyrood"',
        r"king_start: 'holyrood' is not a territory",
    ),
    (
        'king_start = "edinburgh_castle"',
        'king = "edinburgh_castle"',
        r"the file: missing king_start",
    ),
    (
        'provenance = "reconstructed"\nking_start',
        'provenance = "reconstructed"\nscale = 3\nking_start',
        r"the file: unknown key\(s\) scale",
    ),
    (
        CAITHNESS_ORKNEY,
        "",
        r"orkney cannot be reached from 'galloway'",
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), CASES)
def test_bad_board_refused_naming_the_entry(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    path = variant(tmp_path, "board.toml", old, new)
    with pytest.raises(InvalidParameterError, match=message) as info:
        load_board(path)
    assert path in str(info.value)  # the message names the file too


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match=r"board file .* cannot be read"):
        load_board(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[territory\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="is not valid TOML"):
        load_board(str(bad))


def test_nothing_half_loaded(tmp_path: Path) -> None:
    """A refused file leaves the bundled board as it was and keeps nothing of its own."""
    before = load_board()
    path = variant(tmp_path, "board.toml", 'king_start = "edinburgh_castle"', "king_start = 3")
    with pytest.raises(InvalidParameterError, match="king_start: 3"):
        load_board(path)
    after = load_board()
    assert after is before
    assert after.king_start == after.index["edinburgh_castle"]


def test_a_good_replacement_loads(tmp_path: Path) -> None:
    """Dropping the Leith - Kinghorn ferry (the map spec's first tuning option) gives a valid
    board with 11 lanes and, as the spec says, no start's or spawn's distance to the King
    changed."""
    bundled = load_board()
    line = (
        '{ a = "edinburgh", b = "fife", crossing = "Leith - Kinghorn passage (Alexander III\'s'
        ' last ride, 1286)", provenance = "reconstructed" },'
    )
    board = load_board(variant(tmp_path, "board.toml", line, ""))
    assert len(board.sea_lanes) == 11
    assert board.source != bundled.source
    places = [*board.spawns.values()] + [t for p in (2, 3, 4, 5) for t in board.starts(p)]
    for t in places:
        assert board.steps(t, board.king_start) == bundled.steps(t, bundled.king_start)


def test_a_sea_lane_needs_no_crossing_note(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        "board.toml",
        '"edinburgh", b = "fife", crossing = "Leith',
        '"edinburgh", b = "fife", ignored = "Leith',
    )
    with pytest.raises(
        InvalidParameterError, match=r"adjacency\.sea\[0\]: unknown key\(s\) ignored"
    ):
        load_board(path)
    line = next(
        x for x in bundled_text("board.toml").splitlines() if '"edinburgh", b = "fife"' in x
    )
    board = load_board(
        variant(
            tmp_path,
            "board.toml",
            line,
            '{ a = "edinburgh", b = "fife", provenance = "reconstructed" },',
        )
    )
    assert board.sea_lanes[0].crossing == ""
