"""Second audit of Clan Feud part 2 with part 3: the action cards meeting England. A card
lowering the track (E19) disbands English armies at 10 or less, in phase 2 and at upkeep;
a card's free troops (E16) recruited into English-held land fight it at once, with or
without paid troops, and take a lone King there only by winning; a bonus Income (E13)
skips English-held land; and in a battle with England only the clan side plays a card,
whose effect works as against a clan (a cancel has nothing to cancel)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.rules import MILITARY
from clangames.clan_feud.state import ClanFeudState, Task

from .cf_rules_helpers import done, invariant, legal_texts, load, play, tid
from .test_cf_england_war import ENGLAND, armies, at_war, march

WHITE = 0


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


def design(game: ClanFeudGame, ident: str) -> int:
    return [d.id for d in game.deck.designs].index(ident)


# ---------------------------------------------------------------------------------------
# E19: a card moving the track


def test_a_phase_two_card_taking_the_track_to_ten_disbands_every_english_army(
    game: ClanFeudGame,
) -> None:
    def envoy(england: int) -> Any:
        s = at_war(
            game,
            [Task("assign", 0)],
            english={"orkney": ((3, 1, 0), (1,)), "mull": ((4, 2, 0), (2,))},
            england=england,
            hands={0: {"AC17": 1}},
            pool={0: {(WHITE, 1): 1}},
            control={"moray": 0},
        )
        s = play(s, "play AC17")  # with the Intrigue die: England -1, then Intrigue I
        return s.apply(s.chance_weights()[0][0])  # Intrigue's card draw

    s = envoy(11)
    assert done(s) and s.england == 10 and s.english == ()
    s = envoy(12)
    assert done(s) and s.england == 11 and set(armies(s)) == {"orkney", "mull"}


def test_an_upkeep_card_taking_the_track_to_ten_disbands_every_english_army(
    game: ClanFeudGame,
) -> None:
    s = at_war(
        game,
        [Task("upkeep", 0), Task("p3cards", 0)],
        english={"orkney": ((3, 1, 0), (1,))},
        england=12,
        hands={0: {"AC31": 1}},
    )
    s = play(s, "play AC31")
    assert s.england == 10 and s.english == ()


# ---------------------------------------------------------------------------------------
# E16: free troops into English-held land


def free_troops(
    game: ClanFeudGame, card: str, dice: dict[tuple[int, int], int], **kw: Any
) -> ClanFeudState:
    """Seat 0, holding ``card``, assigns a die; its castle in Banff holds an L1 army."""
    kw.setdefault("english", {"banff": ((3, 1, 0), (1,))})
    kw.setdefault("money", (0, 0))
    return at_war(
        game,
        [Task("assign", 0)],
        hands={0: {card: 1}},
        pool={0: dice},
        control={"banff": 0},
        castles=("banff",),
        **kw,
    )


def test_free_troops_alone_fight_an_english_army_at_once(
    game: ClanFeudGame,
) -> None:
    banff = tid(game, "banff")
    s = free_troops(game, "AC20", {(WHITE, 1): 1})
    s = play(s, "play AC20", "take 2 infantry")  # no £: the die buys no troop
    b = s.battle
    assert b is not None and b.owners == (0, ENGLAND) and b.attackers == (2, 0, 0)
    assert b.origin == -1 and s.troops_at(0, banff) == (0, 0, 0)
    # 2 against England's 5 + the castle's 2: England rolls, at most 2 + 3 dice
    assert s.tasks[-1] == Task("bhits", a=1, b=5)
    # one 1 and four 3s: a recruit falls, and all four of England's troops
    s = play(s, "hits 1/4")
    assert done(s) and s.troops_at(0, banff) == (1, 0, 0) and s.english == ()
    assert s.vp == (1, 0) and s.money == (2, 0) and s.england == 13
    invariant(s)


def test_free_artillery_takes_englands_castle_bonus_away(game: ClanFeudGame) -> None:
    open_iii = {0: ((MILITARY, 2), (MILITARY, 3))}
    s = free_troops(game, "AC22", {(WHITE, 3): 1}, uncovered=open_iii)
    s = play(s, "play AC22")  # one artillery, free; nothing to buy with £0
    b = s.battle
    assert b is not None and b.owners == (0, ENGLAND) and b.attackers == (0, 0, 1)
    s = play(s, "total 6")  # 6 against England's 5, no castle bonus: the recruits win
    assert s.tasks[-1] == Task("bhits", a=0, b=1)


def test_free_and_paid_recruits_attack_together(game: ClanFeudGame) -> None:
    s = free_troops(game, "AC21", {(WHITE, 1): 1}, money=(2, 0))
    s = play(s, "play AC21")  # one cavalry, free, whatever the slot's level
    assert s.battle is None and legal_texts(s) == [
        "take 0 infantry",
        "take 1 infantry",
        "take 2 infantry",
    ]
    s = play(s, "take 2 infantry")
    b = s.battle
    assert b is not None and b.attackers == (2, 1, 0) and s.money == (0, 0)


def test_free_troops_take_a_lone_king_in_english_land_only_by_winning(
    game: ClanFeudGame,
) -> None:
    banff = tid(game, "banff")
    s = free_troops(
        game,
        "AC20",
        {(WHITE, 1): 1},
        english={"banff": ((1, 0, 0), (1,))},
        king=banff,
        gold_out=True,
    )
    s = play(s, "play AC20", "take 2 infantry")
    assert s.regent == -1 and s.battle is not None and s.battle.king == -1
    # 2 against 1 + the castle's 2: England wins by 1 and rolls one die
    s = play(s, "hits 0/1")  # a 3: England loses its infantry
    assert done(s) and s.regent == 0 and s.troops_at(0, banff) == (2, 0, 0)
    assert s.english == () and s.vp == (1, 0) and s.money == (2, 0)


# ---------------------------------------------------------------------------------------
# E13: a bonus Income


def test_a_bonus_income_skips_english_held_land(game: ClanFeudGame) -> None:
    def rents(control: dict[str, int]) -> ClanFeudState:
        return at_war(
            game,
            [Task("p1cards", -1, 0, 0)],
            english={"banff": ((3, 1, 0), (1,))},
            hands={0: {"AC06": 1}},
            order=(0, 1),
            control=control,
            money=(0, 0),
        )

    s = play(rents({"banff": 0, "moray": 0}), "play AC06")
    assert s.money[0] == 1
    # every territory held by England: the card would change nothing
    assert legal_texts(rents({"banff": 0})) == ["pass"]


# ---------------------------------------------------------------------------------------
# Combat cards against England


def england_attacks(game: ClanFeudGame, hand: dict[str, int]) -> ClanFeudState:
    """The L2 in Buchan marches on seat 1's one infantry in Banff; seat 1 holds ``hand``."""
    return march(
        game,
        1,
        english={"buchan": ((4, 2, 0), (2,))},
        troops={(1, "banff"): (1, 0, 0)},
        control={"banff": 1},
        hands={1: hand},
    )


