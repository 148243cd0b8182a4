"""The layers only point down (kernel < games < rendering < front-ends), and the docs, the
sources and the README stand on their own: no path names a file outside the repository."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "clangames"
GAMES = ("kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative imports resolved)."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    inside = path.is_relative_to(SRC.parent)
    package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1]) if inside else ""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def _offending(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in _modules(folder):
        for name in sorted(_imports(path)):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                bad.append(f"{where} imports {name}")
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_no_rules_package_imports_the_command_line_or_rendering(game: str) -> None:
    assert _modules(SRC / game), f"no modules found under {game}"
    assert _offending(SRC / game, ("clangames.cli", "clangames.rendering", "rich")) == []


def test_the_kernel_imports_no_game_rendering_or_front_end() -> None:
    above = (
        *(f"clangames.{g}" for g in GAMES),
        "clangames.rendering",
        "clangames.cli",
        "clangames.bots",
        "rich",
    )
    assert _offending(SRC / "engine", above) == []


def test_rendering_imports_no_front_end() -> None:
    assert _offending(SRC / "rendering", ("clangames.cli", "clangames.bots")) == []


def test_the_import_scan_catches_what_it_should(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(
        "import clangames.engine\nfrom clangames.cli.play import PlaySession\n", "utf-8"
    )
    (tmp_path / "lazy.py").write_text("def f():\n    from clangames import cli\n", "utf-8")
    assert _offending(tmp_path, ("clangames.cli",)) == [
        f"{(tmp_path / 'bad.py')} imports clangames.cli.play",
        f"{(tmp_path / 'bad.py')} imports clangames.cli.play.PlaySession",
        f"{(tmp_path / 'lazy.py')} imports clangames.cli",
    ]


# -- paths outside the repository ---------------------------------------------------------------
ABSOLUTE = re.compile(
    r"(?<![\w.~$/])/(?:work|home|Users|tmp|mnt|opt|srv|root|var|private)/[\w./-]+"
    r"|\b[A-Z]:\\\\[\w\\.-]+"
)
"""An absolute path of some machine (``/work/shared/...``, ``/home/...``, ``C:\\...``)."""
RELATIVE = re.compile(r"(?<![\w.])(?:\.\./)+[\w.-]+(?:/[\w.-]+)*")
"""A relative path climbing out of its folder (``../shared/design/kernel.md``)."""


def _text_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for top in (ROOT / "docs", SRC):
        files += [
            p
            for p in top.rglob("*")
            if p.is_file() and p.suffix in (".md", ".py", ".toml", ".txt", ".json")
        ]
    return sorted(files)


def _outside(path: Path) -> list[str]:
    found = []
    text = path.read_text("utf-8")
    for match in ABSOLUTE.finditer(text):
        found.append(match.group())
    for match in RELATIVE.finditer(text):
        target = (path.parent / match.group()).resolve()
        if not target.is_relative_to(ROOT) or not target.exists():
            found.append(match.group())
    return found


def test_no_file_in_docs_src_or_the_readme_names_a_path_outside_the_repository() -> None:
    files = _text_files()
    assert len(files) > 50  # the scan found the tree
    bad = {str(p.relative_to(ROOT)): _outside(p) for p in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_path_scan_catches_what_it_should(tmp_path: Path) -> None:
    sample = tmp_path / "sample.md"
    sample.write_text(
        "see `../shared/design/kernel.md` and /work/shared/rulebooks/x.txt;"
        " fine: ~/.local/state, $XDG_STATE_HOME/clangames, src/clangames/engine/state.py",
        encoding="utf-8",
    )
    assert _outside(sample) == ["/work/shared/rulebooks/x.txt", "../shared/design/kernel.md"]
