"""A private PostgreSQL cluster for tests that stop, restart or break the database
itself: made by ``initdb`` in a temporary directory, listening on its own free port on
127.0.0.1 (and a Unix socket in that directory), trust authentication for the user
``postgres``, removed at the end. The machine's shared cluster is never touched.

PostgreSQL refuses to run as root: as root, ``initdb`` and ``pg_ctl`` run as the
``postgres`` user, who owns the directory. The binaries are found as
``RUMMY500_TEST_PG_BIN``, else ``pg_config --bindir``, else the newest
``/usr/lib/postgresql/*/bin``; where there are none the test is skipped (failed in CI).

    with private_cluster() as cluster:
        url = cluster.create_database("tables")
        ...
        cluster.restart()
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from serverkit import postgres_unreachable

SUPERUSER = "postgres"


def postgres_bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are (None: nowhere on this machine)."""
    given = os.environ.get("RUMMY500_TEST_PG_BIN")
    if given:
        return Path(given)
    pg_config = shutil.which("pg_config")
    if pg_config:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                               check=False).stdout.strip()
        if found and (Path(found) / "initdb").exists():
            return Path(found)
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                      key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    if versions:
        return versions[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresCluster:
    """One private cluster: ``root`` holds its data, socket and log."""

    def __init__(self, bindir: Path, root: Path, port: int) -> None:
        self.bindir = bindir
        self.root = root
        self.data = root / "data"
        self.log = root / "postgres.log"
        self.port = port
        self.run_as = SUPERUSER if os.geteuid() == 0 else None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str, timeout: float = 60.0) -> None:
        """A PostgreSQL program, as the user that owns the cluster; its output on failure."""
        argv = [str(self.bindir / command[0]), *command[1:]]
        if self.run_as is not None:
            argv = ["runuser", "-u", self.run_as, "--", *argv]
        done = subprocess.run(argv, cwd=self.root, capture_output=True, text=True,
                              timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}"
                               f"{done.stderr}\n{self.log_text()}")

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")
        settings = (f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                    f"unix_socket_directories = '{self.root}'\nfsync = off\n"
                    "full_page_writes = off\nshared_buffers = 32MB\nmax_connections = 100\n")
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(settings)

    def start(self) -> None:
        self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w",
                  "-t", "60")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "60")

    def restart(self, mode: str = "fast") -> None:
        """``pg_ctl restart -m fast``: every connection is cut, the server starts again."""
        self._run("pg_ctl", "restart", "-D", str(self.data), "-l", str(self.log), "-m", mode,
                  "-w", "-t", "60")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def create_database(self, name: str) -> str:
        """A new database in the cluster: its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def private_cluster() -> Iterator[PostgresCluster]:
    """A started private cluster, stopped and removed afterwards."""
    bindir = postgres_bindir()
    if bindir is None or not (bindir / "initdb").exists():
        postgres_unreachable("no initdb to make a private cluster with (set "
                             "RUMMY500_TEST_PG_BIN to PostgreSQL's bin directory)")
        raise AssertionError("unreachable")  # postgres_unreachable skips or fails
    # Not under pytest's tmp_path: it is private to the user running the tests, and the
    # postgres user must reach the directory (and a Unix socket path must be short).
    root = Path(tempfile.mkdtemp(prefix="r5pg-"))
    cluster = PostgresCluster(bindir, root, free_port())
    try:
        if cluster.run_as is not None:
            try:
                account = pwd.getpwnam(cluster.run_as)
            except KeyError:
                raise RuntimeError(f"as root, a private cluster runs as the user "
                                   f"{cluster.run_as!r}, and there is none") from None
            os.chown(root, account.pw_uid, account.pw_gid)
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        if cluster.running():
            with suppress(RuntimeError, subprocess.TimeoutExpired):
                cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
