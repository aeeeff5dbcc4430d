"""Leaving an online table from the terminal (``q`` at ``rummy500 play --join``), as the
browser's "Leave table" offers it: step away (the connection closes, the seat stays the
person's and the same command takes it again), or leave the table for good (the protocol's
``leave``, docs/protocol.md "Leaving a table": a computer player takes the seat for the rest
of the game and the others are told), or stay. Before the game starts there is nothing to
hand over (only stepping away is asked); once it is over ``q`` just closes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ..net.client import Closed
from ..session.seat_state import SeatState
from ..session.state import WAITING
from .confirm import ConfirmScreen
from .screens import MODAL_CSS
from .tokens import Joined
from .widgets import Words

STEP_AWAY = "away"
FOR_GOOD = "for good"
STAY = "stay"


def rejoin_command(url: str) -> str:
    return f"rummy500 play --join {url}"


def step_away_words(url: str) -> str:
    return ("You disconnect and your seat stays yours: while you are away a computer may "
            f"play your turns, and {rejoin_command(url)} takes the seat again.")


def for_good_words(state: SeatState) -> str:
    """What leaving for good does at this table: who plays on (as the browser says it)."""
    others = [info for info in state.seats
              if info.seat != state.seat and info.kind == "person" and not info.left]
    rest = ("The others play on against it and read in the log that you left."
            if others else "Nobody else is a person here: with nobody at the table, the game "
                           "stops where it stands.")
    return ("A computer player takes your seat for the rest of the game, and the seat is not "
            f"yours again. {rest}")


class LeaveScreen(ModalScreen[str]):
    """Step away, leave for good, or stay: the answer is :data:`STEP_AWAY`,
    :data:`FOR_GOOD` or :data:`STAY`."""

    DEFAULT_CSS = MODAL_CSS.format(name="LeaveScreen") + """
    LeaveScreen .choice { text-style: bold; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a,enter", f"choose('{STEP_AWAY}')", "Step away"),
        Binding("g", f"choose('{FOR_GOOD}')", "Leave for good"),
        Binding("n,escape", f"choose('{STAY}')", "Stay"),
    ]

    def __init__(self, url: str, state: SeatState) -> None:
        super().__init__()
        self.url = url
        self.state = state

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Words("Leave this table?", classes="title")
            yield Words("a — Step away", classes="choice")
            yield Words(step_away_words(self.url))
            yield Words("g — Leave the table for good", classes="choice")
            yield Words(for_good_words(self.state))
            yield Words("a or Enter: step away · g: leave for good · n or Esc: stay",
                        classes="keys")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class Leaving:
    """What :class:`~.remote.RemoteTableScreen` adds for ``q`` (a mixin: the screen gives
    ``joined``, ``state``, ``connection``, ``fatal``, ``say``, ``refuse``, ``log_line``
    and Textual's methods)."""

    leaving: str | None = None
    """The id of the ``leave`` sent and not yet answered."""

    def action_quit_table(self) -> None:
        """Leave the table: asked first while the game is on."""
        state = self.state
        if state is None or state.over or self.fatal or state.seat is None:
            self.leave_now()  # nothing to keep (a seat left from another window: watching)
        elif self.leaving is not None:
            self.refuse("wait: your leaving is on its way to the server")
        elif state.phase == WAITING:
            self.app.push_screen(ConfirmScreen("Leave this table?", step_away_words(
                self.joined.url), "step away"), self.confirmed)
        else:
            self.app.push_screen(LeaveScreen(self.joined.url, state), self.chosen)

    def leave(self) -> None:
        self.action_quit_table()

    def confirmed(self, yes: bool | None) -> None:
        if yes:
            self.leave_now()

    def chosen(self, choice: str | None) -> None:
        if choice == STEP_AWAY:
            self.leave_now()
        elif choice == FOR_GOOD:
            self.app.run_worker(self.leave_for_good(), group="leave", exclusive=True)

    def leave_now(self) -> None:
        """Close the terminal's seat; the seat stays the person's."""
        self.fatal = True
        self.app.exit()

    async def leave_for_good(self) -> None:
        """Send ``leave``; its answer comes in :meth:`leave_answered`."""
        connection = self.connection
        if connection is None:
            self.refuse("not connected: you are still at the table; try again once "
                        "connected")
            return
        ident = f"leave{next(self._ids)}"
        self.leaving = ident  # before sending: the answer may come before send returns
        self.say("Leaving the table…", "italic")
        try:
            await connection.send_leave(ident)
        except (Closed, OSError) as error:
            self.leaving = None
            self.refuse(f"you are still at the table: the leave was not sent ({error})")

    def leave_answered(self, frame: dict[str, Any]) -> bool:
        """Take the server's answer to the ``leave`` sent (False: ``frame`` is not it)."""
        if self.leaving is None or frame.get("id") != self.leaving:
            return False
        self.leaving = None
        if frame.get("type") == "ack":
            self.fatal = True  # the token acts no more: no reconnecting
            self.left_for_good()
            self.app.exit()
        else:
            self.refuse("leaving was refused: "
                        + str(frame.get("message") or frame.get("code")))
        return True

    def left_for_good(self) -> None:
        """The server has given the seat to a computer player."""

    if TYPE_CHECKING:  # what the screen provides
        import itertools

        from textual.app import App

        from ..net.client import TableConnection

        app: App[Any]
        joined: Joined
        state: SeatState | None
        connection: TableConnection | None
        fatal: bool
        _ids: itertools.count[int]

        def say(self, text: str, style: str = "") -> None: ...
        def refuse(self, reason: str) -> None: ...


__all__ = ["FOR_GOOD", "STAY", "STEP_AWAY", "LeaveScreen", "Leaving", "for_good_words",
           "step_away_words"]
