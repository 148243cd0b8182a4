"""The bundled Clan Feud map: every check of section 5 of ``clan-feud-map.md`` asserted on
the loaded board, its counts, and the distances the map spec tabulates."""

from __future__ import annotations

from itertools import combinations

import pytest

import clangames
from clangames.clan_feud import Board, load_board
from clangames.clan_feud.effects import NUMERALS

RULEBOOK_NAMES = {
    "ayr", "nithisdale", "dumfries", "annandale", "glasgow", "the_lennox", "roxburgh",
    "berwick", "edinburgh", "edinburgh_castle", "stirling", "fife", "kinross", "dundee",
    "forfar", "aberdeen", "buchan", "banff", "moray", "inverness", "loch_ness",
    "kintyre_arran", "mull", "dingwall", "applecross", "orkney",
}  # fmt: skip
CITIES = {"aberdeen", "dundee", "edinburgh", "glasgow", "inverness"}
CASTLES = {"edinburgh_castle", "stirling", "loch_ness"}
SPAWNS = {
    "I": "nithisdale", "II": "dumfries", "III": "annandale", "IV": "roxburgh", "V": "berwick",
    "VI": "fife", "VII": "buchan", "VIII": "orkney", "IX": "mull", "X": "kintyre_arran",
}  # fmt: skip
STARTS = {
    2: {"moray", "the_lennox"},
    3: {"banff", "dingwall", "the_lennox"},
    4: {"ayr", "banff", "dingwall", "kinross"},
    5: {"applecross", "ayr", "banff", "forfar", "kinross"},
}
ISLANDS = ("orkney", "mull", "skye", "lewis")


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def ids(board: Board, mask_or_seq: int | tuple[int, ...] | frozenset[int]) -> set[str]:
    if isinstance(mask_or_seq, int):
        return {t.id for i, t in enumerate(board.territories) if mask_or_seq >> i & 1}
    return {board.territories[i].id for i in mask_or_seq}


def test_counts(board: Board) -> None:
    kinds = [t.kind for t in board.territories]
    assert board.size == 44
    assert len(board.land_edges) == 79
    assert len(board.sea_lanes) == 12
    assert kinds.count("city") == 5 and kinds.count("castle") == 3 and kinds.count("plain") == 36
    assert sum(t.mountain for t in board.territories) == 8
    assert sum(t.coast for t in board.territories) == 32
    assert bin(board.mountain_mask).count("1") == 8 and bin(board.coast_mask).count("1") == 32
    assert 36 <= board.size <= 44 and board.size >= 34  # 68 buildings fit at 2 a territory


def test_every_entry_is_reconstructed(board: Board) -> None:
    assert board.provenance == "reconstructed"
    assert {t.provenance for t in board.territories} == {"reconstructed"}
    assert set(board.edge_provenance) == {"reconstructed"}
    assert {s.provenance for s in board.sea_lanes} == {"reconstructed"}
    assert set(board.start_provenance.values()) == {"reconstructed"}


def test_ids_in_file_order(board: Board) -> None:
    assert board.territories[0].id == "galloway"
    assert board.territories[-1].id == "orkney"
    assert all(board.index[t.id] == i for i, t in enumerate(board.territories))
    assert board.territory("edinburgh_castle") == board.king_start == 13


def test_edges_well_formed_and_symmetric(board: Board) -> None:
    pairs = [frozenset(e) for e in board.land_edges] + [
        frozenset((s.a, s.b)) for s in board.sea_lanes
    ]
    assert all(len(p) == 2 for p in pairs)  # no self loops
    assert len(set(pairs)) == len(pairs)  # no pair twice, either direction or land and sea
    for t in range(board.size):
        for n in board.land[t]:
            assert t in board.land[n]
        for n in board.sea[t]:
            assert t in board.sea[n]
        assert set(board.neighbours[t]) == set(board.land[t]) | set(board.sea[t])
        assert ids(board, board.neighbour_mask[t]) == ids(board, board.neighbours[t])
        assert ids(board, board.land_mask[t]) == ids(board, board.land[t])
        assert ids(board, board.sea_mask[t]) == ids(board, board.sea[t])
    degrees = [len(n) for n in board.neighbours]
    assert min(degrees) == 1 and degrees.index(1) == board.index["orkney"]
    assert max(degrees) == 7
    assert {board.territories[t].id for t in range(44) if degrees[t] == 7} == {
        "stirling", "perth", "mar", "lochaber",
    }  # fmt: skip
    assert sum(degrees) / 44 == pytest.approx(4.14, abs=0.005)


def test_connected_by_land_and_sea_land_alone_five_parts(board: Board) -> None:
    assert all(board.steps(0, t) < board.size for t in range(board.size))
    parts = board.land_components()
    assert len(parts) == 5
    singles = sorted(ids(board, p).pop() for p in parts if len(p) == 1)
    assert singles == sorted(ISLANDS)
    assert max(len(p) for p in parts) == 40


