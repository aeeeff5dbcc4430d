"""How the person at the shell runs rummy500 again, for the commands' closing words."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path


def program() -> str:
    """How to run rummy500 again from this shell: ``rummy500`` if that is this program on the
    PATH, else the path it was run by, or ``python -m rummy500``."""
    launched = sys.argv[0] if sys.argv else ""
    if Path(launched).name in ("__main__.py", "-m", "-c", ""):
        python = sys.executable or "python3"
        found = shutil.which(Path(python).name)
        if found and _same(found, python):
            python = Path(python).name
        return f"{shlex.quote(python)} -m rummy500"
    found = shutil.which("rummy500")
    if found and _same(found, launched if os.sep in launched else found):
        return "rummy500"
    return shlex.quote(launched)


def _same(one: str, other: str) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


__all__ = ["program"]
