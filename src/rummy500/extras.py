"""Optional dependencies (the extras of ``pip install 'rummy500[EXTRA]'``).

A command or module that needs an extra calls :func:`require` first: without the extra,
the person sees one line saying which extra to install (the command line exits 2),
never a traceback about a missing module.

>>> require("tui", "textual", feature="rummy500 play")
>>> require("tui", "no_such_module_here", feature="rummy500 play")
Traceback (most recent call last):
...
rummy500.errors.MissingExtraError: rummy500 play needs the [tui] extra (no_such_module_here is not installed): pip install 'rummy500[tui]'
"""  # noqa: E501

from __future__ import annotations

import importlib

from .errors import MissingExtraError as MissingExtraError


def require(extra: str, *modules: str, feature: str | None = None) -> None:
    """Import ``modules``; raise :class:`MissingExtraError` naming ``extra`` if one is missing.

    ``feature`` names what needs them in the message (``rummy500 play``).
    """
    for module in modules:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            raise MissingExtraError(extra, error.name or module, feature) from None


__all__ = ["MissingExtraError", "require"]
