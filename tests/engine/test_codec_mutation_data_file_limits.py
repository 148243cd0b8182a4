"""The component-data reader's promises at their edges (pinned by the kernel's mutation
audit: the size limit could move by a byte or stop refusing, a parser's own error could be
re-wrapped, and a bundled file could be parsed at every load, and no test noticed).

A user's file of exactly ``MAX_FILE_BYTES`` is read, one byte more is refused unread
(naming the file and the limit); the game's parser is given the file's name quoted, so
its refusals name the file as the reader's do; a ClanGamesError from the parser reaches
the caller as it is; a bundled file is parsed once and the result kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import clangames
from clangames import InvalidParameterError
from clangames.engine import data
from clangames.engine.data import load_data

LIMIT = 64


def toml_of_size(size: int) -> bytes:
    text = b'name = "'
    return text + b"x" * (size - len(text) - 2) + b'"\n'


def parse_name(values: dict[str, Any], source: str) -> str:
    return str(values["name"])


def test_a_file_of_exactly_the_limit_is_read_one_byte_more_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data, "MAX_FILE_BYTES", LIMIT)
    path = tmp_path / "deck.toml"
    path.write_bytes(toml_of_size(LIMIT))
    assert load_data("clangames.kings_kilt", "x.toml", str(path), parse_name, "deck") == (
        "x" * (LIMIT - 10)
    )
    path.write_bytes(toml_of_size(LIMIT + 1))
    with pytest.raises(InvalidParameterError) as info:
        load_data("clangames.kings_kilt", "x.toml", str(path), parse_name, "deck")
    assert str(info.value) == (
        f"deck file {str(path)!r} is larger than {LIMIT} bytes; expected a small TOML file"
    )


def test_the_parsers_own_refusal_reaches_the_caller_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('name = "x"\n')
    refusal = InvalidParameterError("deck: the card 'x' is not a clan")

    def parse(values: dict[str, Any], source: str) -> str:
        raise refusal

    with pytest.raises(InvalidParameterError) as info:
        load_data("clangames.kings_kilt", "x.toml", str(path), parse, "deck")
    assert info.value is refusal


def test_a_bundled_file_is_parsed_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "_BUNDLED", {})
    calls: list[str] = []

    def parse(values: dict[str, Any], source: str) -> dict[str, Any]:
        calls.append(source)
        return values

    first = load_data("clangames.kings_kilt", "components.toml", None, parse, "components")
    again = load_data("clangames.kings_kilt", "components.toml", None, parse, "components")
    assert again is first
    assert calls == ["components.toml (bundled)"]


@pytest.mark.parametrize(
    ("name", "param"),
    [("kings_kilt", "components"), ("koa_kingmaker", "cards"), ("kilt_castle", "board")],
)
def test_a_games_parser_names_the_users_file_quoted(name: str, param: str, tmp_path: Path) -> None:
    path = tmp_path / "my box.toml"
    path.write_text("title = 1\n")
    with pytest.raises(InvalidParameterError) as info:
        clangames.load(name, **{param: str(path)})
    assert str(info.value).startswith(f"{param} {str(path)!r}: unknown ")
