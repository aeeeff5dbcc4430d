"""The computer players' thinking, for every table of the process: a server-wide budget,
shared fairly between the addresses that made the tables.

Decisions (computer players' moves, stand-ins' moves, people's hints) run in a small
pool of worker processes at low CPU priority (:class:`.children.ChildPool`), so a
person's move is never queued behind a search: the event loop only carries frames and
commits.

Waiting decisions belong to a *party*: a table's belong to the address that made it
(its ``creator``), a hint to the address that asked for it. Parties take turns (round
robin), one decision each, and a party that had nothing waiting comes next; within a
party its hints go first, then its tables take turns. So however many tables one
address keeps thinking, another address's decision waits only for the decisions under
way and at most one of each other party, and one address's tables never delay each
other by more than a round of that address's own tables. Each party is bounded: it thinks in at most
``per_party`` workers at once (half of them, at least one), and at most
:data:`WAITING_PER_PARTY` of its decisions wait; one more is refused
(:class:`ThinkingBusy`) and asked again later.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from ..view import PlayerView
from . import metrics
from .children import ChildPool, PoolError

log = logging.getLogger("rummy500.server")

DECISION_DEADLINE_S = 60.0
"""A decision that takes longer than this is a worker gone wrong: it is replaced."""
WORKER_MEMORY = 2 * 1024 * 1024 * 1024
"""The address space of a thinking worker."""
WAITING_PER_PARTY = 32
"""Decisions of one party (address) that may wait at once: more than the tables one
address may hold unfinished (``--open-tables-per-address``, 20 by default) and a hint."""


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


def address_party(creator: str) -> str:
    """The party of one address's decisions (``creator``: the hash of the address that
    :func:`.addresses.creator_id` makes, as stored with the tables it made)."""
    return f"address {creator}"


def seed_number(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(eq=False)
class _Job:
    work: Callable[..., Any]
    args: tuple[Any, ...]
    party: str
    table: str
    urgent: bool
    future: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class ThinkingBusy(Exception):
    """A party has :data:`WAITING_PER_PARTY` decisions waiting already: ask again later."""


@dataclass(eq=False)
class _Party:
    """One address's decisions: its hints, then its tables' questions, each table in turn."""

    urgent: deque[_Job] = field(default_factory=deque)
    tables: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    running: int = 0
    waiting: int = 0

    def take(self) -> _Job | None:
        """The party's next decision (taken out of its queues), or None."""
        while self.urgent:
            job = self.urgent.popleft()
            self.waiting -= 1
            if not job.future.done():
                return job
        while self.tables:
            key, queue = next(iter(self.tables.items()))
            job = queue.popleft()
            self.waiting -= 1
            if queue:
                self.tables.move_to_end(key)  # the party's next table's turn
            else:
                del self.tables[key]
            if not job.future.done():
                return job
        return None

    def remove(self, job: _Job) -> None:
        """Withdraw a waiting ``job`` (nothing if it was taken up already)."""
        if job.urgent:
            if job in self.urgent:
                self.urgent.remove(job)
                self.waiting -= 1
            return
        queue = self.tables.get(job.table)
        if queue is not None and job in queue:
            queue.remove(job)
            self.waiting -= 1
            if not queue:
                del self.tables[job.table]


class Thinking:
    """The worker pool and its fair queue (see the module's words)."""

    def __init__(self, workers: int, *, per_party: int | None = None,
                 waiting_per_party: int | None = None) -> None:
        self.workers = workers
        self.per_party = per_party if per_party is not None else max(1, workers // 2)
        """Decisions of one party that think at once, at most."""
        self.waiting_per_party = (waiting_per_party if waiting_per_party is not None
                                  else WAITING_PER_PARTY)
        self._pool = ChildPool(size=workers, max_waiting=workers, memory_limit=WORKER_MEMORY,
                               preload=("rummy500.bots", "rummy500.server.thinking"))
        self._parties: OrderedDict[str, _Party] = OrderedDict()
        """Parties with a decision waiting or thinking, in the order of their turns."""
        self._running = 0
        self._closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        return sum(party.waiting for party in self._parties.values())

    async def ask(self, key: str, question: Question, *, party: str | None = None,
                  urgent: bool = False) -> Answer:
        """The answer to ``question``, in the turn of ``party`` (an address: the table's
        creator, or whoever asked for a hint; by default the table ``key`` alone) and,
        within it, of the table ``key``; ``urgent`` (a hint) goes first within its party.
        Cancelling the caller withdraws a question not yet taken up. Raises
        :class:`ThinkingBusy` when the party has too many decisions waiting already."""
        return cast(Answer, await self.run(key, decide, question, party=party, urgent=urgent))

    async def run(self, key: str, work: Callable[..., Any], *args: Any,
                  party: str | None = None, urgent: bool = False) -> Any:
        """``work(*args)`` in a worker, queued as :meth:`ask` queues a decision (a game
        review's decisions go this way: one call a decision)."""
        if self._closed:
            raise asyncio.CancelledError
        party = party if party is not None else f"table {key}"
        entry = self._parties.get(party)
        if entry is not None and entry.waiting >= self.waiting_per_party:
            metrics.limit_hit("thinking")
            raise ThinkingBusy(f"{entry.waiting} decisions of this address wait already")
        if entry is None:  # a party that had nothing waiting is next in turn
            entry = self._parties[party] = _Party()
            self._parties.move_to_end(party, last=False)
        job = _Job(work, args, party, key, urgent)
        if urgent:
            entry.urgent.append(job)
        else:
            entry.tables.setdefault(key, deque()).append(job)
        entry.waiting += 1
        self._dispatch()
        try:
            return await job.future
        finally:
            self._withdraw(job)

    def _withdraw(self, job: _Job) -> None:
        if not job.future.done():
            job.future.cancel()
        entry = self._parties.get(job.party)
        if entry is not None:
            entry.remove(job)
            self._tidy(job.party)
        metrics.bot_queued(self.waiting)

    def _tidy(self, party: str) -> None:
        """Forget a party with nothing waiting or thinking."""
        entry = self._parties.get(party)
        if entry is not None and not entry.waiting and not entry.running:
            del self._parties[party]

    def _next(self) -> _Job | None:
        """The next decision to think: the first party in turn that may think one more."""
        for party in list(self._parties):
            entry = self._parties[party]
            if entry.running >= self.per_party:
                continue
            job = entry.take()
            if job is None:
                self._tidy(party)
                continue
            entry.running += 1
            self._parties.move_to_end(party)  # the next party's turn
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
            answer = await self._pool.run(job.work, *job.args, timeout=DECISION_DEADLINE_S,
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
            entry = self._parties.get(job.party)
            if entry is not None:
                entry.running -= 1
                self._tidy(job.party)
            self._dispatch()

    def start(self) -> None:
        """Start the workers now (they import the computer players meanwhile)."""
        self._pool.start()

    def close(self) -> None:
        """Withdraw every question and stop the workers."""
        self._closed = True
        for entry in self._parties.values():
            for job in [*entry.urgent, *(j for queue in entry.tables.values() for j in queue)]:
                job.future.cancel()
        self._parties.clear()
        self._pool.close()


__all__ = ["Answer", "Question", "Thinking", "ThinkingBusy", "address_party", "decide",
           "seed_number"]
