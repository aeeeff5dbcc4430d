"""Bots by name. A bot's module is imported when the bot is first made, so that a command
using one bot does not pay for loading the others."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..errors import OptionsError
from .base import Bot

MAX_WORLDS = 100_000
"""The most sampled deals a search may be told to play a decision."""


Options = Mapping[str, float]
"""Keyword arguments of a bot's search, by name (``mcts``: ``search_options.SEARCH_OPTIONS``)."""


def _random(seed: int | None, budget: float, worlds: int | None, options: Options) -> Bot:
    from .random_bot import RandomBot

    return RandomBot(seed, budget)


def _simple(seed: int | None, budget: float, worlds: int | None, options: Options) -> Bot:
    from .simple import SimpleBot

    return SimpleBot(seed, budget)


def _expert(seed: int | None, budget: float, worlds: int | None, options: Options) -> Bot:
    from .expert import ExpertBot

    return ExpertBot(seed, budget)


def _mcts(seed: int | None, budget: float, worlds: int | None, options: Options) -> Bot:
    from .mcts import MctsBot
    from .search_options import search_options

    return MctsBot(seed, budget, worlds=worlds, **search_options(options))


_TAKE_OPTIONS = frozenset({"mcts"})
"""The bots whose search takes options."""

_FACTORIES: dict[str, Callable[[int | None, float, int | None, Options], Bot]] = {
    "random": _random,
    "simple": _simple,
    "expert": _expert,
    "mcts": _mcts,
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)

STRENGTH: dict[str, str] = {
    "random": "beginner",
    "simple": "easy",
    "expert": "strong",
    "mcts": "strongest, slower",
}
"""How strong each bot plays, in a word or two for people choosing an opponent
(docs/strength.md measures it)."""


def strength(name: str) -> str:
    """``strong`` for ``expert``: how strong the bot ``name`` plays."""
    return STRENGTH.get(name, "computer player")


def check_worlds(worlds: object) -> int | None:
    """``worlds`` if it is a usable bound on a search's sampled deals (None: no bound, the
    time budget decides); else :class:`OptionsError` saying why."""
    if worlds is None:
        return None
    if isinstance(worlds, bool) or not isinstance(worlds, int):
        raise OptionsError(f"the number of sampled deals must be a whole number, not {worlds!r}")
    if worlds < 1:
        raise OptionsError("a search needs at least one sampled deal")
    if worlds > MAX_WORLDS:
        raise OptionsError(f"a search plays at most {MAX_WORLDS:,} sampled deals a decision, "
                           f"not {worlds:,}")
    return worlds


def make_bot(name: str, seed: int | None = None, time_budget: float = 1.0,
             worlds: int | None = None, options: Options | None = None) -> Bot:
    """The bot called ``name``. ``worlds``, for a searching bot, bounds the sampled deals a
    search plays in place of the time budget, so that its moves depend on ``seed`` only;
    ``options`` set its search's arguments (:class:`OptionsError` for any it has not)."""
    check_worlds(worlds)
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise OptionsError(f"unknown bot {name!r}; the bots are: {', '.join(BOT_NAMES)}") from None
    check_options(name, options)
    return factory(seed, time_budget, worlds, options or {})


def check_options(name: str, options: Options | None) -> None:
    """:class:`OptionsError` saying why, unless the bot ``name`` takes ``options``."""
    if not options:
        return
    if name not in _TAKE_OPTIONS:
        raise OptionsError(f"{name} takes no search options, not {', '.join(options)}")
    from .search_options import search_options

    search_options(options)
