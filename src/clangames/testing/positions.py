"""The conformance harness's position checks (see :mod:`clangames.engine.position`).

Every state must write a position that reads back to an equal state and writes the same
text again. A game whose notation misses a state field fails when its notation is built
(``complete=True``); a format that loses information fails here, naming the field.
"""

from __future__ import annotations

from clangames.engine.codec import encode
from clangames.engine.errors import ClanGamesError
from clangames.engine.position import notation_of
from clangames.engine.state import State


def position_failure(state: State) -> tuple[str, str] | None:
    """``(check, message)`` if ``state``'s position does not round-trip exactly, else None."""
    try:
        text = state.to_position()
    except Exception as exc:  # any error writing a reachable state is a breach
        return "position", f"to_position() raised {type(exc).__name__}: {exc}"
    try:
        back = state.game.state_from_position(text)
    except ClanGamesError as exc:
        return "position-roundtrip", f"state_from_position rejected {text!r}: {exc}"
    if back != state:
        data, again = encode(state), encode(back)
        fields = [k for k, _ in notation_of(state.game).fields if data[k] != again[k]]
        return (
            "position-roundtrip",
            f"state_from_position(to_position()) differs in {fields or ['phase']}: {text!r}",
        )
    if back.to_position() != text:
        return "position-roundtrip", f"the position of the read-back state differs: {text!r}"
    return None
