"""Ready-made players (policies) for clangames.

Every bot follows the kernel's :class:`~clangames.engine.match.Policy` protocol
(``act(state, player) -> action``), so it can sit at any seat of a
:class:`~clangames.Match`. Bots are seeded with the kernel's :class:`~clangames.Rng`,
never the global ``random``, so a game between bots is reproducible from its seeds.

Bots are also registered by name (:func:`make_bot`, :func:`bot_names`) so drivers such as
the ``clangames`` command can offer every bot without knowing each one.
"""

from clangames.bots.ismcts import ISMCTSBot
from clangames.bots.random_bot import RandomBot
from clangames.bots.registry import (
    BotSpec,
    UnknownBotError,
    bot_names,
    bot_specs,
    make_bot,
    register_bot,
)

__all__ = [
    "BotSpec",
    "ISMCTSBot",
    "RandomBot",
    "UnknownBotError",
    "bot_names",
    "bot_specs",
    "make_bot",
    "register_bot",
]
