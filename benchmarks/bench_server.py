"""Load on ``rummy500 serve``: many four-seat tables, every seat a WebSocket client.

Run: ``.venv/bin/python benchmarks/bench_server.py`` (``--tables 250 --seconds 60
--database both``; ``--json`` for one JSON object on stdout).

Each table has four ``person`` seats, so every move comes from a client; each seat is
its own WebSocket connection that plays a random legal move from its ``state.legal``
when it is its turn, and waits for the ``ack`` (or ``refused``) before its next one.
A real ``rummy500 serve`` process is started for each database: SQLite in a temporary
file, PostgreSQL in a scratch database created on ``--postgres`` and dropped afterwards.
A table is left for a new one after ``--moves-per-table`` accepted moves (default 300;
random play rarely finishes a game to 500 within a run), as people leave finished
games: the server keeps every move of a live game in memory and forgets a table a
minute after its last client went, so memory can only level off if tables turn over.
``--moves-per-table 0`` plays every game to its end. A finished game is replaced too.

Load model:

- ``--rate R`` (moves/s over all tables, default 500): each table is paced at
  ``R / tables`` moves a second, so latency is measured at a chosen load (an open
  model: a late table catches up, it never skips).
- ``--rate 0``: unpaced, a closed loop. Each seat moves as soon as it is its turn, so
  every table has one move in flight all the time and the figure is the most the
  server takes. By Little's law the latency is then ``tables / throughput`` whatever
  the server does (250 tables at 500 moves/s: 0.5 s).

Either way a connection never sends more than 18 frames in a second (the server drops
frames beyond 20). Figures: accepted moves per second (acks within the measured
window), move-to-ack latency (client clock, from the send to the ack), and the
server's resident memory (VmRSS from ``/proc/<pid>/status``) sampled during the run.

The clients run in ``--workers`` processes (default 2). The machine's cores are shared
by the server, the database and the load generator: the summary gives the CPU each of
them used, so a figure limited by the generator shows as such.

Computer players beside them: ``--bot-tables N`` (default 0) makes N more tables before
the measured window, each of eight players, a person in seat 0 and seven ``--bot``
computer players (default ``mcts``), to a target score no game reaches during a run.
One more client process holds each of those person seats on a WebSocket (computer
players play only while a person is at their table) and plays a random legal move as
soon as it is the person's turn, so the computer players keep the server thinking all
the time. The latency figures stay those of the four-seat tables; the bot tables add
their own: changes (seq advances) per second over the window, how many of them were
the person seats' moves, and the CPU of the server's thinking workers. ``--tables 10
--rate 20 --bot-tables 16`` measures a person's move beside 16 busy tables.

Every client comes from 127.0.0.1, so the server is started with its limits per
address (tables an hour, unfinished tables, connections) and its connection limit
raised far above what the run needs; nothing else differs from its defaults but
``--pace 0`` (computer players move as soon as they have decided).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import resource
import secrets
import signal
import statistics
import tempfile
import time
import urllib.request
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from rummy500.bots import BOT_NAMES
from rummy500.client import TableConnection
from rummy500.server.process import start_server

POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
FRAMES_PER_SECOND = 18
"""What a client sends at most in any second (the server's limit is 20)."""
CREATE_CONCURRENCY = 16
CONNECT_CONCURRENCY = 64
BOT_TABLE_PLAYERS = 8
BOT_TABLE_TARGET = 100_000
"""The bot tables' target score: no game there ends during a run."""
TABLES_PER_TABLE_SLOT = 1000
"""Tables one table slot may use in a run (a new one after each game or
``--moves-per-table`` moves), far more than it can: the per-address table limits given
to the server are this many times the tables."""


# -- the server's process (started by rummy500.server.process) ----------------------------


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


def limit_flags(args: argparse.Namespace) -> tuple[str, ...]:
    """``serve`` flags that lift the limits per address (every client is 127.0.0.1) and
    the connection limit far above what this run needs."""
    tables = (args.tables + args.bot_tables) * TABLES_PER_TABLE_SLOT
    connections = (args.tables * 4 + args.bot_tables) * 2 + 1024
    return ("--tables-per-hour", str(tables), "--open-tables-per-address", str(tables),
            "--connections-per-address", str(connections),
            "--max-connections", str(connections))


def raise_open_files(wanted: int) -> int:
    """Raise RLIMIT_NOFILE towards ``wanted`` (as far as the hard limit lets); the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return int(soft)


# -- the clients (one worker process) ---------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    games: int = 0
    left: int = 0
    tables: int = 0
    failures: list[str] = field(default_factory=list)


class Window:
    """The measured window, as wall-clock times the main process sets (0: not yet)."""

    def __init__(self, start: Synchronized[float], end: Synchronized[float]) -> None:
        self.start, self.end = start, end

    def inside(self, at: float) -> bool:
        start = self.start.value
        return 0 < start <= at and (self.end.value == 0 or at < self.end.value)


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def new_table(base: str) -> tuple[str, list[str]]:
    """A four-seat table of people, every seat taken: its id and the four tokens."""
    made = post(base, "/api/tables", {
        "rules": {"preset": "classic"}, "players": 4, "takeover_s": 0,
        "seats": [{"kind": "person", "name": f"Load {i}"} for i in range(4)]})
    tokens = [str(made["token"])]
    for seat in (1, 2, 3):
        tokens.append(str(post(base, f"/api/tables/{made['table']}/seats/{seat}", {})["token"]))
    return str(made["table"]), tokens


class FrameBudget:
    """At most :data:`FRAMES_PER_SECOND` frames from one connection in any second."""

    def __init__(self) -> None:
        self.sends: deque[float] = deque()

    async def spend(self) -> None:
        """Wait until one more frame may go, and count it."""
        if len(self.sends) >= FRAMES_PER_SECOND:
            wait = self.sends[0] + 1.0 - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.sends.popleft()
        self.sends.append(time.monotonic())


class Seat:
    """One seat's connection: random legal moves on its turn, paced by its table."""

    def __init__(self, socket: Any, table: TableLoad) -> None:
        self.socket = socket
        self.table = table
        self.state: dict[str, Any] = {}
        self.seq = -1
        self.pending: str | None = None
        self.sent_at = 0.0
        self.budget = FrameBudget()
        self.ids = 0

    async def send(self, frame: dict[str, Any]) -> None:
        await self.budget.spend()
        await self.socket.send(json.dumps(frame))

    async def run(self) -> None:
        """Until the game is over (or the run ends)."""
        load = self.table.load
        tally = load.tally
        while not load.stopping:
            text = await self.socket.recv()
            frame = json.loads(text)
            kind = frame.get("type")
            if kind in ("welcome", "update"):
                self.state, self.seq = frame["state"], frame["seq"]
                if self.state.get("over"):
                    return
            elif kind == "ack" and frame.get("id") == self.pending:
                now = time.time()
                if load.window.inside(self.sent_at):
                    tally.latencies.append(now - self.sent_at)
                    load.count.value += 1
                self.pending = None
                self.table.made += 1
                if 0 < load.moves_per_table <= self.table.made:
                    return  # the table is left; the server forgets it after a while
            elif kind == "refused" and frame.get("id") == self.pending:
                tally.refusals[str(frame.get("code"))] += 1
                self.pending = None
            elif kind == "error":
                tally.refusals[f"error {frame.get('code')}"] += 1
                self.pending = None
            if self.pending is None and self.state.get("legal"):
                await self.table.due()
                if load.stopping:
                    return
                self.ids += 1
                self.pending = f"m{self.ids}"
                self.sent_at = time.time()
                await self.send({"type": "move", "id": self.pending, "seq": self.seq,
                                 "move": load.rng.choice(self.state["legal"])})


class TableLoad:
    """One table's four seats, and its pace."""

    def __init__(self, load: Load) -> None:
        self.load = load
        self.next_at = 0.0
        self.made = 0

    async def due(self) -> None:
        interval = self.load.interval
        if interval <= 0:
            return
        now = time.monotonic()
        if self.next_at == 0.0:
            self.next_at = now + self.load.rng.random() * interval
        wait = self.next_at - now
        self.next_at += interval
        if wait > 0:
            await asyncio.sleep(wait)

    async def play(self, ready: asyncio.Event) -> None:
        """Tables one after another: a finished game is replaced by a new table."""
        import websockets

        load = self.load
        first = True
        while not load.stopping:
            async with load.creating:
                table_id, tokens = await asyncio.to_thread(new_table, load.base)
            load.tally.tables += 1
            url = load.base.replace("http://", "ws://", 1) + f"/ws/{table_id}"
            sockets = []
            try:
                for token in tokens:
                    async with load.connecting:
                        socket = await websockets.connect(
                            url, open_timeout=120, max_size=2**24, ping_interval=None,
                            compression="deflate" if load.deflate else None)
                    sockets.append(socket)
                    await socket.send(json.dumps({"type": "hello", "token": token}))
                if first:
                    first = False
                    ready.set()
                    await load.go.wait()
                self.made = 0
                seats = [asyncio.ensure_future(Seat(socket, self).run()) for socket in sockets]
                try:
                    done, _ = await asyncio.wait(seats, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for seat in seats:
                        seat.cancel()
                for seat in done:
                    seat.result()  # a failure ends this worker's table loop, and is told
                if not load.stopping:
                    if 0 < load.moves_per_table <= self.made:
                        load.tally.left += 1
                    else:
                        load.tally.games += 1
            finally:
                for socket in sockets:
                    with contextlib.suppress(Exception):
                        await socket.close()


class Load:
    """The tables of one worker process."""

    def __init__(self, base: str, tables: int, interval: float, deflate: bool, seed: int,
                 window: Window, count: Synchronized[int], moves_per_table: int) -> None:
        self.base = base
        self.moves_per_table = moves_per_table
        self.tables = tables
        self.interval = interval
        self.deflate = deflate
        self.rng = random.Random(seed)
        self.window = window
        self.count = count
        self.tally = Tally()
        self.stopping = False
        self.go = asyncio.Event()
        self.creating = asyncio.Semaphore(CREATE_CONCURRENCY)
        self.connecting = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def run(self, pipe: multiprocessing.connection.Connection) -> None:
        loop = asyncio.get_running_loop()
        readies = [asyncio.Event() for _ in range(self.tables)]
        tasks = [asyncio.ensure_future(TableLoad(self).play(ready)) for ready in readies]
        self.tally.failures.extend(await set_up(readies, tasks))
        pipe.send(("ready", len(self.tally.failures)))
        await loop.run_in_executor(None, pipe.recv)  # go
        self.go.set()
        await loop.run_in_executor(None, pipe.recv)  # stop
        self.stopping = True
        self.tally.failures.extend(await wind_down(tasks))
        pipe.send(("done", self.tally.latencies, dict(self.tally.refusals), self.tally.games,
                   self.tally.left, self.tally.tables, self.tally.failures[:5]))


async def set_up(readies: list[asyncio.Event], tasks: list[asyncio.Task[None]]) -> list[str]:
    """Wait until every table is ready, or one task has failed: the failures."""
    waiting: asyncio.Future[Any] = asyncio.ensure_future(
        asyncio.gather(*(r.wait() for r in readies)))
    watched: list[asyncio.Future[Any]] = [waiting, *tasks]
    done, _ = await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
    if waiting in done:
        return []
    return [repr(task.exception()) for task in done if task.exception() is not None]


async def wind_down(tasks: list[asyncio.Task[None]]) -> list[str]:
    """Let the tasks see they are stopping, then cancel them: their failures."""
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    return [repr(result) for result in await asyncio.gather(*tasks, return_exceptions=True)
            if isinstance(result, BaseException)
            and not isinstance(result, asyncio.CancelledError)]


def run_loop(main: Any) -> None:
    """Run the coroutine ``main`` on uvloop where it is installed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when to stop
    try:
        import uvloop
        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    runner(main)


def worker(base: str, tables: int, interval: float, deflate: bool, seed: int,
           start: Synchronized[float], end: Synchronized[float], count: Synchronized[int],
           moves_per_table: int, pipe: multiprocessing.connection.Connection) -> None:
    load = Load(base, tables, interval, deflate, seed, Window(start, end), count,
                moves_per_table)
    run_loop(load.run(pipe))


# -- the tables of computer players (one more client process) ---------------------------------


def new_bot_table(base: str, bot: str) -> tuple[str, str]:
    """An eight-seat table, a person in seat 0 and ``bot`` in the others: id and token."""
    made = post(base, "/api/tables", {
        "rules": {"preset": "classic", "target_score": BOT_TABLE_TARGET},
        "players": BOT_TABLE_PLAYERS, "takeover_s": 0,
        "seats": [{"kind": "person", "name": "Busy"},
                  *({"kind": "bot", "bot": bot} for _ in range(BOT_TABLE_PLAYERS - 1))]})
    return str(made["table"]), str(made["token"])


@dataclass
class BotTally:
    changes: int = 0
    """Seq advances seen within the measured window, at every bot table."""
    person_moves: int = 0
    """Of them, the person seats' moves (acknowledged within the window)."""
    refusals: Counter[str] = field(default_factory=Counter)
    games_over: int = 0
    failures: list[str] = field(default_factory=list)


class BotTables:
    """The person seats of the bot tables: a random legal move at once on their turn."""

    def __init__(self, base: str, tables: int, bot: str, seed: int, window: Window,
                 changes: Synchronized[int]) -> None:
        self.base = base
        self.tables = tables
        self.bot = bot
        self.rng = random.Random(seed)
        self.window = window
        self.changes = changes
        self.tally = BotTally()
        self.stopping = False
        self.creating = asyncio.Semaphore(CREATE_CONCURRENCY)

    async def table(self, ready: asyncio.Event) -> None:
        async with self.creating:
            table_id, token = await asyncio.to_thread(new_bot_table, self.base, self.bot)
            seat = await TableConnection.open(self.base, table_id, token, open_timeout=120)
        ready.set()
        try:
            await self.play(seat)
        finally:
            with contextlib.suppress(Exception):
                await seat.close()

    async def play(self, seat: TableConnection) -> None:
        """Until the run ends (or, unlikely, the game does)."""
        budget = FrameBudget()
        pending: str | None = None
        moved_to = 0  # the change the last ack named: the state to move from comes after
        ids = 0
        while not self.stopping:
            if pending is None and seat.my_turn and seat.seq >= moved_to:
                await budget.spend()
                ids += 1
                pending = f"b{ids}"
                await seat.send({"type": "move", "id": pending, "seq": seat.seq,
                                 "move": self.rng.choice(seat.state["legal"])})
            before = seat.seq
            frame = await seat.next()
            inside = self.window.inside(time.time())
            if inside and seat.seq > before:
                self.tally.changes += seat.seq - before
                self.changes.value += seat.seq - before
            kind = frame.get("type")
            if kind == "ack" and frame.get("id") == pending:
                pending, moved_to = None, int(frame["seq"])
                if inside:
                    self.tally.person_moves += 1
            elif kind == "refused" and frame.get("id") == pending:
                self.tally.refusals[str(frame.get("code"))] += 1
                pending = None
            elif kind == "error":
                self.tally.refusals[f"error {frame.get('code')}"] += 1
                pending = None
            if seat.state.get("over"):
                self.tally.games_over += 1
                return

    async def run(self, pipe: multiprocessing.connection.Connection) -> None:
        loop = asyncio.get_running_loop()
        readies = [asyncio.Event() for _ in range(self.tables)]
        tasks = [asyncio.ensure_future(self.table(ready)) for ready in readies]
        self.tally.failures.extend(await set_up(readies, tasks))
        pipe.send(("ready", len(self.tally.failures)))
        await loop.run_in_executor(None, pipe.recv)  # stop
        self.stopping = True
        self.tally.failures.extend(await wind_down(tasks))
        pipe.send(("done", self.tally.changes, self.tally.person_moves,
                   dict(self.tally.refusals), self.tally.games_over, self.tally.failures[:5]))


def bot_worker(base: str, tables: int, bot: str, seed: int, start: Synchronized[float],
               end: Synchronized[float], changes: Synchronized[int],
               pipe: multiprocessing.connection.Connection) -> None:
    run_loop(BotTables(base, tables, bot, seed, Window(start, end), changes).run(pipe))


# -- one run ----------------------------------------------------------------------------------


@dataclass
class BotFigures:
    """What the bot tables did within the measured window."""

    tables: int
    bot: str
    moves: int = 0
    """Changes (seq advances) at all bot tables, the computer players' and the person's."""
    moves_per_s: float = 0.0
    person_moves: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    games_over: int = 0


@dataclass
class Result:
    database: str
    tables: int
    clients: int
    workers: int
    rate: float
    seconds: float
    moves: int = 0
    moves_per_s: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    rss_mib: list[tuple[float, float]] = field(default_factory=list)
    """(seconds into the measured window, MiB) samples."""
    refusals: dict[str, int] = field(default_factory=dict)
    games: int = 0
    left: int = 0
    """Tables left after ``--moves-per-table`` moves."""
    tables_used: int = 0
    setup_s: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    """Cores used on average during the window: server, clients, postgres, machine."""
    failures: list[str] = field(default_factory=list)
    bot_tables: BotFigures | None = None
    """With ``--bot-tables``: what the tables of computer players did beside."""

    def rss_growth(self) -> float:
        """MiB from the median of the first tenth of samples to that of the last tenth."""
        values = [mib for _, mib in self.rss_mib]
        if len(values) < 4:
            return 0.0
        tenth = max(1, len(values) // 10)
        return statistics.median(values[-tenth:]) - statistics.median(values[:tenth])

    def rss_growth_second_half(self) -> float:
        """MiB from the median of the tenth of samples before the middle of the run to
        that of the last tenth: growth once tables have turned over (a leak keeps on)."""
        values = [mib for _, mib in self.rss_mib]
        if len(values) < 4:
            return 0.0
        tenth = max(1, len(values) // 10)
        middle = len(values) // 2
        return (statistics.median(values[-tenth:])
                - statistics.median(values[max(0, middle - tenth):middle]))


def percentile(ordered: list[float], fraction: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_once(database: str, url: str, args: argparse.Namespace, log_dir: Path) -> Result:
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    workers = max(1, min(args.workers, args.tables))
    result = Result(database, args.tables, args.tables * 4, workers, args.rate, args.seconds)
    served = start_server(url, log_dir / database, extra=limit_flags(args))
    context = multiprocessing.get_context("fork")
    start = context.Value("d", 0.0, lock=False)
    end = context.Value("d", 0.0, lock=False)
    counts = [context.Value("q", 0, lock=False) for _ in range(workers)]
    bot_changes = context.Value("q", 0, lock=False)
    pipes: list[multiprocessing.connection.Connection] = []
    processes = []
    bot_pipe: multiprocessing.connection.Connection | None = None
    interval = args.tables / args.rate if args.rate > 0 else 0.0
    try:
        began = time.monotonic()
        if args.bot_tables > 0:
            bot_pipe, theirs = context.Pipe()
            process = context.Process(target=bot_worker, daemon=True, args=(
                served.base, args.bot_tables, args.bot, args.seed * 1000 + 999, start, end,
                bot_changes, theirs))
            process.start()
            processes.append(process)
            result.bot_tables = BotFigures(args.bot_tables, args.bot)
        for index in range(workers):
            share = args.tables // workers + (1 if index < args.tables % workers else 0)
            ours, theirs = context.Pipe()
            process = context.Process(target=worker, daemon=True, args=(
                served.base, share, interval, args.deflate, args.seed * 1000 + index,
                start, end, counts[index], args.moves_per_table, theirs))
            process.start()
            pipes.append(ours)
            processes.append(process)
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                            TextColumn("{task.fields[status]}"), TimeRemainingColumn(),
                            transient=False, disable=args.json)
        with progress:
            task = progress.add_task(f"{database}: connecting", total=len(processes),
                                     status="")
            for pipe in pipes if bot_pipe is None else [bot_pipe, *pipes]:
                message = pipe.recv()
                result.failures.extend(["a worker could not set up its tables"]
                                       if message[1] else [])
                progress.advance(task)
            result.setup_s = time.monotonic() - began
            warmup = min(5.0, args.seconds / 10)
            progress.update(task, description=f"{database}: {args.tables * 4} clients",
                            total=warmup + args.seconds, completed=0)
            for pipe in pipes:
                pipe.send("go")
            started = time.monotonic()
            time.sleep(warmup)
            start.value = time.time()
            measured = time.monotonic()
            sched_before = run_and_wait_seconds(served.process.pid)
            cpu_before = (cpu_seconds(served.process.pid),
                          sum(cpu_seconds(p.pid or 0) for p in processes),
                          postgres_cpu(), machine_busy())
            workers_before = children_cpu(served.process.pid)
            next_sample = 0.0
            while (now := time.monotonic()) - measured < args.seconds:
                if served.process.poll() is not None:
                    raise RuntimeError(f"the server died:\n{served.errors()[-3000:]}")
                if now - measured >= next_sample:
                    rss = rss_kib(served.process.pid)
                    if rss is not None:
                        result.rss_mib.append((now - measured, rss / 1024))
                    next_sample += args.sample
                moves = sum(c.value for c in counts)
                rss_now = result.rss_mib[-1][1] if result.rss_mib else 0.0
                so_far = max(now - measured, 1e-9)
                beside = (f"  bot tables {bot_changes.value / so_far:5.0f} moves/s"
                          if bot_pipe is not None else "")
                progress.update(task, completed=now - started, status=(
                    f"{moves / so_far:7.0f} moves/s  RSS {rss_now:6.1f} MiB{beside}"))
                time.sleep(0.25)
            end.value = time.time()
            elapsed = time.monotonic() - measured
            busy_after = machine_busy()
            sched_after = run_and_wait_seconds(served.process.pid)
            busy, total = (busy_after[0] - cpu_before[3][0], busy_after[1] - cpu_before[3][1])
            result.cpu = {
                "server": (cpu_seconds(served.process.pid) - cpu_before[0]) / elapsed,
                "clients": (sum(cpu_seconds(p.pid or 0) for p in processes)
                            - cpu_before[1]) / elapsed,
                "postgres": postgres_cpu_since(cpu_before[2]) / elapsed,
                "machine": busy / total * (os.cpu_count() or 1) if total else 0.0,
                "server waiting for a CPU": (sched_after[1] - sched_before[1]) / elapsed,
            }
            if bot_pipe is not None:
                result.cpu["server's thinking workers"] = children_cpu_since(
                    served.process.pid, workers_before) / elapsed
            progress.update(task, completed=warmup + args.seconds)
        latencies: list[float] = []
        refusals: Counter[str] = Counter()
        for pipe in pipes if bot_pipe is None else [bot_pipe, *pipes]:
            pipe.send("stop")
        for pipe in pipes:
            if not pipe.poll(120):
                result.failures.append("a worker did not answer")
                continue
            _, lat, refused, games, left, tables, failures = pipe.recv()
            latencies.extend(lat)
            refusals.update(refused)
            result.games += games
            result.left += left
            result.tables_used += tables
            result.failures.extend(failures)
        latencies.sort()
        result.moves = len(latencies)
        result.moves_per_s = len(latencies) / elapsed
        result.p50_ms = percentile(latencies, 0.50) * 1000
        result.p99_ms = percentile(latencies, 0.99) * 1000
        result.max_ms = (latencies[-1] if latencies else 0.0) * 1000
        result.refusals = dict(refusals)
        if bot_pipe is not None and result.bot_tables is not None:
            collect_bot_tables(bot_pipe, result.bot_tables, result.failures, elapsed)
    finally:
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
        served.stop()
    return result


def collect_bot_tables(pipe: multiprocessing.connection.Connection, figures: BotFigures,
                       failures: list[str], elapsed: float) -> None:
    """The bot tables' process's tally, into ``figures`` (its failures into ``failures``)."""
    if not pipe.poll(120):
        failures.append("the bot tables' process did not answer")
        return
    _, changes, person_moves, refused, games_over, failed = pipe.recv()
    figures.moves, figures.person_moves = changes, person_moves
    figures.moves_per_s = changes / elapsed
    figures.refusals, figures.games_over = refused, games_over
    failures.extend(f"bot tables: {failure}" for failure in failed)


@contextlib.contextmanager
def scratch_postgres(admin: str) -> Any:
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


def show(results: list[Result], args: argparse.Namespace) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    beside = (f", beside {args.bot_tables} tables of {BOT_TABLE_PLAYERS - 1} {args.bot} "
              "computer players" if args.bot_tables > 0 else "")
    table = Table(title=f"rummy500 serve under load ({args.tables} tables, "
                        f"{args.tables * 4} clients{beside}, {os.cpu_count()} cores)")
    columns = ["database", "moves/s", "p50 ms", "p99 ms", "max ms", "RSS MiB", "growth",
               "2nd half"]
    if args.bot_tables > 0:
        columns.append("bot-table moves/s")
    for column in columns:
        table.add_column(column, justify="left" if column == "database" else "right")
    for r in results:
        first = r.rss_mib[0][1] if r.rss_mib else 0.0
        last = r.rss_mib[-1][1] if r.rss_mib else 0.0
        row = [r.database, f"{r.moves_per_s:.0f}", f"{r.p50_ms:.1f}", f"{r.p99_ms:.1f}",
               f"{r.max_ms:.0f}", f"{first:.0f} → {last:.0f}", f"{r.rss_growth():+.1f}",
               f"{r.rss_growth_second_half():+.1f}"]
        if r.bot_tables is not None:
            row.append(f"{r.bot_tables.moves_per_s:.1f}")
        table.add_row(*row)
    console.print(table)
    pace = (f"paced at {args.rate:g} moves/s in all" if args.rate > 0
            else "unpaced (each seat moves as soon as it may: a closed loop)")
    console.print("RSS growth in MiB: first tenth of the samples to the last; '2nd half': "
                  "the tenth before the middle to the last.")
    console.print(f"{args.seconds:g} s measured after a warm-up, {pace}; clients in "
                  f"{results[0].workers if results else args.workers} processes. CPU in cores "
                  "averaged over the window; 'machine': every process, others' too.")
    for r in results:
        extra = []
        if r.refusals:
            extra.append("refusals " + ", ".join(f"{k} {v}" for k, v in r.refusals.items()))
        extra.append(f"{r.moves} moves acknowledged, {r.tables_used} tables used, "
                     f"{r.games} games finished, {r.left} tables left after "
                     f"{args.moves_per_table} moves, set-up {r.setup_s:.0f} s")
        if r.failures:
            extra.append("failures: " + "; ".join(r.failures))
        samples = ", ".join(f"{t:.0f}s {m:.0f}" for t, m in r.rss_mib[:: max(
            1, len(r.rss_mib) // 8)])
        console.print(f"[bold]{r.database}[/bold]: " + "; ".join(extra))
        if r.bot_tables is not None:
            bots = r.bot_tables
            refused = (", refusals " + ", ".join(f"{k} {v}" for k, v in bots.refusals.items())
                       if bots.refusals else "")
            over = f", {bots.games_over} games over (!)" if bots.games_over else ""
            console.print(f"  bot tables: {bots.moves} moves in the window "
                          f"({bots.moves_per_s:.1f}/s over {bots.tables} tables), "
                          f"{bots.person_moves} of them the person seats'{refused}{over}")
        console.print("  CPU (cores): " + ", ".join(f"{k} {v:.2f}" for k, v in r.cpu.items()))
        if r.moves:
            per_move = r.cpu.get("server", 0) / r.moves_per_s * 1000
            console.print(f"  server CPU per move: {per_move:.2f} ms")
        console.print(f"  RSS MiB over the run: {samples}")


def json_result(r: Result) -> dict[str, Any]:
    """One run as JSON: its fields (``bot_tables`` only with bot tables), RSS growth."""
    fields = {key: value for key, value in r.__dict__.items() if key != "bot_tables"}
    if r.bot_tables is not None:
        fields["bot_tables"] = dataclasses.asdict(r.bot_tables)
    return {**fields, "rss_growth_mib": r.rss_growth(),
            "rss_growth_second_half_mib": r.rss_growth_second_half()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--tables", type=int, default=250, help="four clients each")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured duration")
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--rate", type=float, default=500.0,
                        help="moves/s over all tables (0: each seat moves at once)")
    parser.add_argument("--moves-per-table", type=int, default=300, metavar="N",
                        help="leave a table after N accepted moves for a new one, as people "
                             "leave finished games (0: play every game to its end)")
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
    if args.bot_tables < 0:
        parser.error("--bot-tables is 0 or more")
    sockets = args.tables * 4 + args.bot_tables
    limit = raise_open_files(sockets * 2 + 1024)
    if limit < sockets + 256:
        parser.error(f"the open-file limit is {limit}: too low for {sockets} sockets")
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    results = []
    with tempfile.TemporaryDirectory(prefix="rummy500-bench-") as scratch:
        for database in databases:
            if database == "sqlite":
                results.append(run_once(database, f"sqlite:///{scratch}/tables.db", args,
                                        Path(scratch)))
            else:
                with scratch_postgres(args.postgres) as url:
                    results.append(run_once(database, url, args, Path(scratch)))
    if args.json:
        beside = ({"bot_tables": args.bot_tables, "bot": args.bot} if args.bot_tables > 0
                  else {})
        print(json.dumps({"tables": args.tables, "seconds": args.seconds, "rate": args.rate,
                          **beside, "cores": os.cpu_count(), "open_files": limit, "results": [
                              json_result(r) for r in results]}, indent=1))
    else:
        show(results, args)


if __name__ == "__main__":
    main()
