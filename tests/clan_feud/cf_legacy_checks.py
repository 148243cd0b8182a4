"""Clan Feud's saved-state check as it was before its quick paths (the seats and the
board on whole tuples, no English checks without English armies, a task's a/b/c in one
comparison), frozen: the oracle the current check must agree with (the same verdict and
the same message for every state). Only the functions the speed-up rewrote are copied;
the helpers they call (unchanged) come from the module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clangames.clan_feud import observation as cf
from clangames.clan_feud.state import ENGLAND
from clangames.engine.codec import describe
from clangames.engine.errors import StateDecodeError
from clangames.engine.phases import CHANCE


def check_consistency(s: Any) -> None:
    """Clan Feud's ``check_consistency`` before the quick test of its seats and board."""
    from clangames.clan_feud.encoding import CAPS, highest_task_value
    from clangames.clan_feud.playing import MOD_FIELDS
    from clangames.clan_feud.rules import (
        EXISTS,
        HANDLERS,
        INITIAL_COVER,
        OPTIONS,
        RUN,
        SUPPLY,
        WEIGHTS,
    )

    game = s.game
    n = game.num_players
    size = game.board.size
    designs = len(game.deck.designs)

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    for field, seq, length in (
        ("order", s.order, n),
        ("money", s.money, n),
        ("feud", s.feud, n),
        ("vp", s.vp, n),
        ("covered", s.covered, n),
        ("filled", s.filled, n),
        ("pool", s.pool, n),
        ("hands", s.hands, n),
        ("troops", s.troops, n),
        ("city_dice", s.city_dice, n),
        ("controller", s.controller, size),
        ("site", s.site, size),
        ("towers", s.towers, size),
        ("moved", s.moved, 3 * size),
        ("deck", s.deck, designs),
        ("discards", s.discards, designs),
    ):
        if len(seq) != length:
            fail(field, f"expected {length} entries, got {len(seq)}")
    if sorted(s.order) != list(range(n)):
        fail("order", f"expected an order of the seats 0..{n - 1}, got {s.order}")
    cap = CAPS["amount"]
    for p in range(n):
        for field, what in (("money", "pounds"), ("feud", "feud tokens")):
            value = getattr(s, field)[p]
            if value < 0:
                fail(f"{field}[{p}]", f"{what} are never negative, got {value}")
            if value > cap:
                fail(f"{field}[{p}]", f"{what} stay within 0..{cap}, got {value}")
        if not -cap <= s.vp[p] <= cap:
            fail(f"vp[{p}]", f"victory points stay within -{cap}..{cap}, got {s.vp[p]}")
        if s.covered[p] & ~INITIAL_COVER:
            fail(f"covered[{p}]", "only the set-up's covered slots can be covered")
        if s.filled[p] & ~EXISTS or s.filled[p] & s.covered[p]:
            fail(f"filled[{p}]", "a die sits only on an existing, uncovered slot")
        for column in range(1, 5):
            if s.covered[p] >> (5 * column + 2) & 1 and (
                not s.covered[p] >> (5 * column + 3) & 1 or not s.covered[p] >> (5 * column + 4) & 1
            ):
                fail(f"covered[{p}]", f"column {column}'s III slot is bought before its II")
        if len(s.pool[p]) != 21 or min(s.pool[p]) < 0 or s.pool[p][5]:
            fail(f"pool[{p}]", "21 counts >= 0, and a black die never shows 3")
        if max(s.pool[p]) > CAPS["dice"]:
            fail(f"pool[{p}]", f"at most {CAPS['dice']} dice of one colour and value")
        if len(s.troops[p]) != 3 * size or min(s.troops[p]) < 0:
            fail(f"troops[{p}]", f"expected {3 * size} counts >= 0")
        for k in range(3):
            total = sum(s.troops[p][k::3])
            if s.battle is not None and s.battle.owners[0] == p:
                total += s.battle.attackers[k]
            if total > SUPPLY[k]:
                fail(f"troops[{p}]", f"{total} troops of type {k} exceed the supply {SUPPLY[k]}")
        if len(s.hands[p]) != designs or min(s.hands[p]) < 0:
            fail(f"hands[{p}]", "card counts per design, never negative")
        if not 0 <= s.city_dice[p] < 1 << size:
            fail(f"city_dice[{p}]", f"expected a bitmask of the {size} territories")
    for d, design in enumerate(game.deck.designs):
        total = s.deck[d] + s.discards[d] + sum(h[d] for h in s.hands)
        if total != design.copies or s.deck[d] < 0 or s.discards[d] < 0:
            fail("deck", f"design {design.id} has {total} cards, not {design.copies}")
    for t in range(size):
        if not -1 <= s.controller[t] < n:
            fail(f"controller[{t}]", f"expected a seat or -1, got {s.controller[t]}")
        if not 0 <= s.site[t] <= 2 or s.towers[t] < 0 or (s.site[t] > 0) + s.towers[t] > 2:
            fail(f"towers[{t}]", "at most 2 buildings, one castle-or-city")
        holders = [p for p in range(n) if any(s.troops[p][3 * t : 3 * t + 3])]
        if len(holders) > 1:
            fail(f"troops[{t}]", f"seats {holders} all have armies in territory {t}")
    if not 0 <= s.king < size or not -1 <= s.regent < n:
        fail("king", "King James stands in a territory; the regent is a seat or -1")
    if s.regent >= 0:
        b = s.battle
        with_attackers = b is not None and b.king == 0 and b.owners[0] == s.regent
        if not with_attackers and not any(s.troops[s.regent][3 * s.king : 3 * s.king + 3]):
            fail("regent", "the regent's army is not with King James")
    elif s.gold_out is False and s.king != game.board.king_start:
        fail("king", "King James has not moved before his first claim")
    if not 0 <= s.england <= game.england.last_step:
        fail("england", f"the track runs 0..{game.england.last_step}")
    if len(set(s.events)) != len(s.events) or any(
        not 0 <= e < len(game.events.regular) for e in s.events
    ):
        fail("events", "distinct regular events")
    if len(s.events) > game.deck_size:
        fail("events", f"at most {game.deck_size} regular events are drawn")
    if s.passed >> n:
        fail("passed", "a bitmask of the seats")
    for taker, victim, d in s.known:
        if not (0 <= taker < n and 0 <= victim < n and taker != victim and 0 <= d < designs):
            fail(
                "known", f"expected (taker, victim, design) of two seats, got {(taker, victim, d)}"
            )
        if not s.hands[taker][d]:
            fail("known", f"seat {taker} is known to hold design {d} but does not")
    if s.mods and len(s.mods) != MOD_FIELDS:
        fail("mods", f"expected no modifiers or {MOD_FIELDS}, got {len(s.mods)}")
    if s.mods and not 0 <= s.mods[0] < n:
        fail("mods", "a card's modifiers belong to a seat")
    if s.upkeep_cut and (len(s.upkeep_cut) != n or min(s.upkeep_cut) < 0):
        fail("upkeep_cut", f"expected {n} cuts >= 0")
    _check_english(s, fail)
    if s.battle is not None:
        cf._check_battle(s, s.battle, fail)
    kind = s.phase.name
    if not s.tasks:
        if kind != "over":
            fail("tasks", "only a finished game has no tasks")
        # checks added since the freeze (test_cf_finished_state_check.py, and armies
        # that hold their territories): the same in both, as the module's helpers
        cf._check_mods(s, fail)
        cf._check_moved(s, fail)
        if s.battle is not None:
            fail("battle", "a battle exists exactly while battle tasks are on the stack")
        cf._check_armies_hold(s, fail)
        return
    top = s.tasks[-1]
    if kind != top.kind:
        fail("phase", f"the phase {kind!r} is not the top task {top.kind!r}")
    top_value = highest_task_value(game)
    if len(s.tasks) > CAPS["tasks"]:
        fail("tasks", f"at most {CAPS['tasks']} tasks are ever pending, got {len(s.tasks)}")
    for i, task in enumerate(s.tasks):
        if len(task.data) > CAPS["task_data"]:
            fail(
                f"tasks[{i}].data",
                f"a task keeps at most {CAPS['task_data']} values, got {len(task.data)}",
            )
        values = (task.a, task.b, task.c, *task.data)
        if min(values) < -1 or max(values) > top_value:
            fail(
                f"tasks[{i}]",
                f"a task's counters and data run -1..{top_value}, got {describe(values, 120)}",
            )
        if task.kind not in HANDLERS:
            fail(f"tasks[{i}].kind", f"expected one of the rules' tasks, got {describe(task.kind)}")
        if not -1 <= task.player < n:
            fail(f"tasks[{i}].player", f"expected a seat or -1, got {task.player}")
    _check_tasks(s, fail)
    # a card played with a die leaves its modifiers until its 'cardend' task clears them
    ends = tuple(t.player for t in s.tasks if t.kind == "cardend")
    if s.mods[:1] != ends:
        fail(
            "mods",
            "expected a card's modifiers (its seat first) exactly while its 'cardend' task"
            f" is pending; got modifiers of seat(s) {s.mods[:1]} and 'cardend' of {ends}",
        )
    cf._check_moved(s, fail)
    cf._check_armies_hold(s, fail)  # added since the freeze, as in the module
    automatic = top.kind in RUN and top.kind not in OPTIONS and top.kind not in WEIGHTS
    if automatic and top.kind not in cf.SEALED_PHASES:
        fail("tasks", f"an automatic task {top.kind!r} cannot wait on top")
    if s.phase.is_chance != (top.kind in WEIGHTS and s.to_move == (CHANCE,)):
        fail("phase", f"the {top.kind!r} task and a chance phase disagree")
    if top.kind in OPTIONS and s.to_move != (top.player,):
        fail("phase.to_move", f"the {top.kind!r} decision belongs to seat {top.player}")
    if (s.battle is not None) != cf._in_battle(s):
        fail("battle", "a battle exists exactly while battle tasks are on the stack")
    cf._check_options(s, top, fail)


