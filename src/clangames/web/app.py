"""The ASGI application of ``clangames serve`` (Starlette): pages, a JSON API and a
WebSocket per page for live updates; bots and chance move on the server.

Routes: ``GET /`` (a page to create a game), ``POST /api/games`` (create), ``GET
/play/{game}/{token}`` (a seat's page), ``GET /watch/{game}`` (a spectator's page), ``GET
/api/games/{game}/view`` (``?token=``: the seat's view, else the public one), ``POST
/api/games/{game}/act``, ``POST /api/games/{game}/retry`` (a paused game), ``GET
/api/games/{game}/record`` (a finished game's record) and the WebSocket ``/ws/{game}``
(``?token=``). Every refusal is a JSON ``{"error": ...}`` with a clear message; an
unexpected failure is ``{"error": "internal error"}``, never a trace. A failure of the
server's own moves (a bot, chance) is never silent: see :meth:`Server._automatic`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import traceback
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from clangames.engine.phases import CHANCE
from clangames.engine.registry import games
from clangames.web.hub import Hub, Room, WebError
from clangames.web.page import create_page, game_page
from clangames.web.store import Store

MAX_BODY = 16 * 1024
"""Largest HTTP request body accepted (bytes)."""
MAX_MESSAGE = 4 * 1024
"""Largest WebSocket message accepted (characters)."""
MAX_WATCHERS = 64
"""Open pages per game."""
NESTED = "the JSON nests too deeply to be read: expected a JSON object of plain values"
"""The refusal of JSON nested deeper than the parser goes (a body within MAX_BODY can)."""
BINARY = "expected a text message (JSON), not binary data"
"""The refusal of a binary WebSocket frame (the pages send text)."""

log = logging.getLogger("clangames.web")

T = TypeVar("T")

BOT_DEADLINE = 60.0
"""Seconds the server waits for a bot's decision (bots are held to at most
``MAX_BOT_SECONDS``; this is a safety net for one that hangs): then it plays a random
legal move for the seat, as when the bot raises."""


class Server:
    """The hub plus what only a running server has: open pages, locks, bot tasks. Each
    is dropped when nothing uses it any more, so none grows with the games played."""

    def __init__(self, hub: Hub, bot_deadline: float = BOT_DEADLINE) -> None:
        self.hub = hub
        self.bot_deadline = bot_deadline
        self.watchers: dict[str, list[tuple[WebSocket, int | None]]] = {}
        # A lock nobody holds a reference to is neither held nor waited for, so it may
        # go and a new one take its place.
        self.locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.loading = asyncio.Lock()
        """One game is loaded from the store at a time: old games asked for at once
        cannot take the machine from the games being played."""

    def lock(self, room: Room) -> asyncio.Lock:
        """The lock that orders the moves of one game."""
        found = self.locks.get(room.id)
        if found is None:
            found = self.locks[room.id] = asyncio.Lock()
        return found

    async def room(self, game_id: Any) -> Room:
        """The game ``game_id`` (404 if there is none, or if it cannot be set up: then
        remembered, and refused at once from then on). One no longer played and not in
        memory is loaded from the store in a thread of its own, so that pages of the games
        being played are not held up meanwhile (one ended before finals were saved is
        replayed, which takes seconds for a long game)."""
        found = self.hub.in_memory(game_id)
        if found is not None:
            return found
        async with self.loading:
            found = self.hub.in_memory(game_id)  # loaded while this request waited
            if found is not None:
                return found
            stored = self.hub.stored(game_id)
            try:
                room = await _in_thread(functools.partial(self.hub.load, stored))
            except WebError as exc:
                self.hub.refuse(stored.id, exc)
                raise
            return self.hub.adopt(room)

    async def broadcast(self, room: Room) -> None:
        """Send every open page of ``room`` its own view (after the move was saved)."""
        for ws, seat in list(self.watchers.get(room.id, [])):
            await self.send_view(room, ws, seat)

    async def send_view(self, room: Room, ws: WebSocket, seat: int | None) -> None:
        """Send one page its view. A view that cannot be built is a bug, logged and told
        to the page as an internal error (the page stays: the next move may draw); only a
        page that cannot be written to is closed, and forgotten."""
        try:
            payload = room.view(seat)
        except Exception:
            log.exception("game %s: the view of seat %s failed", room.id, seat)
            payload = {"type": "error", "status": 500, "error": "internal error"}
        try:
            await ws.send_json(payload)
        except Exception:  # a closed page: forget it
            self.forget(room.id, ws)

    def forget(self, game_id: str, ws: WebSocket) -> None:
        """Stop sending views to a closed page."""
        pages = self.watchers.get(game_id, [])
        pages[:] = [(w, s) for w, s in pages if w is not ws]
        if not pages:
            self.watchers.pop(game_id, None)

    def kick(self, room: Room) -> None:
        """Make sure the server's own moves (bots, chance) of ``room`` are under way."""
        task = self.tasks.get(room.id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._automatic(room))
            self.tasks[room.id] = task
            task.add_done_callback(functools.partial(self._finished, room.id))

    def _finished(self, game_id: str, task: asyncio.Task[None]) -> None:
        """Forget a task that has made all the moves it could (a later one may follow)."""
        if self.tasks.get(game_id) is task:
            del self.tasks[game_id]

    async def _automatic(self, room: Room) -> None:
        """Make the server's own moves until humans are to move, the game is over or it
        pauses. Nothing here fails silently: a bot that raises or hangs is replaced by a
        random legal move for that decision; any other failure (chance, the rules, the
        database) pauses the game with a message to every page. Either way the traceback
        goes to the server's log and the incident to the database."""
        try:
            while await self._one_move(room):
                await self.broadcast(room)
        except Exception as exc:
            log.exception("game %s: the server's own move failed; the game is paused", room.id)
            async with self.lock(room):
                self.hub.halt(room, self._moving(room), _name(exc), _detail(exc))
            await self.broadcast(room)

    @staticmethod
    def _moving(room: Room) -> int:
        """Whose move the server was making (chance unless a bot seat is to move)."""
        state = room.state
        if state.is_chance or state.is_terminal:
            return CHANCE
        bots = [p for p in state.to_move if room.seats[p].kind == "bot"]
        return bots[0] if bots else CHANCE

    async def _one_move(self, room: Room) -> bool:
        """Make one move of the server's; False when there is none to make."""
        async with self.lock(room):
            nxt = room.automatic()
            state = room.state
        if nxt is None:
            return False
        player, choose = nxt
        failure: tuple[str, str] | None = None
        action = None
        job = _in_thread(functools.partial(choose, state))
        done, _ = await asyncio.wait({job}, timeout=self.bot_deadline)
        if not done:
            job.cancel()
            said = f"no decision within {self.bot_deadline:g} seconds"
            if player == CHANCE:
                raise TimeoutError(f"chance: {said}")
            failure = (said, f"the bot was still deciding after {self.bot_deadline:g} s")
            log.error("game %s: player %d's bot made %s", room.id, player, said)
        else:
            try:
                action = job.result()
            except Exception as exc:
                if player == CHANCE:
                    raise
                failure = (_name(exc), _detail(exc))
                log.exception("game %s: player %d's bot failed", room.id, player)
        async with self.lock(room):
            if room.state is not state:
                return True  # a human moved meanwhile: decide again
            if failure is not None:
                self.hub.fall_back(room, player, *failure)
            else:
                self.hub.commit(room, action, player)
        return True

    async def idle(self, game_id: str) -> None:
        """Wait until the server has no move of its own to make in ``game_id`` (tests)."""
        task = self.tasks.get(game_id)
        if task is not None:
            await task


