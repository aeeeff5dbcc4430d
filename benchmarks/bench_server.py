"""Load on ``rummy500 serve``: many four-seat tables, every seat a WebSocket client.

Run: ``.venv/bin/python benchmarks/bench_server.py`` (``--tables 250 --seconds 60
--database both``; ``--json`` for one JSON object on stdout).

Each table has four ``person`` seats, so every move comes from a client; each seat is
its own WebSocket connection that keeps its state as a client does (a version 3 update
folded into it, :func:`rummy500.net.protocol.apply_frame`), plays a random legal move from
its ``state.legal`` when it is its turn, and waits for the ``ack`` (or ``refused``)
before its next one. ``--protocol 2|3`` (default 3) is the version the clients ask
for; a server that knows only version 2 answers in version 2, and the report says
which version was spoken. ``--watchers N`` adds N spectators to each table.
A real ``rummy500 serve`` process is started for each database: SQLite in a temporary
file, PostgreSQL in a scratch database created on ``--postgres`` and dropped afterwards.
A table is left for a new one after ``--moves-per-table`` accepted moves (default 300),
as people leave finished games: the server forgets a table a minute after its last
client went, so memory can only level off if tables turn over. ``--moves-per-table 0``
plays every game to its end. A finished game is replaced too.

Load model:

- ``--rate R`` (moves/s over all tables, default 500): each table is paced at
  ``R / tables`` moves a second, so latency is measured at a chosen load (an open
  model: a late table catches up, it never skips).
- ``--rate 0``: unpaced, a closed loop. Each seat moves as soon as it is its turn; by
  Little's law the latency is then ``tables / throughput`` whatever the server does.
- ``--find-max``: after the run, the same server and clients are paced at other
  rates, ``--find-seconds`` each, going up while a rate is held (95 % of it
  acknowledged) with ack p99 < 100 ms and halving the gap once one is not, for at
  most ``--find-budget`` seconds: the most moves a second held at p99 < 100 ms.

A connection never sends more than 18 frames in a second (the server drops frames
beyond 20). Figures: accepted moves per second, move-to-ack latency (client clock),
the server's CPU per move (its CPU time over the window / moves acknowledged), the
seats' ``update`` frame sizes (median, p95; seat 0's by the table's seq, per 100
changes, to show whether they grow), bytes received per move by a table's four seats
and its watchers (frame text as UTF-8, before any compression), and the server's
resident memory. The clients run in ``--workers`` processes (default 2); the summary
gives the CPU of the server, the clients and PostgreSQL, so a figure limited by the
generator shows as such.

``--game-tables N`` also plays N tables (each with ``--watchers``) unpaced to the end of
one whole game, on SQLite, and tracks every frame: seat update sizes over the whole
game, seat 0's per 200 updates in the game's order, and bytes a move.

``--ref REF`` compares with the code of a git ref in the same run: REF is checked out
into a temporary worktree (``git worktree add``, removed after) and its server run with
this venv, its ``src`` first on ``PYTHONPATH``; runs alternate, this code first,
``--repeat`` times each (flags its ``serve`` does not know are left out).

Computer players beside them: ``--bot-tables N`` (default 0) makes N more tables before
the measured window, each of a person in seat 0 and seven ``--bot`` computer players,
to a target score no game reaches during a run; one more client process plays the
person seats at once on their turn. Their changes a second are reported beside.

Every client comes from 127.0.0.1, so the server is started with its limits per
address and its connection limit raised far above what the run needs; nothing else
differs from its defaults but ``--pace 0``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import multiprocessing
import multiprocessing.connection
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from load_clients import (
    BOT_TABLE_PLAYERS,
    SEQ_BUCKET,
    GameTrack,
    LoadSettings,
    StepTally,
    Tally,
    Window,
    bot_worker,
    worker,
)
from process_figures import (
    children_cpu,
    children_cpu_since,
    cpu_seconds,
    machine_busy,
    postgres_cpu,
    postgres_cpu_since,
    raise_open_files,
    rss_kib,
    run_and_wait_seconds,
)
from served_code import THIS, Code, ref_code

from rummy500.bots import BOT_NAMES
from rummy500.net.protocol import VERSIONS
from rummy500.server.process import ServerProcess

POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
TABLES_PER_TABLE_SLOT = 1000
"""Tables one table slot may use in a run, far more than it can: the per-address table
limits given to the server are this many times the tables."""
P99_LIMIT_MS = 100.0
"""The latency a rate must keep to count as held (``--find-max``)."""
HELD = 0.95
"""The share of the offered rate that must be acknowledged for it to count as held."""
GAME_BUCKET = 200
"""Seat 0's update sizes over a whole game, by this many of its updates."""


