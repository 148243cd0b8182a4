"""Audit of Clan Feud part 3's card data: every action design and event card as loaded
equals the cards specification (``clan-feud-cards.md`` sections 2, 3.2 and 3.3),
transcribed here field by field, so that a slip in ``actions.toml`` or ``events.toml``
fails under the card's own id. Expressions are compared in their canonical text (the
spec's own notation); the spec's place names are written as the map ids its section 1.2
names (``Stirling`` -> ``stirling``)."""

from __future__ import annotations

from collections import Counter

import pytest

from clangames.clan_feud import ActionDeck, EventDeck, load_actions, load_events

# (id, name, copies, timing, action, combat), section 2
ACTIONS = (
    ("AC01", "Raid of Ruthven", 2, "P1.before_order", "choose_turn_order()", "cancel"),
    ("AC02", "Cunning Folk", 2, "P1.after_roll", "reroll_dice(3, self)", "skulls-1"),
    ("AC03", "The King's Golf Clubs", 2, "P1.after_roll", "modify_die(1, +1)", "skulls-1"),
    ("AC04", "Redshank Mercenaries", 1, "P1.after_roll", "take_temp_die(white)", "cs+1"),
    ("AC05", "North Berwick Witches", 2, "P1.after_roll", "reroll_dice(2, opponent)", "cancel"),
    ("AC06", "Martinmas Rents", 1, "P1.after_roll", "bonus_action(income, I)", "cs+1"),
    ("AC07", "Bond of Manrent", 1, "P1.after_roll", "modify_die(1, 1to3)", "cancel"),
    ("AC08", "Deadly Feud", 1, "P2.assign(column=feud)", "gain_feud(2)", "cs+3"),
    ("AC09", "Reiving Raid", 2, "P2.assign(column=feud)", "steal(money, 3)", "skulls+1"),
    ("AC10", "Salt Pans of the Forth", 2, "P2.assign(column=income)", "gain_money(3)", "cs+2"),
    (
        "AC11",
        "Staple at Veere",
        1,
        "P2.assign(column=income)",
        "gain_money(2*cities)",
        "two_is_three",
    ),
    ("AC12", "The Bawbee", 2, "P2.assign(value=1)", "gain_money(3)", "skulls+1"),
    ("AC13", "Barmkin Act", 2, "P2.assign(column=build)", "place_building(th1)", "cs+1"),
    ("AC14", "French Master Masons", 2, "P2.assign(column=build)", "discount(3)", "skulls+1"),
    ("AC15", "French Gold", 1, "P2.assign(column=build, level>=II)", "discount(6)", "cs+1"),
    (
        "AC16",
        "Seat on the Privy Council",
        2,
        "P2.assign(column=intrigue)",
        "[draw_cards(1); gain_vp(1)]",
        "cs+2",
    ),
    ("AC17", "Envoy to London", 2, "P2.assign(column=intrigue)", "england_track(-1)", "skulls-2"),
    ("AC18", "The Casket Letters", 1, "P2.assign(column=intrigue)", "steal(card, 1)", "cancel"),
    (
        "AC19",
        "Voyage to the Isles",
        1,
        "P2.assign(column=military)",
        "bonus_action(intrigue, I)",
        "cs+1",
    ),
    (
        "AC20",
        "Wappinschaw",
        2,
        "P2.assign(column=military, mode=recruit)",
        "recruit(infantry, 2)",
        "cs+2",
    ),
    (
        "AC21",
        "Border Horse",
        2,
        "P2.assign(column=military, mode=recruit)",
        "recruit(cavalry, 1)",
        "skulls+1",
    ),
    (
        "AC22",
        "Mons Meg",
        1,
        "P2.assign(column=military, mode=recruit, level=III)",
        "recruit(artillery, 1)",
        "cs+1",
    ),
    (
        "AC23",
        "Ride from Loch Leven",
        1,
        "P2.assign(column=military, mode=move)",
        "boost_move(speed=+1)",
        "skulls+2",
    ),
    (
        "AC24",
        "Light Horse",
        1,
        "P2.assign(column=military, mode=move)",
        "boost_move(speed=+1, ignore_mountains, only=cavalry)",
        "cs+3",
    ),
    (
        "AC25",
        "Muster of the Clan",
        2,
        "P2.assign(column=military, mode=move)",
        "boost_move(armies=+1)",
        "cs+2",
    ),
    (
        "AC26",
        "Burgh Tolbooth",
        1,
        "P2.assign(colour=black)",
        "[gain_money(1); gain_vp(1)]",
        "skulls+2",
    ),
    (
        "AC27",
        "Regent's Seal",
        1,
        "P2.assign(colour=gold)",
        "[gain_money(2); gain_vp(2)]",
        "skulls+2",
    ),
    ("AC28", "Sorning", 2, "P3.upkeep", "reduce_upkeep(3)", "two_is_three"),
    (
        "AC29",
        "Forty Days' Service",
        2,
        "P3.upkeep",
        "reduce_upkeep(1*troops(infantry))",
        "skulls-1",
    ),
    (
        "AC30",
        "Letters of Slains",
        2,
        "P3.upkeep",
        "repeat(2) [pay_feud(1); gain_vp(1)]",
        "two_is_three",
    ),
    ("AC31", "Treaty of Berwick", 1, "P3.upkeep", "england_track(-2)", "skulls-2"),
    ("AC32", "Stirling Palace", 1, "P3.upkeep", "gain_vp(1*castles)", "cs+1"),
    ("AC33", "Honours of Scotland", 1, "P3.upkeep", "if is_regent then gain_vp(3)", "cs+3"),
)
# (id, name, year, england, each_player, spawn, moves, objective), section 3.2
EVENTS = (
    (
        "EV01",
        "Coronation at Stirling",
        1567,
        1,
        "pay_money(3) OR england_track(+1)",
        "V",
        2,
        "if controls(stirling) then gain_vp(4)",
    ),
    (
        "EV02",
        "Flight after Langside",
        1568,
        2,
        "may [pay_money(4); england_track(-1)]",
        "I",
        2,
        "if most(territories) then gain_vp(4)",
    ),
    (
        "EV03",
        "Conference at York",
        1568,
        0,
        "discard_cards(1) OR england_track(+1)",
        "IV",
        1,
        "may [discard_cards(2); gain_vp(3)]",
    ),
    (
        "EV04",
        "Rising of the North",
        1569,
        1,
        "pay_money(4) OR england_track(+1)",
        "III",
        2,
        "gain_vp(2*territories_in(I..V))",
    ),
    (
        "EV05",
        "Regent Moray Shot",
        1570,
        1,
        "pay_feud(2) OR england_track(+1)",
        "VI",
        1,
        "if feud >= 5 then gain_vp(3)",
    ),
    (
        "EV06",
        "Sussex Harries the Border",
        1570,
        2,
        "remove_troops(1) OR england_track(+1)",
        "IV",
        3,
        "if troops(cavalry) >= 3 then gain_vp(3)",
    ),
    (
        "EV07",
        "Dumbarton Rock Stormed",
        1571,
        1,
        "pay_money(2) OR england_track(+1)",
        "X",
        2,
        "if most(castles) then gain_vp(4)",
    ),
    (
        "EV08",
        "The Stirling Raid",
        1571,
        1,
        "pay_money(3) OR england_track(+1)",
        "VII",
        2,
        "if most(troops) then gain_vp(3)",
    ),
    (
        "EV09",
        "Scots Brigade Sails for Holland",
        1572,
        0,
        "remove_troops(1) OR england_track(+1)",
        "VIII",
        1,
        "may [remove_troops(2); gain_vp(3)]",
    ),
    (
        "EV10",
        "Pacification of Perth",
        1573,
        -1,
        "pay_feud(2) OR england_track(+1)",
        "VIII",
        1,
        "if feud <= 1 then gain_vp(3)",
    ),
    (
        "EV11",
        "Fall of Edinburgh Castle",
        1573,
        3,
        "may [pay_money(4); england_track(-1)]",
        "V",
        3,
        "if controls(edinburgh_castle) then gain_vp(4)",
    ),
    (
        "EV12",
        "Raid of the Redeswire",
        1575,
        2,
        "pay_money(3) OR england_track(+1)",
        "II",
        3,
        "if fewest(troops) then gain_vp(3)",
    ),
    (
        "EV13",
        "Second Book of Discipline",
        1578,
        0,
        "discard_cards(1) OR england_track(+1)",
        "VII",
        1,
        "repeat(2) [pay_money(5); gain_vp(2)]",
    ),
    (
        "EV14",
        "Esme Stewart Arrives",
        1579,
        1,
        "may [gain_money(3); england_track(+1)]",
        "X",
        2,
        "if cities >= 1 and castles >= 1 then gain_vp(3)",
    ),
    (
        "EV15",
        "Morton Beheaded",
        1581,
        1,
        "pay_money(3) OR england_track(+1)",
        "I",
        2,
        "if most(money) then gain_vp(3)",
    ),
    (
        "EV16",
        "The Tounis College",
        1582,
        0,
        "if cities >= 1 then [pay_money(2*cities) OR england_track(+1)]",
        "III",
        1,
        "gain_vp(2*cities)",
    ),
    (
        "EV17",
        "Escape at St Andrews",
        1583,
        1,
        "if is_regent then [pay_money(6) OR england_track(+2)]",
        "VI",
        2,
        "if is_regent then gain_vp(4)",
    ),
    (
        "EV18",
        "Plague in Edinburgh",
        1585,
        0,
        "pay_money(2) OR england_track(+1)",
        "II",
        2,
        "if troops_in(edinburgh, edinburgh_castle) == 0 then gain_vp(2)",
    ),
    (
        "EV19",
        "The General Band",
        1587,
        -1,
        "pay_money(3) OR england_track(+1)",
        "IX",
        1,
        "gain_vp(1*tower_houses)",
    ),
    (
        "EV20",
        "The Armada Wrecks",
        1588,
        2,
        "may [gain_money(3); england_track(+1)]",
        "IX",
        3,
        "if troops(artillery) >= 1 then gain_vp(3)",
    ),
)

