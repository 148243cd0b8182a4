"""What the optional compiled build changes at run time, and the one shim it needs.

``CLANGAMES_COMPILE=1 pip install --no-build-isolation .`` compiles some pure rule modules
with mypyc (the list and the reasons are in setup.py); the default install is pure Python.
Everything behaves the same either way; :func:`compiled_modules` says which build runs
(for tests and bug reports).

The shim: a compiled module's functions are C functions, which do not bind as methods
when a class body assigns them (``_legal = turn.legal_actions``, the games' way of making
the rules themselves a state's methods). :func:`bind_compiled_rules` gives such an
attribute a Python method that calls the compiled function, once per class; a pure
install has no compiled functions and the class is left as it is. The method names the
function it calls (``__compiled_rule__``), which the fast path's loops call directly.
"""

from __future__ import annotations

import importlib.machinery
import inspect
import sys
import types
from typing import Any


def compiled_modules() -> tuple[str, ...]:
    """The clangames modules loaded so far that are compiled extensions, sorted (empty for
    the default pure-Python install; importing ``clangames`` loads every rule module)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    names = [
        name
        for name, module in list(sys.modules.items())
        if (name == "clangames" or name.startswith("clangames."))
        and str(getattr(module, "__file__", None) or "").endswith(suffixes)
    ]
    return tuple(sorted(names))


def is_compiled() -> bool:
    """True when this clangames runs the optional mypyc-compiled rule modules."""
    return bool(compiled_modules())


def bind_compiled_rules(cls: type) -> None:
    """Give ``cls`` a method for each compiled clangames function its body assigned, so
    that ``state.rule(...)`` passes the state as the first argument, as a Python function
    would. Anything else, and every class of a pure install, is left untouched."""
    for name, value in list(vars(cls).items()):
        if type(value) is types.BuiltinFunctionType and str(
            getattr(value, "__module__", "")
        ).startswith("clangames."):
            setattr(cls, name, _method(value))


def _method(rule: Any) -> Any:
    """A Python function with ``rule``'s own parameters that calls it: one more frame,
    but a Python function binds as a method."""
    parameters = inspect.signature(rule).parameters.values()
    plain = all(
        p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and p.default is inspect.Parameter.empty
        for p in parameters
    )
    if not plain:

        def method(*args: Any, **kwargs: Any) -> Any:
            return rule(*args, **kwargs)

    else:
        names = ", ".join(p.name for p in parameters)
        namespace: dict[str, Any] = {"rule": rule}
        exec(f"def method({names}):\n    return rule({names})\n", namespace)
        method = namespace["method"]
    method.__name__ = rule.__name__
    method.__qualname__ = rule.__qualname__
    method.__doc__ = rule.__doc__
    method.__module__ = rule.__module__
    # The fast path's loops call the rule itself, without this frame
    # (engine/rollout_loops.py, ``rules_of``); a name of its own, not ``__wrapped__``,
    # which a game's own decorators may set.
    method.__compiled_rule__ = rule  # type: ignore[attr-defined]
    return method
