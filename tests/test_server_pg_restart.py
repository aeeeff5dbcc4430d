"""Two ``serve`` processes on one PostgreSQL go on after the database restarts.

Each table here has its two seats on different processes (and each seat a second
connection through the other process), so every change one seat makes reaches the
other seat only through the database's notifications. PostgreSQL keeps no
notification for a listener that is away: a process that listens again after a restart
must read back what it missed, or a seat waits for ever for a change it never hears of
(the table freezes, one process a change behind). The database here is a private
cluster (tests/pgcluster.py), restarted with ``pg_ctl restart -m fast`` while the
tables play, then stopped for a while and started again, until a change is stored
before some process listens again (seen in ``pg_stat_activity``). While it is down,
requests answer a JSON 503 ``unavailable`` and moves are refused ``unavailable``,
the connections kept; a move refused through one process is then made through the
other, which the first must still pass on to its clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest

from pgcluster import PostgresCluster, private_cluster
from rummy500.net.client import Closed, ServerError, TableConnection
from rummy500.server.ids import new_table_id
from rummy500.server.notifier import APPLICATION_NAME, BACKOFF_MAX_S
from serverkit import ServerProcess, Servers, public_event

pytestmark = pytest.mark.asyncio

TABLES = 5
MOVES_BEFORE = 4
"""Moves made at each table before the database goes away."""
MOVES_AFTER = 6
"""Moves each table must make (acknowledged, heard by every connection) once it is back."""
HEARD_WITHIN_S = 15.0
"""Every change reaches every connection within this (a listener backs off 2 s at
most)."""
RETRY_AFTER_S = 0.2
DOWN_S = BACKOFF_MAX_S * 1.5
"""How long the database stays down: the listeners' waits grow to their longest."""
OUTAGES = 4
PACE_S = 0.06
"""Between one connection's moves: under its 20 frames a second."""
PRIVATE = ("hand", "legal", "seat", "seats", "can_undo")
"""State that differs from seat to seat (or, for presence, for a moment)."""


@pytest.fixture
def cluster() -> Iterator[PostgresCluster]:
    with private_cluster() as made:
        yield made


A, B = "A", "B"
"""The two serve processes."""


@dataclass
class Table:
    """One table of two seats, each seat connected through both processes: a seat's
    own connection (seat 0 on A, seat 1 on B) moves, unless told otherwise."""

    id: str
    connections: dict[tuple[int, str], TableConnection]
    """By seat and process."""
    rng: random.Random
    acked: int = 0
    unavailable: int = 0
    stale: int = 0
    log: list[str] = field(default_factory=list)

    def turn(self) -> int:
        turn: int = self.connections[0, A].state["turn"]
        return turn

    def where(self) -> str:
        seqs = ", ".join(f"seat {seat} on {process} at change {connection.seq}"
                         for (seat, process), connection in self.connections.items())
        return f"table {self.id}: {seqs}; {self.log[-6:]}"


TIMED = ("clock", "pause_left")
"""Seconds counted by each process from when it saw the turn or the pause begin."""


def public(state: dict[str, Any]) -> dict[str, Any]:
    """What every seat sees alike: the words of the history and sheets are each reader's
    own ("You draw…"), so the history as moves and the sheets as scores."""
    shown = {key: value for key, value in state.items()
             if key not in (*PRIVATE, *TIMED, "history", "deals")}
    shown["history"] = [public_event(entry) for entry in state["history"]]
    shown["deals"] = [(sheet["scores"], sheet["totals_after"]) for sheet in state["deals"]]
    return shown


