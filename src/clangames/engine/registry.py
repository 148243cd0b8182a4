"""The game registry: games register themselves; the kernel never imports a game."""

from __future__ import annotations

from typing import Any

from clangames.engine.errors import UnknownGameError
from clangames.engine.game import Game, GameSpec

_REGISTRY: dict[str, GameSpec] = {}


def canonical_name(name: str) -> str:
    """``"kings-kilt"``, ``"Kings_Kilt"`` and ``"kings_kilt"`` all name the same game."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (a game package does this when it is imported)."""
    key = canonical_name(spec.name)
    existing = _REGISTRY.get(key)
    if existing is not None and existing != spec:
        raise ValueError(f"a different game is already registered as {key!r}")
    _REGISTRY[key] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game from the registry (for tests that register a game of their own)."""
    _REGISTRY.pop(canonical_name(name), None)


def games() -> tuple[GameSpec, ...]:
    """Every registered game, by name."""
    return tuple(_REGISTRY[k] for k in sorted(_REGISTRY))


def game_spec(name: str) -> GameSpec:
    """The registered game called ``name`` (UnknownGameError listing the known ones)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a string, got {name!r}")
    spec = _REGISTRY.get(canonical_name(name))
    if spec is None:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"no game called {name!r}; registered games: {known}")
    return spec


def load(name: str, **params: Any) -> Game:
    """The game ``name`` with ``params`` (defaults for the rest), every value checked:
    a bad one raises InvalidParameterError saying what is allowed."""
    spec = game_spec(name)
    return spec.factory(spec.resolve(params))
