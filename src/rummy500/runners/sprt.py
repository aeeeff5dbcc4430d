"""A stopping rule for a match of two bots: the sequential probability ratio test (SPRT).

As engine testers do (fishtest, cutechess), the test weighs two hypotheses on the Elo
difference between the bots, H0: ``elo0`` against H1: ``elo1``, and stops the match as
soon as the log-likelihood ratio (LLR) of the results crosses one of Wald's bounds,
``log(beta / (1 - alpha))`` (accept H0) or ``log((1 - beta) / alpha)`` (accept H1).

The unit of evidence is a *duplicate set*: one pack order dealt to every seating of the
line-up. Each game (or deal) of the set scores 1 for the first bot's win, ½ for a draw
and 0 for a loss; the set scores their mean, so a set of two games has five possible
scores (the pentanomial model) and a set of ``r`` games ``2r + 1``. Luck of the cards is
shared inside a set, so sets are independent where single games are not.

The LLR is the generalized SPRT's (GSPRT): the log of the likelihood of the observed
frequencies under the multinomial closest to them whose mean score is that of ``elo1``,
over the same for ``elo0`` (the maximum is found on the Lagrange multiplier of the mean,
by bisection). :func:`llr_approximation` is the usual closed form for small differences,
``n (s1 - s0)(2 mean - s0 - s1) / (2 variance)``; it misleads when the variance is nearly
zero (a lopsided match), so the stopping rule uses the exact form.

>>> test = Sprt(0, 50)
>>> [round(b, 3) for b in test.bounds]
[-2.944, 2.944]
>>> round(test.llr([0, 0, 0, 0, 22]), 2), test.verdict([0, 0, 0, 0, 22])
(2.94, 'inconclusive')
>>> round(test.llr([0, 0, 0, 0, 23]), 2), test.verdict([0, 0, 0, 0, 23])
(3.07, 'H1')

Twenty-three sets of two wins each are needed: the fit under H0 may make the two games of
a set one event, so a set won twice weighs as one win of a single game would.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import SprtError

PRIOR = 1e-3
"""Stands for a score never seen yet: the constrained fit needs every score possible."""

H0, H1, INCONCLUSIVE = "H0", "H1", "inconclusive"


def expected_score(elo: float) -> float:
    """The mean score of a bot ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _frequencies(counts: Sequence[float]) -> tuple[list[float], list[float]]:
    """(scores, frequencies): category ``k`` of ``n + 1`` scores ``k / n``."""
    if len(counts) < 2:
        raise SprtError("at least two possible scores are needed")
    seen = [count if count > 0 else PRIOR for count in counts]
    total = sum(seen)
    last = len(counts) - 1
    return [k / last for k in range(len(counts))], [count / total for count in seen]


