"""Clan Feud's own state machine on the public GameMachine: play with drawn choices and
seeded runs from five start tables, the kernel's checks after every move, the game's
invariants (England's included) on every state and a rule ledger around every move.

Every state must pass :func:`cf_rules_helpers.invariant` (troops within supply per type,
buildings, the 50 action cards and sealed commitments, armies, the King), its own
consistency check and :func:`check_english`. Across each step the machine keeps a ledger:
one step (an action and the automatic work after it) runs many rules, so the step runs
(GameMachine's ``apply_move``) with each rule's handler wrapped to record the facts before
and after it, and ``check_move`` checks each handler's change against what that rule may
do:

- £ moves only in Income, the Income roll, Intrigue, Build, Recruit, upkeep and the effect
  programs of events and objectives, by the rulings' amounts (£1/£2 a territory, the
  black dice's total, the Intrigue level, the row's price, the troops' prices, exactly the
  upkeep due);
- VP moves only at Intrigue (2/3/3), in effect programs and at the final count, which is
  checked against the rulebook's table worked out here from the board;
- feud tokens move only as the rules say: +level for the Feud benefit, -committed at a
  battle's reveal, upkeep payments, effect programs, and otherwise exactly +1 per building
  of a territory lost to a claim, +1 for losing the King and +1 per casualty;
- buildings are only added, one at a time, by a Build's placement, on the builder's land;
  control changes only when an army comes to rest or a battle ends, and never back to free;
  troops appear only at set-up and recruitment (exactly the recruits) and vanish only in
  battles, upkeep and effect programs; hands grow only by drawing and shrink only at a
  battle's reveal and by an effect's discard;
- the handlers account for every change of £, VP and tokens in the step.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import rule

from clangames.clan_feud import ClanFeudState, rules
from clangames.clan_feud.actions import BuildSlot, Take, Total, Word
from clangames.clan_feud.military import BATTLE_TASKS
from clangames.clan_feud.playing import MOD_DISCOUNT, MOD_PLAYER
from clangames.clan_feud.state import Task
from clangames.clan_feud.war import english_total
from clangames.engine.state import State
from clangames.testing import GameMachine

from .cf_rules_helpers import invariant as check
from .cf_rules_helpers import load, position, tid, troop_totals

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"
EXAMPLES = 1500 if SOAK else 150

PRICE = (0, 3, 9, 12, 12)
"""What each board slot's cover costs: the row's price (rulings, *Player board*)."""
RECRUIT_COST = (1, 3, 8)
INTRIGUE_VP = (2, 3, 3)
FINAL_CITY, FINAL_CASTLE, FINAL_TOWER, FINAL_KING = 4, 3, 2, 5
"""The final count's VP (rulings, *King James Comes of Age*); 1 a territory, 1 per full
£5, -1 per feud token and per troop."""

MONEY_RULES = frozenset(
    {"income", "income_roll", "intrigue", "build", "recruit", "upkeep", "upkeep_pay", "prog"}
    | {"steal"}
)
PLAY_RULES = frozenset({"p1order", "p1cards", "p3cards", "assign"})
"""Where an action card is played for its action (part 3): it leaves the hand."""
VP_RULES = frozenset({"intrigue", "prog", "final"})
CONTROL_RULES = frozenset({"start", "step", *BATTLE_TASKS})
REGENT_RULES = frozenset({"step", "recruit", "free_recruit", "upkeep", "prog", *BATTLE_TASKS})
TROOP_LOSS_RULES = frozenset({"upkeep", "prog", *BATTLE_TASKS})
ENGLAND = -1


@attrs.frozen
class Facts:
    """What the ledger compares across one rule's handler."""

    money: tuple[int, ...]
    vp: tuple[int, ...]
    feud: tuple[int, ...]
    controller: tuple[int, ...]
    site: tuple[int, ...]
    towers: tuple[int, ...]
    regent: int
    troops: tuple[tuple[int, int, int], ...]
    """Per seat, its troops of each type (an attacking army included)."""
    hands: tuple[int, ...]
    """Per seat, its cards in hand."""
    spent: tuple[int, int]
    owners: tuple[int, int]
    mods: tuple[int, ...]
    upkeep_cut: tuple[int, ...]
    england: int = 0
    """The England track (part 2 below: English armies)."""
    english_land: tuple[int, ...] = ()
    english_troops: int = 0
    """England's troops on the board, an attacking army included."""

    @classmethod
    def of(cls, w: Any) -> Facts:
        n = len(w.money)
        b = w.battle
        return cls(
            money=tuple(w.money),
            vp=tuple(w.vp),
            feud=tuple(w.feud),
            controller=tuple(w.controller),
            site=tuple(w.site),
            towers=tuple(w.towers),
            regent=w.regent,
            troops=tuple(troop_totals(w, p) for p in range(n)),
            hands=tuple(sum(h) for h in w.hands),
            spent=b.spent if b is not None else (0, 0),
            owners=b.owners if b is not None else (-1, -1),
            mods=tuple(w.mods),
            upkeep_cut=tuple(w.upkeep_cut),
            england=w.england,
            english_land=tuple(a.territory for a in w.english),
            english_troops=sum(english_total(w)),
        )


