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

from clangames.clan_feud import words
from clangames.clan_feud.actions import (
    COLUMN_NAMES,
    SLOT_NAMES,
    BuildSlot,
    Option,
    Place,
    StartAt,
    dice_words,
)
from clangames.clan_feud.aftermath import changes
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.observation import ClanFeudObservation
from clangames.clan_feud.phases import phase_words
from clangames.clan_feud.playing import combat_text, objective_text, option_text, slot_cover
from clangames.clan_feud.rules import PRICE, card_name
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.engine.state import Action, State
from clangames.rendering.text import Renderer, who

CLAN_STYLES = ("bold red", "bold green", "bold blue", "bold magenta", "bold cyan")
ENGLAND_STYLE = "bold white on red"
SITES = ("", "city", "castle")
TROOP_KEY = "i infantry, c cavalry, a artillery"
"""What the letters of ``army_text`` stand for, said under the map."""


def _levels(tokens: Sequence[int]) -> str:
    """An English army's level tokens, ``tokens L1 and L2``: the armies it was made of."""
    names = [f"L{k}" for k in tokens]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"token{'s' if len(names) > 1 else ''} {joined}"


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
        order = ", ".join(str(p) for p in obs.order)
        return Text(
            f"Turn {obs.turn} of {g.deck_size + 1} | order: players {order} | England"
            f" {obs.england}/{g.england.last_step} ({war}) | objective: {event} |"
            f" {phase_words(obs.phase)} ({movers} to act)"
        )

    def territories(self, obs: ClanFeudObservation) -> Table:
        table = Table(box=box.SIMPLE, title="Scotland", caption=f"armies: {TROOP_KEY}")
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
                tokens = _levels(english.tokens)
                armies.append(
                    Text(f"England {troops} (level {english.level}, {tokens}) ", ENGLAND_STYLE)
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
            att += ", " + _levels(b.levels)
        sides = ["England" if p < 0 else f"clan {p}" for p in b.owners]
        attacker, defender = sides
        extra = " (recruits: no retreat)" if b.origin < 0 else ""
        done = b.cards.committed()
        sealed = "; ".join(
            f"{side} {'has' if has else 'has not'} committed"
            for side, has in zip(sides, done, strict=True)
        )
        return Text(
            f"Battle at {name}, round {b.rounds}: {attacker} ({att}) attacks {defender}{extra}"
            + (f"; {sealed}" if any(done) else "")
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
            f"{designs[d].name}{f' x{n}' if n > 1 else ''}"
            f" (in battle {combat_text(designs[d].combat)})"
            for d, n in enumerate(obs.hand)
            if n
        ]
        lines = [f"hand: {', '.join(cards) if cards else 'empty'}"]
        for taker, victim, d in obs.known:  # stolen cards the viewer knows of
            if d < 0:
                continue
            if victim == obs.viewer:
                # "label: card" lines: the seat view puts "Your " before each
                lines.append(f"card stolen by {who(taker)}: {designs[d].name}")
            else:
                lines.append(f"card taken from {who(victim)}: {designs[d].name}")
        return lines

    def option_texts(self, obs: Any, actions: Sequence[Action]) -> list[str]:
        """Each option's text, then in brackets the name of the card it names by its id
        (``play AC29 (Forty Days' Service)``), the map's name of the territory it names by
        its id (``territory the_lennox (The Lennox)``), or what an event's or card's option
        does (``option 1 (return 2 feud tokens)``), or a slot's price and what it holds
        (``build income I-right (£3, a tower house)``): the ids and numbers alone say nothing.
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
            elif isinstance(action, BuildSlot) and task is not None and task.kind == "build":
                # the slot's name alone says neither its price nor what it holds
                extra = f"£{PRICE[action.slot]}, {slot_cover(action.column, action.slot)}"
            elif extra is None and isinstance(action, Option) and task is not None:
                extra = option_text(g, task, action.k)
            out.append(f"{text} ({extra})" if extra else text)
        return out

    def told(self, before: State, action: Action) -> str:
        """The step's sentence, then what it set going on its own (``words.told``)."""
        if isinstance(before, ClanFeudState):
            return words.told(before, action)
        return super().told(before, action)

    def hidden_step(self, before: Any, after: Any, player: int) -> str:
        """A card drawn or taken unseen, or a secret commitment; anything else generically;
        then the public changes the step set going (a battle round's outcome once both
        sides' sealed choices are in, the Intrigue VP after a draw), as the narration of a
        step the viewer can identify tells them."""
        if not isinstance(before, ClanFeudObservation) or not isinstance(
            after, ClanFeudObservation
        ):
            return super().hidden_step(before, after, player)
        said = self._hidden(before, after, player)
        then = changes(before, after, self.cf)
        return f"{said}; then {'; '.join(then)}" if then else said

    def _hidden(self, before: ClanFeudObservation, after: ClanFeudObservation, player: int) -> str:
        if player == CHANCE:
            sizes = zip(before.hand_sizes, after.hand_sizes, strict=True)
            grew = [p for p, (was, now) in enumerate(sizes) if now > was]
            if sum(after.hand_sizes) > sum(before.hand_sizes) and grew:
                return f"{who(grew[0])} draws an action card, unseen"
            if after.hand_sizes != before.hand_sizes and grew:
                return f"{who(grew[0])} takes an action card at random, unseen"
            if before.battle is not None and before.phase == "bhits":
                # several rolls can leave the same casualties: the roll is seen by what it cost
                return "the casualty dice are rolled"
            return "a chance outcome you cannot see"
        return f"{who(player)} commits in secret"


def make_renderer(game: Game) -> Renderer:
    """The Clan Feud renderer for ``game`` (what the command line looks up)."""
    return ClanFeudRenderer(game)
