"""The game registry: games register themselves; the kernel never imports a game.

:func:`load` keeps the games it builds, one per registered spec and set of parameters, so
that loading a game again (simulate's job batches, replaying a record, unpickling a state)
costs a lookup instead of building the game's tables again. A game is immutable (its memo
dicts are caches only), so sharing one object is safe.
"""

from __future__ import annotations

import os
import stat
import threading
from collections import OrderedDict
from typing import Any

from clangames.engine.errors import UnknownGameError
from clangames.engine.game import Game, GameSpec

_REGISTRY: dict[str, GameSpec] = {}

LOAD_CACHE_SIZE = 64
"""How many loaded games :func:`load` keeps (the least recently used go first): enough for
every game at every player count and a sweep of variants, bounded for long sessions that
load many distinct parameter sets."""

_LOADED: OrderedDict[tuple[Any, ...], tuple[GameSpec, Game]] = OrderedDict()
"""Loaded games by (name, parameters), each with the spec that built it."""
_LOADED_LOCK = threading.Lock()


def _new_lock_after_fork() -> None:
    # A worker forked while another thread held the lock would wait for it forever.
    global _LOADED_LOCK
    _LOADED_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_new_lock_after_fork)


def canonical_name(name: str) -> str:
    """``"kings-kilt"``, ``"Kings_Kilt"`` and ``"kings_kilt"`` all name the same game."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (a game package does this when it is imported)."""
    key = canonical_name(spec.name)
    existing = _REGISTRY.get(key)
    if existing is not None and existing != spec:
        raise ValueError(f"a different game is already registered as {key!r}")
    if existing is not spec:
        _forget(key)  # games built by another spec object (specs compare without factories)
    _REGISTRY[key] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game from the registry (for tests that register a game of their own),
    and the games :func:`load` kept for it."""
    key = canonical_name(name)
    _REGISTRY.pop(key, None)
    _forget(key)


def clear_load_cache() -> None:
    """Drop every game :func:`load` has kept (states keep the games they hold alive)."""
    with _LOADED_LOCK:
        _LOADED.clear()


def _forget(name: str) -> None:
    """Drop the kept games of the game registered as ``name`` (a canonical name)."""
    with _LOADED_LOCK:
        for key in [k for k in _LOADED if k[0] == name]:
            del _LOADED[key]


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


def load(name: str, /, **params: Any) -> Game:
    """The game ``name`` with ``params`` (defaults for the rest), every value checked:
    a bad one raises InvalidParameterError saying what is allowed. ``name`` is
    positional-only, so a game may have a parameter called ``name`` too.

    The same name and parameters give the same (immutable) game object within a process
    (up to :data:`LOAD_CACHE_SIZE` of them), as long as any data file a parameter names is
    unchanged: an edited file is read again."""
    spec = game_spec(name)
    resolved = spec.resolve(params)
    key = _load_key(spec, resolved)
    if key is None:
        return spec.factory(resolved)
    with _LOADED_LOCK:
        entry = _LOADED.get(key)
        if entry is not None and entry[0] is spec:
            _LOADED.move_to_end(key)
            return entry[1]
    game = spec.factory(resolved)  # outside the lock: building a game can take milliseconds
    with _LOADED_LOCK:
        entry = _LOADED.get(key)
        if entry is not None and entry[0] is spec:  # another thread built it first
            return entry[1]
        _LOADED[key] = (spec, game)
        while len(_LOADED) > LOAD_CACHE_SIZE:
            _LOADED.popitem(last=False)
    return game


def _load_key(spec: GameSpec, resolved: dict[str, object]) -> tuple[Any, ...] | None:
    """What identifies a loaded game: its canonical name and each resolved parameter with
    its type. A free-text parameter (a string without declared choices) may name a data
    file, so when it names a regular file the key holds that file's absolute path, device,
    inode, size and modification and change times instead: a file edited (or replaced)
    between two loads gives a new key and is read again. None for parameters that cannot
    key a dict (such a game is built every time)."""
    parts: list[Any] = [canonical_name(spec.name)]
    for param in spec.parameters:
        value = resolved[param.name]
        if isinstance(value, str) and param.choices is None:
            parts.append((param.name, str, value, _file_identity(value)))
        else:
            parts.append((param.name, type(value), value))
    key = tuple(parts)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _file_identity(path: str) -> tuple[object, ...] | None:
    """The identity and version of the regular file at ``path``, None if there is none."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # no such file, or not a path at all (say, a NUL byte)
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (
        os.path.abspath(path),
        info.st_dev,
        info.st_ino,
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
    )
