"""What the hand evaluators work out from the live cards alone, shared between them.

An evaluator of one seat's view values many hands against fixed counts of live cards; the
views of a seat within one turn (a meld laid, a card laid off) count the same live cards,
so the odds they work out (each set of outs' chance, each pair's gain, each face's dead
weight) are kept for the latest few counts and handed to the next evaluator of the same.
"""

from __future__ import annotations

from ..scoring import Points

ODDS_KEPT = 4
"""The most counts of live cards whose odds are kept, the latest: the views of a seat
within one turn come one after another, and keeping more costs the garbage collector more
than it saves."""

Odds = tuple[dict[tuple[int, ...], float], dict[int, float], list[float], list[float],
             dict[int, list[tuple[float, int, int, int]]]]
"""What ``LeftoverValues`` works out from the live cards alone, whatever the table:
the chance of each set of outs, the gain of each pair, each face's dead weight and the loss
of a dead card of it, and the pairs of each set of faces (best first)."""
OddsKey = tuple[Points, int, int, float, float]
"""The points, the unseen cards, the pile's cards, ``draws`` and ``stuck``: all
:data:`Odds` depend on."""

_ODDS: dict[OddsKey, Odds] = {}
""":data:`Odds` of the latest counts met (oldest first): the views of a seat within one
turn (a meld laid, a card laid off) count the same live cards."""


def odds_of(key: OddsKey | None) -> Odds:
    """The odds kept for ``key``, or new ones (kept for it, unless it is None)."""
    found = None if key is None else _ODDS.get(key)
    if found is None:
        found = ({}, {}, [-1.0] * 64, [-1.0] * 64, {})
        if key is not None:
            if len(_ODDS) >= ODDS_KEPT:
                for oldest in _ODDS:  # (another thread may have taken it already)
                    _ODDS.pop(oldest, None)
                    break
            _ODDS[key] = found
    return found
