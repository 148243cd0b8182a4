"""The kernel's hook for SVG pictures of states (issue 19), filled by the rendering layer.

Like :mod:`clangames.engine.display` for text: the kernel cannot import the rendering
layer, so ``clangames.rendering.svg`` installs its drawer here when it is imported (and
``import clangames`` installs a stand-in that imports it on the first picture).
:meth:`State.svg` and ``State._repr_svg_`` (a state as a picture in Jupyter) call
:func:`draw_svg`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from clangames.engine.display import RenderingUnavailableError

if TYPE_CHECKING:
    from clangames.engine.state import State

SvgDrawer = Callable[["State", "int | None"], str]
"""``(state, seat) -> SVG text``: the picture of ``state`` as ``seat`` sees it."""

_svg_drawer: list[SvgDrawer] = []


def set_svg_drawer(drawer: SvgDrawer) -> None:
    """Install the function that draws states as SVG (the rendering layer calls this)."""
    _svg_drawer[:] = [drawer]


def draw_svg(state: State, seat: int | None = None) -> str:
    """The SVG picture of ``state`` as ``seat`` sees it (None: the public view)."""
    if not _svg_drawer:
        raise RenderingUnavailableError(
            "no SVG drawer is installed; import clangames (or clangames.rendering.svg) first"
        )
    return _svg_drawer[0](state, seat)
