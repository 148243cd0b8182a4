"""KOA Kingmaker in the terminal: the round, the centre pile and every house's court,
drawn from one seat's observation (used by ``clangames play`` and ``clangames replay``;
imports ``rich``, so only the command line imports this module).

Nothing here looks at a state: a face-down card is drawn as a marker unless the
observation shows its kind (the viewer's own card, or any card after the reveal), and an
inheritance number only when the observation holds it (the viewer's own, or all of them
once the game is over).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clangames.engine.bits import bits_of
from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.koa_kingmaker.cards import (
    CHARACTERS,
    JESTER,
    NOMINATION,
    NOMINATIONS,
    ROYAL,
    ROYALTY,
    card_name,
)
from clangames.koa_kingmaker.game import KoaGame
from clangames.koa_kingmaker.observation import KoaObservation
from clangames.koa_kingmaker.phases import phase_words
from clangames.rendering.text import Items, Renderer, listed, who

HOUSE_STYLES = ("bold red", "bold green", "bold blue", "bold magenta", "bold cyan")
"""One style per house, so a house keeps its colour wherever it is named."""
ROYAL_STYLE = "bold yellow"
JESTER_STYLE = "yellow"
FACE_DOWN = "[face down]"
"""How another house's sealed card is drawn: its kind never shows before the reveal."""

_SEALED = ("seal", "commit")


def played_name(kind: int) -> str:
    """A card on the table in words: ``"Seer"``, ``"nominates house 2"``."""
    if NOMINATION <= kind < ROYAL:
        return f"nominates house {kind - NOMINATION}"
    return card_name(kind)


def pile_text(cards: int) -> str:
    """A discard pile by card names, ``"Seer, Gold"`` (``"none"`` if empty): the words of
    the text picture and of the SVG picture alike."""
    return ", ".join(card_name(k) for k in bits_of(cards)) or "none"


def hand_text(hand: int) -> str:
    """A hand in words: characters by name, then the houses it can nominate
    (``"Jester, Gold, nominations of houses 1, 3"``); ``"empty"`` for none."""
    parts = [card_name(k) for k in bits_of(hand & CHARACTERS)]
    targets = [str(k - NOMINATION) for k in bits_of(hand & NOMINATIONS)]
    if len(targets) == 1:
        parts.append(f"nomination of house {targets[0]}")
    elif targets:
        parts.append(f"nominations of houses {', '.join(targets)}")
    return ", ".join(parts) if parts else "empty"


