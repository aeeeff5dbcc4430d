"""Talk at an online table, in the terminal (``rummy500 play --join``): the lines and
reactions of every seat (the welcome's ``chat``, then ``chat`` frames; docs/protocol.md,
"Talk at the table") in the log, marked apart from the moves, and ``c`` to say something
(a ``chat`` frame, or a ``react`` one for ``:nice`` and the other reactions).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input

from .screens import MODAL_CSS
from .widgets import Words

TALK_KEY = "c"
REACTIONS = ("hello", "nice", "wow", "oops", "thinking", "laugh", "hurry", "gg")
"""The server's reactions (``react`` frames), typed as ``:nice``."""
SHOWN_AT_FIRST = 20
"""How many of the table's last lines the log shows when the seat first connects."""
MARK = "»"
"""What starts a line said at the table in the log (moves start with a name or "You")."""


def talk_line(line: dict[str, Any], seat: int | None) -> str | None:
    """A chat line (its frame) as the log shows it; None if it is not one."""
    text = line.get("text")
    if not isinstance(text, str):
        return None
    who = "You" if line.get("seat") == seat and seat is not None else str(line.get("name") or "?")
    says = "say" if who == "You" else "says"
    return f"{MARK} {who}: {text}" if line.get("react") else f"{MARK} {who} {says}: {text}"


def talk_frame(text: str, ident: str) -> dict[str, Any] | None:
    """What the seat sends for ``text`` typed in the talk box (None: nothing)."""
    text = text.strip()
    if not text:
        return None
    if text.startswith(":") and text[1:].lower() in REACTIONS:
        return {"type": "react", "id": ident, "what": text[1:].lower()}
    return {"type": "chat", "id": ident, "text": text}


class TalkScreen(ModalScreen[str | None]):
    """A line to say at the table: Enter says it, Esc says nothing."""

    DEFAULT_CSS = MODAL_CSS.format(name="TalkScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Words("Say something to the table", classes="title")
            yield Input(placeholder="a line, or a reaction: " + " ".join(
                f":{what}" for what in REACTIONS), max_length=200, id="talk")
            yield Words("Enter: say it · Esc: say nothing", classes="keys")

    def on_mount(self) -> None:
        self.query_one("#talk", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Talk:
    """What :class:`~.remote_seat.SeatScreen` adds for talk (a mixin: the screen gives
    ``seat``, ``notice``, ``send_frame`` and Textual's methods)."""

    _heard: int = -1
    """The number (``n``) of the last line shown (-1: none yet)."""

    def hear(self, lines: Iterable[Any], seat: int | None, *, first: bool = False) -> None:
        """Show the lines (chat frames or the welcome's ``chat``) not shown yet, each once
        (``first``: the welcome of a seat just come, which shows the last few)."""
        fresh = [line for line in lines if isinstance(line, dict)
                 and isinstance(line.get("n"), int) and line["n"] > self._heard]
        if first:
            fresh = fresh[-SHOWN_AT_FIRST:]
        for line in fresh:
            self._heard = max(self._heard, line["n"])
            shown = talk_line(line, seat)
            if shown is not None:
                self.notice(shown)

    def action_talk(self) -> None:
        self.app.push_screen(TalkScreen(), self.talked)

    def talked(self, text: str | None) -> None:
        frame = talk_frame(text or "", "")
        if frame is not None:
            self.run_worker(self.send_frame(frame, pending=False), group="talk")  # type: ignore[attr-defined]

    if TYPE_CHECKING:  # what the screen provides
        from textual.app import App

        app: App[Any]

        def notice(self, line: str) -> None: ...
        async def send_frame(self, frame: dict[str, Any], *, pending: bool = True) -> None: ...


__all__ = ["MARK", "REACTIONS", "TALK_KEY", "Talk", "TalkScreen", "talk_frame", "talk_line"]
