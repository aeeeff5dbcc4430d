"""JSON from outside (records, saves, settings, messages), read in bounded time and memory.

Every JSON the package reads goes through :func:`loads` or :func:`read`: the text is
refused before parsing when it is too large, nested too deep (the standard parser
would raise :class:`RecursionError`) or holds a number too long to be meant (Python
refuses integers of over 4,300 digits with a bare :class:`ValueError`); ``NaN`` and
``Infinity`` are refused too, and a UTF-8 byte-order mark is accepted. Every refusal
is a :class:`~rummy500.errors.BadInputError` that says what is wrong
(:class:`~rummy500.errors.TooLargeError` for the size,
:class:`~rummy500.errors.NotJSONError` for text that is not JSON at all).

>>> loads('\\ufeff{"players": 2}')
{'players': 2}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
rummy500.errors.BadInputError: the input is nested 100 deep; at most 32 levels are accepted
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, NoReturn

from .errors import BadInputError, NotJSONError, TooLargeError

MAX_BYTES = 8 * 1024 * 1024
"""The largest JSON text read (a long game's record is about 100 kB)."""

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects read (a record needs 4)."""

MAX_NUMBER_LENGTH = 40
"""The most characters a number may be written with."""

BOM = "\ufeff"

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def loads(
    text: str | bytes,
    *,
    what: str = "the input",
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """The value of the JSON ``text`` (``str``, or UTF-8 ``bytes``), or a clear refusal."""
    if isinstance(text, bytes | bytearray):
        if len(text) > max_bytes:
            raise too_large(what, len(text), max_bytes)
        text = decode(bytes(text), what)
    elif len(text) > max_bytes:
        raise TooLargeError(f"{what} is too large: {len(text):,} characters, "
                            f"at most {max_bytes:,} are accepted")
    text = text.removeprefix(BOM)
    depth = nesting(text)
    if depth > max_depth:
        raise BadInputError(f"{what} is nested {depth} deep; at most {max_depth} levels "
                            "are accepted")
    try:
        return json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise NotJSONError(f"{what} is not JSON: {error}") from None
    except _NumberError as error:
        raise BadInputError(f"{what} holds {error}") from None
    except RecursionError:  # nesting() counts brackets; this is only a last guard
        raise BadInputError(f"{what} is nested too deep") from None


def loads_object(text: str | bytes, *, what: str, not_object: str) -> dict[str, Any]:
    """The JSON object in ``text`` (see :func:`loads`); any other value is refused with
    ``not_object``."""
    data = loads(text, what=what)
    if not isinstance(data, dict):
        raise BadInputError(not_object)
    return data


def read(path: str | Path, *, what: str | None = None, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value in the file ``path``; see :func:`loads`."""
    return loads(read_bytes(path, what=what, max_bytes=max_bytes),
                 what=what or str(path), max_bytes=max_bytes)


def read_bytes(path: str | Path, *, what: str | None = None, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of the file ``path``, refused (without reading it whole) beyond ``max_bytes``;
    ``what`` names it in the refusals (the path by default)."""
    name = what or str(path)
    try:
        with open(path, "rb") as file:
            data = file.read(max_bytes + 1)
            if len(data) > max_bytes:
                file.seek(0, 2)
                raise too_large(name, file.tell(), max_bytes)
    except OSError as error:
        raise BadInputError(f"cannot read {path}: {error.strerror or error}") from None
    return data


def decode(data: bytes, what: str = "the input") -> str:
    """UTF-8 ``data`` as text (a byte-order mark is dropped)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadInputError(f"{what} is not UTF-8 text (byte {error.start})") from None


def too_large(what: str, size: int, limit: int) -> TooLargeError:
    return TooLargeError(f"{what} is too large: {size:,} bytes, at most {limit:,} are accepted")


def nesting(text: str) -> int:
    """How deep the arrays and objects of the JSON ``text`` nest (strings not counted)."""
    if text.count("[") + text.count("{") <= 1:
        return text.count("[") + text.count("{")
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub('""', text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


class _NumberError(Exception):
    """A number refused while parsing; :func:`loads` says where."""


def _number_text(text: str) -> None:
    if len(text) > MAX_NUMBER_LENGTH:
        raise _NumberError(f"a number written with {len(text):,} characters; at most "
                           f"{MAX_NUMBER_LENGTH} are accepted")


def _integer(text: str) -> int:
    _number_text(text)
    return int(text)


def _real(text: str) -> float:
    _number_text(text)
    value = float(text)
    if not math.isfinite(value):
        raise _NumberError(f"the number {text}, which is too large")
    return value


def _constant(text: str) -> NoReturn:
    raise _NumberError(f"{text}, which is not a number")


__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NUMBER_LENGTH", "decode", "loads", "loads_object",
           "read", "read_bytes"]
