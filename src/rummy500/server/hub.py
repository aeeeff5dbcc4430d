"""The live tables of one server process: connections, moves, computer players, presence.

Each table has one lock: a move is checked against the table, stored (committed),
then acknowledged and broadcast, all in order. Frames go out through each
connection's own queue, so a slow client never holds up a table. Other processes'
changes arrive as notifications (PostgreSQL LISTEN/NOTIFY) and are read back from
the database in order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..moves import Move
from ..session.refusal import NOT_SEATED, STALE, Refusal, check_move
from .live import BOT, PLAYING, LiveTable, Seat, Spec
from .store import Store

log = logging.getLogger("rummy500.server")

QUEUE_LIMIT = 512
"""Frames waiting for a client that reads too slowly; beyond it the client is dropped."""
IDLE_EVICT_S = 60.0
"""A table nobody watches and nothing drives leaves memory after this long (the database
keeps it)."""
FOLLOWER_GRACE_S = 2.0
"""A process that did not store a table's last change waits this much longer before
moving for a computer player there, so processes seldom race for the same move."""

CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_TOO_SLOW = 1013
CLOSE_UNKNOWN_TOKEN = 4401


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its table, its seat (None: watching) and its outbox."""

    table_id: str
    seat: int | None = None
    joined: bool = False
    outbox: asyncio.Queue[str | int] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    """JSON text frames to send, or a close code that ends the connection."""

    def send(self, frame: dict[str, Any] | str) -> None:
        text = frame if isinstance(frame, str) else json.dumps(frame)
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_TOO_SLOW)

    def close(self, code: int) -> None:
        while True:
            try:
                self.outbox.put_nowait(code)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()


class UnknownToken(Exception):
    """A hello with a token that is no seat's of this table."""


