"""Public testing tools: the conformance harness, Hypothesis strategies, the GameMachine
and differential testing.

``check_game`` is what every built-in game passes in CI; a user writing a new game, a
front-end or a bot can run it too. ``clangames.testing.strategies`` needs Hypothesis
(the ``test`` extra) and is imported on demand, as is :class:`GameMachine` (from
``clangames.testing.machine``, loaded on first use of the name).
``clangames.testing.differential`` compares another implementation with this one.
"""

from typing import Any

from clangames.testing.conformance import (
    ALWAYS_FIRST,
    DEFAULT_RATE,
    ConformanceError,
    Report,
    check_game,
    check_state,
    random_playout,
)

__all__ = [
    "ALWAYS_FIRST",
    "DEFAULT_RATE",
    "ConformanceError",
    "GameMachine",
    "MachineFailure",
    "Report",
    "check_game",
    "check_state",
    "random_playout",
]


def __getattr__(name: str) -> Any:
    # GameMachine needs Hypothesis (the ``test`` extra): imported when first asked for.
    if name in ("GameMachine", "MachineFailure"):
        from clangames.testing import machine

        return getattr(machine, name)
    raise AttributeError(f"module 'clangames.testing' has no attribute {name!r}")
