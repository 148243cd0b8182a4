"""Bots by name: drivers (the ``clangames`` command, benchmarks, tournaments) build any
registered bot from a name and a seed without knowing its class."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from clangames.bots.random_bot import RandomBot
from clangames.engine.errors import ClanGamesError
from clangames.engine.match import Policy
from clangames.engine.rng import Rng


class UnknownBotError(ClanGamesError, KeyError):
    """A bot name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


@attrs.frozen(slots=True)
class BotSpec:
    """A registered bot: its name, a one-line summary and a factory taking a seed Rng."""

    name: str
    summary: str
    factory: Callable[[Rng], Policy] = attrs.field(eq=False, repr=False)


_BOTS: dict[str, BotSpec] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def register_bot(spec: BotSpec) -> BotSpec:
    """Add a bot under ``spec.name`` (ValueError if a different bot has that name)."""
    key = _key(spec.name)
    existing = _BOTS.get(key)
    if existing is not None and existing != spec:
        raise ValueError(f"a different bot is already registered as {key!r}")
    _BOTS[key] = spec
    return spec


def bot_specs() -> tuple[BotSpec, ...]:
    """Every registered bot, by name."""
    return tuple(_BOTS[k] for k in sorted(_BOTS))


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` accepts, sorted."""
    return tuple(spec.name for spec in bot_specs())


def make_bot(name: str, seed: int | Rng) -> Policy:
    """A new bot of the registered kind ``name``, seeded with ``seed``
    (UnknownBotError listing the known names)."""
    spec = _BOTS.get(_key(name)) if isinstance(name, str) else None
    if spec is None:
        raise UnknownBotError(f"no bot called {name!r}; known bots: {', '.join(bot_names())}")
    return spec.factory(seed if isinstance(seed, Rng) else Rng(seed))


register_bot(BotSpec("random", "a uniformly random legal action", RandomBot))