async def reach(table: Table, connection: TableConnection, seq: int) -> None:
    """``connection`` hears change ``seq`` in bounded time, its connection still open."""
    try:
        await asyncio.wait_for(connection.until(seq), HEARD_WITHIN_S)
    except TimeoutError:
        for other in table.connections.values():  # what the others heard meanwhile
            with contextlib.suppress(TimeoutError, Closed):
                await asyncio.wait_for(other.until(seq), 0.5)
        raise AssertionError(f"a connection of seat {connection.seat} never heard of change "
                             f"{seq} within {HEARD_WITHIN_S} s: {table.where()}") from None
    except Closed as closed:
        raise AssertionError(f"the server closed a connection of seat {connection.seat} "
                             f"({closed}): {table.where()}") from None


async def settle(table: Table) -> None:
    """Every connection at the same change, seeing the same table."""
    connections = list(table.connections.values())
    while True:
        target = max(connection.seq for connection in connections)
        for connection in connections:
            await reach(table, connection, target)
        if all(connection.seq == target for connection in connections):
            break
    seen = [public(connection.state) for connection in connections]
    assert all(one == seen[0] for one in seen), f"the seats see different tables: {table.where()}"
    for seat in (0, 1):
        here, there = table.connections[seat, A].state, table.connections[seat, B].state
        timeless = {key: None for key in ("seats", *TIMED)}
        assert {**here, **timeless} == {**there, **timeless}, (
            f"seat {seat} sees different tables through A and B: {table.where()}")


async def step(table: Table) -> None:
    """The seat whose turn it is makes one legal move, retried as a client would while
    the database is away; both seats then hear it."""
    await settle(table)
    await move(table)
    await settle(table)


async def move(table: Table, pace: float = PACE_S, via: str | None = None) -> None:
    """The seat whose turn it is makes one legal move (retried while the database is
    away) through its own process or ``via`` the one named, and hears it acknowledged."""
    seat = table.turn()
    mover = table.connections[seat, via or (A, B)[seat]]
    chosen = table.rng.choice(mover.state["legal"])
    seq = mover.seq
    deadline = time.monotonic() + HEARD_WITHIN_S
    while True:
        await asyncio.sleep(pace)
        try:
            answer = await mover.move(chosen, seq=seq, timeout=HEARD_WITHIN_S)
        except TimeoutError:
            raise AssertionError(f"no answer to a move: {table.where()}") from None
        except Closed as closed:
            raise AssertionError(f"the server closed seat {seat}'s connection ({closed}) "
                                 f"after a move: {table.where()}") from None
        table.log.append(f"seat {seat} {chosen}@{seq} via {via or (A, B)[seat]}: "
                         f"{answer.get('code', 'ack')}")
        if answer["type"] == "ack":
            table.acked += 1
            return
        code = answer.get("code")
        if code == "unavailable" and time.monotonic() < deadline:
            table.unavailable += 1
            await asyncio.sleep(RETRY_AFTER_S)
            continue
        if code == "stale":
            # A commit cut off by the restart may have been stored after all: the table
            # moved on, and the seat must hear of it.
            table.stale += 1
            await reach(table, mover, seq + 1)
            return
        raise AssertionError(f"a legal move was not made: {answer}: {table.where()}")


async def play(table: Table, moves: int) -> None:
    for _ in range(moves):
        await step(table)


async def play_through(table: Table, outage: asyncio.Future[None]) -> None:
    """Play while the database restarts, then ``MOVES_AFTER`` moves once it is back."""
    while not outage.done():
        await step(table)
    await play(table, MOVES_AFTER)


async def open_tables(a: ServerProcess, b: ServerProcess) -> list[Table]:
    tables = []
    for number in range(TABLES):
        made = await a.api.create_table({
            "players": 2, "seed": 500 + number, "takeover_s": 0,
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]})
        taken = await b.api.take_seat(made["table"], 1, "Bo")
        tokens = (made["token"], taken["token"])
        connections = {(seat, process): await TableConnection.open(
                           server.base, made["table"], tokens[seat])
                       for seat in (0, 1) for process, server in ((A, a), (B, b))}
        tables.append(Table(made["table"], connections, random.Random(number)))
    for table in tables:
        await settle(table)
    return tables


