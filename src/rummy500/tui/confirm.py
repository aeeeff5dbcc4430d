"""A yes-or-no question over a table: leaving a game in progress is asked, never done
on one stray key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from .screens import MODAL_CSS
from .widgets import Words


class ConfirmScreen(ModalScreen[bool]):
    """``question``, with what follows from yes in ``detail``; y or Enter says yes, n or Esc
    says no."""

    DEFAULT_CSS = MODAL_CSS.format(name="ConfirmScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str, yes: str) -> None:
        """``yes``: what y does, in a few words (``quit``, ``leave``)."""
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Words(self.question, classes="title")
            yield Words(self.detail)
            yield Words(f"y or Enter: {self.yes} · n or Esc: stay", classes="keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


__all__ = ["ConfirmScreen"]
