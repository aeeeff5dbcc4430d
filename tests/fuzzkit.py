"""What a fuzzed input must come to: read, or refused with an error that has words (never
another exception, never a refusal without a reason)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

In = TypeVar("In")
Out = TypeVar("Out")


def read_or_refused(read: Callable[[In], Out], given: In,
                    refusal: type[Exception] | tuple[type[Exception], ...]) -> Out | None:
    """What ``read`` makes of ``given``, or None when it refuses it with ``refusal``."""
    try:
        return read(given)
    except refusal as error:
        assert str(error)
        return None
