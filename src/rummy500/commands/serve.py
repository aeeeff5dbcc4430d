"""``rummy500 serve``: online tables that people join by a link, computer players in any seat.

Needs the ``[web]`` extra. The database is a SQLite file in the user's data folder
unless ``--database`` names another file (``sqlite:///PATH``) or PostgreSQL
(``postgresql://USER@HOST/DB``); several processes on one PostgreSQL database serve
the same tables.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .extras import require

WEB_MODULES = ("starlette", "uvicorn", "sqlalchemy", "alembic", "aiosqlite", "websockets",
               "platformdirs")
DATA_ENV = "RUMMY500_DATA_DIR"


def default_database() -> str:
    folder = os.environ.get(DATA_ENV)
    if folder:
        path = Path(folder)
    else:
        import platformdirs

        path = platformdirs.user_data_path("rummy500")
    return f"sqlite:///{path / 'tables.db'}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    parser.add_argument("--port", type=int, default=8500,
                        help="the port to listen on (default 8500; 0 picks a free one)")
    parser.add_argument("--database", "--db", metavar="URL", default=None,
                        help="sqlite:///PATH or postgresql://USER@HOST/DB (default: a SQLite "
                             "file in the user's data folder)")
    parser.add_argument("--pace", type=float, default=0.8, metavar="SECONDS",
                        help="how long computer players wait before each move, four times as "
                             "long before their first move of a deal (default 0.8)")
    parser.add_argument("--log-level", default="warning",
                        choices=["critical", "error", "warning", "info", "debug"])


def run(args: argparse.Namespace) -> int:
    require("web", *WEB_MODULES, feature="rummy500 serve")
    if not 0 <= args.port <= 65535:
        print(f"rummy500 serve: --port must be from 0 to 65535, not {args.port}",
              file=sys.stderr)
        return 2
    if not 0 <= args.pace <= 60:
        print("rummy500 serve: --pace must be from 0 to 60 seconds", file=sys.stderr)
        return 2
    from ..server.store import DatabaseURLError, async_url

    database = args.database or default_database()
    try:
        async_url(database)
    except DatabaseURLError as error:
        print(f"rummy500 serve: --database: {error}", file=sys.stderr)
        return 2
    if database.startswith("postgres"):
        require("web", "asyncpg", feature="rummy500 serve with PostgreSQL")
    from ..server.run import serve

    try:
        return serve(database, args.host, args.port, pace=args.pace, log_level=args.log_level)
    except KeyboardInterrupt:
        return 0
    except OSError as error:
        print(f"rummy500 serve: {error}", file=sys.stderr)
        return 1
