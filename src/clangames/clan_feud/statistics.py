"""Clan Feud's balance statistics (the kernel hook of :mod:`clangames.engine.statistics`):
the one place for them, so statistics of later rules (England's wars and armies, action
cards) are added here.

Per start territory ``T`` (by id) of the player count: ``start.T.taken`` (1 if a seat
started there) and ``start.T.won`` (that seat's share of the win, 0 if nobody started
there; ``mean(won) / mean(taken)`` is the win rate from ``T``). VP by source, over all
seats: ``vp.final_count`` (King James Comes of Age) and ``vp.during_play`` (objectives,
intrigue and events before it), with ``vp.total``. Also ``turns``.

Per action card design ``D`` (by id, e.g. ``AC07``): ``card.D.plays`` (times played for its
action), ``card.D.won`` (those plays weighted by the player's share of the win, so that
``sum(won) / sum(plays)`` is the win rate of the players who play it) and ``card.D.combat``
(times committed in a battle).

England (part 2), found by replaying the moves with the rules, since spawns, marches and
England's battles are steps nobody chooses: ``england.war_reached`` (1 if the track ever
stood at war), ``england.spawns`` (the turns an English army spawned: England's troops on
the board only grow by spawning) and ``england.defeated`` (English armies wiped out in
battle). The replay costs about one more game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.clan_feud.actions import PlayAction, PlayCard, StartAt
from clangames.clan_feud.scoring import final_count
from clangames.clan_feud.state import ENGLAND
from clangames.engine.phases import CHANCE
from clangames.engine.statistics import GameStatistics, Moves

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame
    from clangames.clan_feud.state import ClanFeudState
    from clangames.engine.state import State


def statistics(game: ClanFeudGame) -> GameStatistics:
    """The statistics Clan Feud declares for ``game`` (its start territories give names)."""
    board = game.board
    starts = tuple(board.starts(game.seat_count))
    ids = {t: board.territories[t].id for t in starts}
    designs = tuple(d.id for d in game.deck.designs)
    names = (
        *(f"start.{ids[t]}.{part}" for t in starts for part in ("taken", "won")),
        *(f"card.{d}.{part}" for d in designs for part in ("plays", "won", "combat")),
        "vp.final_count",
        "vp.during_play",
        "vp.total",
        "turns",
        "england.war_reached",
        "england.spawns",
        "england.defeated",
    )

    def measure(final: State, moves: Moves) -> dict[str, float]:
        s: ClanFeudState = final  # type: ignore[assignment]
        # The start territories are dealt to seats 0, 1, ... in order by chance.
        dealt = [a.territory for p, a in moves if p == CHANCE and isinstance(a, StartAt)]
        # The last seat's draw has one outcome, which the rules take without a chance move.
        dealt += [t for t in sorted(starts) if t not in dealt][: game.seat_count - len(dealt)]
        returns = s.returns()
        values: dict[str, float] = {}
        for t in starts:
            seat = dealt.index(t) if t in dealt else -1
            values[f"start.{ids[t]}.taken"] = 1 if seat >= 0 else 0
            values[f"start.{ids[t]}.won"] = returns[seat] if seat >= 0 else 0.0
        # The final count only adds VP and is computed from the table, which it leaves as
        # it was: on the final state it gives what it gave.
        final_vp = sum(final_count(s, p) for p in range(game.seat_count))
        total = sum(s.vp)
        values["vp.final_count"] = final_vp
        values["vp.during_play"] = total - final_vp
        values["vp.total"] = total
        values["turns"] = s.turn
        for d in designs:
            values[f"card.{d}.plays"] = values[f"card.{d}.won"] = 0.0
            values[f"card.{d}.combat"] = 0.0
        for p, a in moves:
            if isinstance(a, PlayAction):
                d = designs[a.design]
                values[f"card.{d}.plays"] += 1
                values[f"card.{d}.won"] += returns[p]
            elif isinstance(a, PlayCard):
                values[f"card.{designs[a.design]}.combat"] += 1
        values.update(_england(game, moves))
        return values

    return GameStatistics(names, measure)


def _english_troops(s: ClanFeudState) -> int:
    """England's troops on the board, an attacking army in a battle included."""
    total = sum(sum(a.troops) for a in s.english)
    b = s.battle
    return total + (sum(b.attackers) if b is not None and b.owners[0] == ENGLAND else 0)


def _england(game: ClanFeudGame, moves: Moves) -> dict[str, float]:
    """England's statistics from a replay of ``moves`` (see the module docstring)."""
    state: ClanFeudState = game.initial_state()
    war = spawns = defeated = 0
    troops = 0
    for player, action in moves:
        before = state
        state = state._apply(action, player)
        war |= state.at_war
        now = _english_troops(state)
        spawns += now > troops
        troops = now
        b = before.battle
        if b is not None and ENGLAND in b.owners and state.battle is None:
            # a battle with England is over: an English side that won stands there
            defeated += not any(a.territory == b.territory for a in state.english)
    return {"england.war_reached": war, "england.spawns": spawns, "england.defeated": defeated}