@attrs.frozen
class Call:
    """One rule's handler at work: its task kind, task, action (None for automatic work)
    and the facts before and after."""

    kind: str
    task: Task
    action: Any
    before: Facts
    after: Facts


@contextmanager
def ledger() -> Iterator[list[Call]]:
    """Within the block, every rule handler that runs or applies records a :class:`Call`."""
    log: list[Call] = []

    def wrap_run(kind: str, run: Callable[[Any, Task], bool]) -> Callable[[Any, Task], bool]:
        def traced(w: Any, task: Task) -> bool:
            before = Facts.of(w)
            done = run(w, task)
            log.append(Call(kind, task, None, before, Facts.of(w)))
            return done

        return traced

    def wrap_apply(
        kind: str, apply: Callable[[Any, Task, Any, int], None]
    ) -> Callable[[Any, Task, Any, int], None]:
        def traced(w: Any, task: Task, action: Any, player: int) -> None:
            before = Facts.of(w)
            apply(w, task, action, player)
            log.append(Call(kind, task, action, before, Facts.of(w)))

        return traced

    handlers, applies = dict(rules.HANDLERS), dict(rules.APPLY)
    for kind, (run, weights, together, options, ask, apply) in handlers.items():
        rules.HANDLERS[kind] = (
            wrap_run(kind, run) if run is not None else None,
            weights,
            together,
            options,
            ask,
            wrap_apply(kind, apply) if apply is not None else None,
        )
    for kind, apply in applies.items():
        rules.APPLY[kind] = wrap_apply(kind, apply)
    try:
        yield log
    finally:
        rules.HANDLERS.update(handlers)
        rules.APPLY.update(applies)


def final_count(s: ClanFeudState, p: int) -> int:
    """The rulebook's final count for seat ``p``, worked out from the board (not from the
    event data the game evaluates)."""
    vp = 0
    for t, owner in enumerate(s.controller):
        if owner == p:
            vp += 1 + s.towers[t] * FINAL_TOWER
            vp += {0: 0, 1: FINAL_CITY, 2: FINAL_CASTLE}[s.site[t]]
    if s.regent == p:
        vp += FINAL_KING
    return vp + s.money[p] // 5 - s.feud[p] - sum(troop_totals(s, p))


def card_discount(facts: Facts, p: int) -> int:
    """The discount an action card left on seat ``p``'s current Build or recruit."""
    mods = facts.mods
    return mods[MOD_DISCOUNT] if mods and mods[MOD_PLAYER] == p else 0


def upkeep_due(troops: tuple[int, int, int]) -> int:
    return troops[0] + 2 * troops[1] + 4 * troops[2]


