"""King's Kilt in the terminal: the pyramid, the draw pile and every seat's holdings, drawn
from one seat's observation (used by ``clangames play`` and ``clangames replay``; imports
``rich``, so only the command line imports this module)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from clangames.engine.game import Game
from clangames.engine.phases import CHANCE
from clangames.kings_kilt.game import KingsKiltGame
from clangames.kings_kilt.observation import KingsKiltObservation
from clangames.rendering.text import Renderer, who

_STYLES = (
    "bold red",
    "bold green",
    "bold blue",
    "bold magenta",
    "bold cyan",
    "bold yellow",
    "bold bright_red",
    "bold bright_green",
    "bold bright_blue",
    "bold bright_magenta",
)
_CELL = 10
_DEALS = {
    "deal_family": "a Clan Family card is dealt face down to",
    "deal_third": "a third Clan Family card is dealt face down to",
    "deal_influence": "an Influence card is dealt face down to",
}


def _counts(names: tuple[str, ...], counts: tuple[int, ...]) -> str:
    """``"Bruce x2, Douglas"`` for per-clan counts (``"none"`` if all zero)."""
    parts = [
        name if count == 1 else f"{name} x{count}"
        for name, count in zip(names, counts, strict=False)
        if count
    ]
    return ", ".join(parts) if parts else "none"


class KingsKiltRenderer(Renderer):
    """The pyramid (King on top, row labels, clans in colour), the pile, and each seat."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        if not isinstance(game, KingsKiltGame):
            raise TypeError(f"KingsKiltRenderer draws King's Kilt, not {game.name}")
        self.kk = game

    def _clan(self, clan: int) -> Text:
        if clan < 0:
            return Text("·", style="dim")
        return Text(self.kk.clans[clan], style=_STYLES[clan % len(_STYLES)])

    def _row_name(self, row: int) -> str:
        geo = self.kk.geo
        if row == geo.king_row:
            return "King"
        if row == geo.guardian_row:
            return "Guardians"
        if row == geo.nobleman_row:
            return "Noblemen"
        return f"row {row}"

    def pyramid(self, obs: KingsKiltObservation) -> Text:
        """The pyramid as text: each row centred, a coordinates line above its clans."""
        geo = self.kk.geo
        out = Text()
        for row in range(geo.width, 0, -1):
            positions = geo.row_positions(row)
            indent = " " * ((row - 1) * _CELL // 2)
            coords = Text(" " * 11 + indent)
            names = Text(f"{self._row_name(row):<11}" + indent)
            for pos in positions:
                label = geo.label(pos)
                if pos == obs.vacancy:
                    label += "*"
                coords.append(f"{label:^{_CELL}}", style="dim")
                clan = obs.pyramid[pos]
                cell = self._clan(clan)
                pad = _CELL - len(cell.plain)
                cell = Text(" " * (pad // 2)) + cell + Text(" " * (pad - pad // 2))
                names.append_text(cell)
            coords.rstrip()
            out.append_text(coords)
            out.append("\n")
            out.append_text(names)
            out.append("\n")
        return out

    def board(self, obs: Any) -> RenderableType:
        """Pyramid, draw pile, discards and each seat as ``obs``'s viewer may see them."""
        if not isinstance(obs, KingsKiltObservation):
            return super().board(obs)
        names = self.kk.clans
        title = Text(f"{self.kk.info.title}", style="bold underline")
        status = []
        if obs.crowned:
            status.append("a King is crowned (no more advancing)")
        if obs.nobles_triggered:
            status.append("Noblemen row complete")
        if obs.guardians_triggered:
            status.append("Guardians row complete")
        pile = Text(f"Draw pile: {obs.pile_size} cards")
        if obs.top >= 0:
            pile.append(", top card ")
            pile.append_text(self._clan(obs.top))
        pile.append(f"; Clan Leaders still in it: {_counts(names, obs.leaders_in_pile)}")
        info = [
            pile,
            Text(f"Discarded Influence: {_counts(names, obs.discards)}"),
            Text(f"Betrayed (out of the game): {_counts(names, obs.removed)}"),
        ]
        if status:
            info.append(Text("; ".join(status), style="italic"))
        seats = Table(box=None, pad_edge=False, show_header=True)
        seats.add_column("seat")
        seats.add_column("family cards")
        seats.add_column("face up")
        seats.add_column("Influence", justify="right")
        seats.add_column("")
        for seat in range(self.kk.num_players):
            face_up = ", ".join(names[c] for c in self.kk.bits[obs.revealed[seat]]) or "-"
            marks = []
            if obs.passed >> seat & 1:
                marks.append("passed")
            if seat in obs.to_move:
                marks.append("to move")
            if seat == obs.viewer:
                marks.append("you")
            seats.add_row(
                who(seat),
                str(obs.family_sizes[seat]),
                face_up,
                str(obs.hand_sizes[seat]),
                ", ".join(marks),
            )
        return Group(title, self.pyramid(obs), *info, seats)

    def summary(self, obs: Any) -> RenderableType:
        """One line per pyramid row (``K``ing, ``G``uardians, ``N``oblemen, rows 3-1) with
        each space's label and clan, the pile in one line, one line per seat."""
        if not isinstance(obs, KingsKiltObservation):
            return super().summary(obs)
        geo = self.kk.geo
        short = {geo.king_row: "K", geo.guardian_row: "G", geo.nobleman_row: "N"}
        lines: list[Text] = [Text(f"{self.kk.info.title}", style="bold underline")]
        for row in range(geo.width, 0, -1):
            line = Text(f"{short.get(row, str(row)):<2}")
            line.append(" " * ((row - 1) * 6))
            for pos in geo.row_positions(row):
                label = geo.label(pos) + ("*" if pos == obs.vacancy else "")
                line.append(f" {label:<4}", style="dim")
                cell = self._clan(obs.pyramid[pos])
                cell.pad_right(8 - len(cell.plain))
                line.append_text(cell)
            line.rstrip()
            lines.append(line)
        top = f", top {self.kk.clans[obs.top]}" if obs.top >= 0 else ""
        lines.append(
            Text(
                f"Pile {obs.pile_size}{top}; betrayed: {_counts(self.kk.clans, obs.removed)}"
                + ("; a King is crowned" if obs.crowned else "")
            )
        )
        for seat in range(self.kk.num_players):
            face_up = ", ".join(self.kk.clans[c] for c in self.kk.bits[obs.revealed[seat]])
            marks = [
                m
                for m, on in (
                    ("you", seat == obs.viewer),
                    ("passed", obs.passed >> seat & 1),
                    ("to move", seat in obs.to_move),
                )
                if on
            ]
            said = f" ({', '.join(marks)})" if marks else ""
            hand = obs.hand_sizes[seat]
            lines.append(
                Text(
                    f"{who(seat)}{said}: {obs.family_sizes[seat]} family cards"
                    f" ({f'face up: {face_up}' if face_up else 'none face up'}),"
                    f" {hand} Influence card{'' if hand == 1 else 's'}"
                )
            )
        return Group(*lines)

    def secrets(self, obs: Any) -> list[str]:
        """The viewer's family (face down or up) and Influence hand."""
        if not isinstance(obs, KingsKiltObservation) or obs.viewer < 0:
            return []
        names = self.kk.clans
        revealed = obs.revealed[obs.viewer]
        family = [
            f"{names[c]} ({'face up' if revealed >> c & 1 else 'face down'})"
            for c in self.kk.bits[obs.family]
        ]
        return [
            f"family: {', '.join(family) if family else 'none yet'}",
            f"Influence hand: {_counts(names, obs.hand)}",
        ]

    def hidden_step(self, before: Any, after: Any, player: int) -> str:
        """Deals narrated as "... dealt face down to player k"; anything else generically."""
        if player == CHANCE and isinstance(before, KingsKiltObservation):
            deal = _DEALS.get(before.phase)
            if deal is not None:
                return f"{deal} {who(before.dealt % self.kk.num_players)}"
        return super().hidden_step(before, after, player)


def make_renderer(game: Game) -> Renderer:
    """The King's Kilt renderer for ``game`` (what the command line looks up)."""
    return KingsKiltRenderer(game)
