"""Public testing tools: the conformance harness and Hypothesis strategies.

``check_game`` is what every built-in game passes in CI; a user writing a new game, a
front-end or a bot can run it too. ``clangames.testing.strategies`` needs Hypothesis
(the ``test`` extra) and is imported on demand.
"""

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
    "Report",
    "check_game",
    "check_state",
    "random_playout",
]
