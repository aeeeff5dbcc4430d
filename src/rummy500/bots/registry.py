"""Bots by name."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .expert import ExpertBot
from .mcts import MctsBot
from .random_bot import RandomBot
from .simple import SimpleBot

_FACTORIES: dict[str, Callable[[int | None, float, int | None], Bot]] = {
    "random": lambda seed, budget, worlds: RandomBot(seed, budget),
    "simple": lambda seed, budget, worlds: SimpleBot(seed, budget),
    "expert": lambda seed, budget, worlds: ExpertBot(seed, budget),
    "mcts": lambda seed, budget, worlds: MctsBot(seed, budget, worlds=worlds),
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int | None = None, time_budget: float = 1.0,
             worlds: int | None = None) -> Bot:
    """The bot called ``name``. ``worlds``, for a searching bot, bounds the sampled deals a
    search plays in place of the time budget, so that its moves depend on ``seed`` only."""
    if worlds is not None and worlds < 1:
        raise ValueError("a search needs at least one sampled deal")
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(BOT_NAMES)}") from None
    return factory(seed, time_budget, worlds)
