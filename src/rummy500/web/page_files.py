"""The pages' files under ``static/`` (modules, style sheet), served from memory.

They ship inside the package and do not change while the server runs, so they are read once,
when the server starts (about 450 KB: the modules, their bundles under ``dist/`` and the
bundles' source maps), and answered from memory: Starlette's ``StaticFiles`` would look each
one up, open, read and close it through the thread pool (four hand-offs a file, costly on a
busy server). What is not one
of the package's files, or is asked with another method, goes to ``StaticFiles`` itself,
which answers it as before (404, 405). Every answer says ``no-cache`` (a browser asks again
and gets a 304 while its copy is the same: the tag is the content's hash); the server's
guard adds the security headers, as to every answer.
"""

from __future__ import annotations

import hashlib
import mimetypes
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

SERVED_SUFFIXES = frozenset({".js", ".css", ".html", ".svg", ".png", ".ico", ".json",
                             ".webmanifest", ".txt", ".map"})


class _File:
    __slots__ = ("body", "headers")

    def __init__(self, body: bytes, media_type: str) -> None:
        self.body = body
        self.headers = {"Cache-Control": "no-cache",
                        "ETag": f'"{hashlib.sha256(body).hexdigest()[:32]}"',
                        "Content-Type": media_type}


def _media_type(path: Path) -> str:
    media_type = ("application/json" if path.suffix == ".map"  # the bundles' source maps
                  else mimetypes.guess_type(path.name)[0] or "application/octet-stream")
    if media_type.startswith("text/") or media_type == "application/javascript":
        media_type += "; charset=utf-8"
    return media_type


class PageFiles(StaticFiles):
    """``StaticFiles`` over ``directory``, its files read into memory once."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        root = directory.resolve()
        self.files = {path.relative_to(root).as_posix(): _File(path.read_bytes(), _media_type(path))
                      for path in sorted(root.rglob("*"))
                      if path.is_file() and path.suffix in SERVED_SUFFIXES}

    async def get_response(self, path: str, scope: Scope) -> Response:
        found = (self.files.get(path.replace("\\", "/")) if scope["method"] in ("GET", "HEAD")
                 else None)
        if found is None:
            response = await super().get_response(path, scope)
            response.headers["Cache-Control"] = "no-cache"
            return response
        response = Response(found.body, headers=found.headers)
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
