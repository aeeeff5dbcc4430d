"""Tournaments and simulations on a Ray cluster (``--ray [ADDRESS]``, the [cluster] extra).

Only ``--ray`` imports this module, and Ray is imported when connecting. The cluster plays
the same units of work as a local run (a tournament's game index with every rotation, a
run of simulated deals), each depending on the seed and its index only, and the results
are gathered in the order of their index: the report is the local run's, timing aside.

Every node of the cluster needs rummy500 installed, at the version of the machine that
asks (docs/cluster.md); a worker that cannot run it is one clear line, not a traceback.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

import rummy500

from ..errors import OptionsError, Rummy500Error
from ..extras import require
from ..rules import Rules
from ..runners.simulation import DealOutcome, Summary, play_deals
from ..runners.tournament import IN_FLIGHT, Batch, GameOutcome, Player, TournamentSpec, play_batch

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for the cluster's address to answer before saying it cannot be reached
(Ray itself would retry for minutes)."""

JOIN_TIMEOUT = 120.0
"""Seconds Ray may take to join a cluster that answers; past them the command gives up
(Ray, finding no way in, would retry for ever)."""

LOOPBACK_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Set to 0, Ray keeps a loopback address as given instead of swapping in the machine's
outward address (where a head bound to 127.0.0.1 cannot be reached)."""

DEALS_PER_TASK = 64
"""At most this many simulated deals a task: a deal of simple bots lasts milliseconds."""

Unit = TypeVar("Unit")
Done = TypeVar("Done")

DealRecord = dict[str, Any] | None


class ClusterError(OptionsError):
    """The cluster cannot be reached, or cannot run rummy500."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """A connection to a Ray cluster; ``cpus`` counts the cluster's CPUs when it joined."""

    ray: Any
    cpus: int
    address: str


def _host_and_port(address: str) -> tuple[str, int]:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"--ray {address!r}: give HOST:PORT, ray://HOST:PORT, auto or "
                           f"nothing (a Ray started here)")
    return host.strip("[]"), int(port)


def _reachable(address: str) -> None:
    """Refuse at once an address that does not answer (``HOST:PORT`` or ``ray://HOST:PORT``)."""
    try:
        socket.create_connection(_host_and_port(address), CONNECT_TIMEOUT).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def _is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _give_up_after(seconds: float, command: str, where: str) -> threading.Timer:
    """End the command with one line if joining the cluster hangs (Ray's C++ core cannot be
    interrupted from Python)."""

    def give_up() -> None:
        print(f"rummy500 {command}: the Ray cluster at {where} did not let this machine "
              f"join within {seconds:g} s (Ray's messages above may say why)",
              file=sys.stderr, flush=True)
        os._exit(2)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()
    return timer


def _probe() -> tuple[str, str]:
    """Run on a worker: the versions it runs."""
    return rummy500.__version__, f"{sys.version_info.major}.{sys.version_info.minor}"


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


@contextmanager
def connect(address: str | None, command: str) -> Iterator[Cluster]:
    """Join the Ray cluster at ``address`` (None: RAY_ADDRESS, or a Ray started here for the
    run; ``auto``: the one running on this machine) and leave it at the end.

    For the command line only: a join that hangs ends the process (exit status 2).
    """
    where = address or os.environ.get("RAY_ADDRESS") or None
    remote = where not in (None, "auto", "local")
    if remote and _is_loopback(_host_and_port(where or "")[0]):
        os.environ.setdefault(LOOPBACK_SWITCH, "0")  # read when Ray is imported
    if where in (None, "local"):
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    require("cluster", "ray", feature=f"rummy500 {command} --ray")
    import ray

    if remote:
        _reachable(where or "")

    watchdog = _give_up_after(JOIN_TIMEOUT, command, where or "this machine")
    try:
        ray.init(address=address or None, logging_level=logging.ERROR, log_to_driver=False)
    except ConnectionError as error:
        if where == "auto":
            raise ClusterError("no Ray cluster runs on this machine: start one with "
                               "`ray start --head`, or give its address") from None
        raise ClusterError(f"cannot join the Ray cluster at {where or 'this machine'}: "
                           f"{_first_line(error)}") from None
    except Exception as error:  # Ray raises RuntimeError, ValueError, its own errors…
        raise ClusterError(f"cannot join the Ray cluster at {where or 'this machine'}: "
                           f"{_first_line(error)}") from None
    finally:
        watchdog.cancel()
    try:
        cluster = Cluster(ray, max(1, int(ray.cluster_resources().get("CPU", 1))),
                          where or "local")
        _check_workers(cluster)
        yield cluster
    finally:
        ray.shutdown()


