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

from ..extras import require

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
    from ..server.settings import add_arguments as add_settings

    add_settings(parser)


def run(args: argparse.Namespace) -> int:
    require("web", *WEB_MODULES, feature="rummy500 serve")
    from ..server.database import DatabaseURLError, async_url
    from ..server.settings import SettingsError, from_arguments

    try:
        settings = from_arguments(args)
    except SettingsError as error:
        print(f"rummy500 serve: {error}", file=sys.stderr)
        return 2
    database = settings.database or default_database()
    try:
        async_url(database)
    except DatabaseURLError as error:
        print(f"rummy500 serve: --database: {error}", file=sys.stderr)
        return 2
    if database.startswith("postgres"):
        require("web", "asyncpg", feature="rummy500 serve with PostgreSQL")
    for path in (settings.certfile, settings.keyfile):
        if path is not None and not Path(path).is_file():
            print(f"rummy500 serve: {path}: no such file", file=sys.stderr)
            return 2
    from ..server.run import serve
    from ..web import replay_worker
    from ..web.pages import page_routes

    try:
        return serve(settings.replace(database=database), extra_routes=page_routes(),
                     on_close=[replay_worker.close])
    except KeyboardInterrupt:
        return 0
    except OSError as error:
        print(f"rummy500 serve: {error}", file=sys.stderr)
        return 1
