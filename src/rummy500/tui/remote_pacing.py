"""The pace of an online table, in the terminal (``rummy500 play --join``): the turn clock
counted down between the server's states (``clock``: the seconds left when the state was
made), then the time bank of the seat to move (``bank``) once the clock has run out, a
warning before it runs out, and the deal pause: closing a deal's sheet says ``continue``
(docs/protocol.md, "Pacing and help"), and the sheet and the table say whom the table
waits for (``waiting_for``, ``pause_left``); and how many people watch (``watchers``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.widget import Widget

from ..session.seat_state import DealSheet, SeatState
from .screens import SheetScreen
from .widgets import Words

WARN_S = 10.0
"""Seconds left on this seat's clock when the screen warns."""


def seconds(left: float) -> str:
    """``42 s``, or ``1:05`` from a minute up."""
    whole = max(0, int(left + 0.999))
    return f"{whole // 60}:{whole % 60:02d}" if whole >= 60 else f"{whole} s"


def listed(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class OnlineSheet(SheetScreen):
    """A deal's sheet at an online table, with a line saying whom the table waits for."""

    def __init__(self, sheet: DealSheet, names: Sequence[str]) -> None:
        super().__init__(sheet, names, online=True)
        self.waits = Words("", classes="note waits")

    def on_mount(self) -> None:
        keys = self.query(".keys")
        box = keys.first().parent if keys else None
        if isinstance(box, Widget):  # (none: the sheet is being taken away)
            box.mount(self.waits, before=keys.first())

    def show_waits(self, text: str) -> None:
        self.waits.update(text)


class TurnClock:
    """What :class:`~.remote_seat.SeatScreen` adds for the table's pace (a mixin: the
    screen gives ``state``, ``names``, ``say``, ``notice``, ``send_frame`` and Textual's
    methods)."""

    state: SeatState | None
    _anchor: float = 0.0
    """When (``time.monotonic``) the last state's ``clock`` and ``pause_left`` were read."""
    _warned: tuple[int, int] | None = None
    warning: Text | None = None
    continued: int | None = None
    """The deal whose sheet this seat closed (its ``continue`` sent)."""

    def clock_read(self) -> None:
        """A state (a welcome, an update, a ``waiting`` frame) has just come: its clock and
        pause are counted from now."""
        self._anchor = time.monotonic()

    def left(self, value: float | None) -> float | None:
        if value is None:
            return None
        return max(0.0, value - (time.monotonic() - self._anchor))

    def clock_left(self) -> float | None:
        """Seconds left on the turn clock now (None: no clock runs)."""
        state = self.state
        if state is None or state.over or state.turn is None:
            return None
        return self.left(state.clock)

    def bank_left(self) -> float | None:
        """Seconds left in the time bank of the seat to move now, its clock counted first
        (None: no bank)."""
        state = self.state
        if (state is None or state.bank is None or state.turn is None or state.over
                or state.clock is None):
            return None
        spent = max(0.0, time.monotonic() - self._anchor - state.clock)
        return max(0.0, state.bank[state.turn] - spent)

    def clock_words(self) -> str:
        """What the status line says after whose turn it is: `` · ⏱ 42 s`` while a clock
        runs (`` + bank 20 s``, then `` · ⏱ bank 17 s`` once the clock has run out, at a
        table with a time bank), and `` · 2 watching`` while people watch."""
        left, bank = self.clock_left(), self.bank_left()
        watching = self.state.watchers if self.state is not None else 0
        watch = f" · {watching} watching" if watching else ""
        if left is None:
            return watch
        if bank is None:
            return f" · ⏱ {seconds(left)}{watch}"
        if left <= 0:
            return f" · ⏱ bank {seconds(bank)}{watch}"
        return f" · ⏱ {seconds(left)} + bank {seconds(bank)}{watch}"

    def clock_passed(self, before: SeatState | None, pending: bool) -> None:
        """A new state came: if moves of this seat came in it that it did not send (nothing
        ``pending``) while its clock ran, its time ran out: said before them in the log;
        a warning of a turn that is over is taken away."""
        state = self.state
        if state is None or before is None:
            return
        if self.warning is not None and self.note is self.warning and not state.my_turn:
            self.note = self.warning = None
        if (pending or before.clock is None or not before.my_turn or before.deal != state.deal
                or len(state.history) <= len(before.history)):
            return
        if any(entry.seat == state.seat for entry in state.history[len(before.history):]):
            self.notice("Your time ran out: the stand-in played your turn.")

    def turn_key(self) -> tuple[int, int]:
        state = self.state
        assert state is not None
        return state.deal, len(state.history)

    def tick(self) -> None:
        """Each second: the clock shown again, a warning before this seat's runs out, and
        plain words when it has."""
        left = self.clock_left()
        state = self.state
        if left is None or state is None:
            return
        left += self.bank_left() or 0.0
        if state.my_turn and 0 < left <= WARN_S and not state.waiting_for:
            key = self.turn_key()
            if self._warned != key:
                self._warned = key
                self.say("⏱ Hurry: when the clock runs out, the stand-in plays this turn "
                         "for you.", "bold")
                self.warning = self.note
                self.app.bell()
        self.update_table()

    # -- the deal pause ---------------------------------------------------------------------------

    def waits_words(self) -> str | None:
        """Whom the table waits for after a deal, or None."""
        state = self.state
        if state is None or not state.waiting_for or state.over:
            return None
        names = self.names()
        who = listed(["you" if seat == state.seat else names[seat]
                      for seat in state.waiting_for])
        left = self.left(state.pause_left)
        after = f" (at most {seconds(left)} more)" if left is not None else ""
        return f"The computer players wait for {who} to close the score sheet{after}."

    def sheet_closed(self, deal: int) -> None:
        """The sheet of ``deal`` was closed: this seat is ready for the next deal."""
        state = self.state
        if state is None or state.over or not state.deals or state.deals[-1].deal != deal:
            return
        self.continued = deal
        said = self.send_frame({"type": "continue", "deal": deal}, pending=False)
        self.run_worker(said, group="pace")  # type: ignore[attr-defined]

    def continue_again(self) -> None:
        """After a reconnect, say ``continue`` again if the table waits for this seat still."""
        state = self.state
        if (state is not None and state.seat in state.waiting_for and state.deals
                and state.deals[-1].deal == self.continued):
            self.sheet_closed(self.continued)

    def show_waits(self) -> None:
        """The open sheet's line of whom the table waits for."""
        screen = self.app.screen
        if isinstance(screen, OnlineSheet):
            words = self.waits_words()
            screen.show_waits(words.replace("close the score sheet", "close it")
                              if words else "")

    if TYPE_CHECKING:  # what the screen provides
        from textual.app import App

        app: App[Any]

        def names(self) -> list[str]: ...
        note: Text | None

        def notice(self, line: str) -> None: ...
        def say(self, text: str, style: str = "") -> None: ...
        def update_table(self) -> None: ...
        async def send_frame(self, frame: dict[str, Any], *, pending: bool = True) -> None: ...


__all__ = ["WARN_S", "OnlineSheet", "TurnClock", "listed", "seconds"]