FINAL_SCORING = (
    "[gain_vp(1*territories); gain_vp(4*cities); gain_vp(3*castles); "
    "gain_vp(2*tower_houses); if is_regent then gain_vp(5); gain_vp(1*(money//5)); "
    "gain_vp(-1*feud); gain_vp(-1*troops)]"
)
"""Section 3.3, King James Comes of Age."""

# section 2.2: copies per combat effect and window (P1, P2, P3)
COMBAT_BY_WINDOW = {
    "cs+1": (2, 5, 1),
    "cs+2": (0, 8, 0),
    "cs+3": (0, 2, 1),
    "skulls+1": (0, 8, 0),
    "skulls+2": (0, 3, 0),
    "skulls-1": (4, 0, 2),
    "skulls-2": (0, 2, 1),
    "cancel": (5, 1, 0),
    "two_is_three": (0, 1, 4),
}


@pytest.fixture(scope="module")
def actions() -> ActionDeck:
    return load_actions()


@pytest.fixture(scope="module")
def events() -> EventDeck:
    return load_events()


@pytest.mark.parametrize(("ident", "name", "copies", "timing", "action", "combat"), ACTIONS)
def test_action_design_as_loaded_equals_the_spec(
    actions: ActionDeck, ident: str, name: str, copies: int, timing: str, action: str, combat: str
) -> None:
    (card,) = [c for c in actions.designs if c.id == ident]
    got = (card.name, card.copies, str(card.timing), str(card.action), str(card.combat))
    assert got == (name, copies, timing, action, combat)
    assert card.provenance == "reconstructed"


