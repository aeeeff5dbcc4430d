"""Computer players. Every bot sees only its seat's :class:`~rummy500.view.PlayerView`.

>>> from rummy500.bots import make_bot, BOT_NAMES
>>> 'random' in BOT_NAMES
True
"""

from .base import Bot, Decision
from .registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "Bot", "Decision", "make_bot"]
