"""A ``rummy500 serve`` child process on loopback: started on a free port, found by the
line in which it says where it listens, stopped or killed. The server's tests and
``benchmarks/bench_server.py`` run the real server this way; so can any program that
wants a table server of its own for a while."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..net.client import Api

LISTENING = "listening on http"
"""What ``rummy500 serve`` prints, with its address, once it accepts connections."""


class ServerStartError(RuntimeError):
    """The server exited, or did not say where it listens in time; carries its log."""


@dataclass
class ServerProcess:
    """One ``serve`` process; ``base`` is its address (``http://127.0.0.1:PORT``) and
    ``log`` the file that holds what it wrote to standard error."""

    database: str
    process: subprocess.Popen[str]
    base: str
    log: Path
    lines: list[str] = field(default_factory=list)
    """What it printed on standard output, as it came."""

    @property
    def api(self) -> Api:
        return Api(self.base)

    @property
    def pid(self) -> int:
        return self.process.pid

    def running(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """kill -9: no chance to finish anything."""
        if self.running():
            self.process.kill()
            self.process.wait(10)

    def stop(self, sig: int = signal.SIGTERM, wait: float = 30.0) -> int:
        """Ask it to finish (SIGTERM: what is being written is written, every WebSocket
        closed with 1001); killed when it has not gone after ``wait`` seconds."""
        if self.running():
            self.process.send_signal(sig)
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode

    def errors(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def start_server(database: str, log_dir: Path, *, pace: float = 0.0,
                 extra: tuple[str, ...] = (), timeout: float = 60.0) -> ServerProcess:
    """Start ``python -m rummy500 serve --port 0`` over ``database`` and wait until it
    says where it listens. Its standard error goes to a new file in ``log_dir``."""
    command = [sys.executable, "-m", "rummy500", "serve", "--port", "0", "--database",
               database, "--pace", str(pace), *extra]
    return start_command(command, database, log_dir, timeout=timeout)


def start_command(command: Sequence[str], database: str, log_dir: Path, *,
                  env: Mapping[str, str] | None = None,
                  timeout: float = 60.0) -> ServerProcess:
    """Start a ``serve`` command line of one's own (a container's, say), with ``env``
    added to this process's environment, and wait until it says where it listens."""
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"serve-{secrets.token_hex(4)}.log"
    with log.open("w") as errors:
        process = subprocess.Popen(list(command), stdout=subprocess.PIPE, stderr=errors,
                                   text=True, env={**os.environ, **(env or {}),
                                                   "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        with process.stdout:  # closed at the end of its output: when the process is gone
            for line in process.stdout:
                lines.append(line)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(lines):
            if LISTENING in line:
                base = line.split("listening on ", 1)[1].strip().rstrip("/")
                return ServerProcess(database, process, base, log, lines)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    process.wait(10)
    raise ServerStartError(f"rummy500 serve did not start:\n{log.read_text(errors='replace')}")
