"""Moves stored on SQLite (:mod:`rummy500.server.appends`), on a real file: a batch is
written on the event loop, but one that meets another connection's lock to write waits
for it in a thread (the loop runs on meanwhile), and the WAL, which that connection never
checkpoints itself, is checkpointed in another connection's thread as the moves go on."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from rummy500.server.live import PERSON, PLAYING, Change, Seat, Spec
from rummy500.server.store import Store

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    made = Store(f"sqlite:///{tmp_path}/tables.db")
    await made.open()
    yield made
    await made.close()


async def a_table(store: Store, table_id: str = "t000000000000001") -> str:
    await store.create(table_id, Spec(rules={}, players=2, seed=1),
                       [Seat(0, PERSON), Seat(1, PERSON)], [Change(1)])
    return table_id


async def moves(store: Store, table_id: str, count: int) -> None:
    for seq in range(1, count + 1):
        assert await store.append(table_id, seq, [Change(seq + 1, seq % 2, "draw")], PLAYING)


async def test_a_move_that_meets_another_writer_waits_for_it_off_the_event_loop(
        store: Store, tmp_path: Path) -> None:
    table_id = await a_table(store)
    await moves(store, table_id, 1)  # the moves' connection is open
    other = sqlite3.connect(tmp_path / "tables.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    try:
        waiting = asyncio.ensure_future(
            store.append(table_id, 2, [Change(3, 0, "draw")], PLAYING))
        ticks = 0
        for _ in range(20):  # the event loop keeps running while the move waits
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 20 and not waiting.done()
    finally:
        other.execute("COMMIT")
        other.close()
    assert await asyncio.wait_for(waiting, 10)
    loaded = await store.load(table_id)
    assert loaded is not None and loaded.seq == 3
    await moves_from(store, table_id, 3, 2)  # and the next ones go on the loop again


async def moves_from(store: Store, table_id: str, seq: int, count: int) -> None:
    for at in range(seq, seq + count):
        assert await store.append(table_id, at, [Change(at + 1, 0, "draw")], PLAYING)
    loaded = await store.load(table_id)
    assert loaded is not None and loaded.seq == seq + count


def wal_size(tmp_path: Path) -> int:
    return (tmp_path / "tables.db-wal").stat().st_size


@pytest.mark.parametrize("every", [8, 100_000])
async def test_the_wal_is_checkpointed_as_moves_go_on(store: Store, tmp_path: Path,
                                                      every: int) -> None:
    store.appender.checkpoint_every = every
    table_id = await a_table(store)
    await moves(store, table_id, 300)
    await asyncio.sleep(0.2)  # a checkpoint under way ends
    await moves_from(store, table_id, 301, 20)
    size = wal_size(tmp_path)
    # Each commit adds a few pages of 4 KiB: 320 of them without a checkpoint; with one
    # every 8 commits the WAL starts over and stays a few dozen pages long.
    if every == 8:
        assert size < 200 * 4096, size
    else:
        assert size > 600 * 4096, size