def _in_thread(work: Callable[[], T]) -> asyncio.Future[T]:
    """``work()`` in a thread of its own, as a future of the running loop. A daemon
    thread, not the loop's pool: a bot that hangs cannot be stopped, and the game goes on
    without it, but it must not hold up the server's shutdown either."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(outcome: Callable[[], None]) -> None:
        if not future.done():  # not given up on (cancelled at the deadline)
            outcome()

    def run() -> None:
        outcome: Callable[[], None]
        try:
            result = work()
        except Exception as exc:
            outcome = functools.partial(future.set_exception, exc)
        else:
            outcome = functools.partial(future.set_result, result)
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(deliver, outcome)

    threading.Thread(target=run, name="clangames-work", daemon=True).start()
    return future


def _name(exc: BaseException) -> str:
    """An exception as players may see it: its class only (its message may quote hidden
    state)."""
    return type(exc).__name__


def _detail(exc: BaseException) -> str:
    """An exception in full, for the log and the database."""
    return "".join(traceback.format_exception(exc))


async def _json_body(request: Request) -> Any:
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise WebError(413, f"the request body exceeds {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise WebError(400, f"the request body is not JSON: {exc}") from exc
    except RecursionError as exc:  # a body small enough can still nest beyond the parser
        raise WebError(400, NESTED) from exc


def create_app(
    db: str = ":memory:", max_games: int | None = None, bot_deadline: float = BOT_DEADLINE
) -> Starlette:
    """The server's ASGI app on the SQLite file ``db`` (every game in it resumes).
    ``":memory:"`` (the default, for tests) keeps the games only while the app lives; an
    empty name is refused with a StoreError (SQLite would use a temporary file, deleted
    when it closes)."""
    store = Store(db)
    hub = Hub(store) if max_games is None else Hub(store, max_games)
    server = Server(hub, bot_deadline)

    def server_of(request: Request | WebSocket) -> Server:
        found: Server = request.app.state.server
        return found

    async def index(request: Request) -> Response:
        catalogue = [
            {"name": s.name, "title": s.title, "min": s.min_players, "max": s.max_players}
            for s in games()
        ]
        return HTMLResponse(create_page(catalogue))

    async def create(request: Request) -> Response:
        srv = server_of(request)
        body = await _json_body(request)
        room, tokens = srv.hub.create(body)
        srv.kick(room)
        return JSONResponse(
            {
                "game": room.id,
                "spectator": f"/watch/{room.id}",
                "seats": {str(seat): f"/play/{room.id}/{token}" for seat, token in tokens.items()},
            },
            status_code=201,
        )

    async def play(request: Request) -> Response:
        srv = server_of(request)
        room = await srv.room(request.path_params["game"])
        token = request.path_params["token"]
        seat = srv.hub.seat_of(room, token)
        return HTMLResponse(game_page(room.id, room.game.info.title, seat, token))

    async def watch(request: Request) -> Response:
        room = await server_of(request).room(request.path_params["game"])
        return HTMLResponse(game_page(room.id, room.game.info.title, None, None))

    async def view(request: Request) -> Response:
        srv = server_of(request)
        room = await srv.room(request.path_params["game"])
        token = request.query_params.get("token")
        seat = None if token is None else srv.hub.seat_of(room, token)
        async with srv.lock(room):
            return JSONResponse(room.view(seat))

    async def changed(request: Request, change: Callable[[Hub, str | Room, Any], Room]) -> Response:
        """A seat's change to a game (``Hub.act`` or ``Hub.retry``) under the room's lock;
        then every page hears of it, the bots are woken and the seat gets its new view."""
        srv = server_of(request)
        body = await _json_body(request)
        room = await srv.room(request.path_params["game"])
        async with srv.lock(room):
            change(srv.hub, room, body)
            payload = room.view(srv.hub.seat_of(room, body["token"]))
        await srv.broadcast(room)
        srv.kick(room)
        return JSONResponse(payload)

    async def act(request: Request) -> Response:
        return await changed(request, Hub.act)

    async def retry(request: Request) -> Response:
        return await changed(request, Hub.retry)

    async def record(request: Request) -> Response:
        srv = server_of(request)
        room = await srv.room(request.path_params["game"])
        rec = srv.hub.record(room)
        return Response(
            rec.dumps() + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{rec.game}-game.json"'},
        )

    async def socket(ws: WebSocket) -> None:
        srv = server_of(ws)
        await ws.accept()
        try:
            room = await srv.room(ws.path_params["game"])
            token = ws.query_params.get("token")
            seat = None if token is None else srv.hub.seat_of(room, token)
        except WebError as exc:
            await _turn_away(ws, exc)
            return
        try:
            async with srv.lock(room):
                # Counted and joined under the lock: pages opening at the same moment
                # (waiting here for one another's first view) cannot all slip in.
                pages = srv.watchers.setdefault(room.id, [])
                full = len(pages) >= MAX_WATCHERS
                if not full:
                    pages.append((ws, seat))
                    await srv.send_view(room, ws, seat)
            if full:
                await _turn_away(
                    ws, WebError(503, f"this game already has {MAX_WATCHERS} open pages")
                )
                return
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                text = frame.get("text")
                if text is None:  # a binary frame: refused like any other bad message
                    await ws.send_json({"type": "error", "status": 400, "error": BINARY})
                    continue
                await _message(srv, room, ws, seat, token, text)
        except WebSocketDisconnect:
            pass
        finally:
            srv.forget(room.id, ws)

    async def _turn_away(ws: WebSocket, exc: WebError) -> None:
        await ws.send_json({"type": "error", "status": exc.status, "error": str(exc)})
        await ws.close(code=1008)

    async def _message(
        srv: Server, room: Room, ws: WebSocket, seat: int | None, token: str | None, text: str
    ) -> None:
        try:
            if len(text) > MAX_MESSAGE:
                raise WebError(413, f"a message may hold at most {MAX_MESSAGE} characters")
            try:
                message = json.loads(text)
            except ValueError as exc:
                raise WebError(400, f"the message is not JSON: {exc}") from exc
            except RecursionError as exc:
                raise WebError(400, NESTED) from exc
            kind = message.get("type") if isinstance(message, dict) else None
            if not isinstance(message, dict) or kind not in ("act", "retry"):
                raise WebError(
                    400, 'expected {"type": "act", "turn": N, "action": "..."} or {"type": "retry"}'
                )
            if seat is None or token is None:
                raise WebError(403, "a spectator cannot act")
            if message.get("token", token) != token:
                raise WebError(403, "a page acts only with its own seat's token")
            async with srv.lock(room):
                if kind == "retry":
                    srv.hub.retry(room, {"token": token})
                else:
                    srv.hub.act(room, {**message, "token": token})
        except WebError as exc:
            await ws.send_json({"type": "error", "status": exc.status, "error": str(exc)})
            return
        except Exception:
            log.exception("game %s: a message failed", room.id)
            await ws.send_json({"type": "error", "status": 500, "error": "internal error"})
            return
        await srv.broadcast(room)
        srv.kick(room)

    async def refused(request: Request, exc: Exception) -> Response:
        status = exc.status if isinstance(exc, WebError) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    async def http_error(request: Request, exc: Exception) -> Response:
        if not isinstance(exc, HTTPException):
            return await crashed(request, exc)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def crashed(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s", request.url.path, exc_info=exc)
        return JSONResponse({"error": "internal error"}, status_code=500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for room in hub.rooms.values():
            server.kick(room)
        yield
        for task in list(server.tasks.values()):
            task.cancel()
        store.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", create, methods=["POST"]),
            Route("/api/games/{game}/view", view),
            Route("/api/games/{game}/act", act, methods=["POST"]),
            Route("/api/games/{game}/retry", retry, methods=["POST"]),
            Route("/api/games/{game}/record", record),
            Route("/play/{game}/{token}", play),
            Route("/watch/{game}", watch),
            WebSocketRoute("/ws/{game}", socket),
        ],
        exception_handlers={WebError: refused, HTTPException: http_error, Exception: crashed},
        lifespan=lifespan,
    )
    app.state.server = server
    return app