async def unavailable_answer(server: ServerProcess) -> None:
    """A request that needs the database, while it is down: a JSON 503 ``unavailable``."""
    try:
        answer = await server.api.summary(new_table_id())
    except ServerError as error:
        assert (error.status, error.code) == (503, "unavailable"), (
            f"{server.base}: a request while the database is down answered {error} "
            "(wanted a JSON 503 unavailable)")
    else:
        raise AssertionError(f"{server.base} answered {answer} with the database down")


def listening(url: str) -> int:
    """How many processes' listening connections the database holds now."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                           (APPLICATION_NAME,)).fetchone()
    assert row is not None
    return int(row[0])


async def down_and_back(cluster: PostgresCluster, url: str, servers: tuple[ServerProcess, ...],
                        tables: list[Table]) -> bool:
    """Stop the database long enough for the listeners to back off to their longest
    wait, start it, play on: whether a change was stored while a process was not yet
    listening again (so that only catching up can bring it to that process's seat)."""
    await asyncio.to_thread(cluster.stop)
    for server in servers:
        await unavailable_answer(server)
    for table in tables:
        # Refused, and refused again when tried again while the database is still down
        # (the table is no longer in memory then): the connection stays.
        mover = table.connections[table.turn(), A]
        for _ in range(2):
            try:
                answer = await mover.move(table.rng.choice(mover.state["legal"]), timeout=10)
            except Closed as closed:
                raise AssertionError(f"a move while the database is down closed the "
                                     f"connection ({closed}): {table.where()}") from None
            assert answer.get("code") == "unavailable", (answer, table.where())
    await asyncio.sleep(DOWN_S)
    await asyncio.to_thread(cluster.start)
    # The seat refused on A moves through B: A must still bring the change to its clients.
    await asyncio.gather(*(move(table, pace=0, via=B) for table in tables))
    missed = await asyncio.to_thread(listening, url) < len(servers)
    for table in tables:
        await settle(table)
    await asyncio.gather(*(play(table, MOVES_AFTER) for table in tables))
    return missed


def stored_seqs(url: str, table_ids: list[str]) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT id, seq FROM tables WHERE id = ANY(%s)",
                            (table_ids,)).fetchall()
    return {row[0]: row[1] for row in rows}


async def test_tables_on_two_processes_go_on_after_the_database_restarts(
        cluster: PostgresCluster, servers: Servers) -> None:
    url = cluster.create_database("rummy500")
    a = servers.start(url, extra=("--allow-seeds",))
    b = servers.start(url, extra=("--allow-seeds",))
    tables = await open_tables(a, b)
    await asyncio.gather(*(play(table, MOVES_BEFORE) for table in tables))

    # 1. pg_ctl restart -m fast while every table plays (about 0.2 s without a database).
    restart = asyncio.ensure_future(asyncio.to_thread(cluster.restart))
    await asyncio.gather(*(play_through(table, restart) for table in tables))
    await restart

    # 2. Down for a while (requests answer unavailable, the tables stay), then back, until
    # a change is stored before a process listens again: what only catching up mends.
    outages = 0
    while outages < OUTAGES:
        outages += 1
        if await down_and_back(cluster, url, (a, b), tables):
            break
    else:
        raise AssertionError(f"in {OUTAGES} outages the processes always listened again "
                             "before a change was stored: this test proved nothing")

    stored = stored_seqs(url, [table.id for table in tables])
    for table in tables:
        await settle(table)
        assert stored[table.id] == table.connections[0, A].seq, (stored[table.id],
                                                                  table.where())
        for server in (a, b):
            assert (await server.api.summary(table.id))["seq"] == stored[table.id]
        await asyncio.gather(*(connection.close() for connection in table.connections.values()))
    print(f"outages until a change was stored unheard: {outages}; moves acknowledged "
          f"{sum(t.acked for t in tables)}, refused unavailable and retried "
          f"{sum(t.unavailable for t in tables)}, stale after a cut-off commit "
          f"{sum(t.stale for t in tables)}")