def limit_flags(args: argparse.Namespace) -> tuple[str, ...]:
    """``serve`` flags that lift the limits per address (every client is 127.0.0.1) and
    the connection limit far above what this run needs."""
    tables = (args.tables + args.bot_tables + args.game_tables) * TABLES_PER_TABLE_SLOT
    connections = (args.tables * (4 + args.watchers) + args.bot_tables) * 2 + 1024
    return ("--tables-per-hour", str(tables), "--open-tables-per-address", str(tables),
            "--connections-per-address", str(connections),
            "--max-connections", str(connections))


def percentile(ordered: list[float], fraction: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def sizes(values: list[int]) -> tuple[float, float]:
    """Median and p95 of frame sizes (bytes)."""
    ordered = sorted(values)
    return (statistics.median(ordered) if ordered else 0.0), percentile(
        [float(v) for v in ordered], 0.95)


@dataclass
class Step:
    """One rate held for a while, and what came of it."""

    rate: float
    seconds: float = 0.0
    moves: int = 0
    moves_per_s: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    """Cores used on average during the step: server, clients, postgres, machine."""
    server_cpu_ms_per_move: float = 0.0
    update_median_b: float = 0.0
    update_p95_b: float = 0.0
    seat0_update_median_b_by_seq: dict[str, float] = field(default_factory=dict)
    """Seat 0's update median by the table's seq (``0-99``, ``100-199``, ...)."""
    seat_bytes_per_move: float = 0.0
    """Bytes the four seats of a table received for each move there."""
    watcher_bytes_per_move: float = 0.0
    table_bytes_per_move: float = 0.0
    """Seats and watchers together."""

    def held(self) -> bool:
        return self.moves_per_s >= HELD * self.rate and self.p99_ms < P99_LIMIT_MS

    def figure(self, tally: StepTally) -> None:
        """Latency, frame and byte figures from what the clients saw in the step."""
        latencies = sorted(tally.latencies)
        self.moves = len(latencies)
        self.moves_per_s = self.moves / self.seconds if self.seconds else 0.0
        self.p50_ms = percentile(latencies, 0.50) * 1000
        self.p99_ms = percentile(latencies, 0.99) * 1000
        self.max_ms = (latencies[-1] if latencies else 0.0) * 1000
        self.update_median_b, self.update_p95_b = sizes(tally.update_sizes)
        self.seat0_update_median_b_by_seq = {
            f"{b * SEQ_BUCKET}-{(b + 1) * SEQ_BUCKET - 1}": statistics.median(found)
            for b, found in sorted(tally.seat0_by_seq.items())}
        moves = max(1, self.moves)
        self.seat_bytes_per_move = tally.seat_bytes / moves
        self.watcher_bytes_per_move = tally.watcher_bytes / moves
        self.table_bytes_per_move = self.seat_bytes_per_move + self.watcher_bytes_per_move
        if self.moves_per_s:
            self.server_cpu_ms_per_move = self.cpu.get("server", 0.0) / self.moves_per_s * 1000


@dataclass
class BotFigures:
    """What the bot tables did over the steps."""

    tables: int
    bot: str
    moves: int = 0
    moves_per_s: float = 0.0
    person_moves: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    games_over: int = 0


@dataclass
class Result:
    """One server (one code, one database) under load: its steps."""

    database: str
    code: str
    tables: int
    clients: int
    watchers: int
    workers: int
    steps: list[Step] = field(default_factory=list)
    protocols: dict[int, int] = field(default_factory=dict)
    """Welcomes by the protocol version spoken."""
    rss_mib: list[tuple[float, float]] = field(default_factory=list)
    refusals: dict[str, int] = field(default_factory=dict)
    games: int = 0
    left: int = 0
    tables_used: int = 0
    setup_s: float = 0.0
    failures: list[str] = field(default_factory=list)
    bot_tables: BotFigures | None = None
    most_held: Step | None = None
    """With ``--find-max``: the step of the most moves a second held at p99 < 100 ms."""

    def rss_growth(self) -> float:
        """MiB from the median of the first tenth of samples to that of the last tenth."""
        values = [mib for _, mib in self.rss_mib]
        if len(values) < 4:
            return 0.0
        tenth = max(1, len(values) // 10)
        return statistics.median(values[-tenth:]) - statistics.median(values[:tenth])


class RateSearch:
    """The rates of ``--find-max``: up by half again while held, then halving the gap
    between the most held and the least not held, within a time budget."""

    def __init__(self, budget_s: float) -> None:
        self.deadline = time.monotonic() + budget_s
        self.held: float | None = None
        self.failed: float | None = None

    def next(self, step: Step, seconds: float) -> float | None:
        if step.held():
            self.held = max(self.held or 0.0, step.rate)
        else:
            self.failed = min(self.failed or float("inf"), step.rate)
        if time.monotonic() + seconds + 5 > self.deadline:
            return None
        if self.failed is None:
            return step.rate * 1.5
        if self.held is None:
            return step.rate * 0.6 if step.rate > 20 else None
        if self.failed / self.held < 1.08:
            return None
        return (self.held + self.failed) / 2


class Measure:
    """CPU and scheduling of the server and the rest over a step."""

    def __init__(self, served: ServerProcess, clients: list[int]) -> None:
        self.served, self.clients = served, clients
        self.began = time.monotonic()
        pid = served.process.pid
        self.sched = run_and_wait_seconds(pid)
        self.server = cpu_seconds(pid)
        self.client_cpu = sum(cpu_seconds(p) for p in clients)
        self.postgres = postgres_cpu()
        self.machine = machine_busy()
        self.children = children_cpu(pid)

    def cores(self, thinking: bool) -> tuple[float, dict[str, float]]:
        elapsed = time.monotonic() - self.began
        pid = self.served.process.pid
        busy, total = machine_busy()
        busy, total = busy - self.machine[0], total - self.machine[1]
        used = {
            "server": (cpu_seconds(pid) - self.server) / elapsed,
            "clients": (sum(cpu_seconds(p) for p in self.clients) - self.client_cpu) / elapsed,
            "postgres": postgres_cpu_since(self.postgres) / elapsed,
            "machine": busy / total * (os.cpu_count() or 1) if total else 0.0,
            "server waiting for a CPU": (run_and_wait_seconds(pid)[1] - self.sched[1])
            / elapsed,
        }
        if thinking:
            used["server's thinking workers"] = children_cpu_since(pid, self.children) / elapsed
        return elapsed, used


Pipe = multiprocessing.connection.Connection


def gather(pipes: list[Pipe], message: str, into: Tally) -> None:
    """Send ``message`` to every worker and merge their tallies into ``into``."""
    for pipe in pipes:
        pipe.send(message)
    for pipe in pipes:
        if not pipe.poll(120):
            into.failures.append("a worker did not answer")
            continue
        tally: Tally = pipe.recv()
        for number, step in tally.steps.items():
            into.step(number).merge(step)
        into.refusals.update(tally.refusals)
        into.protocols.update(tally.protocols)
        into.games += tally.games
        into.left += tally.left
        into.tables += tally.tables
        into.tracks = tally.tracks or into.tracks
        into.failures.extend(tally.failures)


def run_once(database: str, url: str, code: Code, args: argparse.Namespace,
             log_dir: Path) -> Result:
    """One server of ``code`` over ``database`` under ``args.tables`` tables: the run at
    ``args.rate``, then the ``--find-max`` steps."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    workers = max(1, min(args.workers, args.tables))
    result = Result(database, code.name, args.tables, args.tables * 4,
                    args.tables * args.watchers, workers)
    served = code.start(url, log_dir / f"{database}-{secrets.token_hex(3)}", limit_flags(args))
    context = multiprocessing.get_context("fork")
    start = context.Value("d", 0.0, lock=False)
    end = context.Value("d", 0.0, lock=False)
    number = context.Value("q", 0, lock=False)
    interval = context.Value("d", args.tables / args.rate if args.rate > 0 else 0.0, lock=False)
    count = context.Value("q", 0, lock=False)
    finished = context.Value("q", 0, lock=False)
    bot_changes = context.Value("q", 0, lock=False)
    window = Window(start, end, number)
    pipes: list[Pipe] = []
    processes = []
    bot_pipe: Pipe | None = None
    tally = Tally()
    try:
        began = time.monotonic()
        if args.bot_tables > 0:
            bot_pipe, theirs = context.Pipe()
            process = context.Process(target=bot_worker, daemon=True, args=(
                served.base, args.bot_tables, args.bot, args.seed * 1000 + 999, window,
                bot_changes, args.protocol, theirs))
            process.start()
            processes.append(process)
            result.bot_tables = BotFigures(args.bot_tables, args.bot)
        for index in range(workers):
            share = args.tables // workers + (1 if index < args.tables % workers else 0)
            settings = LoadSettings(served.base, share, args.protocol, args.watchers,
                                    args.deflate, args.moves_per_table,
                                    seed=args.seed * 1000 + index)
            ours, theirs = context.Pipe()
            process = context.Process(target=worker, daemon=True, args=(
                settings, window, interval, count, finished, theirs))
            process.start()
            pipes.append(ours)
            processes.append(process)
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                            TextColumn("{task.fields[status]}"), TimeRemainingColumn(),
                            transient=False, disable=args.json)
        with progress:
            task = progress.add_task(f"{database} {code.name}: connecting",
                                     total=len(processes), status="")
            for pipe in pipes if bot_pipe is None else [bot_pipe, *pipes]:
                if pipe.recv()[1]:
                    result.failures.append("a worker could not set up its tables")
                progress.advance(task)
            result.setup_s = time.monotonic() - began
            for pipe in pipes:
                pipe.send("go")
            settle = min(5.0, args.seconds / 10)
            search = RateSearch(args.find_budget) if args.find_max else None
            rate: float | None = args.rate
            seconds = args.seconds
            while rate is not None:
                step = Step(rate)
                interval.value = args.tables / rate if rate > 0 else 0.0
                progress.update(task, description=f"{database} {code.name}: {rate:.0f} "
                                "moves/s offered", total=settle + seconds, completed=0)
                time.sleep(settle)
                number.value = len(result.steps)
                start.value = time.time()
                end.value = 0.0
                measure = Measure(served, [p.pid or 0 for p in processes])
                counted = count.value
                watch_server(served, measure, seconds, result, args, progress, task,
                             (count, counted), settle)
                end.value = time.time()
                step.seconds, step.cpu = measure.cores(bot_pipe is not None)
                time.sleep(1.0)  # the last acks of the step
                gather(pipes, "collect", tally)
                step.figure(tally.step(number.value))
                result.steps.append(step)
                rate = None if search is None else search.next(step, args.find_seconds)
                seconds, settle = args.find_seconds, 3.0
        if bot_pipe is not None:
            bot_pipe.send("stop")
        gather(pipes, "stop", tally)
        for index, step in enumerate(result.steps):  # acks that came after their collect
            step.figure(tally.step(index))
        if args.find_max:
            held = [step for step in result.steps if step.held()]
            result.most_held = max(held, key=lambda s: s.moves_per_s) if held else None
        result.refusals = dict(tally.refusals)
        result.protocols = dict(tally.protocols)
        result.games, result.left, result.tables_used = tally.games, tally.left, tally.tables
        result.failures.extend(tally.failures[:5])
        if bot_pipe is not None and result.bot_tables is not None:
            collect_bot_tables(bot_pipe, result.bot_tables, result.failures,
                               sum(step.seconds for step in result.steps))
    finally:
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
        served.stop()
    return result


def watch_server(served: ServerProcess, measure: Measure, seconds: float, result: Result,
                 args: argparse.Namespace, progress: Any, task: Any,
                 moves: tuple[Synchronized[int], int], settle: float) -> None:
    """Sample the server's memory and show progress until ``seconds`` have passed."""
    next_sample = result.rss_mib[-1][0] + args.sample if result.rss_mib else 0.0
    offset = sum(step.seconds for step in result.steps)
    while (now := time.monotonic() - measure.began) < seconds:
        if served.process.poll() is not None:
            raise RuntimeError(f"the server died:\n{served.errors()[-3000:]}")
        if offset + now >= next_sample:
            rss = rss_kib(served.process.pid)
            if rss is not None:
                result.rss_mib.append((offset + now, rss / 1024))
            next_sample += args.sample
        rss_now = result.rss_mib[-1][1] if result.rss_mib else 0.0
        progress.update(task, completed=settle + now, status=(
            f"{(moves[0].value - moves[1]) / max(now, 1e-9):7.0f} moves/s  RSS {rss_now:6.1f} MiB"))
        time.sleep(0.25)


def collect_bot_tables(pipe: Pipe, figures: BotFigures, failures: list[str],
                       elapsed: float) -> None:
    """The bot tables' process's tally, into ``figures`` (its failures into ``failures``)."""
    if not pipe.poll(120):
        failures.append("the bot tables' process did not answer")
        return
    _, changes, person_moves, refused, games_over, failed = pipe.recv()
    figures.moves, figures.person_moves = changes, person_moves
    figures.moves_per_s = changes / elapsed if elapsed else 0.0
    figures.refusals, figures.games_over = refused, games_over
    failures.extend(f"bot tables: {failure}" for failure in failed)


# -- whole games ------------------------------------------------------------------------------


@dataclass
class GameFigures:
    """``--game-tables`` tables of one code, each played through one game, every frame
    counted."""

    code: str
    tables: int
    watchers: int
    finished: int = 0
    moves: list[int] = field(default_factory=list)
    """Moves of each tracked game (finished or not)."""
    update_median_b: float = 0.0
    update_p95_b: float = 0.0
    seat0_update_median_b_by_position: dict[str, float] = field(default_factory=dict)
    """Seat 0's update median by its updates in the game's order (``1-200``, ...)."""
    seat_bytes_per_move: float = 0.0
    watcher_bytes_per_move: float = 0.0
    table_bytes_per_move: float = 0.0
    protocols: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def figure(self, tracks: list[GameTrack]) -> None:
        used = [t for t in tracks if t.finished] or tracks
        self.finished = sum(t.finished for t in tracks)
        self.moves = [t.moves for t in tracks]
        self.update_median_b, self.update_p95_b = sizes(
            [size for t in used for size in t.update_sizes])
        by_position: dict[int, list[int]] = {}
        for track in used:
            for index, size in enumerate(track.seat0_updates):
                by_position.setdefault(index // GAME_BUCKET, []).append(size)
        self.seat0_update_median_b_by_position = {
            f"{b * GAME_BUCKET + 1}-{(b + 1) * GAME_BUCKET}": statistics.median(found)
            for b, found in sorted(by_position.items())}
        moves = max(1, sum(t.moves for t in used))
        self.seat_bytes_per_move = sum(t.seat_bytes for t in used) / moves
        self.watcher_bytes_per_move = sum(t.watcher_bytes for t in used) / moves
        self.table_bytes_per_move = self.seat_bytes_per_move + self.watcher_bytes_per_move


def play_games(code: Code, args: argparse.Namespace, scratch: Path) -> GameFigures:
    """``args.game_tables`` tables of ``code`` on SQLite, unpaced, each through one whole
    game (at most ``--game-seconds``)."""
    from rich.progress import Progress

    figures = GameFigures(code.name, args.game_tables, args.watchers)
    database = f"sqlite:///{scratch}/games-{secrets.token_hex(3)}.db"
    served = code.start(database, scratch / "games", limit_flags(args))
    context = multiprocessing.get_context("fork")
    start = context.Value("d", 1.0, lock=False)
    end = context.Value("d", 0.0, lock=False)
    interval = context.Value("d", 0.0, lock=False)
    count = context.Value("q", 0, lock=False)
    finished = context.Value("q", 0, lock=False)
    settings = LoadSettings(served.base, args.game_tables, args.protocol, args.watchers,
                            args.deflate, whole_games=True, seed=args.seed * 1000 + 500)
    ours, theirs = context.Pipe()
    process = context.Process(target=worker, daemon=True, args=(
        settings, Window(start, end), interval, count, finished, theirs))
    tally = Tally()
    try:
        process.start()
        if ours.recv()[1]:
            figures.failures.append("the games' worker could not set up its tables")
        ours.send("go")
        began = time.monotonic()
        with Progress(disable=args.json) as progress:
            task = progress.add_task(f"whole games, {code.name}", total=args.game_tables)
            while (finished.value < args.game_tables
                   and time.monotonic() - began < args.game_seconds):
                if served.process.poll() is not None:
                    raise RuntimeError(f"the server died:\n{served.errors()[-3000:]}")
                progress.update(task, completed=finished.value,
                                description=f"whole games, {code.name}: {count.value} moves")
                time.sleep(0.5)
            progress.update(task, completed=finished.value)
        figures.seconds = time.monotonic() - began
        gather([ours], "stop", tally)
    finally:
        process.join(10)
        if process.is_alive():
            process.kill()
        served.stop()
    figures.figure(tally.tracks)
    figures.protocols = dict(tally.protocols)
    figures.failures.extend(tally.failures[:5])
    return figures


@contextlib.contextmanager
def scratch_postgres(admin: str) -> Iterator[str]:
    import psycopg

    name = f"rummy500_bench_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{admin.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- the report -------------------------------------------------------------------------------


def kib(value: float) -> str:
    return f"{value / 1024:.2f}"


def show(results: list[Result], games: list[GameFigures], args: argparse.Namespace) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 160)
    beside = (f", beside {args.bot_tables} tables of {BOT_TABLE_PLAYERS - 1} {args.bot} "
              "computer players" if args.bot_tables > 0 else "")
    watchers = f" and {args.tables * args.watchers} watchers" if args.watchers else ""
    table = Table(title=f"rummy500 serve under load ({args.tables} tables, "
                        f"{args.tables * 4} clients{watchers}{beside}, "
                        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end)")
    columns = ["database", "code", "v", "offered", "moves/s", "p50 ms", "p99 ms", "max ms",
               "CPU ms/move", "update B med", "p95", "KiB/move seats", "+watchers", "RSS MiB"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("database", "code") else "right")
    for r in results:
        spoken = "/".join(str(v) for v in sorted(r.protocols)) or "?"
        last = r.rss_mib[-1][1] if r.rss_mib else 0.0
        for index, s in enumerate(r.steps):
            table.add_row(r.database if index == 0 else "", r.code if index == 0 else "",
                          spoken, f"{s.rate:.0f}", f"{s.moves_per_s:.0f}", f"{s.p50_ms:.1f}",
                          f"{s.p99_ms:.1f}", f"{s.max_ms:.0f}",
                          f"{s.server_cpu_ms_per_move:.2f}", f"{s.update_median_b:.0f}",
                          f"{s.update_p95_b:.0f}", kib(s.seat_bytes_per_move),
                          kib(s.watcher_bytes_per_move), f"{last:.0f}" if index == 0 else "")
    console.print(table)
    console.print(f"{args.seconds:g} s measured after a warm-up at the offered rate; "
                  f"--find-max steps {args.find_seconds:g} s each. Bytes: frame text "
                  "received, before compression. CPU in cores over the first step.")
    for r in results:
        first = r.steps[0] if r.steps else None
        extra = [f"{r.tables_used} tables used, {r.games} games finished, {r.left} left, "
                 f"set-up {r.setup_s:.0f} s"]
        if r.refusals:
            extra.append("refusals " + ", ".join(f"{k} {v}" for k, v in r.refusals.items()))
        if r.failures:
            extra.append("failures: " + "; ".join(r.failures))
        console.print(f"[bold]{r.database} {r.code}[/bold]: " + "; ".join(extra))
        if first is not None:
            console.print("  CPU (cores): " + ", ".join(
                f"{k} {v:.2f}" for k, v in first.cpu.items()))
            console.print("  seat 0's update median by seq: " + ", ".join(
                f"{k} {v:.0f} B" for k, v in first.seat0_update_median_b_by_seq.items()))
        if r.bot_tables is not None:
            console.print(f"  bot tables: {r.bot_tables.moves_per_s:.1f} changes/s, "
                          f"{r.bot_tables.person_moves} person moves")
        if args.find_max:
            most = r.most_held
            console.print(f"  most held at p99 < {P99_LIMIT_MS:.0f} ms: " + (
                f"{most.moves_per_s:.0f} moves/s (offered {most.rate:.0f}, p99 "
                f"{most.p99_ms:.1f} ms)" if most else "no rate tried was held"))
    for g in games:
        spoken = "/".join(str(v) for v in sorted(g.protocols)) or "?"
        console.print(
            f"[bold]whole games, {g.code}[/bold] (v{spoken}, {g.tables} tables, "
            f"{g.watchers} watcher(s) each): {g.finished} finished in {g.seconds:.0f} s, "
            f"moves {g.moves}; seat update frames median {g.update_median_b:.0f} B, p95 "
            f"{g.update_p95_b:.0f} B; {kib(g.table_bytes_per_move)} KiB a move to the table "
            f"({kib(g.seat_bytes_per_move)} seats + {kib(g.watcher_bytes_per_move)} watchers)")
        console.print("  seat 0's update median by its updates: " + ", ".join(
            f"{k} {v:.0f} B" for k, v in g.seat0_update_median_b_by_position.items()))
        if g.failures:
            console.print("  failures: " + "; ".join(g.failures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--tables", type=int, default=250, help="four clients each")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured duration")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--rate", type=float, default=500.0,
                        help="moves/s over all tables (0: each seat moves at once)")
    parser.add_argument("--protocol", type=int, choices=VERSIONS, default=3,
                        help="the version the clients ask for in their hello")
    parser.add_argument("--watchers", type=int, default=0, metavar="N",
                        help="spectators at each table")
    parser.add_argument("--moves-per-table", type=int, default=300, metavar="N",
                        help="leave a table after N accepted moves for a new one, as people "
                             "leave finished games (0: play every game to its end)")
    parser.add_argument("--ref", metavar="REF", help="also run the code of this git ref")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each code, alternating (with --ref)")
    parser.add_argument("--find-max", action="store_true",
                        help="search the most moves/s held at p99 < 100 ms")
    parser.add_argument("--find-seconds", type=float, default=15.0, help="each search step")
    parser.add_argument("--find-budget", type=float, default=180.0,
                        help="seconds of search at most, per server")
    parser.add_argument("--game-tables", type=int, default=0, metavar="N",
                        help="also play N tables through one whole game each (SQLite)")
    parser.add_argument("--game-seconds", type=float, default=300.0,
                        help="at most this long for the whole games")
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--bot-tables", type=int, default=0, metavar="N",
                        help=f"N more tables of a person and {BOT_TABLE_PLAYERS - 1} computer "
                             "players, kept busy beside the measured ones")
    parser.add_argument("--bot", choices=BOT_NAMES, default="mcts",
                        help="the computer player at the bot tables")
    parser.add_argument("--deflate", action="store_true",
                        help="offer permessage-deflate as browsers do (more CPU both sides)")
    parser.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples")
    parser.add_argument("--postgres", default=POSTGRES_ADMIN,
                        help="an administrator URL; a scratch database is made there")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if min(args.bot_tables, args.watchers, args.game_tables) < 0 or args.repeat < 1:
        parser.error("--bot-tables, --watchers and --game-tables are 0 or more, --repeat 1 "
                     "or more")
    if args.find_max and args.rate <= 0:
        parser.error("--find-max starts from a --rate above 0")
    sockets = args.tables * (4 + args.watchers) + args.bot_tables
    limit = raise_open_files(sockets * 2 + 1024)
    if limit < sockets + 256:
        parser.error(f"the open-file limit is {limit}: too low for {sockets} sockets")
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    results: list[Result] = []
    games: list[GameFigures] = []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rummy500-bench-") as temp, \
            contextlib.ExitStack() as stack:
        scratch = Path(temp)
        codes = [THIS] if args.ref is None else [THIS, stack.enter_context(ref_code(args.ref))]
        for code in codes if args.game_tables else []:
            games.append(play_games(code, args, scratch))
        for database in databases if args.tables > 0 else []:
            for _ in range(args.repeat):
                for code in codes:
                    if database == "sqlite":
                        url = f"sqlite:///{scratch}/tables-{secrets.token_hex(3)}.db"
                        results.append(run_once(database, url, code, args, scratch))
                    else:
                        with scratch_postgres(args.postgres) as url:
                            results.append(run_once(database, url, code, args, scratch))
    if args.json:
        print(json.dumps({
            "tables": args.tables, "seconds": args.seconds, "rate": args.rate,
            "protocol": args.protocol, "watchers": args.watchers, "ref": args.ref,
            "bot_tables": args.bot_tables, "cores": os.cpu_count(), "open_files": limit,
            "load_before": load_before, "load_after": os.getloadavg(),
            "results": [{**dataclasses.asdict(r), "rss_growth_mib": r.rss_growth()}
                        for r in results],
            "games": [dataclasses.asdict(g) for g in games]}, indent=1))
    else:
        show(results, games, args)


if __name__ == "__main__":
    main()