def check_call(call: Call, after_state: ClanFeudState) -> None:
    """Assert that one handler changed only what its rule may change, by its amounts."""
    kind, task, action, before, after = call.kind, call.task, call.action, call.before, call.after
    n = len(before.money)
    seats = range(n)
    dm = [after.money[q] - before.money[q] for q in seats]
    dv = [after.vp[q] - before.vp[q] for q in seats]
    df = [after.feud[q] - before.feud[q] for q in seats]
    where = f"{kind} {task} {action}"
    p = task.player
    others = [q for q in seats if q != p]

    # England (part 2): a battle with England pays the clan that wiped its army out the
    # levels' VP and £ (£2 a VP in the bundled table) and moves the track back by as many
    # steps (also when that clan fell too: then nothing is paid); only events, their
    # programs and such battles move the track; English troops appear only by spawning
    england_battle = kind in BATTLE_TASKS and ENGLAND in before.owners
    back = before.england - after.england
    if england_battle:
        assert all(dv[q] >= 0 and dm[q] == 2 * dv[q] for q in seats), f"{where}: {dv} {dm}"
        assert back >= 0 and sum(dv) in (0, back), f"{where}: VP {dv}, track back {back}"
    elif kind not in ("prog", "phase3"):
        assert not back, f"{where} moved the England track {-back}"
    if kind != "espawn":
        assert after.english_troops <= before.english_troops, f"{where} added English troops"

    # £
    if kind not in MONEY_RULES and not england_battle:
        assert not any(dm), f"£ moved by {where}: {dm}"
    elif kind == "income" and action is None:
        level = task.a
        land = sum(
            1 for t, c in enumerate(before.controller) if c == p and t not in before.english_land
        )
        want = 0 if level == 2 else land * (1 if level == 1 else 2)
        assert dm[p] == want, f"Income {level} on {land} territories paid {dm[p]}, not {want}"
    elif kind == "income_roll":
        assert isinstance(action, Total) and task.a <= action.k <= 2 * task.a, where
        assert dm[p] == action.k, f"the black dice rolled {action.k}, income {dm[p]}"
    elif kind == "intrigue":
        assert dm[p] == task.a, f"Intrigue {task.a} paid £{dm[p]}"
        assert dv[p] == INTRIGUE_VP[task.a - 1], f"Intrigue {task.a} gave {dv[p]} VP"
    elif kind == "build":
        want = -PRICE[action.slot] if isinstance(action, BuildSlot) else 0
        want = min(0, want + card_discount(before, p))
        assert dm[p] == want, f"{where} cost £{-dm[p]}, not £{-want}"
    elif kind == "recruit":
        want = -action.count * RECRUIT_COST[action.troop] if isinstance(action, Take) else 0
        want = min(0, want + card_discount(before, p))
        assert dm[p] == want, f"{where} cost £{-dm[p]}, not £{-want}"
    elif kind == "steal" and action is not None:  # E8: £ from the victim to the taker
        victim = action.seat
        want = 0 if task.a else min(task.b, before.money[victim])
        assert dm[p] == -dm[victim] == want, where
        assert not any(dm[q] for q in seats if q not in (p, victim)), where
    if kind in ("income", "income_roll", "intrigue", "build", "recruit", "upkeep", "upkeep_pay"):
        assert not any(dm[q] for q in others), f"{where} moved another seat's £: {dm}"

    # VP
    if kind not in VP_RULES and not england_battle:
        assert not any(dv), f"VP moved by {where}: {dv}"
    elif kind == "intrigue":
        assert not any(dv[q] for q in others), f"{where} gave another seat VP: {dv}"
    elif kind == "final":
        for q in seats:
            assert dv[q] == final_count(after_state, q), f"seat {q}'s final count: {dv[q]}"

    # troops
    for q in seats:
        for k in range(3):
            change = after.troops[q][k] - before.troops[q][k]
            if (
                kind in ("recruit", "free_recruit")
                and q == p
                and isinstance(action, Take)
                and k == action.troop
            ):
                assert change == action.count, f"{where} added {change} troops"
            elif kind == "start":
                assert change >= 0, where
            elif kind in TROOP_LOSS_RULES:
                assert change <= 0, f"{where} gave seat {q} troops of type {k}"
            else:
                assert change == 0, f"{where} changed seat {q}'s troops of type {k}"

    # buildings: never removed; one at a time by a placement, on the builder's land
    for t in range(len(before.site)):
        assert after.site[t] >= before.site[t] and after.towers[t] >= before.towers[t], (
            f"{where} removed a building from territory {t}"
        )
    added = [
        t
        for t in range(len(before.site))
        if (after.site[t], after.towers[t]) != (before.site[t], before.towers[t])
    ]
    if kind == "place" or (kind == "th1" and added):
        assert len(added) == 1 and before.controller[added[0]] == p, f"{where} built {added}"
    elif kind == "start":
        t = action.territory
        assert added == [t] and after.site[t] == 2, f"{where} built {added}"
    else:
        assert not added, f"{where} built in {added}"

    # control: set when an army comes to rest or a battle ends; never lost to nobody
    lost = [t for t in range(len(before.controller)) if after.controller[t] != before.controller[t]]
    if kind not in CONTROL_RULES:
        assert not lost, f"{where} changed the control of {lost}"
    assert all(after.controller[t] >= 0 for t in lost), f"{where} freed a territory"
    if kind not in REGENT_RULES:
        assert after.regent == before.regent, f"{where} moved the King from {before.regent}"

    # hands: drawn into, and emptied only by a reveal or an effect's discard
    for q in seats:
        change = after.hands[q] - before.hands[q]
        if kind == "draw":
            assert change == (1 if q == p and action is not None else 0), where
        elif kind in PLAY_RULES and type(action).__name__ == "PlayAction":
            assert change == (-1 if q == p else 0), f"{where}: a card play moved {change} cards"
        elif kind == "steal_card" and action is not None:
            moved = 1 if q == p else -1 if q == task.a else 0
            assert change == moved, f"{where}: seat {q}'s hand changed by {change}"
        elif kind in ("breveal", "prog"):
            assert change <= 0, f"{where} gave seat {q} cards"
        else:
            assert change == 0, f"{where} changed seat {q}'s hand"

    # feud tokens
    if kind == "feud":
        want = task.a if isinstance(action, Word) and action.word == "tokens" else 0
        assert df[p] == want and not any(df[q] for q in others), f"{where}: tokens {df}"
    elif kind == "breveal":
        for side, q in enumerate(after.owners):
            if q >= 0:
                assert df[q] == -after.spent[side], f"seat {q} spent {after.spent[side]}: {df}"
        assert not any(df[q] for q in seats if q not in after.owners), where
    elif kind in ("upkeep", "upkeep_pay"):
        king_lost = int(before.regent == p != after.regent)
        paid_feud = king_lost - df[p]
        assert dm[p] <= 0 and paid_feud >= 0, f"{where}: £ {dm[p]}, tokens {df[p]}"
        if dm[p] or paid_feud:
            cut = before.upkeep_cut[p] if before.upkeep_cut else 0
            due = max(0, upkeep_due(after.troops[p]) - cut)
            assert -dm[p] + paid_feud == due, f"{where} paid {-dm[p]}+{paid_feud}, due {due}"
        assert not any(df[q] for q in others), f"{where}: tokens {df}"
    elif kind != "prog":
        for q in seats:
            claims = sum(
                (before.site[t] > 0) + before.towers[t]
                for t in range(len(before.controller))
                if before.controller[t] == q != after.controller[t]
            )
            king_lost = int(before.regent == q != after.regent)
            casualties = sum(before.troops[q]) - sum(after.troops[q])
            want = claims + king_lost + (casualties if kind in BATTLE_TASKS else 0)
            assert df[q] == want, (
                f"{where}: seat {q} gained {df[q]} tokens, not {claims} for buildings lost "
                f"+ {king_lost} for the King + {casualties} casualties"
            )


