"""Clan Feud in the terminal: the territories in the board file's order with controllers,
buildings and armies (English ones with their level tokens), each clan's board, dice,
pounds, feud tokens and VP, the England track (war or peace, the flames ahead, the step
phase 3 began on) and a battle in progress, drawn from one seat's observation (used by
``clangames play`` and ``clangames replay``; imports ``rich``, so only the command line
imports this module).

Nothing here looks at a state: another seat's hand is drawn as its size, and a sealed
battle commitment only when the observation holds it (the viewer's own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clangames.clan_feud.actions import (
    COLUMN_NAMES,
    SLOT_NAMES,
    Option,
    Place,
    StartAt,
    dice_words,
)
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.observation import ClanFeudObservation
from clangames.clan_feud.playing import objective_text, option_text
from clangames.clan_feud.rules import card_name
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.state import Action
from clangames.rendering.text import Renderer, who

CLAN_STYLES = ("bold red", "bold green", "bold blue", "bold magenta", "bold cyan")
ENGLAND_STYLE = "bold white on red"
SITES = ("", "city", "castle")


def army_text(troops: tuple[int, ...], t: int) -> str:
    """``2i 1c 1a`` for the troops of one territory (empty if none)."""
    parts = [f"{troops[3 * t + k]}{'ica'[k]}" for k in range(3) if troops[3 * t + k]]
    return " ".join(parts)


def dice_text(pool: tuple[int, ...]) -> str:
    """The unassigned dice, e.g. ``white 1 x2, black 2``."""
    out = []
    for colour in range(len(pool) // 3):
        out += dice_words(colour, pool[3 * colour : 3 * colour + 3])
    return ", ".join(out) or "none"


class ClanFeudRenderer(Renderer):
    """Draws the map table, the clans table and the status line."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if not isinstance(game, ClanFeudGame):
            raise TypeError(f"the Clan Feud renderer needs a Clan Feud game, got {game!r}")
        self.cf: ClanFeudGame = game

    def clan(self, seat: int) -> Text:
        if seat < 0:
            return Text("England", style=ENGLAND_STYLE)
        return Text(f"clan {seat}", style=CLAN_STYLES[seat % len(CLAN_STYLES)])

    def track(self, obs: ClanFeudObservation) -> Text:
        """The England track: the marker, war or peace, and the flames still ahead."""
        track = self.cf.england
        war = "AT WAR" if track.at_war(obs.england) else "at peace"
        ahead = [f"{f.step} (L{f.level})" for f in track.flames if f.step > obs.england]
        flames = "flames ahead: " + (", ".join(ahead) if ahead else "none")
        style = ENGLAND_STYLE if track.at_war(obs.england) else ""
        return Text(
            f"England track {obs.england}/{track.last_step} {war} (war from"
            f" {track.war_from}; phase 3 began on {obs.track_start}); {flames};"
            f" English armies: {len(obs.english)}",
            style=style,
        )

    def header(self, obs: ClanFeudObservation) -> Text:
        g = self.cf
        # the objective with what it asks: a name alone does not say how to score it
        event = (
            f"{g.events.regular[obs.events[-1]].name} ({objective_text(g, obs.events[-1])})"
            if obs.events
            else "none yet"
        )
        war = "at war" if self.cf.england.at_war(obs.england) else "at peace"
        movers = ", ".join(who(p) for p in obs.to_move) or "nobody"
        return Text(
            f"Turn {obs.turn} of {g.deck_size + 1} | order {list(obs.order)} | England"
            f" {obs.england}/{g.england.last_step} ({war}) | objective: {event} |"
            f" {obs.phase} ({movers} to act)"
        )

    def territories(self, obs: ClanFeudObservation) -> Table:
        table = Table(box=box.SIMPLE, title="Scotland")
        for name in ("territory", "held by", "buildings", "armies"):
            table.add_column(name)
        board = self.cf.board
        for t, terr in enumerate(board.territories):
            owner = obs.controller[t]
            buildings = [SITES[obs.site[t]]] if obs.site[t] else []
            buildings += ["tower house"] * obs.towers[t]
            armies = [
                Text(f"{army_text(obs.troops[p], t)} ", style=CLAN_STYLES[p])
                for p in range(len(obs.troops))
                if army_text(obs.troops[p], t)
            ]
            english = next((a for a in obs.english if a.territory == t), None)
            if english is not None:
                troops = " ".join(f"{n}{'ica'[k]}" for k, n in enumerate(english.troops) if n)
                tokens = "+".join(f"L{k}" for k in english.tokens)
                armies.append(
                    Text(f"England {troops} (level {english.level}: {tokens}) ", ENGLAND_STYLE)
                )
            if obs.king == t:
                armies.append(Text("King James" + (" (alone)" if obs.regent < 0 else "")))
            name = terr.name + (" (mountains)" if terr.mountain else "")
            table.add_row(
                name,
                self.clan(owner) if owner >= 0 else Text("free"),
                ", ".join(buildings),
                Text.assemble(*armies),
            )
        return table

    def clans(self, obs: ClanFeudObservation) -> Table:
        table = Table(box=box.SIMPLE, title="Clans")
        for name in ("clan", "VP", "£", "feud", "cards", "dice to assign", "board slots bought"):
            table.add_column(name)
        for p in range(len(obs.money)):
            bought = [
                f"{COLUMN_NAMES[c]} {SLOT_NAMES[s]}"
                for c in range(1, 5)
                for s in range(1, 5)
                if not obs.covered[p] >> (5 * c + s) & 1
            ]
            table.add_row(
                self.clan(p),
                str(obs.vp[p]),
                str(obs.money[p]),
                str(obs.feud[p]),
                str(obs.hand_sizes[p]),
                dice_text(obs.pool[p]),
                ", ".join(bought) or "-",
            )
        return table

    def battle(self, obs: ClanFeudObservation) -> Text | None:
        b = obs.battle
        if b is None:
            return None
        name = self.cf.board.territories[b.territory].name
        att = " ".join(f"{n}{'ica'[k]}" for k, n in enumerate(b.attackers) if n)
        if b.levels:
            att += ", level " + "+".join(f"L{k}" for k in b.levels)
        side = ("England" if p < 0 else f"clan {p}" for p in b.owners)
        attacker, defender = next(side), next(side)
        extra = " (recruits: no retreat)" if b.origin < 0 else ""
        return Text(
            f"Battle at {name}, round {b.rounds}: {attacker} ({att}) attacks {defender}{extra};"
            f" committed: {list(b.cards.committed())}"
        )

    def board(self, obs: Any) -> RenderableType:
        """The status line, the England track, the map table, the clans and any battle."""
        if not isinstance(obs, ClanFeudObservation):
            return super().board(obs)
        parts: list[RenderableType] = [
            self.header(obs),
            self.track(obs),
            self.territories(obs),
            self.clans(obs),
        ]
        fight = self.battle(obs)
        if fight is not None:
            parts.append(fight)
        return Group(*parts)

    def summary(self, obs: Any) -> RenderableType:
        """The status line, then per clan one line of VP, money and feud tokens and what
        it holds (territories with buildings and armies); free empty territories left out."""
        if not isinstance(obs, ClanFeudObservation):
            return super().summary(obs)
        board = self.cf.board
        lines: list[RenderableType] = [self.header(obs)]
        for p in range(len(obs.money)):
            line = self.clan(p)
            line.append(f": {obs.vp[p]} VP, £{obs.money[p]}, feud {obs.feud[p]}; holds ")
            held = []
            for t, terr in enumerate(board.territories):
                army = army_text(obs.troops[p], t)
                if obs.controller[t] != p and not army:
                    continue
                extra = [SITES[obs.site[t]]] if obs.site[t] and obs.controller[t] == p else []
                extra += [army] if army else []
                held.append(terr.name + (f" ({', '.join(extra)})" if extra else ""))
            line.append("; ".join(held) or "nothing")
            lines.append(line)
        if obs.king >= 0:
            lines.append(Text(f"King James: {board.territories[obs.king].name}"))
        fight = self.battle(obs)
        if fight is not None:
            lines.append(fight)
        return Group(*lines)

    def secrets(self, obs: Any) -> list[str]:
        """The viewer's hand by card names and the stolen cards the viewer knows of."""
        if not isinstance(obs, ClanFeudObservation) or obs.viewer < 0:
            return []
        designs = self.cf.deck.designs
        cards = [
            f"{designs[d].name} ({designs[d].combat})"
            for d, n in enumerate(obs.hand)
            for _ in range(n)
        ]
        lines = [f"hand: {', '.join(cards) if cards else 'empty'}"]
        for taker, victim, d in obs.known:  # stolen cards the viewer knows of
            if d < 0:
                continue
            if victim == obs.viewer:
                lines.append(f"{who(taker)} holds your {designs[d].name} (stolen)")
            else:
                lines.append(f"you took {designs[d].name} from {who(victim)}")
        return lines

    def option_texts(self, obs: Any, actions: Sequence[Action]) -> list[str]:
        """Each option's text, then in brackets the name of the card it names by its id
        (``play AC29 (Forty Days' Service)``), the map's name of the territory it names by
        its id (``territory the_lennox (The Lennox)``), or what an event's or card's option
        does (``option 1 (return 2 feud tokens)``): the ids and numbers alone say nothing.
        Read from the viewer's observation (its own hand, public tasks and events)."""
        texts = super().option_texts(obs, actions)
        if not isinstance(obs, ClanFeudObservation):
            return texts
        g = self.cf
        task = obs.tasks[-1] if obs.tasks else None
        out = []
        for text, action in zip(texts, actions, strict=True):
            extra = card_name(g, action)
            if isinstance(action, (Place, StartAt)):
                extra = g.board.territories[action.territory].name
            elif extra is None and isinstance(action, Option) and task is not None:
                extra = option_text(g, task, action.k)
            out.append(f"{text} ({extra})" if extra else text)
        return out

    def hidden_step(self, before: Any, after: Any, player: int) -> str:
        """A card drawn or taken unseen, or a secret commitment; anything else generically."""
        if not isinstance(before, ClanFeudObservation) or not isinstance(
            after, ClanFeudObservation
        ):
            return super().hidden_step(before, after, player)
        if player == CHANCE:
            if sum(after.hand_sizes) > sum(before.hand_sizes):
                return "an action card is drawn, unseen"
            if after.hand_sizes != before.hand_sizes:
                return "an action card is taken at random, unseen"
            return "a chance outcome you cannot see"
        return f"{who(player)} commits in secret"


def make_renderer(game: Game) -> Renderer:
    """The Clan Feud renderer for ``game`` (what the command line looks up)."""
    return ClanFeudRenderer(game)