def test_only_the_clan_side_plays_a_card_and_a_cancel_has_nothing_to_cancel(
    game: ClanFeudGame,
) -> None:
    s = england_attacks(game, {"AC05": 1})
    assert s.phase.name == "bcards" and s.to_move == (1,)
    s = play(s, "card AC05")
    # revealed and discarded; England's 8 against 1 stands: at most 1 + 3 dice
    assert s.tasks[-1] == Task("bhits", a=0, b=4)
    assert s.hands[1][design(game, "AC05")] == 0 and s.discards[design(game, "AC05")] == 1


def test_a_clan_card_changes_a_battle_with_england_as_with_a_clan(game: ClanFeudGame) -> None:
    # "Rolled 2 = 3": England's winning dice turn their 2s into hits on England only
    s = play(england_attacks(game, {"AC28": 1}), "card AC28")
    assert s.tasks[-1] == Task("bhits", a=0, b=4)
    assert s.chance_weights() == game.hit_table(4, True)
    # +3 strength: 1 + 3 against 8, England's margin 4, still at most 1 + 3 dice
    s = play(england_attacks(game, {"AC08": 1}), "card AC08")
    assert s.tasks[-1] == Task("bhits", a=0, b=4)
    # -2 skulls: two 1s and two 3s; the two hits on seat 1's infantry cost it nothing
    s = play(england_attacks(game, {"AC17": 1}), "card AC17")
    s = play(s, "hits 2/2")
    assert s.troops_at(1, tid(game, "banff")) == (1, 0, 0)
    assert s.battle is not None and s.battle.attackers == (2, 2, 0)
    # +1 skull: England's one hit on the infantry, and one more on England's infantry
    s = play(england_attacks(game, {"AC09": 1}), "card AC09")
    s = play(s, "hits 4/0")
    assert done(s) and armies(s) == {"banff": ((3, 2, 0), (2,))}


def test_the_pictures_tell_the_war_from_the_track_not_the_last_phase_threes_record(
    game: ClanFeudGame,
) -> None:
    """``at_war`` records the last phase 3's judgement; a card or a defeat lowering the track
    to 10 in phase 2 makes it stale until the next phase 3. Both pictures tell the war from
    the track (the SVG header read the stale flag and said "at war" while the text screen
    said "at peace")."""
    s = at_war(game, [Task("assign", 0)], england=11, pool={0: {(WHITE, 1): 1}})
    s = attrs.evolve(s, at_war=True)  # as the last phase 3 judged it
    assert "England - at war" in s.svg(0) and "AT WAR" in s.render(0, 100)
    stale = attrs.evolve(s, england=10)  # as a phase-2 card taking the track to 10 leaves it
    assert stale.at_war
    assert "at war" not in stale.svg(0)
    assert "at peace" in stale.render(0, 100) and "AT WAR" not in stale.render(0, 100)
