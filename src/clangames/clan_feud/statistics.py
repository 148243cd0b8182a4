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

England (part 2), found by watching the states (spawns, marches and England's battles are
steps nobody chooses, so the moves alone do not show them): ``england.war_reached`` (1 if
the track ever stood at war), ``england.spawns`` (the turns an English army spawned:
England's troops on the board only grow by spawning) and ``england.defeated`` (English armies
wiped out in battle). :class:`EnglandWatch` watches a game while it is played
(``clangames simulate`` passes it to the playout); from the final state and the moves alone
the game is replayed into one, which costs about one more game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from clangames.clan_feud.actions import PlayAction, PlayCard, StartAt
from clangames.clan_feud.rules import apply_owned
from clangames.clan_feud.scoring import final_count
from clangames.clan_feud.state import ENGLAND
from clangames.engine.phases import CHANCE
from clangames.engine.statistics import GameStatistics, Moves

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame
    from clangames.clan_feud.state import Battle, ClanFeudState, EnglishArmy
    from clangames.engine.state import State


def statistics(game: ClanFeudGame) -> GameStatistics:
    """The statistics Clan Feud declares for ``game`` (its start territories give names)."""
    board = game.board
    starts = tuple(board.starts(game.seat_count))
    ids = {t: board.territories[t].id for t in starts}
    designs = tuple(d.id for d in game.deck.designs)
    # The names are made once: measured runs for every game of a simulation.
    start_names = tuple((t, f"start.{ids[t]}.taken", f"start.{ids[t]}.won") for t in starts)
    card_names = tuple((f"card.{d}.plays", f"card.{d}.won", f"card.{d}.combat") for d in designs)
    names = (
        *(name for _, taken, won in start_names for name in (taken, won)),
        *(name for per_card in card_names for name in per_card),
        "vp.final_count",
        "vp.during_play",
        "vp.total",
        "turns",
        "england.war_reached",
        "england.spawns",
        "england.defeated",
    )

    def measure(final: State, moves: Moves) -> dict[str, float]:
        watch = EnglandWatch(measured)
        replay(game, moves, watch)
        return watch.measure(final, moves)

    def measured(final: State, moves: Moves, watched: EnglandWatch) -> dict[str, float]:
        s: ClanFeudState = final  # type: ignore[assignment]
        # The start territories are dealt to seats 0, 1, ... in order by chance.
        dealt = [a.territory for p, a in moves if p == CHANCE and isinstance(a, StartAt)]
        # The last seat's draw has one outcome, which the rules take without a chance move.
        dealt += [t for t in sorted(starts) if t not in dealt][: game.seat_count - len(dealt)]
        returns = s.returns()
        values: dict[str, float] = {}
        for t, taken, won in start_names:
            seat = dealt.index(t) if t in dealt else -1
            values[taken] = 1 if seat >= 0 else 0
            values[won] = returns[seat] if seat >= 0 else 0.0
        # The final count only adds VP and is computed from the table, which it leaves as
        # it was: on the final state it gives what it gave.
        final_vp = sum(final_count(s, p) for p in range(game.seat_count))
        total = sum(s.vp)
        values["vp.final_count"] = final_vp
        values["vp.during_play"] = total - final_vp
        values["vp.total"] = total
        values["turns"] = s.turn
        for plays, won, combat in card_names:
            values[plays] = values[won] = 0.0
            values[combat] = 0.0
        for p, a in moves:
            if isinstance(a, PlayAction):
                plays, won, _ = card_names[a.design]
                values[plays] += 1
                values[won] += returns[p]
            elif isinstance(a, PlayCard):
                values[card_names[a.design][2]] += 1
        values["england.war_reached"] = watched.war
        values["england.spawns"] = watched.spawns
        values["england.defeated"] = watched.defeated
        return values

    return GameStatistics(names, measure, lambda: EnglandWatch(measured))


def _english_troops(s: ClanFeudState) -> int:
    """England's troops on the board, an attacking army in a battle included."""
    total = sum(sum(a.troops) for a in s.english)
    b = s.battle
    return total + (sum(b.attackers) if b is not None and b.owners[0] == ENGLAND else 0)


class EnglandWatch:
    """England's statistics from the states of one game as it is played (a statistics
    :class:`~clangames.engine.statistics.Follower`), then all of the game's statistics."""

    __slots__ = ("battle", "defeated", "english", "measured", "seen", "spawns", "troops", "war")

    def __init__(self, measured: Callable[[State, Moves, EnglandWatch], dict[str, float]]):
        self.measured = measured
        self.war = self.spawns = self.defeated = self.troops = 0
        self.battle: Battle | None = None
        self.english: tuple[EnglishArmy, ...] | None = None
        self.seen = False

    def see(self, state: State) -> None:
        """Count what the move that made ``state`` did (the first state, the initial one,
        only starts the watch)."""
        s: ClanFeudState = state  # type: ignore[assignment]
        battle = s.battle
        if self.seen:
            self.war |= s.at_war
            english = s.english
            # Called after every move of every simulated game: a move that leaves England's
            # armies alone keeps their tuple (immutable, and held here, so its identity
            # cannot be reused), so outside battles their troops are only added up again
            # when it changes.
            if english is not self.english or battle is not None or self.battle is not None:
                now = _english_troops(s)
                self.spawns += now > self.troops
                self.troops = now
            self.english = english
            b = self.battle
            if b is not None and battle is None and ENGLAND in b.owners:
                # a battle with England is over: an English side that won stands there
                self.defeated += not any(a.territory == b.territory for a in s.english)
        self.seen = True
        self.battle = battle

    def measure(self, final: State, moves: Moves) -> dict[str, float]:
        """The game's statistics, England's from what was watched."""
        return self.measured(final, moves, self)


def replay(game: ClanFeudGame, moves: Moves, watch: EnglandWatch) -> None:
    """Show ``watch`` the game ``moves`` play, replayed from the start (its states are its
    own, so each is built on the last in place, as the kernel's fast path does)."""
    state: ClanFeudState = game.initial_state()
    watch.see(state)
    made_here = False
    for player, action in moves:
        if made_here:
            state = apply_owned(state, action, player)
        else:
            state = state._apply(action, player)
            made_here = True
        watch.see(state)
