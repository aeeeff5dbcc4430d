"""The load generator of ``benchmarks/bench_server.py``: four-seat tables of WebSocket
clients (and watchers) in one worker process, and the tables of computer players.

A seat keeps its state as a client does, from the welcome and every update
(:func:`rummy500.net.protocol.apply_frame`: a version 3 update is folded, a version 2 one
replaces the state), and plays a random legal move from ``state.legal`` on its turn.
Every frame a seat or a watcher receives is counted in bytes (its text as UTF-8, the
payload before any compression) within the measured step it arrived in.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing.connection
import random
import signal
import time
import urllib.request
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from typing import Any

from rummy500.net.client import TableConnection
from rummy500.net.protocol import V2, Gap, apply_frame

FRAMES_PER_SECOND = 18
"""What a client sends at most in any second (the server's limit is 20)."""
CREATE_CONCURRENCY = 16
CONNECT_CONCURRENCY = 64
BOT_TABLE_PLAYERS = 8
BOT_TABLE_TARGET = 100_000
"""The bot tables' target score: no game there ends during a run."""
SEQ_BUCKET = 100
"""Seat 0's update sizes are kept by the table's seq in buckets of this many changes."""


@dataclass
class StepTally:
    """What one worker saw within one measured step (a rate held for a while)."""

    latencies: list[float] = field(default_factory=list)
    """Move to ack, seconds, of the moves sent within the step."""
    update_sizes: list[int] = field(default_factory=list)
    """Bytes of every ``update`` frame a seat received within the step."""
    seat0_by_seq: dict[int, list[int]] = field(default_factory=dict)
    """Seat 0's update bytes by ``seq // SEQ_BUCKET``."""
    seat_bytes: int = 0
    """Bytes of every frame the seats received within the step."""
    watcher_bytes: int = 0
    """Bytes of every frame the watchers received within the step."""

    def merge(self, other: StepTally) -> None:
        self.latencies.extend(other.latencies)
        self.update_sizes.extend(other.update_sizes)
        for bucket, sizes in other.seat0_by_seq.items():
            self.seat0_by_seq.setdefault(bucket, []).extend(sizes)
        self.seat_bytes += other.seat_bytes
        self.watcher_bytes += other.watcher_bytes


@dataclass
class GameTrack:
    """One table's game from its first frame (``--game-tables``)."""

    seat0_updates: list[int] = field(default_factory=list)
    """Seat 0's update bytes in the order they came."""
    update_sizes: list[int] = field(default_factory=list)
    """Every seat's update bytes."""
    seat_bytes: int = 0
    watcher_bytes: int = 0
    moves: int = 0
    finished: bool = False


@dataclass
class Tally:
    """A worker's figures since it last reported them."""

    steps: dict[int, StepTally] = field(default_factory=dict)
    refusals: Counter[str] = field(default_factory=Counter)
    protocols: Counter[int] = field(default_factory=Counter)
    """Welcomes seen, by the protocol version they say (2 when they say none)."""
    games: int = 0
    left: int = 0
    tables: int = 0
    tracks: list[GameTrack] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def step(self, number: int) -> StepTally:
        found = self.steps.get(number)
        if found is None:
            found = self.steps[number] = StepTally()
        return found


class Window:
    """The measured step, as wall-clock times and a number the main process sets (a start
    of 0: not yet; an end of 0: open)."""

    def __init__(self, start: Synchronized[float], end: Synchronized[float],
                 step: Synchronized[int] | None = None) -> None:
        self.start, self.end, self.number = start, end, step

    def inside(self, at: float) -> bool:
        start = self.start.value
        return 0 < start <= at and (self.end.value == 0 or at < self.end.value)

    def step_at(self, at: float) -> int | None:
        """The step ``at`` falls in, or None outside every step."""
        if not self.inside(at):
            return None
        return self.number.value if self.number is not None else 0


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


def hello(token: str | None, version: int) -> str:
    """The first frame: version 2 says no ``"v"``."""
    frame: dict[str, Any] = {"type": "hello", "token": token}
    if version != V2:
        frame["v"] = version
    return json.dumps(frame)


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

    def __init__(self, socket: Any, table: TableLoad, index: int) -> None:
        self.socket = socket
        self.table = table
        self.index = index
        self.state: dict[str, Any] = {}
        self.seq = -1
        self.moved_to = 0
        """The seq the last ack named: the state to move from comes at or after it."""
        self.pending: str | None = None
        self.sent_at = 0.0
        self.sent_step: int | None = None
        self.budget = FrameBudget()
        self.ids = 0

    async def send(self, frame: dict[str, Any]) -> None:
        await self.budget.spend()
        await self.socket.send(json.dumps(frame))

    def count(self, text: str, kind: Any, frame: dict[str, Any]) -> None:
        """The frame's bytes, into the step it came in and the table's game track."""
        load = self.table.load
        size = len(text.encode())
        step = load.window.step_at(time.time())
        if step is not None:
            figures = load.tally.step(step)
            figures.seat_bytes += size
            if kind == "update":
                figures.update_sizes.append(size)
                if self.index == 0:
                    figures.seat0_by_seq.setdefault(int(frame["seq"]) // SEQ_BUCKET,
                                                    []).append(size)
        track = self.table.track
        if track is not None:
            track.seat_bytes += size
            if kind == "update":
                track.update_sizes.append(size)
                if self.index == 0:
                    track.seat0_updates.append(size)

    async def run(self) -> None:
        """Until the game is over (or the run ends)."""
        load = self.table.load
        while not load.stopping:
            text = await self.socket.recv()
            tally = load.tally  # a new one after each collect
            frame = json.loads(text)
            kind = frame.get("type")
            self.count(text, kind, frame)
            if kind == "welcome":
                tally.protocols[int(frame.get("v", V2))] += 1
            if kind in ("welcome", "update", "seats", "next", "waiting"):
                try:
                    self.state, self.seq = apply_frame(self.state, self.seq, frame)
                except Gap:
                    await self.send({"type": "resync"})
                    continue
                if self.state.get("over"):
                    return
            elif kind == "ack" and frame.get("id") == self.pending:
                if self.sent_step is not None:
                    tally.step(self.sent_step).latencies.append(time.time() - self.sent_at)
                    load.count.value += 1
                self.pending = None
                self.moved_to = int(frame.get("seq", 0))
                self.table.made += 1
                if self.table.track is not None:
                    self.table.track.moves += 1
                if 0 < load.moves_per_table <= self.table.made:
                    return  # the table is left; the server forgets it after a while
            elif kind == "refused" and frame.get("id") == self.pending:
                tally.refusals[str(frame.get("code"))] += 1
                self.pending = None
            elif kind == "error":
                tally.refusals[f"error {frame.get('code')}"] += 1
                self.pending = None
            if self.pending is None and self.seq >= self.moved_to and self.state.get("legal"):
                await self.table.due()
                if load.stopping:
                    return
                self.ids += 1
                self.pending = f"m{self.ids}"
                self.sent_at = time.time()
                self.sent_step = load.window.step_at(self.sent_at)
                await self.send({"type": "move", "id": self.pending, "seq": self.seq,
                                 "move": load.rng.choice(self.state["legal"])})


async def watch(socket: Any, table: TableLoad) -> None:
    """A spectator: folds every frame as a client would, counting its bytes."""
    load = table.load
    state: dict[str, Any] = {}
    seq = -1
    while not load.stopping:
        text = await socket.recv()
        size = len(text.encode())
        step = load.window.step_at(time.time())
        if step is not None:
            load.tally.step(step).watcher_bytes += size
        if table.track is not None:
            table.track.watcher_bytes += size
        frame = json.loads(text)
        try:
            state, seq = apply_frame(state, seq, frame)
        except Gap:
            await socket.send(json.dumps({"type": "resync"}))


class TableLoad:
    """One table's four seats and its watchers, and its pace."""

    def __init__(self, load: Load) -> None:
        self.load = load
        self.next_at = 0.0
        self.paced_at = 0.0
        """The interval ``next_at`` keeps to."""
        self.made = 0
        self.track: GameTrack | None = None

    async def due(self) -> None:
        interval = self.load.interval.value
        if interval <= 0:
            return
        now = time.monotonic()
        if self.next_at == 0.0 or interval != self.paced_at:  # a new pace: no catching up
            self.paced_at = interval
            self.next_at = now + self.load.rng.random() * interval
        wait = self.next_at - now
        self.next_at += interval
        if wait > 0:
            await asyncio.sleep(wait)

    async def connect(self, url: str, token: str | None) -> Any:
        import websockets

        load = self.load
        async with load.connecting:
            socket = await websockets.connect(
                url, open_timeout=120, max_size=2**24, ping_interval=None,
                compression="deflate" if load.deflate else None)
        await socket.send(hello(token, load.version))
        return socket

    async def play(self, ready: asyncio.Event) -> None:
        """Tables one after another: a finished game is replaced by a new table (with
        ``whole_games``, one game only, tracked)."""
        load = self.load
        first = True
        while not load.stopping:
            async with load.creating:
                table_id, tokens = await asyncio.to_thread(new_table, load.base)
            load.tally.tables += 1
            url = load.base.replace("http://", "ws://", 1) + f"/ws/{table_id}"
            sockets: list[Any] = []
            watchers: list[Any] = []
            try:
                for token in tokens:
                    sockets.append(await self.connect(url, token))
                for _ in range(load.watchers):
                    watchers.append(await self.connect(url, None))
                if first:
                    first = False
                    ready.set()
                    await load.go.wait()
                self.made = 0
                if load.whole_games:
                    self.track = GameTrack()
                    load.tally.tracks.append(self.track)
                seats = [asyncio.ensure_future(Seat(socket, self, index).run())
                         for index, socket in enumerate(sockets)]
                watching = [asyncio.ensure_future(watch(socket, self)) for socket in watchers]
                try:
                    done, _ = await asyncio.wait(seats, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for task in (*seats, *watching):
                        task.cancel()
                for seat in done:
                    seat.result()  # a failure ends this worker's table loop, and is told
                if not load.stopping:
                    if 0 < load.moves_per_table <= self.made:
                        load.tally.left += 1
                    else:
                        load.tally.games += 1
                        if self.track is not None:
                            self.track.finished = True
                            load.finished.value += 1
                    if load.whole_games:
                        return
            finally:
                for socket in (*sockets, *watchers):
                    with contextlib.suppress(Exception):
                        await socket.close()


@dataclass
class LoadSettings:
    """How one worker's tables play."""

    base: str
    tables: int
    version: int
    watchers: int = 0
    deflate: bool = False
    moves_per_table: int = 300
    whole_games: bool = False
    """Each table plays one game to its end, tracked, and is not replaced."""
    seed: int = 1


class Load:
    """The tables of one worker process."""

    def __init__(self, settings: LoadSettings, window: Window, interval: Synchronized[float],
                 count: Synchronized[int], finished: Synchronized[int]) -> None:
        self.base = settings.base
        self.tables = settings.tables
        self.version = settings.version
        self.watchers = settings.watchers
        self.deflate = settings.deflate
        self.moves_per_table = 0 if settings.whole_games else settings.moves_per_table
        self.whole_games = settings.whole_games
        self.rng = random.Random(settings.seed)
        self.window = window
        self.interval = interval
        """Seconds between a table's moves (0: unpaced), set by the main process."""
        self.count = count
        self.finished = finished
        self.tally = Tally()
        self.stopping = False
        self.go = asyncio.Event()
        self.creating = asyncio.Semaphore(CREATE_CONCURRENCY)
        self.connecting = asyncio.Semaphore(CONNECT_CONCURRENCY)

    def take_tally(self) -> Tally:
        """The figures so far; counting starts again."""
        tally, self.tally = self.tally, Tally()
        self.tally.tracks = tally.tracks  # tracks stay until the end: games run on
        return tally

    async def run(self, pipe: multiprocessing.connection.Connection) -> None:
        """``ready`` once set up; then on ``go`` the tables play; each ``collect`` is
        answered with the tally so far, ``stop`` with the last one."""
        loop = asyncio.get_running_loop()
        readies = [asyncio.Event() for _ in range(self.tables)]
        tasks = [asyncio.ensure_future(TableLoad(self).play(ready)) for ready in readies]
        self.tally.failures.extend(await set_up(readies, tasks))
        pipe.send(("ready", len(self.tally.failures)))
        await loop.run_in_executor(None, pipe.recv)  # go
        self.go.set()
        while await loop.run_in_executor(None, pipe.recv) == "collect":
            pipe.send(self.take_tally())
        self.stopping = True
        failures = await wind_down(tasks)
        tally = self.take_tally()
        tally.failures = (tally.failures + failures)[:5]
        pipe.send(tally)


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


def worker(settings: LoadSettings, window: Window, interval: Synchronized[float],
           count: Synchronized[int], finished: Synchronized[int],
           pipe: multiprocessing.connection.Connection) -> None:
    run_loop(Load(settings, window, interval, count, finished).run(pipe))


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
                 changes: Synchronized[int], version: int) -> None:
        self.base = base
        self.tables = tables
        self.bot = bot
        self.rng = random.Random(seed)
        self.window = window
        self.changes = changes
        self.version = version
        self.tally = BotTally()
        self.stopping = False
        self.creating = asyncio.Semaphore(CREATE_CONCURRENCY)

    async def table(self, ready: asyncio.Event) -> None:
        async with self.creating:
            table_id, token = await asyncio.to_thread(new_bot_table, self.base, self.bot)
            seat = await TableConnection.open(self.base, table_id, token, open_timeout=120,
                                              version=self.version)
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


def bot_worker(base: str, tables: int, bot: str, seed: int, window: Window,
               changes: Synchronized[int], version: int,
               pipe: multiprocessing.connection.Connection) -> None:
    run_loop(BotTables(base, tables, bot, seed, window, changes, version).run(pipe))
