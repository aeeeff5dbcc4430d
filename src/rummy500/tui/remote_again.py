"""The next game at an online table, in the terminal (``rummy500 play --join``): once the
game is over, ``n`` asks the server for the next game at the same table
(``POST /api/tables/<id>/again``, docs/protocol.md) and the screen follows it, in this
seat's own seat there, its token kept beside the others (:mod:`.tokens`). When another
person made the next game first, the log says so; ``n`` then joins it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..net.client import Api, ServerError
from ..session.seat_state import SeatState
from .tokens import HeldSeat, Joined, SeatTokens

AGAIN_KEY = "n"


class NextGame:
    """What :class:`~.remote.RemoteTableScreen` adds for the next game (a mixin: the screen
    gives ``joined``, ``state``, ``log_line``, ``refuse``, ``say`` and Textual's methods)."""

    joined: Joined
    state: SeatState | None
    fatal: bool
    _next_told: str | None = None
    _over_told: bool = False
    _again_busy: bool = False

    def next_table(self) -> str | None:
        """The next game's table, once someone made it."""
        found = self.state.next if self.state is not None else None
        return found if isinstance(found, str) and found else None

    def again_open(self) -> bool:
        """Whether ``n`` does something now: the game is over."""
        return self.state is not None and self.state.over and not self.fatal

    def check_again(self, action: str) -> bool | None:
        """Textual's ``check_action`` for the next game's key (None: not its action)."""
        if action == "play_again":
            return self.again_open()
        return None

    def tell_next(self) -> None:
        """Say in the log, once, that the next game is ready."""
        if not self.again_open():
            return
        table = self.next_table()
        if table is None:
            if not self._over_told:
                self._over_told = True
                self.log_line(f"Press {AGAIN_KEY} to play again at this table.")
            return
        if table == self._next_told:
            return
        self._next_told = table
        self.log_line(f"A new game is ready at this table: press {AGAIN_KEY} to join it, "
                      "in your own seat.")

    def action_play_again(self) -> None:
        if not self.again_open():
            self.refuse("the next game comes once this one is over")
            return
        if self._again_busy:
            return
        self._again_busy = True
        self.say("Asking for the next game…", "italic")
        self.run_worker(self.go_again(), group="again", exclusive=True)  # type: ignore[attr-defined]

    async def go_again(self) -> None:
        """Take this seat's own seat at the next game, then follow it."""
        joined = self.joined
        try:
            held = await self._seat_at_next(joined)
        finally:
            self._again_busy = False
        if held is None:
            return
        table, seat = held
        self.follow(dataclasses.replace(joined, table=table, seat=seat.seat, token=seat.token,
                                        url=SeatTokens.key(joined.base, table), said=""))

    async def _seat_at_next(self, joined: Joined) -> tuple[str, HeldSeat] | None:
        tokens = SeatTokens(joined.directory) if joined.directory is not None else None
        table = self.next_table()
        if table is not None and tokens is not None:
            held = tokens.get(joined.base, table)
            if held is not None:  # joined from this terminal before
                return table, held
        try:
            answer = await Api(joined.base, timeout=30.0).again(joined.table, joined.token)
            table, seat, token = str(answer["table"]), int(answer["seat"]), str(answer["token"])
        except ServerError as error:
            if error.code == "seat_taken":
                self.refuse("your seat at the next game is taken already")
            else:
                self.refuse(f"no next game: {error.message}")
            return None
        except (OSError, ValueError, KeyError, TypeError) as error:
            self.refuse(f"no next game: {error}")
            return None
        seats = self.state.seats if self.state is not None else ()
        held = HeldSeat(seat, token, seats[seat].name if 0 <= seat < len(seats) else None)
        if tokens is not None:
            try:
                tokens.put(joined.base, table, held)
            except OSError as error:
                self.log_line(f"The seat's token could not be kept in {tokens.path}: "
                              f"{error.strerror or error}.")
        return table, held

    def follow(self, joined: Joined) -> None:
        """Leave this table's screen for the next table's, in place."""
        self.fatal = True  # no more tries to reach the old table
        self.workers.cancel_group(self, "socket")  # type: ignore[attr-defined]
        app = self.app  # type: ignore[attr-defined]
        if hasattr(app, "joined"):
            app.joined = joined
        app.switch_screen(type(self)(joined))  # type: ignore[call-arg]

    if TYPE_CHECKING:  # what the screen provides
        def log_line(self, line: str) -> None: ...
        def refuse(self, reason: str) -> None: ...
        def say(self, text: str, style: str = "") -> None: ...


__all__ = ["AGAIN_KEY", "NextGame"]