class Hub:
    """The tables this process serves (any process may serve any table)."""

    def __init__(self, store: Store, *, pace: float = 0.8) -> None:
        self.store = store
        self.pace = pace
        self.process = secrets.token_hex(8)
        self.live: dict[str, LiveTable] = {}
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.clients: dict[str, set[Client]] = defaultdict(set)
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.local: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        """Connections of this process per table and seat."""
        self.remote: dict[str, dict[int, dict[str, int]]] = defaultdict(
            lambda: defaultdict(dict))
        """Connections of other processes per table, seat and process."""
        self.last_local: set[str] = set()
        """Tables whose last change this process stored."""
        self.touched: dict[str, float] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False

    # -- start and stop ---------------------------------------------------------------------

    async def start(self) -> None:
        """Take up every game that goes on, so computer players' turns resume."""
        for table_id in await self.store.playing():
            async with self.locks[table_id]:
                table = await self._load(table_id)
            if table is not None:
                self._drive(table)
        self._spawn(self._sweep())

    async def stop(self) -> None:
        """Finish what is being written, then close every connection with 1001."""
        self.closing = True
        for task in list(self.drivers.values()):
            task.cancel()
        for table_id in list(self.locks):
            async with self.locks[table_id]:
                pass
        for clients in self.clients.values():
            for client in clients:
                client.close(CLOSE_GOING_AWAY)
        for task in list(self.tasks):
            task.cancel()

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    # -- tables -----------------------------------------------------------------------------

    async def _load(self, table_id: str, upto: int | None = None) -> LiveTable | None:
        """The table from the database (call with its lock held); ``upto``: as it stood
        at that change."""
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        changes = [c for c in stored.changes if upto is None or c.seq <= upto]
        table = LiveTable.rebuild(table_id, stored.spec, stored.seats, changes,
                                  stored.next_table)
        self._presence_into(table)
        self.live[table_id] = table
        self.touched[table_id] = time.monotonic()
        if self.store.postgres:
            await self.store.notify({"t": table_id, "ask": self.process})
        return table

    async def table(self, table_id: str) -> LiveTable | None:
        table = self.live.get(table_id)
        if table is None:
            async with self.locks[table_id]:
                table = self.live.get(table_id) or await self._load(table_id)
        if table is not None:
            self.touched[table_id] = time.monotonic()
        return table

    async def create(self, spec: Spec,
                     seats: list[Seat]) -> tuple[LiveTable, int | None, str | None]:
        """A new table; the creator takes the first person seat: (table, seat, token)."""
        from .security import new_table_id, new_token, token_hash

        table_id = new_table_id()
        seat, token = None, None
        for entry in seats:
            if entry.open:
                seat, token = entry.seat, new_token()
                entry.token_hash = token_hash(token)
                break
        table = LiveTable(table_id, spec, seats)
        made = []
        start = table.start_change()
        if start is not None:
            table.apply(start)
            made.append(start)
        await self.store.create(table_id, spec, seats, made)
        async with self.locks[table_id]:
            self.live[table_id] = table
            self.touched[table_id] = time.monotonic()
            self.last_local.add(table_id)
            self._drive(table)
        return table, seat, token

    async def take_seat(self, table_id: str, seat: int, name: str | None) -> tuple[str, str | None]:
        """``("ok", token)``, ``("taken", None)`` or ``("unknown", None)``."""
        from .security import new_token, token_hash

        token = new_token()
        outcome, start = await self.store.take_seat(table_id, seat, name or "", token_hash(token))
        if outcome != "ok":
            return outcome, None
        async with self.locks[table_id]:
            table = self.live.get(table_id)
            if table is not None:
                table.seats = await self.store.seats_of(table_id)
                self._send_seats(table)
                if start is not None and start.seq == table.seq + 1:
                    self.last_local.add(table_id)
                    event = table.apply(start)
                    self._send_rendered(table, self._render(table, start.seq, event))
                await self._catch_up(table)
                self._drive(table)
        return "ok", token

    # -- the next game ----------------------------------------------------------------------

    async def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat ``token`` holds at the table (None: no seat of it, or no table)."""
        async with self.locks[table_id]:
            table = self.live.get(table_id) or await self._load(table_id)
            return None if table is None else await self._seat_for(table, token)

    async def _seat_for(self, table: LiveTable, token: str) -> int | None:
        """The seat ``token`` holds at ``table`` (its lock held), the seats read again from
        the database when it holds none: it may have been taken through another process."""
        from .security import token_hash

        wanted = token_hash(token)
        seat = _seat_with(table, wanted)
        if seat is None:
            table.seats = await self.store.seats_of(table.id)
            seat = _seat_with(table, wanted)
        return seat

    async def again(self, old: LiveTable, seat: int) -> tuple[str, str | None, str | None]:
        """``seat`` of the finished table ``old`` takes its own seat at the next game:
        ``(outcome, next table, token)``, where outcome is ``created`` (this call made the
        next table), ``ok``, ``taken`` or ``unknown``. Exactly one next table is made, however
        many processes ask at once: the database's compare and set decides."""
        from .security import new_table_id, new_token, token_hash

        next_id = old.next_table
        if next_id is None:
            token = new_token()
            table = old.again(new_table_id(), seat, token_hash(token))
            made = []
            start = table.start_change()
            if start is not None:
                table.apply(start)
                made.append(start)
            winner = await self.store.create_next(old.id, table.id, table.spec, table.seats,
                                                  made)
            if winner is None:
                return "unknown", None, None
            if winner == table.id:
                async with self.locks[table.id]:
                    self.live[table.id] = table
                    self.touched[table.id] = time.monotonic()
                    self.last_local.add(table.id)
                    self._drive(table)
                await self._learn_next(old.id, table.id)
                return "created", table.id, token
            next_id = winner
            await self._learn_next(old.id, next_id)
        entry = old.seats[seat]
        outcome, taken = await self.take_seat(next_id, seat, entry.name)
        return outcome, next_id, taken

    async def _learn_next(self, table_id: str, next_id: str) -> None:
        """The next game of ``table_id`` is ``next_id``: every client of it hears so, once."""
        async with self.locks[table_id]:
            table = self.live.get(table_id)
            if table is None or table.next_table is not None:
                return
            table.next_table = next_id
            frame = json.dumps({"type": "next", "table": next_id, "url": f"/t/{next_id}"})
            for client in list(self.clients.get(table_id, ())):
                client.send(frame)

    # -- connections ------------------------------------------------------------------------

    async def join(self, client: Client, token: str | None) -> None:
        """A hello: seat the client (or let it watch) and send the welcome."""
        table = await self.table(client.table_id)
        if table is None:
            raise UnknownToken
        async with self.locks[client.table_id]:
            table = self.live.get(client.table_id) or await self._load(client.table_id)
            if table is None:
                raise UnknownToken
            seat = None
            if token is not None:
                seat = await self._seat_for(table, token)
                if seat is None:
                    raise UnknownToken
            if client.joined:
                self._leave_seat(table, client)
            client.seat = seat
            client.joined = True
            if seat is not None:
                self.local[table.id][seat] += 1
                if self.local[table.id][seat] == 1:
                    await self._presence_changed(table, seat)
            self.clients[table.id].add(client)
            client.send({"type": "welcome", "seat": seat, "seq": table.seq,
                         "state": table.state(seat)})

    async def leave(self, client: Client) -> None:
        if not client.joined:
            return
        async with self.locks[client.table_id]:
            table = self.live.get(client.table_id)
            self.clients[client.table_id].discard(client)
            if table is not None:
                self._leave_seat(table, client)
                if client.seat is not None and not self.local[table.id].get(client.seat):
                    await self._presence_changed(table, client.seat)
            client.joined = False

    def _leave_seat(self, table: LiveTable, client: Client) -> None:
        if client.seat is not None:
            counts = self.local[table.id]
            counts[client.seat] = max(0, counts[client.seat] - 1)

    # -- moves ------------------------------------------------------------------------------

    async def move(self, client: Client, client_id: str, seq: int, text: str) -> None:
        """A client's move: refused, or stored, acknowledged and broadcast."""
        if client.seat is None:
            client.send(_refused(client_id, Refusal(NOT_SEATED, "a spectator cannot move")))
            return
        outcome = await self._submit(client.table_id, client.seat, seq, text)
        if isinstance(outcome, Refusal):
            client.send(_refused(client_id, outcome))
        else:
            client.send({"type": "ack", "id": client_id, "seq": outcome})

    async def _submit(self, table_id: str, seat: int, seq: int, move: str | Move,
                      *, before_store: Callable[[LiveTable], None] | None = None,
                      ) -> Refusal | int:
        """Check, store and broadcast ``seat``'s move; its change's seq or a refusal."""
        if self.closing:
            return Refusal("unavailable", "the server is shutting down: try again shortly")
        table = await self.table(table_id)
        if table is None:
            return Refusal("unknown_table", "this table no longer exists")
        async with self.locks[table_id]:
            table = self.live.get(table_id) or await self._load(table_id)
            if table is None:
                return Refusal("unknown_table", "this table no longer exists")
            if table.game.finished:
                return Refusal("over", "the game is over")
            if seq != table.seq:
                return Refusal(STALE, f"the table is at change {table.seq}, not {seq}: "
                                      "read the latest state and move again")
            checked = check_move(table.game, seat, str(move))
            if isinstance(checked, Refusal):
                return checked
            if before_store is not None:
                before_store(table)
            rendered: list[dict[int | None, str]] = []
            made = table.make(seat, checked, lambda change, event: rendered.append(
                self._render(table, change.seq, event)))
            try:
                stored = await self.store.append(table_id, seq, made, table.status)
            except Exception:
                log.exception("storing a move failed")
                del self.live[table_id]
                return Refusal("unavailable", "the move could not be stored: try again")
            if not stored:
                # Another process stored a change first: this one is void. The table as
                # it stood before it, then every change stored since, as updates (with
                # their events) to this process's clients.
                del self.live[table_id]
                fresh = await self._load(table_id, upto=seq)
                if fresh is not None:
                    await self._catch_up(fresh)
                    self._drive(fresh)
                return Refusal(STALE, "the table moved on: read the latest state and move again")
            self.last_local.add(table_id)
            for frames in rendered:
                self._send_rendered(table, frames)
            self._drive(table)
            return made[0].seq

    # -- what clients hear ------------------------------------------------------------------

    def _render(self, table: LiveTable, seq: int, event: dict[str, Any]) -> dict[int | None, str]:
        """The update frame of one change for each seat that has a client here."""
        frames: dict[int | None, str] = {}
        for client in self.clients.get(table.id, ()):
            if client.seat not in frames:
                frames[client.seat] = json.dumps({"type": "update", "seq": seq, "event": event,
                                                  "state": table.state(client.seat)})
        return frames

    def _send_rendered(self, table: LiveTable, frames: dict[int | None, str]) -> None:
        for client in list(self.clients.get(table.id, ())):
            frame = frames.get(client.seat)
            if frame is not None:
                client.send(frame)

    def _send_seats(self, table: LiveTable) -> None:
        frame = json.dumps({"type": "seats", "seq": table.seq, "seats": table.seats_json()})
        for client in list(self.clients.get(table.id, ())):
            client.send(frame)

    # -- other processes --------------------------------------------------------------------

    async def heard(self, payload: dict[str, Any]) -> None:
        """A notification from any process (our own included)."""
        table_id = payload.get("t")
        if not isinstance(table_id, str):
            return
        if "ask" in payload:
            if payload["ask"] != self.process:
                for seat, count in self.local.get(table_id, {}).items():
                    if count:
                        await self.store.notify({"t": table_id, "p": self.process,
                                                 "s": seat, "n": count})
            return
        if "p" in payload:
            if payload["p"] == self.process:
                return
            counts = self.remote[table_id][int(payload["s"])]
            counts[str(payload["p"])] = int(payload["n"])
            table = self.live.get(table_id)
            if table is not None:
                async with self.locks[table_id]:
                    await self._presence_changed(table, int(payload["s"]), tell=False)
            return
        if "next" in payload:
            next_id = payload["next"]
            if isinstance(next_id, str):
                await self._learn_next(table_id, next_id)
            return
        table = self.live.get(table_id)
        if table is None:
            return
        async with self.locks[table_id]:
            table = self.live.get(table_id)
            if table is None:
                return
            if payload.get("seats"):
                table.seats = await self.store.seats_of(table_id)
                self._send_seats(table)
            await self._catch_up(table)

    async def _catch_up(self, table: LiveTable) -> None:
        """Changes stored by other processes, applied and broadcast in order (lock held)."""
        newer = await self.store.changes_after(table.id, table.seq)
        if not newer:
            return
        self.last_local.discard(table.id)
        for change in newer:
            event = table.apply(change)
            self._send_rendered(table, self._render(table, change.seq, event))
        self._drive(table)

    # -- presence and stand-ins -------------------------------------------------------------

    def _presence_into(self, table: LiveTable) -> None:
        for seat in range(table.spec.players):
            table.connected[seat] = self._connected(table.id, seat)

    def _connected(self, table_id: str, seat: int) -> bool:
        if self.local.get(table_id, {}).get(seat, 0) > 0:
            return True
        return any(n > 0 for n in self.remote.get(table_id, {}).get(seat, {}).values())

    async def _presence_changed(self, table: LiveTable, seat: int, *, tell: bool = True) -> None:
        """A seat's first connection came or its last went (lock held)."""
        now = self._connected(table.id, seat)
        if tell and self.store.postgres:
            await self.store.notify({"t": table.id, "p": self.process, "s": seat,
                                     "n": self.local[table.id].get(seat, 0)})
        if table.connected.get(seat, False) == now:
            return
        table.connected[seat] = now
        if now:
            table.standins.discard(seat)
        self._send_seats(table)
        self._drive(table)

    # -- computer players -------------------------------------------------------------------

    def _drive(self, table: LiveTable) -> None:
        """Start whatever plays next at ``table`` by itself (lock held)."""
        old = self.drivers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self.closing or table.status != PLAYING:
            return
        seat = table.game.turn
        entry = table.seats[seat]
        first = not any(True for _ in table.game.deal.moves)
        pause = self.pace * (4 if first else 1)
        if table.id not in self.last_local:
            pause += FOLLOWER_GRACE_S
        if entry.kind == BOT:
            delay, standin = pause, False
        elif table.spec.takeover_s <= 0 or table.connected.get(seat, False):
            return
        elif seat in table.standins:
            delay, standin = pause, False
        else:
            delay, standin = table.spec.takeover_s, True
        task = asyncio.ensure_future(self._play_for(table.id, seat, table.seq, delay, standin))
        self.drivers[table.id] = task

    async def _play_for(self, table_id: str, seat: int, seq: int, delay: float,
                        standin: bool) -> None:
        try:
            await asyncio.sleep(delay)
            table = self.live.get(table_id)
            if table is None or table.seq != seq:
                return
            turn = table.bot_turn(seat)
            decision = await asyncio.to_thread(turn.decide)

            def mark(live: LiveTable) -> None:
                if standin and seat not in live.standins:
                    live.standins.add(seat)
                    self._send_seats(live)

            outcome = await self._submit(table_id, seat, seq, decision.move, before_store=mark)
            if isinstance(outcome, Refusal) and outcome.code not in (STALE, "over",
                                                                     "unavailable"):
                log.error("table %s seat %s: the computer player chose %s: %s",
                          table_id, seat, decision.move, outcome.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a computer player failed at table %s", table_id)
        finally:
            if self.drivers.get(table_id) is asyncio.current_task():
                del self.drivers[table_id]

    # -- memory -----------------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Let tables nobody watches and nothing drives leave memory."""
        while True:
            await asyncio.sleep(IDLE_EVICT_S / 4)
            now = time.monotonic()
            for table_id in list(self.live):
                if (self.clients.get(table_id) or table_id in self.drivers
                        or now - self.touched.get(table_id, now) < IDLE_EVICT_S):
                    continue
                lock = self.locks[table_id]
                if lock.locked():
                    continue
                self.live.pop(table_id, None)
                self.touched.pop(table_id, None)
                self.clients.pop(table_id, None)
                self.last_local.discard(table_id)
                if not any(self.local.get(table_id, {}).values()):
                    self.local.pop(table_id, None)
                    self.remote.pop(table_id, None)
                self.locks.pop(table_id, None)


def _seat_with(table: LiveTable, wanted: str) -> int | None:
    for seat in table.seats:
        if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
            return seat.seat
    return None


def _refused(client_id: str, refusal: Refusal) -> dict[str, Any]:
    return {"type": "refused", "id": client_id, "code": refusal.code,
            "message": refusal.message}


__all__ = ["CLOSE_GOING_AWAY", "CLOSE_POLICY", "CLOSE_UNKNOWN_TOKEN", "Client", "Hub",
           "UnknownToken"]
