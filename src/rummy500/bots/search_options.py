"""The search arguments of ``mcts`` that tournaments and benchmarks may set by name.

Kept apart from :mod:`~rummy500.bots.mcts` so that a command can name and check them
without loading the search.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..errors import OptionsError

SEARCH_OPTIONS: dict[str, tuple[type, float, float]] = {
    "horizon": (int, 1, 50), "holds": (int, 0, 20), "confidence": (float, 0.0, 10.0),
    "candidates": (int, 1, 20), "margin": (float, 0.0, 1000.0), "light": (bool, 0, 1),
    "lean": (float, 0.0, 4.0)}
"""The search arguments of ``MctsBot`` that a caller may set by name: each one's type
and its least and greatest values (``TournamentSpec.bot_options``,
``benchmarks/bench_mcts_variants.py``)."""


def search_options(options: Mapping[str, float]) -> dict[str, Any]:
    """``options`` as ``MctsBot``'s keyword arguments, each of its type;
    :class:`OptionsError` for a name it has not or a value it cannot take."""
    arguments: dict[str, Any] = {}
    for name, value in options.items():
        if name not in SEARCH_OPTIONS:
            raise OptionsError(f"mcts has no search option {name!r}; its options are: "
                               f"{', '.join(SEARCH_OPTIONS)}")
        kind, least, most = SEARCH_OPTIONS[name]
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise OptionsError(f"the mcts option {name} needs a number, not {value!r}")
        if kind is not float and value != int(value):
            raise OptionsError(f"the mcts option {name} needs a whole number, not {value!r}")
        if not least <= value <= most:
            raise OptionsError(f"the mcts option {name} is from {least:g} to {most:g}, "
                               f"not {value:g}")
        arguments[name] = kind(value)
    return arguments
