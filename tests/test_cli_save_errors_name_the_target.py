"""A record that cannot be written (``play``'s ``save FILE``, ``demo --record``) is refused
naming the file the user gave and the system's reason, never the temporary file a whole
write goes through (a new name at every try, which tells the reader nothing)."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import autosave_in_tmp_fixture, run_main  # noqa: F401 - autouse

CASTLE = ["play", "kilt-castle", "--players", "2", "--seed", "5", "--no-autosave"]


def test_play_save_into_a_missing_folder_names_the_file_and_the_reason(tmp_path: Path) -> None:
    target = tmp_path / "gone" / "game.json"
    code, out, err = run_main(CASTLE, f"save {target}\nquit\n")
    assert (code, err) == (0, "")
    assert f"cannot save to {str(target)!r}: No such file or directory" in out
    assert ".tmp" not in out and ".game.json." not in out
    assert not target.parent.exists()


def test_demo_record_onto_a_folder_is_refused_naming_the_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.mkdir()  # a folder where the record should go: refused before the game is played
    code, _, err = run_main(
        ["demo", "kilt-castle", "--players", "2", "--seed", "5", "--quiet", "--record", str(target)]
    )
    assert code == 2
    assert "is a directory, expected a file name" in err
    assert ".tmp" not in err and ".game.json." not in err
    assert str(target) in err
