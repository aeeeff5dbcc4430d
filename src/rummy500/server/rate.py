"""The server's one rate limiter: at most so many events in any window of time, counted for
each key (an address, a table's seat, or one connection's frames).

>>> window = RateWindow(2, 60.0)
>>> [window.allow("a", now=t) for t in (0.0, 1.0, 2.0, 61.5)]
[True, True, False, True]
>>> window.allow("b", now=2.0)
True
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque

TRACKED_KEYS = 10_000
"""A rate window remembers at most this many keys (the least recent are forgotten)."""


class RateWindow:
    """At most ``count`` events per key in any ``seconds``."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def allow(self, key: str = "", *, now: float | None = None) -> bool:
        """Count an event of ``key`` if it is within its limit (a window of one
        connection's own needs no key)."""
        now = time.monotonic() if now is None else now
        times = self._seen.get(key)
        if times is None:
            times = self._seen[key] = deque()
            while len(self._seen) > TRACKED_KEYS:
                self._seen.popitem(last=False)
        else:
            self._seen.move_to_end(key)
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        return True


__all__ = ["TRACKED_KEYS", "RateWindow"]
