"""A small SVG writer: shapes and text appended to a list, escaped once, joined at the end.

No dependency beyond the standard library; every string that reaches the document goes
through :func:`xml.sax.saxutils.escape` or ``quoteattr``, so a clan or territory name from a
board file cannot break the XML.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

PLAYER_COLOURS = ("#d62728", "#2ca02c", "#1f77b4", "#9467bd", "#17becf")
"""One fill per seat, so a seat keeps its colour wherever it is drawn."""
CLAN_COLOURS = (
    "#c0392b",
    "#27ae60",
    "#2980b9",
    "#8e44ad",
    "#16a085",
    "#d4ac0d",
    "#e67e22",
    "#7f8c8d",
    "#34495e",
    "#e84393",
)
"""One fill per clan of King's Kilt (cycled beyond ten)."""
CHAR_EM = 0.6
"""The most a character of a sans-serif face takes, in em (bold included): what a line's
width is judged by, since the picture cannot measure the viewer's font."""
TITLE_SIZE = 18
"""The font size of a picture's title line when it fits."""
ASIDE_SIZE = 13
"""The font size of whose view it is, at the right of the title line."""
MARGIN = 16
"""Room left at the picture's sides by the title line."""
TITLE_GAP = 12
"""Room kept between the title and whose view it is."""


def player_colour(seat: int) -> str:
    """The fill of ``seat`` (grey for none)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)] if seat >= 0 else "#bbbbbb"


def _attrs(attributes: dict[str, object]) -> str:
    return "".join(
        f" {key.replace('_', '-')}={quoteattr(str(value))}"
        for key, value in attributes.items()
        if value is not None
    )


class Canvas:
    """An SVG document being drawn; :meth:`svg` returns the finished text."""

    def __init__(self, width: float, height: float, title: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, **attributes: object) -> None:
        """A rectangle (``fill``, ``stroke``, ``rx``... as keyword attributes)."""
        self.parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{_attrs(attributes)}/>'
        )

    def circle(self, x: float, y: float, r: float, **attributes: object) -> None:
        """A circle centred on (x, y)."""
        self.parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}"{_attrs(attributes)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, **attributes: object) -> None:
        """A straight line."""
        self.parts.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"{_attrs(attributes)}/>'
        )

    def polygon(self, points: list[tuple[float, float]], **attributes: object) -> None:
        """A closed polygon through ``points``."""
        text = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.parts.append(f'<polygon points="{text}"{_attrs(attributes)}/>')

    def text(
        self, x: float, y: float, content: str, size: float = 12, **attributes: object
    ) -> None:
        """A line of text at (x, y) (the baseline's start unless ``text_anchor`` says)."""
        attributes.setdefault("font_family", "sans-serif")
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size:g}"{_attrs(attributes)}>'
            f"{escape(content)}</text>"
        )

    def heading(self, title: str, aside: str) -> None:
        """The top line: ``title`` in bold at the left and ``aside`` (whose view) at the
        right; a title too long for the room between them is set smaller rather than run
        into the aside or off the picture (the step's words vary in length)."""
        room = self.width - 2 * MARGIN - TITLE_GAP - CHAR_EM * ASIDE_SIZE * len(aside)
        fit = math.floor(10 * room / (CHAR_EM * max(len(title), 1))) / 10
        size = min(TITLE_SIZE, max(fit, 1))
        self.text(MARGIN, 26, title, size, font_weight="bold")
        self.text(self.width - MARGIN, 26, aside, ASIDE_SIZE, text_anchor="end")

    def open_group(self, **attributes: object) -> None:
        """Start a ``<g>``; a ``data_label`` names the thing drawn in the words its actions
        use (a space ``1.2``, a card ``Seer``), so a page can offer the actions on a click."""
        self.parts.append(f"<g{_attrs(attributes)}>")

    def close_group(self) -> None:
        """End the latest ``<g>``."""
        self.parts.append("</g>")

    def svg(self) -> str:
        """The document: a standalone ``<svg>`` element with a ``<title>``."""
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}"'
            f' height="{self.height:g}" viewBox="0 0 {self.width:g} {self.height:g}">'
            f"<title>{escape(self.title)}</title>"
            f'<rect x="0" y="0" width="{self.width:g}" height="{self.height:g}" fill="#fbf8f0"/>'
        )
        return head + "".join(self.parts) + "</svg>"
