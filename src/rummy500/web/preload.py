"""A page's scripts announced up front: every ES module its entry script imports, directly or
through others, as ``<link rel="modulepreload">`` in the page's head.

Without them the browser finds the modules one level of imports at a time (a round trip
each); with them it asks for all at once. The list is read from the modules' own
``import`` lines, so it cannot fall behind them.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path, PurePosixPath

IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}/[^'"]+)['"]"""
                    r"""|^\s*import\s*['"](\.{1,2}/[^'"]+)['"]""", re.MULTILINE)
ENTRY = re.compile(r'<script type="module" src="(/static/[^"]+)"></script>')


def module_graph(static: Path, entry: str) -> list[str]:
    """Every module ``entry`` (a path under ``static``, like ``js/table.js``) imports,
    directly or not, as paths under ``static``, in the order first met; the entry not
    included."""
    seen: list[str] = []
    waiting = [entry]
    while waiting:
        current = waiting.pop(0)
        text = (static / current).read_text(encoding="utf-8")
        for match in IMPORT.finditer(text):
            relative = match.group(1) or match.group(2)
            target = str(PurePosixPath(_normal(PurePosixPath(current).parent / relative)))
            if target != entry and target not in seen:
                seen.append(target)
                waiting.append(target)
    return seen


def _normal(path: PurePosixPath) -> PurePosixPath:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return PurePosixPath(*parts)


@cache
def with_preloads(static: Path, page: str) -> bytes:
    """The page ``page`` (an HTML file under ``static``) with a ``modulepreload`` link for
    every module its module scripts import (read once), after the last of them."""
    html = (static / page).read_text(encoding="utf-8")
    scripts = list(ENTRY.finditer(html))
    if not scripts:
        return html.encode()
    entries = [found.group(1).removeprefix("/static/") for found in scripts]
    modules: list[str] = []
    for entry in entries:
        modules += [m for m in module_graph(static, entry) if m not in modules + entries]
    links = "".join(f'\n<link rel="modulepreload" href="/static/{module}">' for module in modules)
    end = scripts[-1].end()
    return (html[:end] + links + html[end:]).encode()


__all__ = ["module_graph", "with_preloads"]
