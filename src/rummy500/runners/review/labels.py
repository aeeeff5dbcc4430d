"""The labels of a review (inaccuracy, mistake, blunder) and a player's accuracy.

The thresholds are in expected deal points lost, chosen from docs/strength.md ("Game
review"): over 300 reviewed deals of ``mcts`` against ``expert`` the points the review
says track the points then scored (a point said is 0.86 of a point scored), and the losses
of both bots' decisions have their 81st, 94th and 99.2nd percentiles at 4, 10 and 25
points; 25 is also what ``mcts`` gains on ``expert`` over a whole deal. A loss is labelled
only when it is also at least ``SURE`` standard errors, over at least ``FEWEST_WORLDS``
sampled deals: a loss the sampled deals cannot tell from their luck is no fault.
"""

from __future__ import annotations

from collections.abc import Iterable

INACCURACY = 4.0
"""Expected deal points lost from which a move is an inaccuracy."""
MISTAKE = 10.0
"""... a mistake."""
BLUNDER = 25.0
"""... a blunder."""
SURE = 2.0
"""Standard errors the loss must also reach to be labelled."""
FEWEST_WORLDS = 8
"""Sampled deals a loss must be measured over to be labelled: the standard error of fewer
is itself too rough to trust (of one, it is 0). ``mcts`` leaves no move out before 8."""

LABELS = ("inaccuracy", "mistake", "blunder")
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The marks of chess annotation, for the chart and the move list."""


def label_for(loss: float, error: float, worlds: int) -> str | None:
    """The label of a move that lost ``loss`` expected points (standard error ``error``,
    over ``worlds`` sampled deals), or None for a move as good as the best, or too close
    to tell."""
    if loss < SURE * error or loss < INACCURACY or worlds < FEWEST_WORLDS:
        return None
    if loss >= BLUNDER:
        return "blunder"
    return "mistake" if loss >= MISTAKE else "inaccuracy"


def accuracy(labels: Iterable[str | None]) -> float | None:
    """The share of decisions (0 to 100) with no label: the moves the search could not
    tell, beyond chance, from its best by an inaccuracy's worth. None for no decision."""
    marks = list(labels)
    if not marks:
        return None
    return 100.0 * sum(1 for mark in marks if mark is None) / len(marks)


__all__ = ["BLUNDER", "FEWEST_WORLDS", "INACCURACY", "LABELS", "MARKS", "MISTAKE", "SURE",
           "accuracy", "label_for"]
