"""The seats this terminal holds at online tables, so that ``rummy500 play --join URL``
takes the same seat again.

A seat token is a bearer secret (docs/protocol.md): it is kept in ``tables.json`` in
the folder of the terminal game's saves (:func:`~rummy500.session.saves.data_dir`),
readable by its owner only, written to a new file and renamed over the old one.
Each entry is keyed by the server's address and the table id.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules import Rules

TOKENS = "tables.json"
FORMAT = "rummy500 seats at online tables"


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat this terminal took at a table."""

    seat: int
    token: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat taken (or taken again) at a table: everything the remote table needs."""

    base: str
    table: str
    seat: int
    token: str
    rules: Rules
    players: int
    url: str
    directory: Path | None = None
    """Where this terminal keeps its seat tokens (:class:`SeatTokens`)."""
    said: str = ""
    """What was done otherwise than the command line asked, and why (for the log)."""


class SeatTokens:
    """The seat tokens kept in ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / TOKENS

    @staticmethod
    def key(base: str, table: str) -> str:
        return f"{base.rstrip('/')}/t/{table}"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        tables = data.get("tables") if isinstance(data, dict) else None
        return dict(tables) if isinstance(tables, dict) else {}

    def get(self, base: str, table: str) -> HeldSeat | None:
        entry = self._read().get(self.key(base, table))
        if not isinstance(entry, dict):
            return None
        seat, token, name = entry.get("seat"), entry.get("token"), entry.get("name")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str):
            return None
        return HeldSeat(seat, token, name if isinstance(name, str) else None)

    def put(self, base: str, table: str, held: HeldSeat) -> None:
        tables = self._read()
        tables[self.key(base, table)] = {"seat": held.seat, "token": held.token,
                                         "name": held.name}
        self._write(tables)

    def forget(self, base: str, table: str) -> None:
        tables = self._read()
        if tables.pop(self.key(base, table), None) is not None:
            self._write(tables)

    def _write(self, tables: dict[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        text = json.dumps({"format": FORMAT, "tables": tables}, indent=1, sort_keys=True)
        handle, name = tempfile.mkstemp(prefix=".tables-", dir=self.directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:  # mkstemp: mode 0600
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(name, self.path)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise


__all__ = ["TOKENS", "HeldSeat", "Joined", "SeatTokens"]