@pytest.mark.parametrize(
    ("ident", "name", "year", "england", "each_player", "spawn", "moves", "objective"), EVENTS
)
def test_event_card_as_loaded_equals_the_spec(
    events: EventDeck,
    ident: str,
    name: str,
    year: int,
    england: int,
    each_player: str,
    spawn: str,
    moves: int,
    objective: str,
) -> None:
    (card,) = [c for c in events.regular if c.id == ident]
    got = (
        card.name,
        card.year,
        card.england,
        str(card.each_player),
        card.spawn,
        card.moves,
        str(card.objective),
    )
    assert got == (name, year, england, each_player, spawn, moves, objective)


def test_the_final_event_equals_the_spec(events: EventDeck) -> None:
    final = events.final
    assert (final.id, final.name, str(final.scoring)) == (
        "EV21",
        "King James Comes of Age",
        FINAL_SCORING,
    )


def test_the_decks_hold_exactly_the_specs_cards(actions: ActionDeck, events: EventDeck) -> None:
    """33 designs making 50 physical cards, in spec order, each design its copies; 20
    regular events and King James Comes of Age."""
    assert [c.id for c in actions.designs] == [row[0] for row in ACTIONS]
    assert sum(row[2] for row in ACTIONS) == 50
    assert len(actions.cards) == 50
    assert Counter(actions.cards) == {d: row[2] for d, row in enumerate(ACTIONS)}
    assert list(actions.card_ids) == [
        f"{row[0]}-{k}" for row in ACTIONS for k in range(1, row[2] + 1)
    ]
    assert [c.id for c in events.regular] == [row[0] for row in EVENTS]
    assert len(events.regular) + 1 == 21


def test_the_combat_and_timing_distribution_of_section_2_2(actions: ActionDeck) -> None:
    got: dict[str, list[int]] = {}
    for card in actions.designs:
        column = ["P1", "P2", "P3"].index(card.timing.window[:2])
        got.setdefault(str(card.combat), [0, 0, 0])[column] += card.copies
    assert {k: tuple(v) for k, v in got.items()} == COMBAT_BY_WINDOW
    assert [sum(v[i] for v in COMBAT_BY_WINDOW.values()) for i in range(3)] == [11, 30, 9]
    # the phase-(2) triggers: Feud 3, Income 3, Build 5, Intrigue 5, Military 10 (recruit
    # 5, move 4, any 1), colour or value 4
    triggers: Counter[str] = Counter()
    for card in actions.designs:
        if card.timing.window != "P2.assign":
            continue
        keys = {item.key: str(item.value) for item in card.timing.filter}
        label = keys.get("column", "die")
        if label == "military":
            label += "/" + keys.get("mode", "any")
        triggers[label] += card.copies
    assert triggers == {
        "feud": 3,
        "income": 3,
        "build": 5,
        "intrigue": 5,
        "military/recruit": 5,
        "military/move": 4,
        "military/any": 1,
        "die": 4,
    }
