"""The optional compiled build, in an environment that has clangames[test] installed:
``CLANGAMES_COMPILE=1 pip install --no-build-isolation --no-deps --force-reinstall .``

Without ``CLANGAMES_COMPILE=1`` this file adds nothing to pyproject.toml: the package is
pure Python, mypy is not imported, and editable installs are unchanged. With it, the rule
modules listed in ``COMPILED_MODULES`` are compiled by mypyc (which comes with mypy, the
``test`` extra) into C extensions installed beside their ``.py`` sources. mypyc type-checks
them against attrs and rich, so the build runs in the environment itself
(``--no-build-isolation``) once the dependencies are there. ``clangames.compiled_modules()``
names the modules a running install actually loaded compiled.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

# The modules mypyc compiles, chosen by measurement (docs/architecture.md, "Compiled
# build"): pure rule code of functions and plain classes, where the time of a step or a
# re-deal is spent, and the kernel's small helpers it calls (bits, chance, data's
# replace_at). Left interpreted, whatever their cost:
# - modules defining attrs classes (states, games, components, observations, the
#   engine's value objects): compiled attrs classes lose their annotations (attrs and the
#   codec read them) and refuse instances of games compiled separately (Clan Feud's
#   CardInfo, the card plays' summary of a design, lives in cards.py so that playing.py
#   compiles);
# - the codec and anything that generates code or classes at run time (engine/codec.py,
#   engine/draft.py's draft classes, Clan Feud's working.py, whose working class `W` takes
#   the state's class as its base at run time and swaps its instances' class: it is kept
#   apart from Clan Feud's rules.py so that the rules themselves compile, as board.py's
#   row helpers are kept apart in rows.py, and W's hot helpers as functions of the draft:
#   the interned tasks and top-task edits in tasks.py, the facts and row edits in
#   drafts.py);
# - classes that rely on CPython's class machinery: engine/rng.py (Rng writes its slot
#   through the slot's descriptor to stay immutable), engine/rollout.py (an error class
#   deriving from interpreted ones; a compiled class cannot: its loops are apart, in
#   engine/rollout_loops.py, which compiles);
# - modules whose functions the tests replace (monkeypatch) or that the rest of the
#   package patches, since calls inside a compiled module bind at compile time;
# - front-ends, bots, rendering and the testing harness: not on the hot path.
COMPILED_MODULES = (
    "src/clangames/engine/bits.py",
    "src/clangames/engine/chance.py",
    "src/clangames/engine/data.py",
    "src/clangames/engine/rollout_loops.py",
    "src/clangames/kings_kilt/posterior.py",
    "src/clangames/kings_kilt/scoring.py",
    "src/clangames/kings_kilt/setup.py",
    "src/clangames/kings_kilt/turn.py",
    "src/clangames/koa_kingmaker/rules.py",
    "src/clangames/koa_kingmaker/scoring.py",
    "src/clangames/kilt_castle/scoring.py",
    "src/clangames/kilt_castle/setup.py",
    "src/clangames/kilt_castle/turn.py",
    "src/clangames/clan_feud/drafts.py",
    "src/clangames/clan_feud/interpret.py",
    "src/clangames/clan_feud/military.py",
    "src/clangames/clan_feud/playing.py",
    "src/clangames/clan_feud/rows.py",
    "src/clangames/clan_feud/rules.py",
    "src/clangames/clan_feud/scoring.py",
    "src/clangames/clan_feud/tasks.py",
    "src/clangames/clan_feud/war.py",
)


def _extensions() -> list[Extension]:
    """mypyc's extension modules when ``CLANGAMES_COMPILE=1``, else none (pure Python)."""
    flag = os.environ.get("CLANGAMES_COMPILE", "")
    if flag in ("", "0"):
        return []
    if flag != "1":
        sys.exit(f"CLANGAMES_COMPILE must be 1 (compile) or 0/unset (pure Python), not {flag!r}")
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit(
            "CLANGAMES_COMPILE=1 needs mypy (with mypyc) in the build environment: install "
            "clangames[test] first and build with `pip install --no-build-isolation .`"
        )
    here = os.path.dirname(os.path.abspath(__file__))
    # mypyc names each module after its path relative to the working directory.
    os.chdir(here)
    return list(mypycify(list(COMPILED_MODULES), opt_level="3"))


setup(ext_modules=_extensions())