class KoaRenderer(Renderer):
    """The round and whose move it is, the centre pile, and one row per house: its court
    (Royalty highlighted), discard pile, hand size and its card of this round."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if not isinstance(game, KoaGame):
            raise TypeError(f"KoaRenderer draws KOA Kingmaker, not {game.name}")
        self.koa = game

    # -- pieces ---------------------------------------------------------------------------
    def house(self, house: int) -> Text:
        """``house 2`` in the house's own colour."""
        return Text(f"house {house}", style=HOUSE_STYLES[house % len(HOUSE_STYLES)])

    def houses(self, houses: list[int] | tuple[int, ...]) -> list[Text]:
        """Several houses, each in its colour, as :func:`listed` items (``"none"`` if
        empty)."""
        return [self.house(h) for h in houses] or [Text("none")]

    def court(self, cards: int) -> list[Text]:
        """A court as items: Royalty first (highlighted), then the Jester, the Banner and
        any nominations kept for eliminating a house (``"nom. of house 2"``); ``"none"``."""
        royals = [Text(card_name(k), style=ROYAL_STYLE) for k in bits_of(cards & ROYALTY)]
        others = []
        for k in bits_of(cards & ~ROYALTY):
            if k >= NOMINATION:
                others.append(Text(f"nom. of house {k - NOMINATION}", style="cyan"))
            else:
                others.append(Text(card_name(k), style=JESTER_STYLE if k == JESTER else ""))
        return royals + others or [Text("none", style="dim")]

    @staticmethod
    def pile(cards: int) -> list[Text]:
        """A discard pile by card names, as items (``"none"`` if empty)."""
        return [Text(card_name(k)) for k in bits_of(cards)] or [Text("none", style="dim")]

    def this_round(self, obs: KoaObservation, house: int) -> list[Text]:
        """A house's card of the current round as the viewer may see it, as items: the
        viewer's own face-down card is ``["Jester", "(yours, face down)"]``."""
        if obs.phase in _SEALED:
            own = obs.table[house]
            if own >= 0:
                return [Text(played_name(own), style="bold"), Text("(yours, face down)")]
            if obs.committed[house]:
                return [Text(FACE_DOWN, style="reverse")]
            if house in obs.to_move and obs.phase == "commit":
                return [Text("choosing", style="italic")]
            return [Text("-", style="dim")]
        card = obs.played[house]
        return [Text(played_name(card)) if card >= 0 else Text("-", style="dim")]

    def label(self, obs: KoaObservation, house: int) -> Text:
        """``house 0 (you)``, ``house 3 (auto)`` or ``house 1``."""
        name = self.house(house)
        if house == obs.viewer:
            name.append(" (you)", style="bold")
        elif self.koa.is_automated(house):
            name.append(" (auto)", style="dim")
        return name

    def header(self, obs: KoaObservation) -> list[RenderableType]:
        """The round, what is being decided, who has a card face down, pending hits and
        returns, the centre pile and (in the commit step) the previous round's reveal;
        a line breaks only between houses and cards."""
        lines: list[RenderableType] = []
        title = Text(self.koa.info.title, style="bold underline")
        doing = phase_words(obs.phase)
        if obs.phase == "return" and obs.recovering:
            doing = f"house {obs.recovering[0]} may take a card back from its discard pile"
        elif obs.phase == "discard" and obs.hits:
            doing = f"house {obs.hits[0][0]} is hit and gives up a Royal or its Jester"
        if obs.phase == "over":
            title.append(f", game over after round {obs.round}", style="bold")
        else:
            title.append(f", round {obs.round}: {doing}", style="bold")
        lines.append(title)
        if obs.phase == "commit":
            down = [h for h in range(self.koa.houses) if obs.committed[h]]
            pieces = listed(self.houses(obs.to_move), "Still choosing: ")
            pieces[-1].append(" |")
            pieces += listed(self.houses(down), "face down on the table: ")
            lines.append(Items([pieces]))
        elif obs.to_move == (CHANCE,):
            lines.append(Text("To move: chance"))
        elif obs.phase == "over":
            standing = [h for h in range(self.koa.houses) if obs.alive >> h & 1]
            lines.append(Items([listed(self.houses(standing), "Houses still standing: ")]))
        if obs.hits:
            hits = []
            for h, source in obs.hits:
                hit = self.house(h)
                if source >= 0:
                    hit.append(" (counter-attack by ")
                    hit.append_text(self.house(source))
                    hit.append(")")
                hits.append(hit)
            lines.append(Items([listed(hits, "Hits still to take: ")]))
        if obs.recovering:
            lines.append(Items([listed(self.houses(obs.recovering), "May take a card back: ")]))
        centre = [Text("Centre pile:")]
        for h in range(self.koa.houses):
            if obs.centre[h]:
                if len(centre) > 1:
                    centre[-1].append(";")
                centre += listed(self.court(obs.centre[h]), self.house(h) + Text(": "))
        if len(centre) == 1:
            centre[0].append(" empty")
        lines.append(Items([centre]))
        if obs.phase in _SEALED and obs.round > 1:
            shown = [
                self.house(h) + Text(f": {played_name(c)}")
                for h, c in enumerate(obs.played)
                if c >= 0
            ]
            if shown:
                lines.append(Items([listed(shown, f"Revealed in round {obs.round - 1}: ")]))
        return lines

    def cards(self, obs: KoaObservation, house: int) -> Items:
        """A house's court on one line and its discard pile on the next, each folded
        between cards."""
        return Items(
            [
                listed(self.court(obs.courts[house]), "court: "),
                listed(self.pile(obs.discards[house]), "discards: "),
            ]
        )

    def courts(self, obs: KoaObservation) -> Table:
        """One row per house: its name over its status (in, or out in which round) and,
        once the game is over, its inheritance number; its hand size, this round's card,
        then its court and discard pile. Every cell breaks only between whole names, and the
        narrow columns leave the court most of an 80-column screen."""
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, header_style="bold")
        table.add_column("house, status", no_wrap=True)
        table.add_column("hand", justify="right", no_wrap=True)
        table.add_column("this round", no_wrap=True)
        table.add_column("court and discard pile")
        for h in range(self.koa.houses):
            out = obs.out_round[h]
            name = self.label(obs, h)
            name.append("\n")
            name.append(
                "in" if out == 0 else f"out in round {out}", style="" if out == 0 else "dim"
            )
            if obs.phase == "over":
                # under the status, spelt out: a column of its own would squeeze the court
                name.append(f"\ninheritance: {obs.inheritance[h]}")
            cells: list[RenderableType] = [
                name,
                str(obs.hand_sizes[h]),
                Text("\n").join(self.this_round(obs, h)),
            ]
            table.add_row(*cells, self.cards(obs, h))
        return table

    # -- the Renderer interface -------------------------------------------------------------
    def board(self, obs: Any) -> RenderableType:
        """The header and the courts as ``obs``'s viewer may see them."""
        if not isinstance(obs, KoaObservation):
            return super().board(obs)
        return Group(*self.header(obs), self.courts(obs))

    def summary(self, obs: Any) -> RenderableType:
        """The header, then one line per house (folded between items, continued indented):
        status, hand size, this round's card and its court (discard piles only on the full
        board)."""
        if not isinstance(obs, KoaObservation):
            return super().summary(obs)
        lines: list[RenderableType] = list(self.header(obs))
        for h in range(self.koa.houses):
            out = obs.out_round[h]
            pieces = [
                self.label(obs, h) + Text(":"),
                Text("in," if out == 0 else f"out in round {out},"),
                Text(f"hand {obs.hand_sizes[h]},"),
                *listed(self.this_round(obs, h), "this round ", sep=""),
            ]
            pieces[-1].append(" |")
            pieces += listed(self.court(obs.courts[h]), "court: ")
            lines.append(Items([pieces], indent=2))
        return Group(*lines)

    def secrets(self, obs: Any) -> list[str]:
        """The viewer's hand, its face-down card before the reveal and its inheritance
        number (nothing for the public view)."""
        if not isinstance(obs, KoaObservation) or obs.viewer < 0:
            return []
        lines = [f"hand: {hand_text(obs.hand)}"]
        if obs.phase in _SEALED and obs.table[obs.viewer] >= 0:
            lines.append(f"face-down card: {played_name(obs.table[obs.viewer])}")
        number = obs.inheritance[obs.viewer]
        if number:
            lines.append(f"inheritance: {number}")
        return lines

    def revealed(self, before: Any, after: Any) -> str:
        """The round's cards, by house, after the step that put down the last of them and
        so turned them all face up: ``"all cards turn face up: house 0: Seer, ..."``."""
        if not isinstance(before, KoaObservation) or not isinstance(after, KoaObservation):
            return super().revealed(before, after)
        if before.phase not in _SEALED:
            return ""
        if after.phase in _SEALED and after.round == before.round:
            return ""  # still being put down: nothing is face up yet
        shown = [f"house {h}: {played_name(c)}" for h, c in enumerate(after.played) if c >= 0]
        return "all cards turn face up: " + ", ".join(shown) if shown else ""

    def hidden_step(self, before: Any, after: Any, player: int) -> str:
        """Sealed cards are told as "player k puts a card face down" (naming the house whose
        card appeared on the table), inheritance deals as a card dealt face down to the
        house that now holds one."""
        if not isinstance(before, KoaObservation) or not isinstance(after, KoaObservation):
            return super().hidden_step(before, after, player)
        if before.phase == "inherit" and player == CHANCE:
            # who receives the card is public (it lies face down in front of the house)
            new = [h for h in range(self.koa.houses) if (after.dealt & ~before.dealt) >> h & 1]
            if len(new) == 1:
                if after.phase == "inherit":
                    return f"house {new[0]} is dealt an inheritance card face down"
                return (
                    f"house {new[0]} is dealt the last inheritance card face down; round 1 begins"
                )
        if before.phase in _SEALED and after.phase in _SEALED:
            new = [
                h for h in range(self.koa.houses) if after.committed[h] and not before.committed[h]
            ]
            if len(new) == 1:
                h = new[0]
                actor = f"automated household {h}" if self.koa.is_automated(h) else who(h)
                return f"{actor} puts a card face down"
        return super().hidden_step(before, after, player)


def make_renderer(game: Game) -> Renderer:
    """The KOA Kingmaker renderer for ``game`` (what the command line looks up)."""
    return KoaRenderer(game)
