"""``Match.waiting_for`` names only the seats without a policy, and a record's headers are
refused past their nesting limit, naming the place.

Found by the kernel's mutation audit: a ``waiting_for`` that listed the bots' seats too (a
front-end would wait for a bot forever), and a header check one level more lenient than
its limit, passed every test before.
"""

from __future__ import annotations

from typing import Any

import pytest

from clangames import Match, State, StateDecodeError
from clangames.engine.record import _HEADER_DEPTH, GameRecord
from testing import toys

GAME = toys.toy()


class Lowest:
    """A bot playing its lowest legal action."""

    def act(self, state: State, player: int) -> Any:
        return state.legal_actions(player)[0]


def test_waiting_for_leaves_out_the_bots() -> None:
    match = Match(GAME, 3, {0: Lowest()})
    match.run(4)  # two deals, seat 0's bot stakes, the flip: both seats now bid at once
    assert match.state.is_simultaneous and match.state.to_move == (0, 1)
    assert match.waiting_for == (1,)
    human = Match(GAME, 3, {})
    human.run()
    assert human.state.to_move == (0,) and human.waiting_for == (0,)
    bots = Match(GAME, 3, {0: Lowest(), 1: Lowest()})
    bots.run()
    assert bots.is_over and bots.waiting_for == ()


def nested(depth: int) -> Any:
    """A header value whose innermost item sits ``depth`` levels below the headers."""
    value: Any = 1
    for _ in range(depth - 1):
        value = [value]
    return value


def record_with(headers: dict[str, Any]) -> dict[str, Any]:
    return {"headers": headers, "game": GAME.name, "params": dict(GAME.params), "moves": []}


def test_headers_may_nest_up_to_the_limit_and_no_deeper() -> None:
    assert _HEADER_DEPTH == 32
    deepest = record_with({"seat": nested(_HEADER_DEPTH)})
    assert GameRecord.from_json(deepest).headers == {"seat": nested(_HEADER_DEPTH)}
    with pytest.raises(
        StateDecodeError, match=r"^record\.headers\.seat(\[0\]){32}: nested more than 32 levels"
    ):
        GameRecord.from_json(record_with({"seat": nested(_HEADER_DEPTH + 1)}))


@pytest.mark.parametrize(("headers", "kind"), [([], "list"), ("seed 3", "str"), (7, "int")])
def test_headers_must_be_an_object(headers: Any, kind: str) -> None:
    expected = rf"^record\.headers: expected an object, got {kind}"
    with pytest.raises(StateDecodeError, match=expected):
        GameRecord.from_json(record_with(headers))
