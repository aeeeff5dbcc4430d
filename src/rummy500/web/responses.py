"""The pages' responses: a page of ``static/`` (no-cache, with markup added to its head) and
the JSON answers and refusals of the pages' own routes."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from starlette.responses import JSONResponse, Response

STATIC = Path(__file__).parent / "static"


@functools.cache
def page_body(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def page_response(name: str, head: str = "") -> Response:
    """The page ``name``, with ``head`` (markup) added at the end of its head."""
    body = page_body(name)
    if head:
        body = body.replace(b"</head>", head.encode() + b"</head>", 1)
    response = Response(body, media_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"
    return response


def json_response(data: Any, status: int = 200) -> Response:
    return JSONResponse(data, status_code=status)


def error_json(status: int, code: str, message: str) -> Response:
    return json_response({"error": code, "message": message}, status)
