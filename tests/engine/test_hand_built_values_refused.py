"""Values a caller builds by hand that no game produces are refused by name, not read
from the wrong end of a list or written as a file nobody can load."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from clangames import load
from clangames.engine.errors import InvalidArgumentError
from clangames.engine.piles import Multiset
from clangames.engine.position import Name, NameSet
from clangames.engine.record import GameRecord, Move


def _record(params: dict[str, Any] | None = None, **headers: Any) -> GameRecord:
    return GameRecord("kings_kilt", params or {"players": 2}, (Move(0, "pass"),), headers)


@pytest.mark.parametrize(
    ("record", "named"),
    [
        (_record(seed=math.nan), "record.headers.seed: expected a finite number, got nan"),
        (_record(seats=[{"kind": math.inf}]), "record.headers.seats[0].kind: expected a finite"),
        (_record(bots={"ismcts"}), "record.headers.bots: expected a JSON value"),
        (_record(odd={1: "one"}), "record.headers.odd: keys must be strings, got 1"),
        (_record({"players": -math.inf}), "record.params.players: expected a finite number"),
        (_record({"players": object()}), "cannot encode object value"),
    ],
)
def test_a_record_that_json_cannot_hold_is_refused_when_written(
    record: GameRecord, named: str
) -> None:
    # json.dumps would have written NaN, Infinity or a coerced key: text no JSON reader loads
    # as it was meant, so the record is refused at the writing door with the entry named.
    for write in (record.to_json, record.dumps):
        with pytest.raises(InvalidArgumentError, match="cannot write the record") as caught:
            write()
        assert named in str(caught.value)


def test_a_hand_built_record_of_json_values_still_writes_and_reads_back() -> None:
    record = _record(seed=7, who=("alice", "bob"), score=1.5, note=None, nested={"a": [1, {}]})
    again = GameRecord.from_json(record.dumps())
    assert again.moves == record.moves
    assert again.params == {"players": 2}
    assert again.headers == {**record.headers, "who": ["alice", "bob"]}
    assert json.loads(record.dumps())["headers"]["score"] == 1.5


def test_a_real_games_record_is_unchanged_by_the_check() -> None:
    game = load("kings_kilt", players=2)
    record = GameRecord.start(game)
    assert record.to_json() == {"game": "kings_kilt", "params": dict(game.params), "moves": []}


@pytest.mark.parametrize("kind", [-1, -3, 4, 9])
def test_multiset_count_refuses_a_kind_out_of_range(kind: int) -> None:
    pile = Multiset((1, 2, 0, 5))
    with pytest.raises(ValueError, match=f"kind {kind} is out of range 0..3"):
        pile.count(kind)
    assert [pile.count(k) for k in range(4)] == [1, 2, 0, 5]


def test_a_name_is_shown_only_for_an_index_of_the_list() -> None:
    clans = Name(["Bruce", "Gordon", "Stewart"], "clan")
    assert [clans.show(i) for i in (0, 1, 2, -1)] == ["Bruce", "Gordon", "Stewart", "-"]
    for bad in (-2, 3, True):
        with pytest.raises(ValueError, match=r"is not a clan number: expected 0..2 or -1 \(none\)"):
            clans.show(bad)
    strict = Name(["Bruce", "Gordon"], "clan", none=False)
    with pytest.raises(ValueError, match=r"-1 is not a clan number: expected 0\.\.1$"):
        strict.show(-1)  # before: Gordon, the last name


def test_a_name_set_refuses_bits_past_its_names() -> None:
    clans = NameSet(["Bruce", "Gordon", "Stewart"], "clan")
    assert clans.show(0b101) == "[Bruce,Stewart]"
    for bad in (0b1000, -1):
        with pytest.raises(ValueError, match="is not a set of clan names: expected a bitmask of 3"):
            clans.show(bad)
