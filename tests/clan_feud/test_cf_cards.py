"""The bundled Clan Feud cards (``clan-feud-cards.md`` sections 2 and 3): counts, the
distributions the spec fixes, every expression parsed and round-tripping, and bad card
files refused naming the card and field."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from clangames import InvalidParameterError
from clangames.clan_feud import (
    ActionDeck,
    EventDeck,
    ExpressionError,
    If,
    Primitive,
    Seq,
    expressions,
    load_actions,
    load_board,
    load_events,
    parse_combat,
    parse_events,
    parse_expression,
    parse_timing,
)
from clangames.clan_feud.effects import NUMERALS

from .cf_helpers import bundled_text, variant


@pytest.fixture(scope="module")
def events() -> EventDeck:
    return load_events()


@pytest.fixture(scope="module")
def actions() -> ActionDeck:
    return load_actions()


# ---------------------------------------------------------------------------------------
# Events


def test_event_counts_and_provenance(events: EventDeck) -> None:
    assert len(events.regular) == 20
    assert [c.id for c in events.regular] == [f"EV{i:02d}" for i in range(1, 21)]
    assert events.final.id == "EV21" and events.final.name == "King James Comes of Age"
    assert events.provenance == "reconstructed"
    assert {c.provenance for c in events.regular} | {events.final.provenance} == {"reconstructed"}
    assert all(1567 <= (c.year or 0) <= 1588 for c in events.regular)


def test_event_distribution(events: EventDeck) -> None:
    """Section 3.4: England steps, the each-player forms, spawns and moves."""
    steps = Counter(c.england for c in events.regular)
    assert steps == {-1: 2, 0: 5, 1: 8, 2: 4, 3: 1}
    assert sum(c.england for c in events.regular) == 17
    forms = Counter(str(c.each_player) for c in events.regular)
    assert forms == {
        "pay_money(3) OR england_track(+1)": 5,
        "pay_money(2) OR england_track(+1)": 2,
        "pay_money(4) OR england_track(+1)": 1,
        "pay_feud(2) OR england_track(+1)": 2,
        "discard_cards(1) OR england_track(+1)": 2,
        "remove_troops(1) OR england_track(+1)": 2,
        "may [pay_money(4); england_track(-1)]": 2,
        "may [gain_money(3); england_track(+1)]": 2,
        "if is_regent then [pay_money(6) OR england_track(+2)]": 1,
        "if cities >= 1 then [pay_money(2*cities) OR england_track(+1)]": 1,
    }
    assert Counter(c.spawn for c in events.regular) == dict.fromkeys(NUMERALS, 2)
    assert Counter(c.moves for c in events.regular) == {1: 7, 2: 9, 3: 4}


def test_event_objectives(events: EventDeck) -> None:
    by_id = {c.id: c for c in events.regular}
    assert str(by_id["EV01"].objective) == "if controls(stirling) then gain_vp(4)"
    assert str(by_id["EV11"].objective) == "if controls(edinburgh_castle) then gain_vp(4)"
    assert str(by_id["EV18"].objective) == (
        "if troops_in(edinburgh, edinburgh_castle) == 0 then gain_vp(2)"
    )
    assert str(by_id["EV04"].objective) == "gain_vp(2*territories_in(I..V))"
    assert str(by_id["EV13"].objective) == "repeat(2) [pay_money(5); gain_vp(2)]"


def test_final_count(events: EventDeck) -> None:
    scoring = events.final.scoring
    assert isinstance(scoring, Seq) and len(scoring.items) == 8
    assert str(scoring) == (
        "[gain_vp(1*territories); gain_vp(4*cities); gain_vp(3*castles);"
        " gain_vp(2*tower_houses); if is_regent then gain_vp(5); gain_vp(1*(money//5));"
        " gain_vp(-1*feud); gain_vp(-1*troops)]"
    )
    regent = scoring.items[4]
    assert isinstance(regent, If) and regent.body == Primitive("gain_vp", (parse_const(5),))


def parse_const(n: int) -> object:
    node = parse_expression(f"gain_vp({n})")
    assert isinstance(node, Primitive)
    return node.args[0]


# ---------------------------------------------------------------------------------------
# Actions


def test_action_counts_and_provenance(actions: ActionDeck) -> None:
    assert len(actions.designs) == 33
    assert len(actions.cards) == 50 == sum(d.copies for d in actions.designs)
    ids = actions.card_ids
    assert len(ids) == 50 == len(set(ids))
    assert ids[:3] == ("AC01-1", "AC01-2", "AC02-1")
    assert [actions.designs[d].id for d in actions.cards][:3] == ["AC01", "AC01", "AC02"]
    assert {d.provenance for d in actions.designs} == {"reconstructed"}
    assert all(d.flavour for d in actions.designs)


def _phase(window: str) -> str:
    return window.split(".")[0]


def test_action_distribution(actions: ActionDeck) -> None:
    """Section 2.2: combat effect by timing, and the phase-2 triggers."""
    table: Counter[tuple[str, str]] = Counter()
    for d in actions.designs:
        table[(str(d.combat), _phase(d.timing.window))] += d.copies
    assert table == {
        ("cs+1", "P1"): 2, ("cs+1", "P2"): 5, ("cs+1", "P3"): 1,
        ("cs+2", "P2"): 8,
        ("cs+3", "P2"): 2, ("cs+3", "P3"): 1,
        ("skulls+1", "P2"): 8,
        ("skulls+2", "P2"): 3,
        ("skulls-1", "P1"): 4, ("skulls-1", "P3"): 2,
        ("skulls-2", "P2"): 2, ("skulls-2", "P3"): 1,
        ("cancel", "P1"): 5, ("cancel", "P2"): 1,
        ("two_is_three", "P2"): 1, ("two_is_three", "P3"): 4,
    }  # fmt: skip
    phases = Counter({p: 0 for p in ("P1", "P2", "P3")})
    for d in actions.designs:
        phases[_phase(d.timing.window)] += d.copies
    assert phases == {"P1": 11, "P2": 30, "P3": 9}
    kinds: Counter[str] = Counter()
    for d in actions.designs:
        kinds[d.combat.code] += d.copies
    assert kinds["C1"] + kinds["C2"] == 30 and kinds["C3"] + kinds["C5"] == 14
    assert kinds["C4"] == 6
    triggers: Counter[str] = Counter()
    for d in actions.designs:
        if d.timing.window != "P2.assign":
            continue
        column = d.timing.get("column")
        mode = d.timing.get("mode")
        if column is None:
            triggers["die"] += d.copies
        elif column.value == "military":
            triggers[f"military {mode.value if mode else 'any'}"] += d.copies
        else:
            triggers[str(column.value)] += d.copies
    assert triggers == {
        "feud": 3, "income": 3, "build": 5, "intrigue": 5, "die": 4,
        "military recruit": 5, "military move": 4, "military any": 1,
    }  # fmt: skip


def test_windows_of_actions(actions: ActionDeck) -> None:
    by_id = {d.id: d for d in actions.designs}
    assert str(by_id["AC01"].timing) == "P1.before_order"
    assert str(by_id["AC15"].timing) == "P2.assign(column=build, level>=II)"
    assert str(by_id["AC22"].timing) == "P2.assign(column=military, mode=recruit, level=III)"
    assert str(by_id["AC12"].timing) == "P2.assign(value=1)"
    assert str(by_id["AC24"].action) == "boost_move(speed=+1, ignore_mountains, only=cavalry)"
    assert str(by_id["AC30"].action) == "repeat(2) [pay_feud(1); gain_vp(1)]"
    # action cards only ever lower the track (guess 6)
    for d in actions.designs:
        assert "england_track(+" not in str(d.action)


# ---------------------------------------------------------------------------------------
# Every expression of the bundled files


def test_every_bundled_expression_round_trips(events: EventDeck, actions: ActionDeck) -> None:
    seen = 0
    for deck in (events, actions):
        for where, expr in expressions(deck):
            text = str(expr)
            assert parse_expression(text, where) == expr, where
            seen += 1
    assert seen == 20 * 2 + 1 + 33
    for d in actions.designs:
        assert parse_timing(str(d.timing)) == d.timing
        assert parse_combat(str(d.combat)) == d.combat


def test_cards_name_only_places_of_the_board(events: EventDeck, actions: ActionDeck) -> None:
    board = load_board()
    events.check_board(board)
    actions.check_board(board)
    data = tomllib.loads(bundled_text("events.toml"))
    data["event"][0]["objective"] = "if controls(holyrood) then gain_vp(4)"
    deck = parse_events(data, "test")
    with pytest.raises(InvalidParameterError, match=r"event EV01 objective names holyrood"):
        deck.check_board(board)


# ---------------------------------------------------------------------------------------
# Bad event files

EVENT_CASES = [
    (
        'each_player = "pay_money(3) OR england_track(+1)"',
        'each_player = "pay_mony(3) OR england_track(+1)"',
        r"event\[0\] EV01\.each_player: unknown primitive 'pay_mony'.* at column 1",
    ),
    (
        'objective = "if controls(stirling) then gain_vp(4)"',
        'objective = "if controls(stirling) gain_vp(4)"',
        r"event\[0\] EV01\.objective: expected 'then' after the condition, found 'gain_vp'"
        r" at column 23",
    ),
    (
        'objective = "if controls(stirling) then gain_vp(4)"',
        'objective = "steal(money, 2)"',
        r"event\[0\] EV01\.objective: steal \(E8\) cannot be played on an event card",
    ),
    (
        'objective = "if controls(stirling) then gain_vp(4)"',
        'objective = "gain_vp(-2)"',
        r"event\[0\] EV01\.objective: gain_vp\(-2\) takes VP away",
    ),
    ('spawn = "V"', 'spawn = "XI"', r"event\[0\] EV01\.spawn must be a numeral I\.\.X"),
    ("moves = 2", "moves = 11", r"event\[0\] EV01\.moves must be an integer 0\.\.10, got 11"),
    ("england = 1", 'england = "+1"', r"event\[0\] EV01\.england must be an integer"),
    ("england = 1", "", r"event\[0\] EV01: missing england"),
    ("england = 1", "england = 1\nflavour = 'x'", r"event\[0\] EV01: unknown key\(s\) flavour"),
    ('id = "EV02"', 'id = "EV01"', r"event\[1\] EV01: id 'EV01' is used twice"),
    ('id = "EV21"', 'id = "EV20"', r"final: id 'EV20' is used twice"),
    (
        "gain_vp(-1*feud)",
        "gain_vp(-1*fued)",
        r"final EV21\.scoring: unknown quantity 'fued'.* at column 154",
    ),
    ("[final]", "[ultimate]", r"the file: missing final"),
]


@pytest.mark.parametrize(("old", "new", "message"), EVENT_CASES)
def test_bad_events_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = variant(tmp_path, "events.toml", old, new)
    with pytest.raises(InvalidParameterError, match=message) as info:
        load_events(path)
    assert path in str(info.value)


def test_too_few_events() -> None:
    data = tomllib.loads(bundled_text("events.toml"))
    cards = data["event"]
    data["event"] = cards[:7]
    with pytest.raises(InvalidParameterError, match=r"at least 8 regular events.*got 7"):
        parse_events(data, "test")
    data["event"] = cards[:8]
    assert len(parse_events(data, "test").regular) == 8


def test_expression_errors_are_parameter_errors(tmp_path: Path) -> None:
    path = variant(
        tmp_path, "events.toml", 'moves = 2\nobjective = "if', 'moves = 2\nobjective = "if ('
    )
    with pytest.raises(ExpressionError) as info:
        load_events(path)
    assert info.value.where.endswith("event[0] EV01.objective")
    assert info.value.position == 3


# ---------------------------------------------------------------------------------------
# Bad action files

ACTION_CASES = [
    (
        'action = "choose_turn_order()"',
        'action = "choose_turn_order(1)"',
        r"action\[0\] AC01\.action: 'choose_turn_order' takes 0 argument\(s\), found more at"
        r" column 19",
    ),
    (
        'action = "choose_turn_order()"',
        'action = "seize_the_king()"',
        r"action\[0\] AC01\.action: unknown primitive 'seize_the_king'",
    ),
    (
        'timing = "P1.before_order"',
        'timing = "P1.before_orders"',
        r"action\[0\] AC01\.timing: unknown timing window 'P1\.before_orders'",
    ),
    (
        'combat = "cancel"',
        'combat = "cs+0"',
        r"action\[0\] AC01\.combat: cs needs a nonzero amount",
    ),
    (
        'timing = "P1.before_order"',
        'timing = "P3.upkeep"',
        r"action\[0\] AC01\.action: choose_turn_order \(E12\) cannot be played at P3\.upkeep",
    ),
    (
        'action = "choose_turn_order()"',
        'action = "discard_cards(1)"',
        r"AC01\.action: discard_cards \(E7\) cannot be played at P1\.before_order",
    ),
    (
        'timing = "P2.assign(column=military, mode=recruit)"\naction = "recruit(infantry, 2)"',
        'timing = "P2.assign(column=military, mode=move)"\naction = "recruit(infantry, 2)"',
        r"action\[19\] AC20\.action: recruit\(infantry, 2\) needs a Military die used to recruit",
    ),
    (
        'action = "boost_move(armies=+1)"',
        'action = "boost_move(armies=+1)"'.replace("move(", "move(speed=+2, "),
        None,  # a valid variant: two boosts in one design
    ),
    (
        'timing = "P2.assign(column=build)"\naction = "discount(3)"',
        'timing = "P2.assign(column=income)"\naction = "discount(3)"',
        r"action\[13\] AC14\.action: discount\(3\) needs a Build die",
    ),
    (
        'action = "england_track(-2)"',
        'action = "england_track(+2)"',
        r"action\[30\] AC31\.action: england_track\(\+2\) may only lower the track",
    ),
    ("copies = 2", "copies = 0", r"action\[0\] AC01\.copies must be an integer 1\.\.10, got 0"),
    ('id = "AC02"', 'id = "AC01"', r"action\[1\] AC01: id 'AC01' is used twice"),
    ('id = "AC02"', 'id = "AC 02"', r"action\[1\] AC 02\.id must be letters, digits and _"),
    ('name = "Raid of Ruthven"', 'name = ""', r"action\[0\] AC01\.name must be a non-empty"),
    (
        'flavour = "In August 1582',
        'flavour = 1582\nnote = "In August 1582',
        r"action\[0\] AC01: unknown key\(s\) note",
    ),
]


@pytest.mark.parametrize(("old", "new", "message"), ACTION_CASES)
def test_bad_actions_refused(tmp_path: Path, old: str, new: str, message: str | None) -> None:
    path = variant(tmp_path, "actions.toml", old, new)
    if message is None:
        assert len(load_actions(path).designs) == 33
        return
    with pytest.raises(InvalidParameterError, match=message) as info:
        load_actions(path)
    assert path in str(info.value)


def test_nothing_half_loaded(tmp_path: Path) -> None:
    before = load_actions(), load_events()
    with pytest.raises(InvalidParameterError):
        load_actions(variant(tmp_path, "actions.toml", "copies = 2", "copies = -1"))
    with pytest.raises(InvalidParameterError):
        load_events(variant(tmp_path, "events.toml", "moves = 2", "moves = -1"))
    assert (load_actions(), load_events()) == before
    assert load_actions() is before[0]