def _check_english(s: Any, fail: Callable[[str, str], None]) -> None:
    """English armies: on known territories, one a territory, in order, on no clan army's
    ground, of known level tokens, within England's supply, and only while at war."""
    from clangames.clan_feud.war import english_total

    track = s.game.england
    size = s.game.board.size
    places = [a.territory for a in s.english]
    recruiting = {(task.player, task.b) for task in s.tasks if task.kind == "recruit"}
    if places != sorted(set(places)) or any(not 0 <= t < size for t in places):
        fail("english", "at most one English army a territory, by ascending territory")
    for i, army in enumerate(s.english):
        t = army.territory
        if min(army.troops) < 0 or not any(army.troops):
            fail(f"english[{i}]", "an English army has troops, never a negative count")
        if not army.tokens or any(not 1 <= k <= len(track.levels) for k in army.tokens):
            fail(f"english[{i}]", f"level tokens are levels 1..{len(track.levels)}")
        if len(army.tokens) > sum(track.supply):
            fail(f"english[{i}]", f"an army carries at most {sum(track.supply)} level tokens")
        # a recruit into t in progress gathers its troops there, then they attack
        if any(
            any(row[3 * t : 3 * t + 3]) and (p, t) not in recruiting
            for p, row in enumerate(s.troops)
        ):
            fail(f"english[{i}]", "a clan army stands in an English army's territory")
    b = s.battle
    if b is not None and b.owners[0] == ENGLAND and not b.levels:
        fail("battle.levels", "an attacking English army carries its level tokens")
    totals = english_total(s)
    if any(totals[k] > track.supply[k] for k in range(3)):
        fail("english", f"England has {totals} troops on the board, beyond {track.supply}")
    at_war = track.at_war(s.england)
    if not at_war and (s.english or (b is not None and ENGLAND in b.owners)):
        fail("english", "English armies stand only while England is at war")


