"""The moves of many tables stored in one commit (:mod:`rummy500.server.group_commit`), on a
real SQLite file: appends that come together share a commit, each is answered once it is
stored, and a table played alone never waits for others."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
import pytest_asyncio

from rummy500.server import group_commit
from rummy500.server.appends import Append
from rummy500.server.live import PERSON, PLAYING, Change, Seat, Spec
from rummy500.server.store import Store

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    made = Store(f"sqlite:///{tmp_path}/tables.db")
    await made.open()
    yield made
    await made.close()


async def tables(store: Store, count: int) -> list[str]:
    ids = [f"t{n:015d}" for n in range(count)]
    for table_id in ids:
        await store.create(table_id, Spec(rules={}, players=2, seed=1),
                           [Seat(0, PERSON), Seat(1, PERSON)], [Change(1)])
    return ids


def counted(store: Store) -> list[int]:
    """The size of each batch the store commits from now on."""
    sizes: list[int] = []
    commit = store.appender.store

    async def counting(batch: Sequence[Append], now: float) -> list[bool] | None:
        sizes.append(len(batch))
        return await commit(batch, now)

    store.appender.store = counting  # type: ignore[method-assign]
    return sizes


async def test_moves_that_come_together_share_a_commit(store: Store) -> None:
    ids = await tables(store, 6)
    sizes = counted(store)
    stored = await asyncio.gather(*(store.append(table_id, 1, [Change(2, 0, "draw")], PLAYING)
                                    for table_id in ids))
    assert stored == [True] * 6
    assert sum(sizes) == 6 and len(sizes) <= 2, sizes
    for table_id in ids:
        loaded = await store.load(table_id)
        assert loaded is not None and loaded.seq == 2
        assert [(c.seq, c.seat, c.move) for c in loaded.changes] == [(1, None, None),
                                                                     (2, 0, "draw")]


async def test_a_move_whose_table_moved_on_is_refused_and_the_others_stored(
        store: Store) -> None:
    ids = await tables(store, 3)
    stored = await asyncio.gather(
        store.append(ids[0], 1, [Change(2, 0, "draw")], PLAYING),
        store.append(ids[1], 5, [Change(6, 0, "draw")], PLAYING),  # the table is at 1
        store.append(ids[2], 1, [Change(2, 0, "draw")], PLAYING))
    assert list(stored) == [True, False, True]
    seqs = [(await store.load(table_id)).seq for table_id in ids]  # type: ignore[union-attr]
    assert seqs == [2, 1, 2]


async def test_a_table_played_alone_never_waits(store: Store,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(group_commit, "GATHER_S", 5.0)
    [table_id] = await tables(store, 1)
    started = time.monotonic()
    for seq in range(1, 6):
        assert await store.append(table_id, seq, [Change(seq + 1, 0, "draw")], PLAYING)
    assert time.monotonic() - started < group_commit.GATHER_S


async def one_table_moved(store: Store, monkeypatch: pytest.MonkeyPatch,
                          gather_s: float) -> tuple[str, str, list[int]]:
    """Two tables, the first of which has just moved (its move held as recent for a minute),
    the batches a gathering of ``gather_s`` commits from then on counted."""
    monkeypatch.setattr(group_commit, "GATHER_S", gather_s)
    monkeypatch.setattr(group_commit, "GATHER_WHEN_S", 60.0)
    first, second = await tables(store, 2)
    assert await store.append(first, 1, [Change(2, 0, "draw")], PLAYING)
    return first, second, counted(store)


async def test_a_move_waits_the_gathering_time_for_others_while_other_tables_move(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, sizes = await one_table_moved(store, monkeypatch, 0.5)
    started = time.monotonic()
    later = asyncio.ensure_future(store.append(second, 1, [Change(2, 0, "draw")], PLAYING))
    await asyncio.sleep(0.1)  # the first table moves again while the second's waits
    assert await store.append(first, 2, [Change(3, 1, "draw")], PLAYING)
    assert await later
    waited = time.monotonic() - started
    assert waited >= 0.5  # the other move did not end the wait: more may come
    assert sizes == [2]


async def test_a_full_batch_ends_the_wait(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, sizes = await one_table_moved(store, monkeypatch, 5.0)
    monkeypatch.setattr(group_commit, "BATCH_LIMIT", 2)
    started = time.monotonic()
    both = await asyncio.gather(store.append(second, 1, [Change(2, 0, "draw")], PLAYING),
                                store.append(first, 2, [Change(3, 1, "draw")], PLAYING))
    assert list(both) == [True, True]
    assert time.monotonic() - started < 5.0
    assert sizes == [2]


async def test_a_move_waits_no_longer_than_the_gathering_time(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _, second, sizes = await one_table_moved(store, monkeypatch, 0.3)
    started = time.monotonic()
    assert await store.append(second, 1, [Change(2, 0, "draw")], PLAYING)
    assert time.monotonic() - started >= 0.3
    assert sizes == [1]
