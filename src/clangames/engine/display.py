"""How a state and an action print for people, without the kernel knowing how to draw.

The kernel sits below the games and the rendering layer, so it cannot import a renderer.
Instead it keeps one hook: :func:`set_drawer` installs the function that turns a state
into text; ``clangames.rendering`` installs its plain-text drawer when it is imported, and
``import clangames`` installs a stand-in that imports it on the first picture, so the hook
is always filled for a library user.
``State.render`` and ``str(state)`` call :func:`draw`.

Actions are plain attrs values with no back-reference to their game, yet their text form
(``game.action_text``) may depend on the game's parameters. Every :class:`ActionTable`
registers its texts here (:func:`register_action_texts`), and the action classes get a
``__str__`` that looks the text up by value; a value two loaded games word differently is
ambiguous and prints as its ``repr`` (``state.action_text(action)`` always knows).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from clangames.engine.errors import ClanGamesError

if TYPE_CHECKING:
    from clangames.engine.state import State

Drawer = Callable[["State", "int | None", "int | None"], str]
"""``(state, seat, width) -> text``: the picture of ``state`` as ``seat`` sees it."""


class RenderingUnavailableError(ClanGamesError):
    """No drawer is installed (``clangames.rendering`` was never imported)."""


_drawer: list[Drawer] = []
_AMBIGUOUS = object()
_action_texts: dict[Hashable, object] = {}
_patched: set[type] = set()


def set_drawer(drawer: Drawer) -> None:
    """Install the function that draws states as text (the rendering layer calls this)."""
    _drawer[:] = [drawer]


def draw(state: State, seat: int | None = None, width: int | None = None) -> str:
    """The picture of ``state`` as ``seat`` sees it (None: the public view), ``width``
    columns wide (None: 80)."""
    if not _drawer:
        raise RenderingUnavailableError(
            "no renderer is installed; import clangames (or clangames.rendering) first"
        )
    return _drawer[0](state, seat, width)


def _action_str(action: Any) -> str:
    text = _action_texts.get(action, _AMBIGUOUS)
    return text if isinstance(text, str) else repr(action)


def register_action_texts(actions: Iterable[Hashable], texts: Iterable[str]) -> None:
    """Remember each action's text form so ``str(action)`` prints it; give each action
    class without its own ``__str__`` the shared one."""
    for action, text in zip(actions, texts, strict=True):
        known = _action_texts.get(action)
        if known is None:
            _action_texts[action] = text
        elif known != text:
            _action_texts[action] = _AMBIGUOUS
        cls = type(action)
        if cls not in _patched:
            _patched.add(cls)
            if cls.__str__ is object.__str__:
                cls.__str__ = _action_str  # type: ignore[method-assign]
