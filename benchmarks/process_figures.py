"""What a process used, read from ``/proc``: resident memory, CPU, time waiting for a CPU,
the ``postgres`` processes' and a process's descendants' CPU, the machine's busy time
(``benchmarks/bench_server.py``)."""

from __future__ import annotations

import contextlib
import os
import resource
from pathlib import Path


def rss_kib(pid: int) -> int | None:
    """Resident memory of ``pid`` (VmRSS, KiB)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of ``pid`` so far (seconds)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_and_wait_seconds(pid: int) -> tuple[float, float]:
    """Seconds the threads of ``pid`` have run, and waited runnable for a CPU
    (``/proc/<pid>/task/*/schedstat``)."""
    ran = waited = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (task / "schedstat").read_text().split()
                ran += int(fields[0])
                waited += int(fields[1])
    except OSError:
        pass
    return ran / 1e9, waited / 1e9


def postgres_cpu() -> dict[int, float]:
    """CPU used so far by each ``postgres`` process on the machine (all databases)."""
    used = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    used[int(entry.name)] = cpu_seconds(int(entry.name))
            except OSError:
                continue
    return used


def postgres_cpu_since(before: dict[int, float]) -> float:
    """CPU seconds of the ``postgres`` processes that lived through the window."""
    after = postgres_cpu()
    return sum(after[pid] - before[pid] for pid in before.keys() & after.keys())


def children_cpu(pid: int) -> dict[int, float]:
    """CPU used so far by each descendant of ``pid`` (the server's thinking workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
    used, todo = {}, [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            used[child] = cpu_seconds(child)
            todo.append(child)
    return used


def children_cpu_since(pid: int, before: dict[int, float]) -> float:
    """CPU seconds of the descendants of ``pid`` that lived through the window."""
    after = children_cpu(pid)
    return sum(after[child] - before[child] for child in before.keys() & after.keys())


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of every core since boot, from ``/proc/stat``."""
    numbers = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = numbers[3] + numbers[4]
    total = sum(numbers[:8])
    return total - idle, total


def raise_open_files(wanted: int) -> int:
    """Raise RLIMIT_NOFILE towards ``wanted`` (as far as the hard limit lets); the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return int(soft)
