"""Shared helpers for the Clan Feud data tests: the bundled files' text and variants of it."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def bundled_text(filename: str) -> str:
    """The text of a bundled data file of ``clangames.clan_feud``."""
    return resources.files("clangames.clan_feud").joinpath(filename).read_text("utf-8")


def variant(tmp_path: Path, filename: str, old: str, new: str) -> str:
    """The path of a copy of a bundled file with the first ``old`` replaced by ``new``."""
    text = bundled_text(filename)
    assert old in text, f"{old!r} is not in {filename}"
    path = tmp_path / f"variant-{filename}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)
