"""Computer players. Every bot sees only its seat's :class:`~rummy500.view.PlayerView`.

>>> from rummy500.bots import make_bot, BOT_NAMES
>>> 'random' in BOT_NAMES
True
"""

from .base import MAX_BUDGET, Bot, Decision, check_budget
from .registry import BOT_NAMES, MAX_WORLDS, STRENGTH, check_options, check_worlds, make_bot
from .registry import strength as strength

__all__ = ["BOT_NAMES", "MAX_BUDGET", "MAX_WORLDS", "STRENGTH", "Bot", "Decision", "check_budget",
           "check_options", "check_worlds", "make_bot", "strength"]
