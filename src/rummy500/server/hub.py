"""The tables of one serve process, put together from their parts: the table master
(:mod:`.master`), the connections (:mod:`.connections`), presence across processes
(:mod:`.presence`), the computer players' driver (:mod:`.driver`) and their thinking
(:mod:`.thinking`), and the messages between processes (:mod:`.messages`).

The hub joins them: a client's hello seats it, each of its other frames goes straight to
the part that handles it (:mod:`.frame_routes`: moves to the master, talk to the talk),
what other processes say is read back, and tables nobody needs leave memory (and, after the
retention the operator sets, the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import Any

from ..net.protocol import V2
from ..session.refusal import Refusal
from .connections import CLOSE_GOING_AWAY, Client, Connections
from .driver import Driver
from .frame_routes import Routes, refuse, unless_away
from .ids import valid_token
from .inbox import Inbox
from .leaving import leave
from .live import LiveTable
from .master import Master
from .messages import Alive, AskPresence, Message, Present, Ready, Said
from .move_frames import MoveFrames
from .pacing import Pacing
from .presence import HEARTBEAT_S, LEASE_S, WATCHING, Presence
from .settings import ServerSettings
from .store import Store
from .talk import Talk
from .talk_store import TalkStore
from .thinking import Thinking

log = logging.getLogger("rummy500.server")

IDLE_EVICT_S = 60.0
"""A table nobody watches and nothing drives leaves memory after this long (the database
keeps it)."""
PRUNE_EVERY_S = 600.0
"""How often finished and abandoned tables past their retention are deleted."""


class UnknownToken(Exception):
    """A hello with a token that is no seat's of this table."""


