"""Bots by name."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .expert import ExpertBot
from .mcts import MctsBot
from .random_bot import RandomBot
from .simple import SimpleBot

_FACTORIES: dict[str, Callable[[int | None, float], Bot]] = {
    "random": lambda seed, budget: RandomBot(seed, budget),
    "simple": lambda seed, budget: SimpleBot(seed, budget),
    "expert": lambda seed, budget: ExpertBot(seed, budget),
    "mcts": lambda seed, budget: MctsBot(seed, budget),
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, seed: int | None = None, time_budget: float = 1.0) -> Bot:
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(BOT_NAMES)}") from None
    return factory(seed, time_budget)
