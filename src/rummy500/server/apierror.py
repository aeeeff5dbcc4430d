"""The one error style of the server's HTTP routes: a status and
``{"error": code, "message": words}``."""

from __future__ import annotations

from starlette.responses import JSONResponse


class ApiError(Exception):
    """Raised by a route: answered with its status, code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


__all__ = ["ApiError", "error_response"]
