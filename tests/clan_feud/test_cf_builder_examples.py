"""The Clan Feud rulebook's worked examples (part 1) that the rules tests pin, each written
again with the scenario builder ``game.position(...)`` and asserting the same outcome as
the original (named in each test's docstring). Two players, from the seeded start: seat 0
holds Moray, seat 1 the Lennox; a decision of seat 0 is put on top of the start's task
stack (``TASKS`` with one more task), so after it the game flows on as usual.
"""

from __future__ import annotations

import pytest

import clangames

TASKS = "[turn,-,0,0,0,[]],[phase3,-,0,0,0,[]],[phase2,-,1,0,0,[]]"
"""The start's stack beneath seat 0's first assignment: the rest of turn 1."""


@pytest.fixture(scope="module")
def game() -> clangames.Game:
    return clangames.load("clan_feud", players=2)


def texts(state: clangames.State) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def play(state: clangames.State, *moves: str) -> clangames.State:
    for move in moves:
        state = state.apply_text(move)
    return state


def test_a_die_goes_to_a_free_slot_of_its_level_or_lower(game: clangames.Game) -> None:
    """Assigning dice: a rolled 1 only to a level I slot, a 2 to level I or II, a 3 to any
    (the Feud column's level III slot is open from turn one). Twin of
    test_cf_rules.py::test_a_rolled_one_cannot_go_to_a_level_two_slot."""
    one = texts(game.position(pool=[["white1"], []]))
    assert "assign white 1 to feud I" in one
    assert not any(t.endswith((" II", " III")) for t in one)
    two = texts(game.position(pool=[["white2"], []]))
    assert {"assign white 2 to feud I", "assign white 2 to feud II"} <= set(two)
    assert not any(t.endswith(" III") for t in two)
    assert "assign white 3 to feud III" in texts(game.position(pool=[["white3"], []]))


def test_feud_level_two_raises_a_die_by_one_within_its_faces(game: clangames.Game) -> None:
    """Feud level II: a rolled 2 may become a 3; a black die (faces 1 and 2 only) showing
    2 cannot rise. Twin of test_cf_rules.py::test_feud_levels (level II) and
    ::test_black_die_cannot_rise_past_two_nor_one_to_three."""
    feud_2 = f"[{TASKS},[feud,0,2,0,0,[]]]"
    white = game.position(phase="feud@0", tasks=feud_2, pool=[["white2"], []])
    assert texts(white) == ["tokens", "raise white 2"]
    assert "pool=[[white3],[]]" in play(white, "raise white 2").to_position()
    black = game.position(phase="feud@0", tasks=feud_2, pool=[["black2"], []])
    assert texts(black) == ["tokens"]
    feud_3 = f"[{TASKS},[feud,0,3,0,0,[]]]"
    blacks = game.position(phase="feud@0", tasks=feud_3, pool=[["black1", "black2"], []])
    assert texts(blacks) == ["tokens", "raise black 1"]


def test_a_building_is_paid_for_once_and_frees_its_slot(game: clangames.Game) -> None:
    """Building: the slot's price is paid when the building goes to the board, and the slot
    it uncovers is free at once. Twin of
    test_cf_rules.py::test_build_prices_and_the_row_two_tower_house_from_level_one."""
    state = game.position(phase="build@0", tasks=f"[{TASKS},[build,0,1,0,0,[]]]", money=[9, 4])
    options = texts(state)
    assert "build build I-right" in options and "build income II" in options
    assert not any("III" in t for t in options)
    built = play(state, "build build II")
    position = built.to_position()
    assert "money=[0,4]" in position and "towers=[moray:1]" in position
    seat_0_covered = position.split(" covered=[[")[1].split("]")[0].split(",")
    assert "build.II" not in seat_0_covered and "build.III-left" in seat_0_covered


def test_an_army_moves_at_its_slowest_troops_speed(game: clangames.Game) -> None:
    """Moving: an army of one infantry and one cavalry moves one territory; a lone cavalry
    may go on after its first step. Twin of
    test_cf_audit_rules.py::test_an_army_moves_at_its_slowest_troops_speed and
    ::test_cavalry_after_one_step_may_not_enter_a_mountain."""
    move = f"[{TASKS},[move,0,1,0,0,[]]]"
    lennox = "[the_lennox.infantry*2,the_lennox.cavalry]"
    mixed = game.position(
        phase="move@0", tasks=move, troops=f"[[banff.infantry,banff.cavalry],{lennox}]"
    )
    after = play(mixed, "territory banff", "take 1 cavalry", "take 1 infantry", "territory moray")
    assert f"troops=[[moray.infantry,moray.cavalry],{lennox}]" in after.to_position()
    assert after.phase.name == "assign" and after.to_move == (1,)  # over after one step
    rider = game.position(phase="move@0", tasks=move, troops=f"[[banff.cavalry],{lennox}]")
    stepped = play(rider, "territory banff", "territory moray")
    # Moray's neighbours: Banff (the origin), Inverness, Badenoch (mountainous)
    assert texts(stepped) == ["stop", "territory inverness"]


def test_a_winning_english_army_rolls_at_most_the_losers_plus_three(game: clangames.Game) -> None:
    """The rulebook's England example: 2 infantry beaten by 2 cavalry + 4 infantry roll 5
    dice, not 6 (the losing troops + 3). Here seat 0's 2 infantry march from Moray into
    Banff, where England's level-2 army stands; England defends and wins the round. Twin of
    test_cf_england_war.py::test_the_rulebooks_dice_cap_example (England attacking there)."""
    start = game.position(
        phase="move@0",
        tasks=f"[{TASKS},[move,0,1,0,0,[]]]",
        troops="[[moray.infantry*2],[]]",
        controller="[moray:0]",
        english="[[banff,[4,2,0],[2]]]",
        england=14,
        track_start=14,
    )
    s = play(start, "territory moray", "take 2 infantry", "territory banff", "commit 0")
    assert s.is_chance
    # England (side 1) rolls: 5 dice, as the rulebook says, though it won by far more
    assert "[bhits,-,1,5,0,[]]" in s.to_position()
