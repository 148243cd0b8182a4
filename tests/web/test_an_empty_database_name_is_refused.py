"""An empty database name is refused, on the command line and in the library: SQLite takes
``""`` for a temporary database deleted when it closes, so a server run on it would lose
every game at its stop without a word. ``":memory:"`` stays for throwaway apps (tests)."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import pytest

from clangames.cli.main import main
from clangames.web.store import Store, StoreError

EMPTY = (
    "clangames: error: serve: --db must name the games' SQLite file, got an empty name"
    " (SQLite would keep the games in a temporary database, lost when the server stops)\n"
)


def test_serve_refuses_an_empty_db_as_a_usage_error_before_serving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.append(app))
    code = main(["serve", "--db", "", "--port", "8123"])
    out, err = capsys.readouterr()
    assert (code, err, out) == (2, EMPTY, "")
    assert served == []


def test_the_empty_db_is_refused_even_without_the_web_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn fails
    code = main(["serve", "--db", ""])
    assert (code, capsys.readouterr().err) == (2, EMPTY)


def test_the_library_refuses_an_empty_name_and_keeps_memory_for_tests() -> None:
    with pytest.raises(StoreError) as caught:
        Store("")
    assert str(caught.value) == (
        "cannot open the database '': an empty name is SQLite's temporary database, deleted"
        " when it closes, so every game would be lost; expected a file name (or ':memory:'"
        " for a database meant to be thrown away)"
    )
    memory = Store(":memory:")
    assert list(memory.games()) == []
    memory.close()


def test_create_app_refuses_an_empty_name() -> None:
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from clangames.web.app import create_app

    with pytest.raises(StoreError, match="an empty name is SQLite's temporary database"):
        create_app("")
    assert create_app(":memory:").state.server.hub.rooms == {}
