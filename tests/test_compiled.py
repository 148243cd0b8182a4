"""The optional mypyc build: the modules setup.py lists are the ones loaded compiled, and
its shim for rules assigned as methods behaves like a Python function.

scripts/test.sh runs this file (with the rule, golden and rollout tests) against a
compiled install with ``CLANGAMES_EXPECT_COMPILED=1``: there every listed module must be
an extension module loaded from that install, never the checkout's ``src/``. In the
ordinary run (an editable, pure-Python install) nothing may be compiled.
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
from pathlib import Path

import attrs
import pytest

import clangames
from clangames.engine.compiled import bind_compiled_rules

ROOT = Path(__file__).resolve().parent.parent
EXPECT_COMPILED = os.environ.get("CLANGAMES_EXPECT_COMPILED") == "1"


def listed_modules() -> tuple[str, ...]:
    """setup.py's COMPILED_MODULES as module names (read, not run: setup.py calls setup())."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED_MODULES" for t in node.targets
        ):
            paths = ast.literal_eval(node.value)
            break
    else:
        raise AssertionError("setup.py defines no COMPILED_MODULES")
    return tuple(
        sorted(p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths)
    )


def test_the_listed_modules_exist_and_are_pure_rule_modules() -> None:
    names = listed_modules()
    assert names, "the compiled build lists no module"
    for name in names:
        source = ROOT / "src" / (name.replace(".", "/") + ".py")
        assert source.is_file(), f"{name} listed in setup.py has no source"
        text = source.read_text(encoding="utf-8")
        # attrs classes must stay interpreted (setup.py says why).
        assert "@attrs." not in text, f"{name} defines attrs classes"


def test_clan_feud_compiles_its_rules_and_keeps_its_working_class_interpreted() -> None:
    # The rules, the card plays and the row helpers are most of a Clan Feud step; the
    # working class W switches class with the state at run time and must stay interpreted
    # (setup.py), as must the attrs classes (the cards' CardInfo).
    import clangames.clan_feud as clan_feud
    from clangames.clan_feud import board, cards, playing, rows, rules, tasks, working

    names = listed_modules()
    compiled = {"clangames.clan_feud." + m for m in ("rules", "rows", "playing", "tasks", "drafts")}
    assert compiled <= set(names)
    interpreted = {"clangames.clan_feud." + m for m in ("working", "board", "cards")}
    assert not interpreted & set(names)
    # What moved out is still found where the rest of the package and the tests look.
    assert rules.W is working.W and rules.interned is working.interned is tasks.interned
    # The fast path's moves are the rules' own functions (compiled with them), not code
    # generated at run time; the state class hands them to the kernel's loop.
    state_class = clangames.load("clan_feud", players=2).initial_state().__class__
    assert state_class.__dict__["_apply_kept"] is rules.apply_kept
    assert state_class.__dict__["_apply_owned"] is rules.apply_owned
    assert board.put is rows.put and board._TOTALS is rows._TOTALS
    assert playing.CardInfo is cards.CardInfo is clan_feud.CardInfo
    assert attrs.has(cards.CardInfo)
    # The summary the rules read is still built per design, from the cards' data.
    game = clangames.load("clan_feud", players=3)
    infos = game.card_info
    assert len(infos) == len(game.deck.designs)
    assert all(isinstance(info, cards.CardInfo) for info in infos)


def test_the_kernels_rollout_loops_compile_apart_from_its_error_class() -> None:
    # The loops are most of what the kernel spends on a fast step; rollout.py keeps the
    # error class (it derives from interpreted classes) and calls them.
    from clangames.engine import rollout_loops

    rollout = importlib.import_module("clangames.engine.rollout")  # the package's is a function
    names = set(listed_modules())
    assert "clangames.engine.rollout_loops" in names
    assert "clangames.engine.rollout" not in names
    assert rollout.random_loop is rollout_loops.random_loop
    assert rollout.seats_loop is rollout_loops.seats_loop
    # Compiled, the loops hold the generator in halves; interpreted, in one int.
    assert rollout_loops.SPLIT is EXPECT_COMPILED


