"""A deal's expected points as a small text chart, one column a decision (``rummy500 review``).

Between two sides the chart follows the first side's expected deal points less the
other's (the second side's are the same, negated); with more sides each column is its
mover's own. Under each column, the decision's label: i, m, b.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.text import Text

from ..runners.review.game import DecisionReview

ROWS = 5
"""Rows above the axis, and as many below it."""
MAX_COLUMNS = 72
EIGHTHS = " ▁▂▃▄▅▆▇█"
MARKS = {"inaccuracy": ("i", "yellow"), "mistake": ("m", "dark_orange"), "blunder": ("b", "red")}
RANK = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def columns(values: Sequence[float], labels: Sequence[str | None],
            width: int = MAX_COLUMNS) -> tuple[list[float], list[str | None]]:
    """``values`` and ``labels`` in at most ``width`` columns: a column for several decisions
    shows the last one's value and the worst label among them."""
    per = max(1, math.ceil(len(values) / width))
    shown, marks = [], []
    for start in range(0, len(values), per):
        shown.append(values[min(start + per, len(values)) - 1])
        marks.append(max(labels[start:start + per], key=lambda label: RANK[label]))
    return shown, marks


def scale_step(values: Sequence[float]) -> float:
    """Points a row stands for: a round number that fits the largest value in ``ROWS``."""
    top = max((abs(value) for value in values), default=0.0)
    return next((step for step in STEPS if step * ROWS >= top), STEPS[-1] * 10)


def chart_lines(values: Sequence[float], labels: Sequence[str | None]) -> Text:
    """The chart's rows, its axis and its marks row."""
    shown, marks = columns(values, labels)
    step = scale_step(shown)
    text = Text()
    for row in range(ROWS, 0, -1):
        text.append(f"{row * step:>+5g} ┤", style="dim")
        for value in shown:
            fill = min(1.0, max(0.0, (value - (row - 1) * step) / step))
            text.append(EIGHTHS[round(fill * 8)], style="green")
        text.append("\n")
    text.append(f"{0:>5} ┼", style="dim")
    text.append("─" * len(shown) + "\n", style="dim")
    for row in range(1, ROWS + 1):
        text.append(f"{-row * step:>+5g} ┤", style="dim")
        for value in shown:
            fill = min(1.0, max(0.0, (-value - (row - 1) * step) / step))
            text.append("█" if fill >= 0.75 else "▀" if fill >= 0.25 else " ", style="red")
        text.append("\n")
    text.append("       ")
    for mark in marks:
        letter, style = MARKS[mark] if mark is not None else (" ", "")
        text.append(letter, style=style)
    return text


def deal_chart(reviews: Sequence[DecisionReview], deal: int, sides: int, first: str,
               second: str) -> Text:
    """Deal ``deal``'s chart from its reviewed decisions, in the order played; ``first``
    and ``second`` name the two sides (with more, each column is its mover's)."""
    if sides == 2:
        values = [r.move_points if r.side == 0 else -r.move_points for r in reviews]
        title = (f"Deal {deal}: expected deal points of {first} less {second}'s, after each "
                 "decision")
    else:
        values = [r.move_points for r in reviews]
        title = (f"Deal {deal}: expected deal points of each mover's side less the others', "
                 "after each decision")
    text = Text(title + "\n", style="bold")
    text.append_text(chart_lines(values, [r.label for r in reviews]))
    text.append("\n       one column a decision, left to right; "
                "i inaccuracy, m mistake, b blunder", style="dim")
    return text


__all__ = ["chart_lines", "columns", "deal_chart", "scale_step"]
