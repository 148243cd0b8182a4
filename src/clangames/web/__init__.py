"""``clangames serve``: games played from several screens (issue 19), an ASGI front-end.

:mod:`~clangames.web.hub` holds the games and every rule of what a seat may see and do, with
no web framework; :mod:`~clangames.web.store` keeps them in SQLite; :mod:`~clangames.web.app`
is the Starlette application (the ``[web]`` extra: ``pip install 'clangames[web]'``), and
:mod:`~clangames.web.page` its pages. Only ``app`` needs the extra.
"""

from clangames.web.hub import Halt, Hub, Room, SeatSpec, WebError
from clangames.web.store import Incident, Store, StoreError, default_db_path

__all__ = [
    "Halt",
    "Hub",
    "Incident",
    "Room",
    "SeatSpec",
    "Store",
    "StoreError",
    "WebError",
    "default_db_path",
]