def _fit(scores: Sequence[float], freqs: Sequence[float], mean: float) -> list[float]:
    """The multinomial with mean score ``mean`` that makes ``freqs`` most likely.

    It is ``freqs[i] / (1 + theta (scores[i] - mean))`` for the ``theta`` at which its mean
    is ``mean`` (a decreasing function of ``theta``, found by bisection where every
    probability stays positive).
    """
    gaps = [score - mean for score in scores]
    low = -1.0 / max(gaps) * (1 - 1e-12)
    high = -1.0 / min(gaps) * (1 - 1e-12)
    for _ in range(200):
        theta = (low + high) / 2
        drift = sum(f * g / (1 + theta * g) for f, g in zip(freqs, gaps, strict=True))
        if drift > 0:
            low = theta
        else:
            high = theta
    theta = (low + high) / 2
    return [f / (1 + theta * g) for f, g in zip(freqs, gaps, strict=True)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``) for ``counts``,
    the number of duplicate sets of each score ``k / (len(counts) - 1)``."""
    sets = sum(counts)
    if sets <= 0:
        return 0.0
    scores, freqs = _frequencies(counts)
    fit0 = _fit(scores, freqs, expected_score(elo0))
    fit1 = _fit(scores, freqs, expected_score(elo1))
    return sets * sum(f * math.log(p1 / p0) for f, p0, p1 in zip(freqs, fit0, fit1, strict=True))


def llr_approximation(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The closed-form GSPRT approximation, ``n (s1 - s0)(2 mean - s0 - s1) / (2 var)``."""
    sets = sum(counts)
    if sets <= 0:
        return 0.0
    scores, freqs = _frequencies(counts)
    mean = sum(s * f for s, f in zip(scores, freqs, strict=True))
    variance = sum(f * (s - mean) ** 2 for s, f in zip(scores, freqs, strict=True))
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return sets * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@dataclass(frozen=True, slots=True)
class Sprt:
    """H0: the first bot is ``elo0`` stronger; H1: ``elo1``; error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
        """``ELO0,ELO1`` as the command line gives it; raises :class:`SprtError` when unreadable."""
        parts = text.split(",")
        if len(parts) != 2:
            raise SprtError(f"{text!r}: give two Elo differences, ELO0,ELO1 (as 0,50)")
        try:
            elo0, elo1 = (float(part) for part in parts)
        except ValueError:
            raise SprtError(f"{text!r}: the Elo differences must be numbers") from None
        test = cls(elo0, elo1, alpha, beta)
        test.check()
        return test

    def check(self) -> None:
        if not all(math.isfinite(v) for v in (self.elo0, self.elo1)):
            raise SprtError("the Elo differences must be finite numbers")
        if not self.elo0 < self.elo1:
            raise SprtError(f"ELO0 ({self.elo0:g}) must be below ELO1 ({self.elo1:g})")
        if max(abs(self.elo0), abs(self.elo1)) > 2000:
            raise SprtError("the Elo differences must lie within ±2000")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 0.5:
                raise SprtError(f"{name} must lie strictly between 0 and 0.5, not {rate:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): below the lower H0 is accepted, above the upper H1."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, counts: Sequence[float]) -> float:
        return llr(counts, self.elo0, self.elo1)

    def verdict(self, counts: Sequence[float]) -> str:
        return self.decide(self.llr(counts))

    def decide(self, value: float) -> str:
        """The verdict for an LLR of ``value``."""
        lower, upper = self.bounds
        return H1 if value >= upper else H0 if value <= lower else INCONCLUSIVE


@dataclass(slots=True)
class SprtRun:
    """The test run over duplicate sets in the order of their index, one at a time.

    ``add`` takes each set's score in halves of a game (0 to ``2 * games_per_set``); once
    a bound is crossed, later sets are ignored, so the verdict depends on the sets' order
    of index only, never on the order in which they finished.
    """

    test: Sprt
    games_per_set: int
    counts: list[int] = field(default_factory=list)
    value: float = 0.0
    verdict: str = INCONCLUSIVE

    def __post_init__(self) -> None:
        self.counts = self.counts or [0] * (2 * self.games_per_set + 1)

    @property
    def sets(self) -> int:
        return sum(self.counts)

    @property
    def decided(self) -> bool:
        return self.verdict != INCONCLUSIVE

    def add(self, half_points: int) -> bool:
        """Count one more set; True once the test has decided."""
        if self.decided:
            return True
        self.counts[half_points] += 1
        self.value = self.test.llr(self.counts)
        self.verdict = self.test.decide(self.value)
        return self.decided

    def as_dict(self) -> dict[str, Any]:
        lower, upper = self.test.bounds
        return {"elo0": self.test.elo0, "elo1": self.test.elo1, "alpha": self.test.alpha,
                "beta": self.test.beta, "llr": round(self.value, 3),
                "bounds": [round(lower, 3), round(upper, 3)], "verdict": self.verdict,
                "sets": self.sets, "scores": list(self.counts)}


class Played(Protocol):
    """A game (or deal) of a duplicate set, as the tournament reports it."""

    @property
    def index(self) -> int: ...

    @property
    def winners(self) -> list[str]: ...


class SetWatch:
    """Feeds a :class:`SprtRun` the duplicate sets of bot ``first``'s match as they finish,
    in the order of their index: a set waits until every set before it is counted."""

    def __init__(self, test: Sprt, first: str, games_per_set: int) -> None:
        self.first = first
        self.games_per_set = games_per_set
        self.run = SprtRun(test, games_per_set)
        self.waiting: dict[int, list[Played]] = {}

    def _half_points(self, game: Played) -> int:
        won = self.first in game.winners
        if won and len(set(game.winners)) == 1:
            return 2
        return 0 if game.winners and not won else 1

    def add(self, games: Sequence[Played]) -> bool:
        """Take finished games; True once the test has decided."""
        for game in games:
            self.waiting.setdefault(game.index, []).append(game)
        while (not self.run.decided
               and len(self.waiting.get(self.run.sets, ())) == self.games_per_set):
            self.run.add(sum(self._half_points(g) for g in self.waiting.pop(self.run.sets)))
        return self.run.decided
