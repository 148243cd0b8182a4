"""Reading back a ``clangames report`` page: its sections' table rows and images, and the
summary it embeds."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class ReportPage(HTMLParser):
    """The page's sections: per section id, its table rows (cell texts) and image count;
    and the embedded summary."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, dict[str, Any]] = {}
        self.current: str | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.script = False
        self.summary = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "section":
            self.current = found["id"]
            self.sections[self.current or ""] = {"rows": [], "images": 0}
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "img" and self.current is not None:
            assert (found["src"] or "").startswith("data:image/png;base64,")
            self.sections[self.current]["images"] += 1
        elif tag == "script" and found.get("id") == "summary":
            self.script = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append("".join(self.cell))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.current is not None:
            self.sections[self.current]["rows"].append(self.row)
            self.row = None
        elif tag == "section":
            self.current = None
        elif tag == "script":
            self.script = False

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        if self.script:
            self.summary += data
