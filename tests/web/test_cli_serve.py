"""``clangames serve`` on the command line: its options, and its errors in the one-line
``clangames: error:`` style (a bad option, a database it cannot open, the extra missing)."""

from __future__ import annotations

import sys

import pytest

from clangames.cli.main import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.smoke
def test_serve_is_listed_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["serve", "--help"], capsys)
    assert code == 0
    for option in ("--host", "--port", "--db", "--max-games"):
        assert option in out
    assert "serve" in run(["--help"], capsys)[1]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["serve", "--port", "0"], "--port must be in 1..65535, got 0"),
        (["serve", "--max-games", "0"], "--max-games must be at least 1"),
        (["serve", "--port", "x"], "invalid int value"),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2
    assert err.startswith("clangames: error:") and words in err and err.count("\n") == 1


def test_an_unopenable_database_is_a_one_line_error(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    code, _, err = run(["serve", "--db", "/proc/no/such/dir/games.sqlite3"], capsys)
    assert code != 0
    assert err.startswith("clangames: error: cannot open the database") and err.count("\n") == 1


def test_without_the_extra_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn fails
    code, _, err = run(["serve"], capsys)
    assert code == 2
    assert "pip install 'clangames[web]'" in err and err.startswith("clangames: error:")