class Hub:
    """The tables this process serves (any process may serve any table)."""

    def __init__(self, store: Store, *, settings: ServerSettings | None = None) -> None:
        self.store = store
        self.settings = settings if settings is not None else ServerSettings()
        self.process = secrets.token_hex(8)
        self.connections = Connections()
        self.presence = Presence()
        self.master = Master(store, self.connections, self.presence,
                             again_hold_s=self.settings.again_hold_s)
        self.thinking = Thinking(self.settings.bot_workers)
        self.talk_store = TalkStore(store, self.process)
        self.talk = Talk(self.talk_store, self.connections, self.master.table,
                         seat_lines=self.settings.chat_lines_per_seat,
                         address_lines=self.settings.chat_lines_per_address)
        self.pacing = Pacing(self.talk_store, self.connections)
        self.driver = Driver(self.master, self.thinking, pace=self.settings.pace,
                             pacing=self.pacing)
        self.master.changed = self.driver.kick
        self.master.loaded = self._loaded
        self.master.extra_state = self.pacing.extras
        self.master.overrun = self.pacing.overrun
        self.pacing.watching = self.presence.watching
        self.inbox = Inbox()
        self._listen()
        self.routes = Routes()
        self._route()
        self.tasks: set[asyncio.Task[Any]] = set()
        self._heard_self = float("-inf")
        """When this process last heard its own heartbeat (it hears the others then)."""

    # -- start and stop ---------------------------------------------------------------------

    async def start(self) -> None:
        self.thinking.start()
        self._spawn(self._sweep())
        self._spawn(self._prune())
        if self.store.postgres:
            self._spawn(self._heartbeat())

    async def stop(self) -> None:
        """Finish what is being written, then close every connection with 1001."""
        self.master.closing = True
        self.master.stop_counting()
        self.driver.stop()
        for table_id in list(self.master.locks):
            async with self.master.lock(table_id):
                pass
        for client in self.connections.everyone():
            client.close(CLOSE_GOING_AWAY)
        for task in list(self.tasks):
            task.cancel()
        self.thinking.close()

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def table(self, table_id: str) -> LiveTable | None:
        return await self.master.table(table_id)

    # -- connections ------------------------------------------------------------------------

    async def join(self, client: Client, token: str | None, version: int = V2) -> None:
        """A hello: seat the client (or let it watch) and send the welcome, in the
        protocol ``version`` it asked for."""
        if token is not None and not valid_token(token):
            raise UnknownToken
        table = await self.master.table(client.table_id)
        if table is None:
            raise UnknownToken
        chat = await self.talk.history(table.id)
        async with self.master.lock(table.id):
            table = self.master.live.get(table.id) or table
            seat = None
            if token is not None:
                seat = await self.master.seat_for(table, token)
                if seat is None:
                    raise UnknownToken
            if client.joined:
                await self._depart(table, client)
            client.seat = seat
            client.version = version
            client.joined = True
            if seat is not None and self.presence.arrive(table.id, seat):
                await self._presence_changed(table, seat)
            elif seat is None:
                self.presence.arrive(table.id, WATCHING)
                await self._presence_changed(table, WATCHING)
            self.connections.add(client)
            client.send(self.master.welcome(table, client, chat))

    async def welcome_again(self, client: Client) -> None:
        """A client that missed a change asks for the whole state again: a new welcome."""
        table = await self.master.table(client.table_id)
        if table is None:
            return
        chat = await self.talk.history(table.id)
        async with self.master.lock(table.id):
            table = self.master.live.get(table.id) or table
            client.send(self.master.welcome(table, client, chat))

    async def leave(self, client: Client) -> None:
        if not client.joined:
            return
        self.connections.discard(client)
        table = self.master.live.get(client.table_id)
        if table is not None:
            async with self.master.lock(table.id):
                await self._depart(table, client)
        else:
            self.presence.depart(client.table_id, WATCHING if client.seat is None
                                 else client.seat)
        client.joined = False

    async def _left(self, client: Client) -> None:
        """The person of ``client``'s seat has left the table: each of their connections
        here watches from now on (a welcome as a spectator's)."""
        seat, table = client.seat, await self.master.table(client.table_id)
        if table is None or seat is None:
            return
        chat = await self.talk.history(table.id)
        async with self.master.lock(table.id):
            for other in self.connections.of(table.id):
                if other.seat == seat:
                    await self._depart(table, other)
                    other.seat = None
                    self.presence.arrive(table.id, WATCHING)
                    other.send(self.master.welcome(table, other, chat))
            await self._presence_changed(table, WATCHING)

    def watchers_changed(self, table: LiveTable) -> None:
        """Someone began or stopped watching: everyone here is told how many watch."""
        count = self.pacing.watchers(table)
        self.connections.broadcast(table.id, {"type": "watchers", "seq": table.seq,
                                              "watchers": count})

    async def _depart(self, table: LiveTable, client: Client) -> None:
        if client.seat is not None and self.presence.depart(table.id, client.seat):
            await self._presence_changed(table, client.seat)
        elif client.seat is None:
            self.presence.depart(table.id, WATCHING)
            await self._presence_changed(table, WATCHING)

    async def _presence_changed(self, table: LiveTable, seat: int, *, tell: bool = True) -> None:
        """A seat's first connection here came or its last went (lock held)."""
        if tell:
            await self._notify(Present(table.id, self.process, seat,
                                       self.presence.local(table.id, seat)))
        if seat == WATCHING:
            self.watchers_changed(table)
            return
        now = self.presence.connected(table.id, seat)
        if table.connected.get(seat, False) == now:
            return
        table.connected[seat] = now
        if now:
            table.standins.discard(seat)
        self.master.send_seats(table)
        self.driver.kick(table)

    # -- the clients' frames ---------------------------------------------------------------

    def _route(self) -> None:
        """Each part hears the client frames it handles (:mod:`.frame_routes`): moves and
        undos the table master's, talk the talk's, a sheet read the driver's; who sits
        where (a resync's welcome, a leave) here."""
        routes = self.routes
        routes.on("resync", self._resync)
        routes.on("leave", self._leave)
        MoveFrames(self.master, self.talk_store).route(routes)
        self.talk.route(routes)
        self.driver.route(routes)

    async def _resync(self, client: Client, frame: dict[str, Any]) -> None:
        await self.welcome_again(client)

    async def _leave(self, client: Client, frame: dict[str, Any]) -> None:
        """The person of the client's seat leaves the table for good (:mod:`.leaving`)."""
        outcome = await unless_away(self._leave_table(client))
        if isinstance(outcome, Refusal):
            refuse(client, frame["id"], outcome)
        else:
            client.send({"type": "ack", "id": frame["id"], "seq": outcome})
            await self._left(client)

    async def _leave_table(self, client: Client) -> Refusal | int:
        seated = await self.master.seated_table(client, "leave the table")
        if isinstance(seated, Refusal):
            return seated
        table, seat = seated
        return await leave(self.master, table.id, seat)

    # -- other processes --------------------------------------------------------------------

    async def _loaded(self, table_id: str) -> None:
        table = self.master.live.get(table_id)
        if table is not None:
            await self.pacing.restore(table)
        await self._ask_presence(table_id)

    async def _notify(self, message: Message) -> None:
        if self.store.postgres:
            await self.store.notify(message)

    async def _ask_presence(self, table_id: str) -> None:
        await self._notify(AskPresence(table_id, self.process))

    def _listen(self) -> None:
        """Each part hears the messages it handles (:mod:`.inbox`)."""
        inbox = self.inbox
        inbox.on(Alive, self._renew)  # any word from a process renews its lease
        inbox.on(AskPresence, self._renew)
        inbox.on(Present, self._renew)
        inbox.on(Said, self._renew)
        inbox.on(AskPresence, self._asked_presence)
        inbox.on(Present, self._heard_present)
        inbox.on(Ready, self._heard_ready)
        self.talk.listen(inbox)
        self.master.listen(inbox)

    async def heard(self, message: Message) -> None:
        """A message from any process (our own included)."""
        await self.inbox.deliver(message)

    async def _renew(self, message: Alive | AskPresence | Present | Said) -> None:
        await self._alive(message.process, heartbeat=isinstance(message, Alive))

    async def _asked_presence(self, message: AskPresence) -> None:
        if message.process != self.process:
            for seat, count in self.presence.local_seats(message.table).items():
                await self._notify(Present(message.table, self.process, seat, count))

    async def _heard_present(self, message: Present) -> None:
        if message.process == self.process:
            return
        table_id = message.table
        self.presence.heard(table_id, message.process, message.seat, message.count)
        table = self.master.live.get(table_id)
        if table is not None and message.seat < table.spec.players:
            async with self.master.lock(table_id):
                await self._presence_changed(table, message.seat, tell=False)

    async def _heard_ready(self, message: Ready) -> None:
        ready = self.master.live.get(message.table)
        if ready is not None:
            async with self.master.lock(message.table):
                self.pacing.heard(ready, message)
                self.driver.kick(ready)

    async def _alive(self, process: str, *, heartbeat: bool = False) -> None:
        """``process`` said something (``heartbeat``: that it is alive): its lease of
        presence is renewed. One whose lease had lapsed is asked again (with everyone) who
        is connected at every table here."""
        if process == self.process:
            if heartbeat:
                self._heard_self = time.monotonic()  # our own word came back: we hear
            return
        if self.presence.alive(process, heartbeat=heartbeat):
            log.warning("serve process %s is heard from again: asking who is connected",
                        process)
            for table_id in list(self.master.live):
                await self._ask_presence(table_id)

    async def _heartbeat(self) -> None:
        """Say this process is alive, and let the presence of processes not heard from
        for ``LEASE_S`` lapse: their people are away (the stand-in plays for them). Only
        while this process hears its own word back (else the silence is its own)."""
        while True:
            try:
                await self._notify(Alive(self.process))
            except Exception as error:
                log.warning("cannot tell the other processes this one is alive: %s", error)
            await asyncio.sleep(HEARTBEAT_S)
            if time.monotonic() - self._heard_self > LEASE_S:
                continue
            for table_id, seat in self.presence.expire():
                table = self.master.live.get(table_id)
                if table is not None and seat < table.spec.players:
                    async with self.master.lock(table_id):
                        await self._presence_changed(table, seat, tell=False)

    async def resync(self) -> None:
        """After notifications were lost for a while (the listening connection dropped,
        the database restarted): every table in memory catches up from the database, and
        the other processes say again who is connected. Raises after trying every table
        if any failed (the listener then tries again)."""
        failed = None
        for table_id in [*self.master.live, *self.master.behind]:
            try:
                await self.master.resync(table_id)
                self.presence.forget_others(table_id)
                await self._ask_presence(table_id)
                for seat, count in self.presence.local_seats(table_id).items():
                    await self._notify(Present(table_id, self.process, seat, count))
            except Exception as error:
                log.warning("catching table %s up failed: %s", table_id, error)
                failed = error
        if failed is not None:
            raise failed

    # -- memory and retention ---------------------------------------------------------------

    async def _sweep(self) -> None:
        """Let tables nobody watches and nothing drives leave memory."""
        while True:
            await asyncio.sleep(IDLE_EVICT_S / 4)
            now = time.monotonic()
            for table_id in list(self.master.live):
                if (self.connections.watched(table_id) or self.driver.busy(table_id)
                        or now - self.master.touched.get(table_id, now) < IDLE_EVICT_S
                        or self.master.lock(table_id).locked()):
                    continue
                self.master.drop(table_id)
                self.presence.forget_remote(table_id)
                self.pacing.forget(table_id)

    async def _prune(self) -> None:
        """Delete finished tables after ``retention_days`` and unfinished ones after
        ``abandoned_days`` without a change (their seats and changes with them)."""
        day = 24 * 3600.0
        while True:
            with contextlib.suppress(Exception):
                now = time.time()
                gone = await self.store.prune(
                    finished_before=now - self.settings.retention_days * day,
                    idle_before=now - self.settings.abandoned_days * day)
                for table_id in gone:
                    if not self.connections.watched(table_id):
                        self.master.drop(table_id)
                        self.pacing.forget(table_id)
                if gone:
                    log.info("deleted %d tables past their retention", len(gone))
            await asyncio.sleep(PRUNE_EVERY_S)


__all__ = ["Client", "Hub", "UnknownToken"]
