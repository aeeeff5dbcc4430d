"""Work in child processes, so that no table waits for it: :class:`ChildPool` runs a
picklable function in long-lived child processes, one call at a time in each, with a
deadline: a call that runs over it has its child killed (a thread could not be stopped,
and would hold the GIL the event loop needs; a ``ProcessPoolExecutor`` cannot cancel a
running job, and its workers outlive a killed server). Each child runs at low priority,
optionally with its address space bounded, is started again when it is killed or dies,
and exits when the server goes (its pipe closes). Calls beyond the pool's size wait a
bounded time, in a bounded line, or are refused (:class:`Busy`).

The computer players' thinking (:mod:`.thinking`) and the replays of posted records
(:mod:`rummy500.web.replay_worker`) each have a pool.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import os
import resource
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

T = TypeVar("T")

NICE = 10
"""Worker processes yield the CPU to the server's event loop (people's moves)."""
START_TIMEOUT = 60.0
"""Seconds a new child has to import its modules and say it is ready."""
_READY = "ready"


class PoolError(Exception):
    """A call the pool could not make."""


class Busy(PoolError):
    """Every child was busy for as long as a call may wait, or too many calls wait."""


class DeadlineExceeded(PoolError):
    """The call ran past its deadline: its child was killed."""


class OutOfMemory(PoolError):
    """The call needed more memory than a child is allowed: its child was killed."""


class ChildFailed(PoolError):
    """The child died during the call, or its answer could not be read."""


@dataclass(eq=False)
class _Child:
    process: BaseProcess
    connection: Connection
    ready: bool = False


@dataclass(eq=False)
class ChildPool:
    """At most ``size`` calls at a time, each in a child process of its own (see the module's
    words). ``preload``: modules each child imports before it says it is ready, so that the
    first call's deadline is not spent importing them."""

    size: int = 1
    max_waiting: int = 16
    memory_limit: int | None = None
    nice: int = NICE
    preload: Sequence[str] = ()
    _idle: list[_Child] = field(default_factory=list)
    _busy: set[_Child] = field(default_factory=set)
    _slots: asyncio.Semaphore | None = None
    _slots_loop: asyncio.AbstractEventLoop | None = None
    _waiting: int = 0

    async def run(self, function: Callable[..., T], *args: Any, timeout: float,
                  wait: float) -> T:
        """``function(*args)`` in a child, its answer back within ``timeout`` seconds of
        starting, after waiting at most ``wait`` seconds for a free child. An exception the
        function raises is raised here."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots_loop is not loop:  # a semaphore is one loop's
            self._slots, self._slots_loop = asyncio.Semaphore(self.size), loop
        if self._waiting >= self.max_waiting:
            raise Busy(f"{self._waiting} calls are waiting already")
        self._waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), wait)
        except TimeoutError:
            raise Busy(f"no worker was free for {wait:g} s") from None
        finally:
            self._waiting -= 1
        try:
            child = self._idle.pop() if self._idle else self._start_child()
            self._busy.add(child)
            try:
                if not child.ready:  # not counted in the call's deadline
                    await _until_ready(child)
                ok, value = await self._call(child, function, args, timeout)
            except BaseException:  # the child's state is unknown (cancelled, say): kill it
                self._busy.discard(child)
                _kill(child)
                raise
            self._busy.discard(child)
            if isinstance(value, MemoryError):
                _kill(child)
                raise OutOfMemory("it needs more memory than a worker may use")
            self._idle.append(child)
            if not ok:
                raise value
            answer: T = value
            return answer
        finally:
            self._slots.release()

    def start(self) -> None:
        """Start the children now, rather than at the first call (they get ready meanwhile)."""
        while len(self._idle) + len(self._busy) < self.size:
            self._idle.append(self._start_child())

    def close(self) -> None:
        """Stop every child: idle ones are told (their pipe closes), busy ones are killed."""
        for child in self._idle:
            child.connection.close()
        for child in self._idle:
            child.process.join(2.0)
            _kill(child)
        for child in list(self._busy):
            _kill(child)
        self._idle.clear()
        self._busy.clear()
        self._slots = None

    def pids(self) -> list[int]:
        """The process ids of the children (for tests and for the curious)."""
        return [child.process.pid for child in (*self._idle, *self._busy)
                if child.process.pid is not None]

    def _start_child(self) -> _Child:
        # spawn, not fork: the server has threads (the database's, the event loop's).
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=_child_main, name="rummy500-worker", daemon=True,
                                  args=(theirs, self.memory_limit, self.nice,
                                        tuple(self.preload)))
        process.start()
        theirs.close()
        return _Child(process, ours)

    async def _call(self, child: _Child, function: Callable[..., Any], args: tuple[Any, ...],
                    timeout: float) -> tuple[bool, Any]:
        """``(True, answer)``, or ``(False, the exception the function raised)``."""
        try:
            child.connection.send((function, args))
            await asyncio.wait_for(_readable(child.connection, None), timeout)
            outcome: tuple[bool, Any] = child.connection.recv()
        except TimeoutError:
            raise DeadlineExceeded(f"it took longer than {timeout:g} s") from None
        except (EOFError, OSError) as error:
            raise ChildFailed(f"the worker process stopped ({error or 'exit'})") from None
        return outcome


async def _until_ready(child: _Child) -> None:
    try:
        await _readable(child.connection, START_TIMEOUT)
        child.ready = child.connection.recv() == _READY
    except TimeoutError:
        raise ChildFailed("a worker process did not start in time") from None
    except (EOFError, OSError):
        child.ready = False
    if not child.ready:
        raise ChildFailed("a worker process did not start")


def _kill(child: _Child) -> None:
    if child.process.is_alive():
        child.process.kill()
    child.process.join(5.0)
    child.connection.close()


async def _readable(connection: Connection, timeout: float | None) -> None:
    """Until ``connection`` has something to read (a whole message follows promptly: the
    child writes its answer in one go)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    descriptor = connection.fileno()
    loop.add_reader(descriptor, wake)
    try:
        await asyncio.wait_for(ready, timeout)
    finally:
        loop.remove_reader(descriptor)
        # uvloop leaves the pipe non-blocking, and Connection reads and writes whole messages
        os.set_blocking(descriptor, True)


def _child_main(connection: Connection, memory_limit: int | None, nice: int,
                preload: tuple[str, ...]) -> None:
    """A child's life: set up, say it is ready, then answer calls until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which stops us
    if nice:
        os.nice(nice)
    for name in preload:
        importlib.import_module(name)
    if memory_limit is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    try:
        connection.send(_READY)
    except (EOFError, OSError):  # the server stopped while this child was starting
        return
    while True:
        try:
            function, args = connection.recv()
        except (EOFError, OSError):
            return
        try:
            outcome: tuple[bool, Any] = (True, function(*args))
        except MemoryError:
            outcome = (False, MemoryError())
        except Exception as error:  # sent back to be raised in the server
            outcome = (False, error)
        try:
            connection.send(outcome)
        except (EOFError, OSError):
            return
        except Exception as error:  # an answer that does not pickle
            connection.send((False, ChildFailed(f"the answer could not be sent: {error!r}")))


__all__ = ["Busy", "ChildFailed", "ChildPool", "DeadlineExceeded", "OutOfMemory", "PoolError"]
