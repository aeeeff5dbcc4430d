"""What one wake of an idle event loop costs on this machine: the CPU a process spends for
each timer that wakes uvloop (the loop the server runs on), at a few rates.

At a few hundred events a second the loop sleeps between them, and every event pays for
the sleep and the wake (in a virtual machine, a costly exit to the host); at thousands a
second the events meet in one wake. The server's CPU a move (``bench_server.py``) carries
this cost once or more a move: the frame in, the database's answer, a batch's timer.

Run: ``.venv/bin/python benchmarks/bench_loop_wakes.py`` (``--seconds``, ``--json``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource

import uvloop
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

RATES = (100, 500, 2000, 5000)
"""Wakes offered a second: the timers of 250 tasks, each at random (Poisson) times."""
TASKS = 250


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def wakes(rate: int, seconds: float, seed: int) -> tuple[float, float]:
    """Wakes a second and CPU microseconds a wake, ``rate`` offered for ``seconds``."""
    done = 0

    async def sleeper(rng: random.Random) -> None:
        nonlocal done
        while True:
            await asyncio.sleep(rng.expovariate(rate / TASKS))
            done += 1

    tasks = [asyncio.ensure_future(sleeper(random.Random(seed * 1000 + n)))
             for n in range(TASKS)]
    await asyncio.sleep(min(1.0, seconds))  # warm-up
    cpu, count = cpu_seconds(), done
    await asyncio.sleep(seconds)
    cpu, count = cpu_seconds() - cpu, done - count
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return count / seconds, cpu / max(1, count) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured at each rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    console = Console(stderr=True, quiet=args.json)
    results = []
    with Progress(console=console, transient=True) as progress:
        step = progress.add_task("rates", total=len(RATES))
        for rate in RATES:
            held, per_wake = uvloop.run(wakes(rate, args.seconds, args.seed))
            results.append({"offered": rate, "wakes_per_s": round(held), "cpu_us_per_wake":
                            round(per_wake, 1)})
            progress.advance(step)
    if args.json:
        print(json.dumps({"tasks": TASKS, "seconds": args.seconds, "rates": results}))
        return
    table = Table(title=f"CPU a wake of uvloop ({TASKS} sleeping tasks, {args.seconds:g} s a rate)")
    for column in ("offered / s", "wakes / s", "CPU µs a wake"):
        table.add_column(column, justify="right")
    for row in results:
        table.add_row(str(row["offered"]), str(row["wakes_per_s"]), str(row["cpu_us_per_wake"]))
    Console().print(table)


if __name__ == "__main__":
    main()
