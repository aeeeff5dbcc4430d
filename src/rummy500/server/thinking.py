"""The computer players' thinking, for every table of the process: a server-wide budget.

Decisions (computer players' moves, stand-ins' moves, people's hints) run in a small
pool of worker processes at low CPU priority (:class:`.children.ChildPool`), so a
person's move is never queued behind a search: the event loop only carries frames and
commits. Waiting decisions
are taken in turn, one table after another (round robin), so a busy table cannot
starve the others; hints, asked by a person waiting for them, go first.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from ..view import PlayerView
from . import metrics
from .children import ChildPool, PoolError

log = logging.getLogger("rummy500.server")

DECISION_DEADLINE_S = 60.0
"""A decision that takes longer than this is a worker gone wrong: it is replaced."""
WORKER_MEMORY = 2 * 1024 * 1024 * 1024
"""The address space of a thinking worker."""


@dataclass(frozen=True, slots=True)
class Question:
    """A decision to take: which bot, seeded how, for which view."""

    bot: str
    bot_seed: int
    budget: float
    view: PlayerView
    seed: str


@dataclass(frozen=True, slots=True)
class Answer:
    move: str
    reason: str


def decide(question: Question) -> Answer:
    """In a worker: the bot's decision (its random source seeded by the position)."""
    from ..bots import make_bot

    bot = make_bot(question.bot, question.bot_seed, question.budget)
    bot.rng.seed(question.seed)
    decision = bot.decide(question.view)
    return Answer(str(decision.move), decision.reason)


def seed_number(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(eq=False)
class _Job:
    question: Question
    future: asyncio.Future[Answer] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class Thinking:
    """The worker pool and its fair queue."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ChildPool(size=workers, max_waiting=workers, memory_limit=WORKER_MEMORY,
                               preload=("rummy500.bots", "rummy500.server.thinking"))
        self._urgent: deque[_Job] = deque()
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._running = 0
        self._closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        return len(self._urgent) + sum(len(queue) for queue in self._queues.values())

    async def ask(self, key: str, question: Question, *, urgent: bool = False) -> Answer:
        """The answer to ``question``, in ``key``'s turn (a table id); ``urgent`` goes first.
        Cancelling the caller withdraws a question not yet taken up."""
        if self._closed:
            raise asyncio.CancelledError
        job = _Job(question)
        if urgent:
            self._urgent.append(job)
        else:
            self._queues.setdefault(key, deque()).append(job)
        metrics.bot_queued(self.waiting)
        self._dispatch()
        try:
            return await job.future
        finally:
            self._withdraw(key, job)

    def _withdraw(self, key: str, job: _Job) -> None:
        if not job.future.done():
            job.future.cancel()
        queue = self._queues.get(key)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._queues[key]
        if job in self._urgent:
            self._urgent.remove(job)
        metrics.bot_queued(self.waiting)

    def _next(self) -> _Job | None:
        while self._urgent:
            job = self._urgent.popleft()
            if not job.future.done():
                return job
        while self._queues:
            key, queue = next(iter(self._queues.items()))
            job = queue.popleft()
            if queue:
                self._queues.move_to_end(key)  # the next table's turn
            else:
                del self._queues[key]
            if not job.future.done():
                return job
        return None

    def _dispatch(self) -> None:
        while self._running < self.workers and not self._closed:
            job = self._next()
            if job is None:
                break
            self._running += 1
            task = asyncio.ensure_future(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        metrics.bot_queued(self.waiting)

    async def _run(self, job: _Job) -> None:
        started = time.monotonic()
        try:
            answer = await self._pool.run(decide, job.question, timeout=DECISION_DEADLINE_S,
                                          wait=DECISION_DEADLINE_S)
        except PoolError as error:
            log.error("a computer player's worker failed: %s", error)
            if not job.future.done():
                job.future.set_exception(RuntimeError("the computer player did not answer"))
        except asyncio.CancelledError:
            if not job.future.done():
                job.future.cancel()
            raise
        except Exception as error:
            if not job.future.done():
                job.future.set_exception(error)
        else:
            metrics.bot_thought(time.monotonic() - started)
            if not job.future.done():
                job.future.set_result(answer)
        finally:
            self._running -= 1
            self._dispatch()

    def start(self) -> None:
        """Start the workers now (they import the computer players meanwhile)."""
        self._pool.start()

    def close(self) -> None:
        """Withdraw every question and stop the workers."""
        self._closed = True
        for job in list(self._urgent):
            job.future.cancel()
        for queue in self._queues.values():
            for job in queue:
                job.future.cancel()
        self._urgent.clear()
        self._queues.clear()
        self._pool.close()


__all__ = ["Answer", "Question", "Thinking", "decide", "seed_number"]
