"""How the terminal game shows a hand (by suit or by rank), kept beside the saved games so
that a resumed game, the next game and an online seat show it as it was left."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

PREFS = "terminal.json"
BY_RANK = "rank"
BY_SUIT = "suit"


def hand_by_rank(directory: Path | None) -> bool:
    """Whether hands were last sorted by rank in ``directory`` (by suit when not known)."""
    if directory is None:
        return False
    try:
        data = json.loads((directory / PREFS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("hand_order") == BY_RANK


def keep_hand_order(directory: Path | None, by_rank: bool) -> None:
    """Keep the hand's order in ``directory``; a folder that cannot be written only loses
    the preference."""
    if directory is None:
        return
    text = json.dumps({"hand_order": BY_RANK if by_rank else BY_SUIT})
    with contextlib.suppress(OSError):
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, name = tempfile.mkstemp(prefix=".terminal-", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(name, directory / PREFS)
        finally:
            Path(name).unlink(missing_ok=True)


__all__ = ["hand_by_rank", "keep_hand_order"]
