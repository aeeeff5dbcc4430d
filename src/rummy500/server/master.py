"""The table master: the one place where a table changes. A move is checked against the
table, stored (committed) and only then acknowledged and broadcast, all under the
table's lock and in order; changes stored by other processes are read back and
broadcast in the same order.

A table is held in memory only while it exists in the database: an id that names no
table costs nothing (no lock, no entry) however often it is asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..session.refusal import NOT_SEATED, STALE, Refusal, check_move
from ..session.state import Parts
from . import metrics
from .connections import Client, Connections
from .frame_routes import UNAVAILABLE
from .frames import Frames
from .ids import new_table_id, new_token, token_hash
from .inbox import Inbox
from .live import OVER, PLAYING, WAITING, Change, LiveTable, Seat, Spec
from .messages import Changed, NextTable
from .presence import Presence
from .store import Store
from .talk_store import TalkStore
from .undo import adopt, is_undo, rebuild, target_of, undo_event, undo_target

log = logging.getLogger("rummy500.server")

class Master:
    """The tables this process holds (any process may hold any table)."""

    def __init__(self, store: Store, connections: Connections, presence: Presence, *,
                 again_hold_s: float = 600.0) -> None:
        self.store = store
        self.connections = connections
        self.presence = presence
        self.again_hold_s = again_hold_s
        self.live: dict[str, LiveTable] = {}
        self.frames: dict[str, Frames] = {}
        """What each table's readers here were sent last (:mod:`.frames`)."""
        self.locks: dict[str, asyncio.Lock] = {}
        self.touched: dict[str, float] = {}
        self.last_local: set[str] = set()
        """Tables whose last change this process stored."""
        self.behind: dict[str, int] = {}
        """Tables dropped while clients here watched them (a store failed): the change
        those clients saw last. The table is read again as it stood then and caught up,
        so they hear every change since."""
        self.closing = False
        self.changed: Callable[[LiveTable], None] = lambda table: None
        """Told after every change of a table's game or seats (the driver listens)."""
        self.loaded: Callable[[str], Any] = lambda table_id: None
        """Told when a table is read into memory (other processes are asked who is there)."""
        self.extra_state: Callable[[LiveTable], dict[str, Any]] = lambda table: {}
        """What every state of a table carries besides the game's (the pacing's fields)."""
        self.overrun: Callable[[LiveTable, int], float] = lambda table, seat: 0.0
        """Seconds a seat's turn has outlasted its clock (spent from its bank)."""
        self.stop_counting = metrics.before_render(self.count_tables)

    # -- memory -----------------------------------------------------------------------------

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock of a table known to exist (never made for an unknown id)."""
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    def _hold(self, table: LiveTable) -> None:
        self.live[table.id] = table
        self.touched[table.id] = time.monotonic()

    def drop(self, table_id: str) -> None:
        """Forget a table (it is read again from the database when next asked for)."""
        self.live.pop(table_id, None)
        self.frames.pop(table_id, None)
        self.touched.pop(table_id, None)
        self.last_local.discard(table_id)
        lock = self.locks.get(table_id)
        if lock is not None and not lock.locked():
            del self.locks[table_id]

    def count_tables(self) -> None:
        """The tables gauge (taken fresh at each scrape of /metrics)."""
        counts = {WAITING: 0, PLAYING: 0, OVER: 0}
        for table in self.live.values():
            counts[table.status] += 1
        metrics.tables_by_status(counts)

    async def _load(self, table_id: str, upto: int | None = None) -> LiveTable | None:
        """The table from the database (its lock held); ``upto``: as it stood then."""
        stored = await self.store.load(table_id)
        if stored is None:
            self.behind.pop(table_id, None)
            return None
        seen = self.behind.pop(table_id, None)
        if upto is None:
            upto = seen
        changes = [c for c in stored.changes if upto is None or c.seq <= upto]
        table = rebuild(table_id, stored.spec, stored.seats, changes, stored.next_table)
        for seat in range(table.spec.players):
            table.connected[seat] = self.presence.connected(table_id, seat)
        self._hold(table)
        await self._maybe(self.loaded(table_id))
        if seen is not None:
            await self.catch_up(table)
        return table

    async def _maybe(self, value: Any) -> None:
        if asyncio.iscoroutine(value):
            await value

    async def seated_table(self, client: Client, doing: str) -> tuple[LiveTable, int] | Refusal:
        """The table and seat of ``client``, or a refusal: the table is gone, or the client
        watches (only the people seated may do ``doing``)."""
        table = await self.table(client.table_id)
        if table is None:
            return Refusal("unknown_table", "this table no longer exists")
        if client.seat is None:
            return Refusal(NOT_SEATED, f"a spectator watches: only the people seated may {doing}")
        return table, client.seat

    async def table(self, table_id: str) -> LiveTable | None:
        """The table, read from the database if this process does not hold it."""
        table = self.live.get(table_id)
        if table is None:
            if not await self.store.exists(table_id):
                return None
            async with self.lock(table_id):
                table = self.live.get(table_id) or await self._load(table_id)
        if table is not None:
            self.touched[table_id] = time.monotonic()
        return table

    @contextlib.asynccontextmanager
    async def holding(self, table_id: str) -> AsyncIterator[LiveTable | None]:
        """The table under its lock, as it stands then (None: it no longer exists). The
        first look takes no lock, so a table that does not exist takes none."""
        if await self.table(table_id) is None:
            yield None
            return
        async with self.lock(table_id):
            yield self.live.get(table_id) or await self._load(table_id)

    # -- new tables and seats ---------------------------------------------------------------

    async def create(self, spec: Spec, seats: list[Seat],
                     creator: str) -> tuple[LiveTable, int | None, str | None]:
        """A new table; the creator takes the first person seat: (table, seat, token)."""
        table_id = new_table_id()
        seat, token = None, None
        for entry in seats:
            if entry.open:
                seat, token = entry.seat, new_token()
                entry.token_hash = token_hash(token)
                break
        table = LiveTable(table_id, spec, seats)
        # A table that starts at a chosen position plays its moves again here: nobody else
        # holds it yet, so they are played off the event loop.
        made = await asyncio.to_thread(self._start, table) if spec.prefix else self._start(table)
        await self.store.create(table_id, spec, seats, made, creator=creator)
        async with self.lock(table_id):
            self._hold(table)
            self.last_local.add(table_id)
            self.changed(table)
        return table, seat, token

    @staticmethod
    def _start(table: LiveTable) -> list[Change]:
        """The first deal, and the moves the table starts with, when no seat is open."""
        start = table.start_change()
        if start is None:
            return []
        made = [start, *table.spec.prefix_changes(start.seq)]
        for change in made:
            table.apply(change)
        return made

    async def take_seat(self, table_id: str, seat: int, name: str | None,
                        holder: str | None = None) -> tuple[str, str | None]:
        """``("ok", token)``, ``("taken", None)``, ``("reserved", None)`` or
        ``("unknown", None)``; ``holder``: the token hash a kept seat is kept for."""
        token = new_token()
        outcome, start = await self.store.take_seat(table_id, seat, name or "",
                                                    token_hash(token), holder=holder)
        if outcome != "ok":
            return outcome, None
        async with self.lock(table_id):
            table = self.live.get(table_id)
            if table is not None:
                table.seats = await self.store.seats_of(table_id)
                self.send_seats(table)
                if start and start[0].seq == table.seq + 1:
                    self.last_local.add(table_id)
                    for change in start:
                        table.apply(change)
                    self.send_update(table, start[-1].seq)
                await self.catch_up(table)
                self.changed(table)
        return "ok", token

    async def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat ``token`` holds at ``table``, the seats read again from the database
        when it holds none here: it may have been taken through another process."""
        async with self.lock(table.id):
            return await self.seat_for(table, token)

    async def seat_for(self, table: LiveTable, token: str) -> int | None:
        """As :meth:`seat_of`, the table's lock held."""
        wanted = token_hash(token)
        seat = table.seat_with(wanted)
        if seat is None:
            table.seats = await self.store.seats_of(table.id)
            seat = table.seat_with(wanted)
        return seat

    # -- the next game ----------------------------------------------------------------------

    async def again(self, old: LiveTable, seat: int, token: str,
                    creator: str | None = None) -> tuple[str, str | None, str | None]:
        """``seat`` of the finished table ``old`` (``token`` its seat token there) takes its
        own seat at the next game: ``(outcome, next table, token)``, outcome ``created``,
        ``ok``, ``taken`` or ``unknown``. Exactly one next table is made, however many
        processes ask at once (the database's compare and set decides); each person seat
        of it is kept for the person who held it until they take it, decline it, or
        ``again_hold_s`` passes. ``creator``: who asked, for the limits per address (a
        next table counts as one they made)."""
        holder = token_hash(token)
        next_id = old.next_table
        if next_id is None:
            new = new_token()
            table = old.again(new_table_id(), seat, token_hash(new),
                              time.time() + self.again_hold_s)
            made = self._start(table)
            winner = await self.store.create_next(old.id, table.id, table.spec, table.seats,
                                                  made, creator=creator)
            if winner is None:
                return "unknown", None, None
            if winner == table.id:
                async with self.lock(table.id):
                    self._hold(table)
                    self.last_local.add(table.id)
                    self.changed(table)
                await self.learn_next(old.id, table.id)
                return "created", table.id, new
            next_id = winner
            await self.learn_next(old.id, next_id)
        entry = old.seats[seat]
        outcome, taken = await self.take_seat(next_id, seat, entry.name, holder=holder)
        return outcome, next_id, taken

    async def decline(self, old: LiveTable, token: str) -> bool:
        """The person of ``token`` will not play the next game: their kept seat is open."""
        if old.next_table is None:
            return False
        released = await self.store.release(old.next_table, token_hash(token))
        if released:
            async with self.lock(old.next_table):
                table = self.live.get(old.next_table)
                if table is not None:
                    table.seats = await self.store.seats_of(table.id)
                    self.send_seats(table)
        return released

    async def learn_next(self, table_id: str, next_id: str) -> None:
        """The next game of ``table_id`` is ``next_id``: every client of it hears so, once."""
        table = self.live.get(table_id)
        if table is None:
            return
        async with self.lock(table_id):
            if table.next_table is not None:
                return
            table.next_table = next_id
            self.connections.broadcast(table_id, {"type": "next", "table": next_id,
                                                  "url": f"/t/{next_id}"})

    # -- moves ------------------------------------------------------------------------------

    async def submit(self, table_id: str, seat: int, seq: int, move: str,
                     *, before_store: Callable[[LiveTable], None] | None = None,
                     mover: Client | None = None) -> Refusal | int:
        """Check, store and broadcast ``seat``'s move; its change's seq or a refusal.
        ``mover``: the client that sent it, whose frames of the move are held
        (:meth:`.Client.hold`) for the caller to release with its ``ack``."""
        if self.closing:
            return Refusal(UNAVAILABLE, "the server is shutting down: try again shortly")
        async with self.holding(table_id) as table:
            if table is None:
                return Refusal("unknown_table", "this table no longer exists")
            if seq != table.seq:
                return Refusal(STALE, f"the table is at change {table.seq}, not {seq}: "
                                      "read the latest state and move again")
            checked = check_move(table.game, seat, move, table.listed_moves(seat))
            if isinstance(checked, Refusal):
                return checked
            if before_store is not None:
                before_store(table)
            rendered: list[dict[tuple[int | None, int], bytes]] = []
            made = table.make(seat, checked, lambda change, event: rendered.append(
                self._render(table, change.seq)), self.overrun(table, seat))
            try:
                stored = await self.store.append(table_id, seq, made, table.status)
            except Exception as error:
                log.warning("storing a move at table %s failed: %s", table_id, error)
                self.drop(table_id)
                if self.connections.watched(table_id):
                    self.behind[table_id] = seq
                return Refusal(UNAVAILABLE, "the move could not be stored: try again")
            if not stored:
                # Another process stored a change first: this one is void. The table as
                # it stood before it, then every change stored since, as updates (with
                # their events) to this process's clients.
                self.drop(table_id)
                fresh = await self._load(table_id, upto=seq)
                if fresh is not None:
                    await self.catch_up(fresh)
                    self.changed(fresh)
                return Refusal(STALE, "the table moved on: read the latest state and move again")
            self.last_local.add(table_id)
            if mover is not None:
                mover.hold()
            for frames in rendered:
                self._send_rendered(table, frames)
            self.changed(table)
            return made[0].seq

    async def catch_up(self, table: LiveTable) -> None:
        """Changes stored by other processes, applied and broadcast in order (lock held)."""
        newer = await self.store.changes_after(table.id, table.seq)
        if not newer:
            return
        self.last_local.discard(table.id)
        for change in newer:
            if is_undo(change):  # changes were taken back: the table is read again
                await self.read_again(table)
                break
            table.apply(change)
            self.send_update(table, change.seq)
        self.changed(table)

    # -- what other processes say -----------------------------------------------------------

    def listen(self, inbox: Inbox) -> None:
        inbox.on(NextTable, self._heard_next)
        inbox.on(Changed, self._heard_change)

    async def _heard_next(self, message: NextTable) -> None:
        await self.learn_next(message.table, message.next)

    async def _heard_change(self, message: Changed) -> None:
        """Another process stored a change (or changed the seats) of a table: caught up."""
        table_id = message.table
        table = self.live.get(table_id)
        if table is None:
            if table_id in self.behind:
                await self.resync(table_id)
            return
        if message.seats:
            await self.resync(table_id)
        elif message.seq > table.seq:
            async with self.lock(table_id):
                if self.live.get(table_id) is table:
                    await self.catch_up(table)

    # -- undo -------------------------------------------------------------------------------

    async def take_back(self, changes: TalkStore, table_id: str, seat: int) -> Refusal | int:
        """``seat``'s undo (:mod:`.undo`): stored, then heard by every client; the marker's
        seq or a refusal. ``changes``: where the undo is stored with the talk's changes."""
        table = await self.table(table_id)
        if table is None:
            return Refusal("unknown_table", "this table no longer exists")
        async with self.lock(table_id):
            table = self.live.get(table_id)
            if table is None:
                return Refusal(STALE, "the table is being read again: try again")
            stored = await changes.all_changes(table_id)
            if not stored or stored[-1].seq != table.seq:
                return Refusal(STALE, "the table moved on: read the latest state and try again")
            marker = undo_target(table, seat, stored)
            if isinstance(marker, Refusal):
                return marker
            target = target_of(marker, stored)
            if not await changes.take_back(table_id, table.seq, target, marker):
                return Refusal(STALE, "the table moved on: read the latest state and try again")
            kept = [c for c in stored if c.seq <= target]
            adopt(table, rebuild(table_id, table.spec, table.seats, [*kept, marker],
                                 table.next_table))
            self.last_local.add(table_id)
            self.send_update(table, table.seq, undo_event(table, marker))
            self.changed(table)
            return marker.seq

    async def read_again(self, table: LiveTable) -> None:
        """Another process took changes back: the table is read again from the database and
        its clients here hear the undo (the table's lock held)."""
        stored = await self.store.load(table.id)
        if stored is None:
            return
        adopt(table, rebuild(table.id, stored.spec, table.seats, stored.changes,
                             stored.next_table))
        marker = next(c for c in reversed(stored.changes) if is_undo(c))
        self.send_update(table, table.seq, undo_event(table, marker))

    async def resync(self, table_id: str) -> None:
        """Read the table's seats and changes again (notifications may have been lost)."""
        table = self.live.get(table_id)
        if table is None:
            if table_id in self.behind:
                await self.table(table_id)  # read again and caught up
            return
        async with self.lock(table_id):
            if self.live.get(table_id) is not table:
                return
            table.seats = await self.store.seats_of(table_id)
            self.send_seats(table)
            await self.catch_up(table)
            self.changed(table)

    # -- what clients hear ------------------------------------------------------------------

    def frames_of(self, table: LiveTable) -> Frames:
        frames = self.frames.get(table.id)
        if frames is None:
            frames = self.frames[table.id] = Frames()
        return frames

    def parts(self, table: LiveTable, seat: int | None) -> Parts:
        """``seat``'s state of ``table`` as clients get it (the pacing's keys with it), in
        its two parts."""
        return table.parts(seat, **self._shown(table))

    def _shown(self, table: LiveTable) -> dict[str, Any]:
        """The pacing's keys of every state of ``table`` now."""
        extra = self.extra_state(table)
        waiting = extra.get("waiting_for")
        return {"waiting_for": tuple(waiting or ()), "pause_left": extra.get("pause_left"),
                "clock": extra.get("clock"), "bank": extra.get("bank"),
                "watchers": extra.get("watchers", 0)}

    def welcome(self, table: LiveTable, client: Client, chat: list[dict[str, Any]]) -> bytes:
        """The welcome of ``client`` (seated or watching) at the table as it stands now."""
        return self.frames_of(table).welcome(table.seq, client.seat,
                                             self.parts(table, client.seat), client.version,
                                             chat)

    def _render(self, table: LiveTable, seq: int,
                event: Any = None) -> dict[tuple[int | None, int], bytes]:
        """The update frame of one change for each reader (a seat, or the spectators) and
        version of the clients here: each reader's state is built once, and each frame
        written once. ``event``: the same for every reader (else each reader's own)."""
        clients = self.connections.of(table.id)
        if not clients:
            self.frames.pop(table.id, None)
            return {}
        readers: dict[int | None, set[int]] = {}
        for client in clients:
            readers.setdefault(client.seat, set()).add(client.version)
        frames = self.frames_of(table)
        frames.forget(set(readers))
        rendered: dict[tuple[int | None, int], bytes] = {}
        shared = table.shared_part(**self._shown(table))
        for reader, versions in readers.items():
            own = table.own_part(reader)
            told = own.event if event is None else event
            made = frames.update(seq, reader, Parts(shared, own), told, versions)
            for version, text in made.items():
                rendered[reader, version] = text
        return rendered

    def send_update(self, table: LiveTable, seq: int, event: Any = None) -> None:
        """Tell this process's clients of ``table`` its change ``seq`` (``event``: the same
        for every reader, else each reader's own last history entry)."""
        self._send_rendered(table, self._render(table, seq, event))

    def _send_rendered(self, table: LiveTable,
                       frames: dict[tuple[int | None, int], bytes]) -> None:
        for client in self.connections.of(table.id):
            frame = frames.get((client.seat, client.version))
            if frame is not None:
                client.send(frame)

    def send_seats(self, table: LiveTable) -> None:
        self.connections.broadcast(table.id, {"type": "seats", "seq": table.seq,
                                              "seats": table.seats_json()})


__all__ = ["UNAVAILABLE", "Master"]