def _check_tasks(s: Any, fail: Callable[[str, str], None]) -> None:
    """``observation._check_tasks`` before its a/b/c test took one chained comparison.

    Each task's fields within what its kind holds (:data:`TASK_FIELDS`, then
    :data:`_TASK_CHECKS`), and the stack's simple shape: ``turn`` and ``final`` only at
    the bottom (``final`` alone), a step of a decision over the task that pushed it
    (:data:`UNDER`), no kind of :data:`ONCE` twice, a battle's steps those of one round
    on top, each seat's upkeep once."""
    ranges = cf._ranges(s)
    n = s.game.num_players
    tasks = s.tasks
    seen: set[str] = set()
    for i, task in enumerate(tasks):
        kind = task.kind
        player, ((alo, ahi), (blo, bhi), (clo, chi), (llo, lhi), (dlo, dhi)) = ranges[kind]
        data = task.data
        where = f"tasks[{i}]"
        if player == "none" and task.player != -1:
            fail(f"{where}.player", f"a {kind!r} task concerns nobody (-1), got {task.player}")
        if player == "seat" and not 0 <= task.player < n:
            fail(
                f"{where}.player",
                f"a {kind!r} task belongs to a seat 0..{n - 1}, got {task.player}",
            )
        for field, value, lo, hi in (
            ("a", task.a, alo, ahi),
            ("b", task.b, blo, bhi),
            ("c", task.c, clo, chi),
        ):
            if not lo <= value <= hi:
                fail(f"{where}.{field}", f"a {kind!r} task's {field} runs {lo}..{hi}, got {value}")
        if not llo <= len(data) <= lhi:
            fail(f"{where}.data", f"a {kind!r} task keeps {llo}..{lhi} values, got {len(data)}")
        if data and not (dlo <= min(data) and max(data) <= dhi):
            fail(
                f"{where}.data",
                f"a {kind!r} task's values run {dlo}..{dhi}, got {describe(data, 120)}",
            )
        if i and kind in ("turn", "final"):
            fail(f"{where}.kind", f"a {kind!r} task only ever sits at the bottom")
        below = cf.UNDER.get(kind)
        if below is not None and (i == 0 or tasks[i - 1].kind not in below):
            fail(f"{where}.kind", f"a {kind!r} task sits over {' or '.join(sorted(below))}")
        if kind in cf.ONCE:
            if kind in seen:
                fail(f"{where}.kind", f"at most one {kind!r} task is pending")
            seen.add(kind)
        check = cf._TASK_CHECKS.get(kind)
        if check is not None:
            check(s, i, task, fail)
    if tasks[0].kind == "final" and len(tasks) > 1:
        fail("tasks[0].kind", "the final count is the only task left")
    battle = [t for t in tasks if t.kind in cf.BATTLE_TASKS]
    if battle:
        ranks = [
            cf._ROUND_RANK.get(t.kind, 0) - (t.kind in ("bloss", "bart")) * t.a for t in battle
        ]
        tie = [(t.kind, t.a) for t in battle[4:]] == [("bhits", 1), ("bhits", 0)]
        in_order = ranks == list(range(len(ranks))) or (tie and ranks == [0, 1, 2, 3, 4, 4])
        on_top = all(t.kind in cf.BATTLE_TASKS for t in tasks[-len(battle) :])
        if not in_order or not on_top or (len(battle) > 1 and battle[0].kind != "bdeclare"):
            fail(
                "tasks",
                "a battle's steps are what is left of one round, in order, on top of the"
                f" stack; got {[t.kind for t in battle]}",
            )
    upkeeps = [t.player for t in tasks if t.kind == "upkeep"]
    if len(set(upkeeps)) != len(upkeeps):
        fail("tasks", "each seat pays its upkeep once a turn")
