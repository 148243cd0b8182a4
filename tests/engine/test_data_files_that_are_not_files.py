"""A component file parameter that names a named pipe or a socket is refused by kind
before anything is opened, and an unreadable path's message gives the system's reason
once, without Python's ``[Errno n]`` and a second copy of the path.

Before: ``load("kilt_castle", board=FIFO)`` (and ``clangames demo ... --param
board=FIFO``) waited for a writer forever; a symbolic link loop read "cannot be read:
[Errno 40] Too many levels of symbolic links: 'loop'"."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

import clangames
from clangames.engine.errors import InvalidParameterError

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
GAMES = [("kings_kilt", "components"), ("koa_kingmaker", "cards"), ("kilt_castle", "board")]


@needs_fifo
@pytest.mark.parametrize(("game", "param"), GAMES)
def test_a_named_pipe_is_refused_without_waiting(tmp_path: Path, game: str, param: str) -> None:
    fifo = tmp_path / "data.toml"
    os.mkfifo(fifo)

    # A loader that opened the pipe would wait for a writer: this one comes at once and
    # writes nothing, so such a loader fails below (an empty file) instead of hanging.
    def write_nothing() -> None:
        with open(fifo, "wb"):
            pass

    writer = threading.Thread(target=write_nothing, daemon=True)
    writer.start()
    try:
        with pytest.raises(
            InvalidParameterError,
            match=f"{param} file '.*' is a named pipe \\(FIFO\\), not a regular file;"
            " expected a TOML file",
        ):
            clangames.load(game, **{param: str(fifo)})
    finally:
        # release the writer, which waits for a reader (kept open until it is through)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        writer.join(5)
        os.close(reader)
    assert not writer.is_alive()


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs Unix sockets")
def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(InvalidParameterError, match="is a socket, not a regular file"):
            clangames.load("kilt_castle", board=str(path))


def test_a_link_loop_gives_the_reason_once(tmp_path: Path) -> None:
    loop = tmp_path / "loop.toml"
    os.symlink("other.toml", loop)
    os.symlink("loop.toml", tmp_path / "other.toml")
    with pytest.raises(InvalidParameterError) as caught:
        clangames.load("kilt_castle", board=str(loop))
    assert str(caught.value) == (
        f"board file {str(loop)!r} cannot be read: Too many levels of symbolic links"
    )
