"""Which code a benchmark's ``rummy500 serve`` runs: this working tree, or a git ref
checked out into a temporary worktree and run with the same venv (its ``src`` first on
``PYTHONPATH``; nothing is installed). ``benchmarks/bench_server.py --ref REF``."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rummy500.server.process import ServerProcess, start_command

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Code:
    """A tree of the project's code that can serve."""

    name: str
    """``this`` or the git ref."""
    src: Path

    def environment(self) -> dict[str, str]:
        """``PYTHONPATH`` with this code's ``src`` first."""
        before = os.environ.get("PYTHONPATH")
        return {"PYTHONPATH": str(self.src) + (os.pathsep + before if before else "")}

    def serve_flags(self) -> set[str]:
        """The flags its ``rummy500 serve`` knows (from its ``--help``)."""
        done = subprocess.run([sys.executable, "-m", "rummy500", "serve", "--help"],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, **self.environment()})
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: rummy500 serve --help failed:\n{done.stderr}")
        return set(re.findall(r"--[a-z][a-z0-9-]*", done.stdout))

    def start(self, database: str, log_dir: Path, flags: tuple[str, ...]) -> ServerProcess:
        """``rummy500 serve`` of this code on a free port over ``database``, computer
        players without a pause (``--pace 0``), with ``flags`` (pairs of a flag and its
        value) where this code knows them."""
        known = self.serve_flags()
        given = [part for flag, value in zip(flags[::2], flags[1::2], strict=True)
                 if flag in known for part in (flag, value)]
        command = [sys.executable, "-m", "rummy500", "serve", "--port", "0", "--database",
                   database, "--pace", "0", *given]
        return start_command(command, database, log_dir, env=self.environment())


THIS = Code("this", ROOT / "src")


@contextlib.contextmanager
def ref_code(ref: str) -> Iterator[Code]:
    """The code of git ``ref`` in a worktree under the temporary directory, removed
    after (the working tree and its index are not touched)."""
    place = Path(tempfile.mkdtemp(prefix="rummy500-ref-"))
    place.rmdir()
    added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(place),
                            ref], capture_output=True, text=True, timeout=300)
    if added.returncode != 0:
        raise SystemExit(f"cannot check out {ref!r}: {added.stderr.strip()}")
    try:
        yield Code(ref, place / "src")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(place)],
                       capture_output=True, timeout=120)
