"""``clangames serve``: play games from several screens on one network (issue 19).

Runs the :mod:`clangames.web` application under uvicorn; both come with the ``[web]``
extra, so this module imports them only when the command runs (without the extra the
command says how to install it, in the usual one-line error).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from clangames.cli.errors import UsageError


def add_parser(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``clangames`` parser."""
    parser = subparsers.add_parser(
        "serve",
        help="serve games to players at several screens (browser pages, secret seat links)",
        description=(
            "Serve games over HTTP: create a game at http://HOST:PORT/, give each player"
            " their secret link, watch with the public link. Games are kept in an SQLite"
            " file and resume when the server starts again. Needs the [web] extra."
        ),
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for every network interface)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db",
        default=None,
        metavar="FILE",
        help="the SQLite file of the games (default: clangames/serve.sqlite3 in the user's"
        " data directory, $XDG_DATA_HOME or ~/.local/share; an empty name is refused)",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        default=None,
        metavar="N",
        help="games played at once, at most (default 64); finished ones do not count",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``clangames serve`` until interrupted."""
    if not 0 < args.port < 65536:
        raise UsageError(f"serve: --port must be in 1..65535, got {args.port}")
    if args.max_games is not None and args.max_games < 1:
        raise UsageError(f"serve: --max-games must be at least 1, got {args.max_games}")
    if args.db == "":
        # SQLite takes an empty name for a temporary database, deleted when it closes: the
        # server would run and lose every game at its stop without a word.
        raise UsageError(
            "serve: --db must name the games' SQLite file, got an empty name (SQLite would"
            " keep the games in a temporary database, lost when the server stops)"
        )
    try:
        import uvicorn

        from clangames.web.app import create_app
        from clangames.web.store import default_db_path
    except ImportError as exc:
        raise UsageError(
            f"serve needs the [web] extra ({exc.name} is missing): pip install 'clangames[web]'"
        ) from exc
    db = str(args.db if args.db is not None else default_db_path())
    app = create_app(db, max_games=args.max_games)
    out.write(f"clangames serve: http://{args.host}:{args.port}/ (games kept in {db})\n")
    out.flush()
    # Frames far beyond the largest message the app accepts are cut off by uvicorn itself.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=1 << 16)
    return 0
