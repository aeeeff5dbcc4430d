"""A status line's parts that fit its width whole: where the line is too narrow, the first
parts (the title, then the game's name) are left out, never a number cut in two (``stock 2…``
for a stock of 29 read as 2)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

SEPARATOR = " · "


class FittedParts:
    """``parts`` joined by `` · `` in ``style``, leaving out the first ones until they fit."""

    def __init__(self, parts: Sequence[str], style: str = "") -> None:
        self.parts = list(parts)
        self.style = style

    def fitted(self, width: int) -> str:
        parts = list(self.parts)
        while len(parts) > 1 and cell_len(SEPARATOR.join(parts)) > width:
            parts.pop(0)
        return SEPARATOR.join(parts)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = Text(self.fitted(options.max_width), self.style, no_wrap=True,
                    overflow="ellipsis", end="")
        text.truncate(options.max_width, overflow="ellipsis")
        yield text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = cell_len(SEPARATOR.join(self.parts))
        return Measurement(min(whole, cell_len(self.parts[-1]) if self.parts else 0), whole)


__all__ = ["FittedParts"]
