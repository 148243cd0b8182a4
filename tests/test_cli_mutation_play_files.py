"""Checking an output file changes nothing (an existing file keeps its content, a new one is
not left behind, a NUL in the name is a usage error), and reading a record is bounded and
names the file it could not read."""

from __future__ import annotations

from pathlib import Path

import pytest

from clangames.cli import files
from clangames.cli.errors import CommandFailure, UsageError
from clangames.cli.files import check_writable, read_text
from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse


def test_checking_a_file_leaves_an_old_one_whole_and_no_new_one(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text("keep me")
    check_writable(str(old), "--record")
    assert old.read_text() == "keep me"
    new = tmp_path / "new.json"
    check_writable(str(new), "--record")
    assert not new.exists()


def test_a_nul_in_an_output_name_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"^--autosave: cannot write 'a\\x00b': "):
        check_writable("a\x00b", "--autosave")
    code, out, err = run_main(["play", "kilt-castle", "--autosave", "a\x00b"], "quit\n")
    assert (code, out) == (2, "")
    assert err.startswith("clangames: error: --autosave: cannot write ")


def test_reading_is_bounded_and_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "MAX_READ", 8)
    path = tmp_path / "r.json"
    path.write_text("12345678")
    assert read_text(str(path), "record") == "12345678"  # the bound itself is fine
    path.write_text("123456789")
    with pytest.raises(CommandFailure, match=r"is larger than 0 MiB; not a record"):
        read_text(str(path), "record")
    missing = tmp_path / "none.json"
    with pytest.raises(CommandFailure) as caught:
        read_text(str(missing), "record")
    assert (
        str(caught.value) == f"cannot read the record {str(missing)!r}: No such file or directory"
    )
