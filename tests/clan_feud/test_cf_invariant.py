"""The Clan Feud invariant and the state machine's ledger bite: each clause rejects a state
(or a rule's change) that breaks it, and accepts the legal neighbour."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames.clan_feud import ClanFeudState, rules
from clangames.clan_feud.state import Battle, Task
from clangames.engine.simultaneous import Commitments

from .cf_rules_helpers import SENTINEL, invariant, load, position, tid
from .test_cf_state_machine import Call, check_call, ledger


def _table(players: int = 2) -> ClanFeudState:
    game = load(players)
    return position(
        game,
        [],
        troops={(0, "moray"): (2, 1, 0), (1, "inverness"): (3, 0, 1)},
        control={"moray": 0, "inverness": 1},
    )


def _set_troops(s: ClanFeudState, seat: int, name: str, army: tuple[int, int, int]) -> Any:
    t = tid(s.game, name)
    row = list(s.troops[seat])
    row[3 * t : 3 * t + 3] = army
    rows = list(s.troops)
    rows[seat] = tuple(row)
    return tuple(rows)


def test_a_plain_table_passes() -> None:
    invariant(_table())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: {"money": (-1, 10)}, "£ or feud below 0"),
        (lambda s: {"feud": (0, -2)}, "£ or feud below 0"),
        (lambda s: {"troops": _set_troops(s, 0, "moray", (11, 0, 0))}, "11 troops of type 0"),
        (lambda s: {"troops": _set_troops(s, 1, "inverness", (0, 0, 3))}, "3 troops of type 2"),
        (lambda s: {"troops": _set_troops(s, 0, "moray", (2, -1, 0))}, "negative troop"),
        (lambda s: {"troops": _set_troops(s, 1, "moray", (1, 0, 0))}, "holds the armies"),
        (
            lambda s: {"towers": _at(s, s.towers, "edinburgh_castle", 2)},
            "3 buildings",
        ),
        (lambda s: {"site": _at(s, s.site, "moray", 3)}, "site 3"),
        (lambda s: {"deck": (s.deck[0] - 1, *s.deck[1:])}, "cards"),
        (lambda s: {"regent": 0, "gold_out": True}, "without his army"),
        (lambda s: {"regent": 0, "gold_out": False}, "gold die"),
    ],
)
def test_a_broken_state_fails(change: Any, message: str) -> None:
    s = _table()
    broken = attrs.evolve(s, **change(s))
    with pytest.raises(AssertionError, match=message):
        invariant(broken)


def _at(s: ClanFeudState, row: tuple[int, ...], name: str, value: int) -> tuple[int, ...]:
    out = list(row)
    out[tid(s.game, name)] = value
    return tuple(out)


def test_a_lone_king_with_an_army_at_rest_fails_but_one_passing_through_passes() -> None:
    s = _table()
    at_king = _set_troops(s, 0, "edinburgh_castle", (1, 0, 0))
    with pytest.raises(AssertionError, match="did not take him"):
        mine = _at(s, s.controller, "edinburgh_castle", 0)
        invariant(attrs.evolve(s, troops=at_king, controller=mine))
    king = tid(s.game, "edinburgh_castle")
    passing = Task("step", 0, king, 1, 1, (1, 0, 0, 0, king, king))
    invariant(attrs.evolve(s, troops=at_king, tasks=(SENTINEL, passing)))


def test_an_army_at_rest_stands_on_its_own_land() -> None:
    s = _table()
    with pytest.raises(AssertionError, match=r"rests in territory \d+, controlled by 1"):
        invariant(attrs.evolve(s, controller=_at(s, s.controller, "moray", 1)))


def test_a_sealed_card_must_be_held_until_the_reveal() -> None:
    s = _table()
    game = s.game
    t = tid(game, "inverness")
    card = game.card_actions[0]
    battle = Battle(
        territory=t,
        owners=(0, 1),
        origin=tid(game, "moray"),
        attackers=(1, 0, 0),
        king=-1,
        cards=Commitments.open(2).commit(0, game.action_id(card)),
        tokens=Commitments.open(2).commit(1, game.action_id(game.commit_actions[3])),
    )
    sealed = attrs.evolve(s, battle=battle, tasks=(SENTINEL, Task("breveal")))
    with pytest.raises(AssertionError, match="sealed card"):
        invariant(sealed)
    hands = ((1, *s.hands[0][1:]), s.hands[1])
    deck = (s.deck[0] - 1, *s.deck[1:])
    with pytest.raises(AssertionError, match="sealed 3 of 0 tokens"):
        invariant(attrs.evolve(sealed, hands=hands, deck=deck))
    invariant(attrs.evolve(sealed, hands=hands, deck=deck, feud=(0, 3)))
    # after the reveal the round's record stays, the card and tokens gone
    invariant(attrs.evolve(sealed, tasks=(SENTINEL,)))


def _calls(tasks: list[Task], **facts: Any) -> tuple[list[Call], ClanFeudState]:
    game = load(2)
    with ledger() as calls:
        state = position(game, tasks, **facts)
    return list(calls), state


def _only(calls: list[Call], kind: str) -> Call:
    found = [c for c in calls if c.kind == kind]
    assert len(found) == 1, [c.kind for c in calls]
    return found[0]


def test_the_ledger_checks_income_by_the_territories() -> None:
    calls, state = _calls(
        [Task("income", 0, 3)], control={"moray": 0, "inverness": 0, "loch_ness": 0}, money=(5, 5)
    )
    call = _only(calls, "income")
    assert call.after.money[0] - call.before.money[0] == 6
    check_call(call, state)
    with pytest.raises(AssertionError, match="Income 3 on 3 territories paid 7"):
        check_call(attrs.evolve(call, after=attrs.evolve(call.after, money=(12, 5))), state)


def test_the_ledger_catches_a_rule_that_pays_the_wrong_vp(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls, state = _calls([Task("intrigue", 0, 1)])
    check_call(_only(calls, "intrigue"), state)
    monkeypatch.setattr(rules, "INTRIGUE_VP", (1, 3, 3))
    calls, state = _calls([Task("intrigue", 0, 1)])
    with pytest.raises(AssertionError, match="Intrigue 1 gave 1 VP"):
        check_call(_only(calls, "intrigue"), state)


def test_the_ledger_restores_the_rules() -> None:
    handlers, applies = dict(rules.HANDLERS), dict(rules.APPLY)
    with ledger():
        assert rules.APPLY["build"] is not applies["build"]
    assert handlers == rules.HANDLERS
    assert applies == rules.APPLY


def test_the_bundled_deck_conserves_fifty_cards_from_the_set_up() -> None:
    s = load(3).initial_state()
    assert isinstance(s, ClanFeudState)
    assert sum(d.copies for d in s.game.deck.designs) == 50
    assert sum(s.deck) + sum(s.discards) + sum(map(sum, s.hands)) == 50
    invariant(s)
