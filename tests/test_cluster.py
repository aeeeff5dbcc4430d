"""Tournaments and simulations on a Ray cluster (--ray) give the local run's results.

The module starts a real Ray head of its own: bound to 127.0.0.1 only (Ray otherwise
takes the machine's outward address, and RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 is how it is
told not to; the command line tells it when given a loopback address), usage stats off,
2 CPUs, token authentication on with a token of its own, a temp dir of its own and a
process session of its own, so that the finalizer ends its processes and no one else's.
The runs on it are the real command line in a subprocess, compared with the same command
run here.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

import rummy500
from rummy500.cli import main

RAY = Path(sys.executable).parent / "ray"
SRC = str(Path(rummy500.__file__).resolve().parent.parent)
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0",
           # A token of the head's own, given to its drivers: no file in ~/.ray is read or
           # written, whatever Ray last left there.
           "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
HEAD_ENV = {**RAY_ENV, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
"""The head's: the drivers are not told, as --ray 127.0.0.1:PORT must do without it."""
START_TIMEOUT = 120.0
RUN_TIMEOUT = 180.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def session_members(session: int) -> list[int]:
    """The processes of ``session`` (its leader's pid), read from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) == session:
            members.append(int(entry.name))
    return members


def stop_session(head: subprocess.Popen[bytes]) -> None:
    """Let ``ray start --block`` take down what it started, then end any straggler of its
    session."""
    if head.poll() is None:
        head.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            head.wait(timeout=30)
    deadline = time.monotonic() + 10
    while session_members(head.pid) and time.monotonic() < deadline:
        time.sleep(0.5)
    for pid in session_members(head.pid):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if head.poll() is None:
        head.kill()
        head.wait(timeout=10)


@pytest.fixture(scope="module")
def ray_head(request: pytest.FixtureRequest) -> Iterator[str]:
    """The address of a Ray head started for this module."""
    port = free_port()
    temp = tempfile.mkdtemp(prefix="r5ray-", dir="/tmp")  # short: Ray's sockets live in it
    log = Path(temp) / "head.log"
    with log.open("wb") as out:
        head = subprocess.Popen(
            [str(RAY), "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
             "--num-cpus", "2", "--disable-usage-stats", "--include-dashboard", "false",
             "--object-store-memory", str(100 * 1024 * 1024), "--temp-dir", temp, "--block"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, **HEAD_ENV}, start_new_session=True,
        )

    def finish() -> None:
        stop_session(head)
        shutil.rmtree(temp, ignore_errors=True)

    request.addfinalizer(finish)
    deadline = time.monotonic() + START_TIMEOUT
    while "Ray runtime started" not in log.read_text(errors="replace"):
        if head.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the Ray head did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.5)
    yield f"127.0.0.1:{port}"


def driver_env() -> dict[str, str]:
    env = {**os.environ, **RAY_ENV}
    env.pop("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", None)
    return env


def rummy500_on(address: str, *words: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "rummy500", *words, "--ray", address],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env={**driver_env(), "PYTHONPATH": SRC}, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done


def rummy500_here(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    capsys.readouterr()
    assert main(list(words)) == 0
    return capsys.readouterr().out


def tournament_without_timing(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    del data["seconds"]
    for stats in data["bots"].values():
        del stats["decision_ms"]
    return data


def simulation_without_timing(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    del data["timing"]
    return data


def test_a_tournament_on_the_cluster_is_the_local_one(
        ray_head: str, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["tournament", "--bots", "simple,random", "--deals", "5", "--seed", "11", "--json"]
    remote = tournament_without_timing(rummy500_on(ray_head, *words).stdout)
    local = tournament_without_timing(rummy500_here(capsys, *words))
    assert remote == local
    assert remote["games"] == 10 and remote["difference"]["pairs"] == 5


def test_whole_games_of_three_bots_too(ray_head: str, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    words = ["tournament", "--bots", "simple,random,expert", "--players", "3", "--games", "1",
             "--seed", "2", "--json"]
    remote = tournament_without_timing(rummy500_on(ray_head, *words).stdout)
    assert remote == tournament_without_timing(rummy500_here(capsys, *words))
    assert remote["games"] == 3 and "ratings" in remote


def test_a_stopping_rule_on_the_cluster_stops_where_the_local_one_does(
        ray_head: str, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["tournament", "--bots", "expert,random", "--deals", "100", "--seed", "1",
             "--sprt", "0,50", "--json"]
    remote = tournament_without_timing(rummy500_on(ray_head, *words).stdout)
    assert remote == tournament_without_timing(rummy500_here(capsys, *words))
    assert remote["sprt"]["verdict"] == "H1" and remote["sprt"]["stopped_early"]


def test_a_simulation_on_the_cluster_is_the_local_one(
        ray_head: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    words = ["simulate", "--bot", "simple,random", "--deals", "150", "--seed", "9", "--json"]
    remote = rummy500_on(ray_head, *words, "--records", str(tmp_path / "remote"))
    local = rummy500_here(capsys, *words, "--records", str(tmp_path / "here"))
    assert simulation_without_timing(remote.stdout) == simulation_without_timing(local)
    remote_records = sorted((tmp_path / "remote").iterdir())
    assert len(remote_records) == 150
    for path in remote_records:
        assert path.read_text() == (tmp_path / "here" / path.name).read_text()


def test_an_address_that_does_not_answer_is_one_line() -> None:
    address = f"127.0.0.1:{free_port()}"
    for command in (["tournament", "--bots", "simple,random", "--deals", "1"],
                    ["simulate", "--deals", "1"]):
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "rummy500", *command, "--ray", address],
                              capture_output=True, text=True, timeout=RUN_TIMEOUT,
                              env={**driver_env(), "PYTHONPATH": SRC})
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == (f"rummy500 {command[0]}: cannot reach the Ray cluster at "
                               f"{address}: Connection refused\n")
        assert time.monotonic() - start < 60
    done = subprocess.run([sys.executable, "-m", "rummy500", "simulate", "--ray", "nowhere"],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          env={**os.environ, "PYTHONPATH": SRC})
    assert done.returncode == 2 and "give HOST:PORT" in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_join_that_hangs_ends_in_one_line() -> None:
    """An address that answers but is no Ray head: Ray would retry for ever."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)  # the kernel completes the handshakes; nothing answers after
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        code = ("import sys\n"
                "from rummy500.commands import cluster\n"
                "cluster.JOIN_TIMEOUT = 8\n"
                "from rummy500.cli import main\n"
                f"sys.exit(main(['simulate', '--deals', '1', '--ray', {address!r}]))\n")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=RUN_TIMEOUT, env={**driver_env(), "PYTHONPATH": SRC})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.endswith(f"rummy500 simulate: the Ray cluster at {address} did not let "
                                f"this machine join within 8 s (Ray's messages above may say "
                                f"why)\n")


HIDE_RAY = """
import sys

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "ray":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
from rummy500.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_without_the_cluster_extra_one_line_says_which_to_install(tmp_path: Path) -> None:
    for command in ("tournament", "simulate"):
        words = ["tournament", "--bots", "simple,random", "--deals", "1"] \
            if command == "tournament" else ["simulate", "--deals", "1"]
        done = subprocess.run([sys.executable, "-c", HIDE_RAY, *words, "--ray"],
                              capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=tmp_path,
                              env={**os.environ, "PYTHONPATH": SRC})
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == (f"rummy500 {command} --ray needs the [cluster] extra (ray is not "
                               f"installed): pip install 'rummy500[cluster]'\n")