def check_english(s: ClanFeudState) -> None:
    """England's invariants: its troops within its supply (16/8/2), no English army while
    the track is at 10 or less, at most one English army a territory."""
    totals = english_total(s)
    assert all(totals[k] <= (16, 8, 2)[k] for k in range(3)), f"England has {totals}"
    b = s.battle
    if s.england <= 10:
        assert not s.english and (b is None or ENGLAND not in b.owners), "English in peace"
    places = [a.territory for a in s.english]
    assert len(places) == len(set(places)), f"two English armies share a territory: {places}"


TABLES = ("set-up", "skirmish", "attacking king", "defending king", "around the king")
"""The five start tables: the set-up, and four hand-made positions where two clans' armies
stand side by side, the King with neither, the attacker or the defender, or alone between
them, so battles and claims happen (random play from the set-up seldom meets)."""


def start_table(players: int, table: str, war: bool) -> ClanFeudState:
    """The state a run starts from. ``war``: the England track starts at 10, so English
    armies spawn, march and fight."""
    game = load(players, england_start=10) if war else load(players)
    if table == "around the king":
        # both clans beside the lone King, on built land (claims pay tokens, the first
        # claim of him brings the gold die); seat 0 moves. (Only the acting seat may have a
        # move task: one left to a seat whose armies all fell has no option, a table play
        # never reaches.)
        state = position(
            game,
            [Task("move", 0, 3)],
            troops={(0, "lothian"): (4, 2, 1), (1, "edinburgh"): (3, 1, 1)},
            control={"lothian": 0, "edinburgh": 1, "linlithgow": 1},
            towers={"lothian": 1, "edinburgh": 1, "linlithgow": 2},
            feud=(2,) * players,
            hands={0: {"AC10": 1}, 1: {"AC02": 1, "AC11": 1}},
        )
    elif table != "set-up":
        # the King with seat 0's army (attacking) or seat 1's (defending)
        king = {"attacking king": (0, "moray"), "defending king": (1, "inverness")}
        regent, where = king.get(table, (-1, ""))
        fields: dict[str, Any] = {}
        if regent >= 0:
            fields = {"regent": regent, "king": tid(game, where), "gold_out": True}
        state = position(
            game,
            [Task("move", 0, 3)],
            troops={(0, "moray"): (5, 3, 1), (1, "inverness"): (4, 2, 1)},
            control={"moray": 0, "inverness": 1, "loch_ness": 1},
            feud=(3,) * players,
            hands={0: {"AC10": 1, "AC11": 1}, 1: {"AC02": 1, "AC01": 1}},
            **fields,
        )
    else:
        state = game.initial_state()
    assert isinstance(state, ClanFeudState)
    return state