def _check_workers(cluster: Cluster) -> None:
    ray = cluster.ray
    try:
        version, python = ray.get(ray.remote(_probe).remote(), timeout=300)
    except Exception as error:
        raise ClusterError(f"the cluster's workers cannot run rummy500 "
                           f"{rummy500.__version__}: {_first_line(error)} "
                           f"(install rummy500[cluster] on every node)") from None
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    if (version, python) != (rummy500.__version__, here):
        raise ClusterError(f"the cluster runs rummy500 {version} on Python {python}, this "
                           f"machine rummy500 {rummy500.__version__} on Python {here}: "
                           f"install the same on every node")


def stream(cluster: Cluster, submit: Callable[[Unit], Any], units: Iterator[Unit]
           ) -> Generator[Done, None, None]:
    """Hand ``units`` to the cluster, a few per CPU ahead, yielding each result as it comes;
    closed early, it cancels what is still out."""
    ray = cluster.ray
    pending: list[Any] = []
    window = IN_FLIGHT * cluster.cpus
    try:
        for unit in units:
            pending.append(submit(unit))
            while len(pending) >= window:
                yield _next_done(ray, pending)
        while pending:
            yield _next_done(ray, pending)
    finally:
        for ref in pending:
            # Already finished, or the cluster gone: nothing left to give up.
            with suppress(Exception):
                ray.cancel(ref)


def _next_done(ray: Any, pending: list[Any]) -> Any:
    ready, _ = ray.wait(pending, num_returns=1)
    pending.remove(ready[0])
    try:
        return ray.get(ready[0])
    except ray.exceptions.RayTaskError as error:
        cause = error.cause if isinstance(error.cause, Exception) else None
        if isinstance(cause, Rummy500Error):
            raise cause from None
        raise ClusterError(f"a task failed on the cluster: {_first_line(error)}") from None
    except ray.exceptions.RayError as error:
        raise ClusterError(f"the cluster failed: {_first_line(error)}") from None


def player(cluster: Cluster) -> Player:
    """Plays a tournament's batches (a game index, every rotation) on the cluster."""

    def play(spec: TournamentSpec, batches: Iterator[Batch]
             ) -> Generator[list[GameOutcome], None, None]:
        task = cluster.ray.remote(play_batch)
        shared = cluster.ray.put(spec)
        yield from stream(cluster, lambda batch: task.remote(shared, batch), batches)

    return play


def simulate(cluster: Cluster, rules: Rules, players: int, bots: Sequence[str], seed: int,
             deals: int, *, time_budget: float = 1.0, worlds: int | None = None,
             records: bool = False,
             on_deal: Callable[[DealOutcome, DealRecord], None] | None = None) -> Summary:
    """:func:`rummy500.runners.simulation.simulate` on the cluster: the same summary (timing aside),
    its deals added in the order of their index; ``on_deal`` sees each deal as it comes,
    with its game record when ``records``."""
    names = list(bots)
    summary = Summary(rules, players, names, seed, worlds)
    size = max(1, min(DEALS_PER_TASK, deals // (IN_FLIGHT * 2 * cluster.cpus)))
    runs = (range(first, min(deals, first + size)) for first in range(0, deals, size))
    task = cluster.ray.remote(play_deals)
    waiting: dict[int, DealOutcome] = {}
    start = time.perf_counter()

    def submit(indexes: range) -> Any:
        return task.remote(rules, players, names, seed, indexes, time_budget=time_budget,
                           worlds=worlds, records=records)

    played: Generator[list[tuple[DealOutcome, DealRecord]], None, None]
    played = stream(cluster, submit, runs)
    for done in played:
        for outcome, record in done:
            waiting[outcome.index] = outcome
            if on_deal is not None:
                on_deal(outcome, record)
        while summary.deals in waiting:
            summary.add(waiting.pop(summary.deals))
    summary.seconds = time.perf_counter() - start
    return summary