def test_sea_lanes_join_coasts(board: Board) -> None:
    for lane in board.sea_lanes:
        assert board.territories[lane.a].coast and board.territories[lane.b].coast
        assert lane.crossing


def test_named_places_and_kinds(board: Board) -> None:
    assert {t.id for t in board.territories if t.rulebook_name} == RULEBOOK_NAMES
    assert {t.id for t in board.territories if t.kind == "city"} == CITIES
    assert {t.id for t in board.territories if t.kind == "castle"} == CASTLES
    all_starts = set().union(*STARTS.values())
    assert len(all_starts) == 8
    assert all(board.territories[board.index[s]].kind == "plain" for s in all_starts)
    assert {n: board.territories[t].id for n, t in board.spawns.items()} == SPAWNS
    assert sum(t.numeral is not None for t in board.territories) == 10
    assert set(board.spawns) == set(NUMERALS)
    assert board.index["edinburgh_castle"] in board.land[board.index["edinburgh"]]
    for t in board.territories:
        if t.kind != "plain":
            assert not t.mountain, t.id


def test_islands(board: Board) -> None:
    for island in ISLANDS:
        t = board.index[island]
        assert board.land[t] == () and board.sea[t] != ()
    assert ids(board, board.sea[board.index["orkney"]]) == {"caithness"}
    assert board.sea[board.index["kintyre_arran"]] != ()
    assert ids(board, board.land[board.index["kintyre_arran"]]) == {"argyll"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starts(board: Board, players: int) -> None:
    starts = board.starts(players)
    assert ids(board, starts) == STARTS[players]
    for s in starts:
        t = board.territories[s]
        assert not t.mountain and t.kind == "plain" and t.numeral is None
    assert all(board.steps(a, b) >= 2 for a, b in combinations(starts, 2))
    if players >= 4:
        sites = [i for i, t in enumerate(board.territories) if t.kind != "plain"]
        for s in starts:
            own = [
                site
                for site in sites
                if site in board.neighbours[s]
                and not any(site in board.neighbours[o] for o in starts if o != s)
            ]
            assert own, board.territories[s].id


def test_start_distances_match_the_spec(board: Board) -> None:
    spans = {2: (4, 4), 3: (3, 5), 4: (3, 6), 5: (2, 6)}
    for players, (lo, hi) in spans.items():
        d = [board.steps(a, b) for a, b in combinations(board.starts(players), 2)]
        assert (min(d), max(d)) == (lo, hi)
    king = {"ayr": 3, "kinross": 3, "the_lennox": 3, "forfar": 4, "applecross": 6}
    king |= {"banff": 6, "moray": 6, "dingwall": 7}
    for name, steps in king.items():
        assert board.steps(board.index[name], board.king_start) == steps


def test_spawn_distances_to_the_king(board: Board) -> None:
    expected = {"I": 3, "II": 4, "III": 3, "IV": 3, "V": 2, "VI": 2, "VII": 6}
    expected |= {"VIII": 9, "IX": 5, "X": 4}
    assert {n: board.steps(t, board.king_start) for n, t in board.spawns.items()} == expected


def test_within_and_steps(board: Board) -> None:
    fife = board.index["fife"]
    assert ids(board, board.within(fife, 0)) == {"fife"}
    assert ids(board, board.within(fife, 1)) == {
        "fife", "stirling", "kinross", "perth", "edinburgh", "linlithgow", "dundee",
    }  # fmt: skip
    for a in range(board.size):
        assert board.steps(a, a) == 0
        for b in board.neighbours[a]:
            assert board.steps(a, b) == 1 == board.steps(b, a)
    assert board.is_mountain(board.index["mar"]) and not board.is_mountain(fife)


def test_toward(board: Board) -> None:
    """First steps of the shortest paths: Berwick (V) reaches the Castle only via Lothian;
    Fife (VI) by the Forth ferries or Stirling."""
    castle = board.king_start
    assert ids(board, board.toward(board.spawns["V"], castle)) == {"lothian"}
    assert ids(board, board.toward(board.spawns["VI"], castle)) == {"edinburgh", "linlithgow"}
    assert board.toward(castle, castle) == ()
    for a in range(board.size):
        for b in range(board.size):
            for n in board.toward(a, b):
                assert board.steps(n, b) == board.steps(a, b) - 1 and n in board.neighbours[a]


def test_starts_for_an_unknown_count_is_refused(board: Board) -> None:
    with pytest.raises(clangames.InvalidParameterError, match="no starting territories for 6"):
        board.starts(6)
    with pytest.raises(clangames.InvalidParameterError, match="no territory 'shetland'"):
        board.territory("shetland")


def test_the_game_uses_this_board() -> None:
    """With the rules in place the game is registered and plays on the bundled map."""
    assert "clan_feud" in {spec.name for spec in clangames.games()}
    assert clangames.load("clan_feud", players=2).board is load_board()