STARTS = st.builds(
    start_table,
    players=st.sampled_from([2, 3, 4, 5]),
    table=st.sampled_from(TABLES),
    war=st.booleans(),
)


def state_invariants(state: State) -> None:
    """The game's invariants, its own consistency check and England's."""
    assert isinstance(state, ClanFeudState)
    check(state)
    state.check_consistency()
    check_english(state)


class ClanFeudMachine(GameMachine):
    """GameMachine's play (drawn choices, seeded ``jump`` runs, a new game at the end) from
    one of the five start tables, each move applied under the ledger and its handlers'
    calls checked. A skirmish (a table, ended by its sentinel decision) goes on with a new
    game from the set-up, as GameMachine does after any end."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[Call] = []
        self.steps = 0
        self.kinds: set[str] = set()
        self.skirmish = False

    # GameMachine's two playing rules with this machine's bounds: bursts of up to 25 drawn
    # choices, and seeded runs of 25, 100 or 400 moves (a third of them long enough to
    # finish a game, which GameMachine's evenly drawn lengths reach less often)
    @rule(choices=st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=25))
    def play(self, choices: list[int]) -> None:
        """Up to 25 moves, each option (chance outcomes too) drawn by Hypothesis."""
        super().play(choices)

    @rule(seed=st.integers(min_value=0, max_value=2**32 - 1), steps=st.sampled_from([25, 100, 400]))
    def jump(self, steps: int, seed: int) -> None:
        """Up to ``steps`` moves of seeded random play, to reach deep into games that drawn
        choices seldom finish. A skirmish ends within a few moves, so the run goes on into
        a new game from the set-up (:meth:`play_on`)."""
        super().jump(steps, seed)

    def play_on(self) -> bool:
        """Only a skirmish is followed by a new game: one whole game a run keeps the run's
        length (a game from the set-up is some hundreds of moves)."""
        return self.skirmish

    def apply_move(self, before: State, action: Any, player: int) -> State:
        """Apply the move with every rule handler traced into ``self.calls``."""
        with ledger() as calls:
            after = super().apply_move(before, action, player)
        self.calls = list(calls)
        self.steps += 1
        return after

    def check_move(self, before: State | None, after: State) -> None:
        """A new game notes whether it is a skirmish; a move gets the ledger's checks."""
        assert isinstance(after, ClanFeudState)
        if before is None:
            self.calls = []
            self.skirmish = (
                self.start_position is not None
                and self.start_position != after.game.initial_state().to_position()
            )
            return
        assert isinstance(before, ClanFeudState)
        self.check_step(before, after)

    def teardown(self) -> None:
        """Report how far the runs went (shown by --hypothesis-show-statistics)."""
        super().teardown()
        event(f"steps: {self.steps // 50 * 50}+")
        shown = {"bcards", "breveal", "final", "upkeep_pay", "prog", "espawn", "emove"}
        shown |= {"the King changed hands", "a claim paid tokens"}
        for kind in sorted(self.kinds & shown):
            event(f"reached {kind}")

    def check_step(self, before: ClanFeudState, after: ClanFeudState) -> None:
        """Every handler of the last move within its rule, and nothing moved outside one."""
        for call in self.calls:
            self.kinds.add(call.kind)
            if call.before.regent != call.after.regent:
                self.kinds.add("the King changed hands")
            if call.before.controller != call.after.controller and sum(call.after.feud) > sum(
                call.before.feud
            ):
                self.kinds.add("a claim paid tokens")
            check_call(call, after)
        for name in ("money", "vp", "feud"):
            now, then = getattr(after, name), getattr(before, name)
            total = [a - b for a, b in zip(now, then, strict=True)]
            accounted = [0] * len(total)
            for call in self.calls:
                for q, (a, b) in enumerate(
                    zip(getattr(call.after, name), getattr(call.before, name), strict=True)
                ):
                    accounted[q] += a - b
            assert total == accounted, f"{name} moved outside the rules: {total} vs {accounted}"
        if after.is_terminal and not self.skirmish:  # a skirmish ends at its sentinel
            assert self.calls and self.calls[-1].kind == "final", "the game ended without a count"
        assert after.turn >= before.turn
        assert after.gold_out or not before.gold_out, "the gold die went back"
        assert after.events[: len(before.events)] == before.events, "an event was undrawn"
        assert 0 <= after.england <= 17, f"the England track at {after.england}"


Machine = ClanFeudMachine.for_game(
    st.sampled_from([2, 3, 4, 5]).map(load),
    starts=STARTS,
    invariants=[state_invariants],
    # the ledger already costs about what the rest of the checks do: the position round
    # trip (most of GameMachine's per-move cost) at every 50th move keeps the run's length
    round_trip_every=50,
    name="ClanFeudMachine",
)
Machine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_clan_feud_machine = Machine.TestCase
