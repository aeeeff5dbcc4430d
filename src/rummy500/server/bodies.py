"""Request bodies read as a server open to the internet must: at most so many bytes (by
the Content-Length, else as they stream in), all of them within ``header_timeout_s``,
and JSON parsed in bounded time and memory (:mod:`rummy500.safejson`). Every route that
reads a body reads it here; a refusal is an :class:`~.apierror.ApiError`."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request

from .. import safejson
from ..errors import Rummy500Error
from . import metrics
from .apierror import ApiError
from .settings import ServerSettings


def _too_large(limit: int) -> ApiError:
    return ApiError(413, "too_large", f"the request is larger than {limit // 1024:,} KiB")


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body: 413 once it is known to be over ``limit`` bytes, 408 when it
    has not all come within the server's ``header_timeout_s``."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise _too_large(limit)
    body = bytearray()

    async def read() -> None:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > limit:
                raise _too_large(limit)

    settings: ServerSettings = request.app.state.settings
    try:
        await asyncio.wait_for(read(), settings.header_timeout_s)
    except TimeoutError:
        metrics.limit_hit("body_timeout")
        raise ApiError(408, "too_slow", "the request body did not arrive in time") from None
    return bytes(body)


async def read_json(request: Request, limit: int) -> Any:
    """The request's body as JSON (read as :func:`read_body` reads it): 400 ``bad_json``
    saying what is wrong."""
    body = await read_body(request, limit)
    try:
        return safejson.loads(body, what="the request", max_bytes=limit)
    except Rummy500Error as error:
        raise ApiError(400, "bad_json", str(error)) from None


async def read_object(request: Request, limit: int) -> dict[str, Any]:
    """The request's body as one JSON object; an empty body is ``{}``."""
    body = await read_body(request, limit)
    if not body.strip():
        return {}
    try:
        data = safejson.loads(body, what="the request", max_bytes=limit)
    except Rummy500Error as error:
        raise ApiError(400, "bad_json", str(error)) from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "the request body is one JSON object")
    return data


__all__ = ["read_body", "read_json", "read_object"]
