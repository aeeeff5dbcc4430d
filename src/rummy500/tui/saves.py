"""Where a game in progress is kept, so that ``rummy500 play --resume`` continues it.

The save is a game record of NOTATION.md (``rummy500 replay`` reads it) with one
more key, ``table``: the seats, names, seed and the state of the game's random
source, so that the deals still to come are shuffled as they would have been.
It is rewritten after every move, so a crash or a closed terminal loses nothing.
A finished game moves to ``last-game.json``.

The folder is ``--save-dir``, else ``$RUMMY500_DATA_DIR``, else
``$XDG_DATA_HOME/rummy500``, else ``~/.local/share/rummy500``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..record import RecordFormatError, read

DATA_ENV = "RUMMY500_DATA_DIR"
CURRENT = "game.json"
LAST = "last-game.json"


def data_dir(explicit: Path | None = None, environ: Mapping[str, str] | None = None) -> Path:
    """The folder of saved games (see the module's text for the order of choices)."""
    env = os.environ if environ is None else environ
    if explicit is not None:
        return explicit
    if env.get(DATA_ENV):
        return Path(env[DATA_ENV])
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rummy500"


class SaveStore:
    """The saved game of one folder: the one in progress and the last finished one."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.current = directory / CURRENT
        self.last = directory / LAST

    def exists(self) -> bool:
        return self.current.is_file()

    def read(self) -> dict[str, Any]:
        """The saved game in progress; :class:`RecordFormatError` if there is none or it is bad."""
        if not self.exists():
            raise RecordFormatError(f"there is no game in progress to resume in {self.directory}")
        return read(self.current)

    def write(self, data: Mapping[str, Any]) -> None:
        """Keep ``data`` as the game in progress (written whole, then renamed into place)."""
        self._write(self.current, data)

    def finish(self, data: Mapping[str, Any]) -> None:
        """Keep a finished game as the last game; no game is in progress any more."""
        self._write(self.last, data)
        self.current.unlink(missing_ok=True)

    def _write(self, path: Path, data: Mapping[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(data) + "\n", encoding="utf-8")
        os.replace(partial, path)
