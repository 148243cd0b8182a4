"""The action table: every distinct action of a game, with a stable id and a text form.

A game lists all its distinct actions once, in id order. The table interns them, so
``legal_actions`` hands out shared objects (no allocation on the hot path), and it gives
the id encoding for RL (``id``/``get``/``mask``) and the text form that ``parse`` reads back.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

from clangames.engine.display import register_action_texts
from clangames.engine.errors import InvalidActionError
from clangames.engine.integers import as_integer

A = TypeVar("A", bound=Hashable)


def normalize_text(text: str) -> str:
    """Case- and spacing-insensitive key for an action's text form."""
    return " ".join(text.lower().split())


class ActionTable(Generic[A]):
    """All distinct actions of a game, ids 0..n-1, with their unique text forms."""

    __slots__ = ("_by_text", "_ids", "_texts", "actions")

    def __init__(self, actions: Sequence[A], text: Callable[[A], str]) -> None:
        self.actions: tuple[A, ...] = tuple(actions)
        self._ids: dict[A, int] = {}
        self._by_text: dict[str, A] = {}
        texts = []
        for i, action in enumerate(self.actions):
            if action in self._ids:
                raise ValueError(f"action {action!r} listed twice in the action table")
            self._ids[action] = i
            t = text(action)
            key = normalize_text(t)
            if key in self._by_text:
                raise ValueError(f"text {t!r} names two actions in the action table")
            self._by_text[key] = action
            texts.append(t)
        self._texts: tuple[str, ...] = tuple(texts)
        register_action_texts(self.actions, self._texts)  # so that str(action) is its text

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, action: A) -> int:
        """The stable integer id of ``action``."""
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{action!r} is not an action of this game") from None

    def get(self, action_id: int) -> A:
        """The action with id ``action_id``."""
        number = as_integer(action_id)
        if number is None:
            raise InvalidActionError(f"action id must be an int, got {action_id!r}")
        action_id = number
        if not 0 <= action_id < len(self.actions):
            raise InvalidActionError(
                f"action id {action_id} is out of range; expected 0..{len(self.actions) - 1}"
            )
        return self.actions[action_id]

    def intern(self, action: A) -> A:
        """The table's shared instance equal to ``action``."""
        return self.actions[self.id(action)]

    def text(self, action: A) -> str:
        """The text form of ``action`` (unique within the game)."""
        return self._texts[self.id(action)]

    def parse(self, text: str) -> A:
        """The action whose text form is ``text`` (case and spacing do not matter)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action text must be a string, got {text!r}")
        try:
            return self._by_text[normalize_text(text)]
        except KeyError:
            raise InvalidActionError(
                f"{text!r} is not an action of this game (e.g. {self._texts[0]!r})"
            ) from None

    def mask(self, legal: Iterable[A]) -> tuple[bool, ...]:
        """A boolean vector over all ids, true for the actions in ``legal``."""
        out = [False] * len(self.actions)
        for action in legal:
            out[self._ids[action]] = True
        return tuple(out)
