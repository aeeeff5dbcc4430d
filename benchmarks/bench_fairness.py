"""Fair computer players: how long one table's computer player takes to answer while
other addresses keep the server's thinking busy.

Run: ``.venv/bin/python benchmarks/bench_fairness.py`` (``--tables 20 --addresses 1
--bot mcts --moves 24``; ``--json`` for one JSON object on stdout).

A real ``rummy500 serve`` process is started on a SQLite file with its default settings
(one thinking worker, the limits per address as shipped, ``--pace 0.8``). The busy
addresses (127.0.0.1, then 127.0.0.3, 127.0.0.4, ...) make ``--tables`` tables between
them (20 from one address: what one address may hold unfinished), each of eight
players, a person and seven ``--bot`` computer players; each person seat is held on a
WebSocket that plays a random legal move as soon as it is its turn, so those tables keep
the thinking worker busy all the time. The measured table is made by another address,
127.0.0.2: two players, a person (who also plays at once) and an ``expert`` computer
player. (A table's decisions are thought in the turn of the address that made it; the
WebSockets all come from 127.0.0.1.)

For each of the measured table's computer player's moves, the answer time is the time
from the change before it (the person's move, or its own previous move) to its move
reaching the person: the pace and the thinking, and any wait for the worker. Figures:
median, 90th percentile and the longest, of its moves, and of those that were a deal's
first move (which waits four times the pace), first alone on the server, then beside
the busy tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy500.bots import BOT_NAMES
from rummy500.net.client import TableConnection
from rummy500.server.process import start_server

OTHER_ADDRESS = "127.0.0.2"
"""The measured table's maker."""


def busy_address(index: int) -> str:
    """The busy addresses: 127.0.0.1, then 127.0.0.3, 127.0.0.4, ..."""
    return "127.0.0.1" if index == 0 else f"127.0.0.{index + 2}"


def post(base: str, path: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    """POST from the loopback address ``source`` (another address to the server)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    assert parts.hostname is not None and parts.port is not None
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60,
                                            source_address=(source, 0))
    try:
        connection.request("POST", path, body=json.dumps(body),
                           headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        data: dict[str, Any] = json.loads(answer.read())
        if answer.status >= 400:
            raise RuntimeError(f"POST {path}: {answer.status} {data}")
        return data
    finally:
        connection.close()


async def play_at_once(connection: TableConnection, rng: random.Random,
                       stop: asyncio.Event) -> None:
    """Play a random legal move as soon as it is this seat's turn, until ``stop``."""
    while not stop.is_set() and not connection.state.get("over"):
        legal = connection.state.get("legal")
        if legal:
            await connection.move(rng.choice(legal))
        else:
            try:
                await connection.next(1.0)
            except TimeoutError:
                continue


@dataclass
class Answers:
    """The measured computer player's answer times, in seconds."""

    moves: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    """Its first moves of a deal."""

    def summary(self) -> dict[str, Any]:
        return {"moves": figures(self.moves), "first_of_deal": figures(self.first)}


def figures(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {"n": len(values), "median": round(statistics.median(ordered), 2),
            "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 2),
            "max": round(ordered[-1], 2)}


def last_mover(connection: TableConnection) -> tuple[int | None, int]:
    """The seat of the last move of the deal in play (None: none yet), and how many moves
    the deal has had."""
    moves = [entry for entry in connection.state.get("history", []) if "move" in entry]
    return (int(moves[-1]["seat"]) if moves else None), len(moves)


async def measure(base: str, moves: int, rng: random.Random, timeout: float) -> Answers:
    """A new table from :data:`OTHER_ADDRESS`, a person and ``expert``: the answer time of
    ``moves`` of the computer player's moves."""
    made = post(base, "/api/tables", {"rules": {"preset": "classic"}, "players": 2,
                                      "takeover_s": 0, "seats": [{"kind": "person"},
                                                                 {"kind": "bot", "bot": "expert"}]},
                OTHER_ADDRESS)
    seat = await TableConnection.open(base, made["table"], made["token"])
    answers = Answers()
    since = time.monotonic()
    deadline = since + timeout
    try:
        while len(answers.moves) < moves and not seat.state.get("over"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"only {len(answers.moves)} answers in {timeout:g} s")
            legal = seat.state.get("legal")
            if legal:
                answer = await seat.move(rng.choice(legal))
                if answer["type"] == "ack":
                    since = time.monotonic()
                continue
            seq = seat.seq
            await seat.next(timeout)
            if seat.seq == seq:
                continue
            now = time.monotonic()
            mover, count = last_mover(seat)
            if mover == 1:
                answers.moves.append(now - since)
                if count == 1:
                    answers.first.append(now - since)
            since = now
    finally:
        await seat.close()
    return answers


async def busy_tables(base: str, tables: int, addresses: int, bot: str, rng: random.Random,
                      stop: asyncio.Event) -> list[asyncio.Task[None]]:
    """``tables`` eight-seat tables made by ``addresses`` busy addresses in turn, each
    held and played."""
    tasks = []
    for index in range(tables):
        made = post(base, "/api/tables", {
            "rules": {"preset": "classic", "target_score": 100000}, "players": 8,
            "takeover_s": 0,
            "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": bot}] * 7},
            busy_address(index % addresses))
        seat = await TableConnection.open(base, made["table"], made["token"])
        tasks.append(asyncio.ensure_future(play_at_once(seat, random.Random(rng.random()),
                                                         stop)))
    return tasks


async def run(base: str, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    alone = await measure(base, args.moves, rng, args.timeout)
    stop = asyncio.Event()
    tasks = await busy_tables(base, args.tables, args.addresses, args.bot, rng, stop)
    await asyncio.sleep(args.warmup)
    try:
        beside = await measure(base, args.moves, rng, args.timeout)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"pace": args.pace, "busy_tables": args.tables, "busy_addresses": args.addresses,
            "busy_bot": args.bot,
            "alone": alone.summary(), "beside_busy": beside.summary(),
            "bot_queue": bot_queue(base)}


def bot_queue(base: str) -> float | None:
    """The server's ``rummy500_bot_queue`` gauge now."""
    with urllib.request.urlopen(base + "/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith("rummy500_bot_queue "):
                return float(line.split()[1])
    return None


def show(result: dict[str, Any]) -> None:
    print(f"pace {result['pace']} s; {result['busy_addresses']} busy address(es): "
          f"{result['busy_tables']} tables of a person and seven {result['busy_bot']} players")
    for name in ("alone", "beside_busy"):
        for kind, row in result[name].items():
            if row["n"]:
                print(f"  {name:12} {kind:13} n={row['n']:3}  median {row['median']:5.2f} s  "
                      f"p90 {row['p90']:5.2f} s  max {row['max']:5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--tables", type=int, default=20, help="the busy address's tables")
    parser.add_argument("--addresses", type=int, default=1,
                        help="busy addresses the tables are spread over")
    parser.add_argument("--bot", choices=BOT_NAMES, default="mcts",
                        help="the busy tables' computer players")
    parser.add_argument("--moves", type=int, default=24,
                        help="the measured computer player's moves, alone and beside")
    parser.add_argument("--pace", type=float, default=0.8)
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds the busy tables play before the measure")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--extra", nargs=argparse.REMAINDER, default=[],
                        help="more flags for rummy500 serve")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(f"sqlite:///{Path(folder) / 'tables.db'}", Path(folder),
                              pace=args.pace, extra=tuple(args.extra))
        try:
            result = asyncio.run(run(server.base, args))
        finally:
            server.stop()
    if args.json:
        print(json.dumps(result))
    else:
        show(result)


if __name__ == "__main__":
    main()
