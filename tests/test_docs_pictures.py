"""docs/pictures/ holds what the SVG pictures draw today (scripts/pictures.py makes them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "pictures.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pictures_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_pictures_are_what_the_library_draws() -> None:
    # A change to a picture must come with the docs' pictures made again.
    assert _script().main(["--check"]) == 0


def test_a_stale_picture_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    script.PICTURES = tmp_path
    (tmp_path / "kings_kilt.svg").write_text("<svg/>", encoding="utf-8")
    assert script.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "kings_kilt.svg" in err and "python scripts/pictures.py" in err
    assert not (tmp_path / "kilt_castle.svg").exists()  # a check writes nothing