@pytest.mark.skipif(not EXPECT_COMPILED, reason="the pure-Python install (the default)")
def test_every_listed_module_is_loaded_compiled_from_the_install() -> None:
    names = listed_modules()
    for name in names:
        importlib.import_module(name)
    assert clangames.is_compiled()
    assert set(names) <= set(clangames.compiled_modules())
    src = str(ROOT / "src")
    for name in names:
        module = sys.modules[name]
        path = str(module.__file__)
        assert path.endswith(".so") or path.endswith(".pyd"), f"{name} is {path}"
        assert not path.startswith(src), f"{name} was loaded from the checkout: {path}"
    # The package itself comes from the install, so every interpreted module does too.
    package = Path(str(clangames.__file__)).parent
    assert not str(package).startswith(src)
    # Exactly the listed modules are installed compiled (no extension left over from a
    # build with another list).
    installed = {
        ".".join(("clangames", *path.relative_to(package).parent.parts, path.name.split(".")[0]))
        for path in package.rglob("*")
        if path.suffix in (".so", ".pyd")
    }
    assert installed == set(names)


@pytest.mark.skipif(EXPECT_COMPILED, reason="the compiled build")
def test_the_default_install_is_pure_python() -> None:
    assert not clangames.is_compiled()
    assert clangames.compiled_modules() == ()


def test_rules_assigned_in_a_class_body_are_methods_either_way() -> None:
    game = clangames.load("kings_kilt", players=2)
    state = game.initial_state()
    # The rules the state class took from its rules module act as methods of the state.
    assert state._chance_weights() == state.chance_weights()
    state = clangames.resolve_chance(state, clangames.Rng(3))
    player = state.current_player
    assert state._legal(player) == state.legal_actions(player)
    action = state.legal_actions(player)[0]
    assert state._apply(action, player) == state.apply(action, player)


def test_the_shim_binds_a_c_function_and_leaves_everything_else_alone() -> None:
    # ``len`` is a C function too, but not clangames's: Python never binds it, and
    # neither does the shim. A plain Python function stays the same object.
    def python_rule(self: object, x: int) -> int:
        return x

    class Holder:
        size = len
        rule = python_rule

    bind_compiled_rules(Holder)
    assert Holder.__dict__["size"] is len
    assert Holder.__dict__["rule"] is python_rule
    assert Holder().rule(4) == 4


def test_the_fast_loops_call_each_games_rules_as_plain_functions() -> None:
    # The compiled loops take a state class's ``_legal`` and ``_chance_weights`` once, as
    # functions of the state: compiled, the rule itself (the shim's method names it), so a
    # step runs no interpreted frame for them; interpreted (the loops both ways in
    # test_rollout_loops_split.py), the class's own function.
    from clangames.clan_feud import rules
    from clangames.engine.compiled import _method
    from clangames.engine.rollout_loops import rules_of

    wrapped = _method(len)
    assert wrapped.__compiled_rule__ is len
    for name in ("kings_kilt", "koa_kingmaker", "kilt_castle", "clan_feud"):
        cls = type(clangames.load(name).initial_state())
        legal, weights = rules_of(cls)
        for got, method in ((legal, cls._legal), (weights, cls._chance_weights)):
            assert got is getattr(method, "__compiled_rule__", method)
            assert (type(got).__name__ == "builtin_function_or_method") is EXPECT_COMPILED
    # Clan Feud's hooks are its rules' functions, as its moves are.
    cls = type(clangames.load("clan_feud", players=2).initial_state())
    assert rules_of(cls) == (rules.legal, rules.chance_weights)


def test_a_state_class_with_methods_of_another_kind_is_still_played() -> None:
    # A hook that is not a plain function (a descriptor of its own here) is looked up on
    # the state at each call, as the loops did before they took functions.
    from clangames.engine.rollout_loops import rules_of

    class Hook:
        def __get__(self, state: object, owner: type) -> object:
            return lambda *args: ("bound", state, args)

    class Odd:
        _legal = Hook()
        _chance_weights = Hook()

    legal, weights = rules_of(Odd)
    state = Odd()
    assert legal(state, 1) == ("bound", state, (1,))
    assert weights(state) == ("bound", state, ())
