"""Refusals in the contract's one shape, ``{"error": code, "message": text}``, for every route.

DESIGN.md section 6 fixes the shape; this module is the one place that writes it:

* :class:`RequestError`: a request that cannot be met (accounts, seeks, tables raise it);
* :func:`refusal` / :func:`answer`: the JSON answer of a refusal, with ``Retry-After`` when
  the client should wait;
* :func:`install` sets the app's handlers for what FastAPI and Starlette refuse by themselves
  (an unknown route, a wrong method, a request FastAPI cannot validate, a static file that is
  not there), which would otherwise answer ``{"detail": ...}``, and for anything unforeseen,
  which answers 500 in the same shape (the message says nothing of the cause: a stranger is
  never shown a traceback; the log has it).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

__all__ = ["RequestError", "answer", "code_of", "install", "refusal"]

log = logging.getLogger("cardplay.server")

# The code of a refusal that has no more precise one: by its HTTP status. Stable, lowercase:
# clients (the browser's pages, scripts) branch on these, never on the message.
STATUS_CODES = {
    400: "bad_request",
    401: "not_signed_in",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "bad_request",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}


def code_of(status: int) -> str:
    """The code of a refusal with this status and no code of its own."""
    return STATUS_CODES.get(status, "bad_request" if 400 <= status < 500 else "internal_error")


class RequestError(Exception):
    """A request that cannot be met: an HTTP status, a stable code and a message for people."""

    def __init__(self, status: int, code: str, message: str,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


def refusal(status: int, code: str, message: str, retry_after: float | None = None,
            headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer that refuses a request."""
    extra = dict(headers or {})
    if retry_after:
        extra["Retry-After"] = str(max(1, round(retry_after)))
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers=extra or None)


def answer(e: RequestError) -> JSONResponse:
    return refusal(e.status, e.code, e.message, e.retry_after)


# What FastAPI's own refusals say, in words for people (its details are Python's words, or
# pydantic's lists, which name the server's code and never help the person reading them).
_MESSAGES = {
    404: "nothing is here at this address",
    405: "this address does not take this method",
}


def install(app: FastAPI) -> None:
    """Answer FastAPI's and Starlette's own refusals, and anything unforeseen, in the shape."""

    @app.exception_handler(HTTPException)
    async def http_refused(request: Request, e: HTTPException) -> Response:
        message = _MESSAGES.get(e.status_code) or \
            (e.detail if isinstance(e.detail, str) else "the request is not acceptable")
        return refusal(e.status_code, code_of(e.status_code), message,
                       headers=dict(e.headers) if e.headers else None)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> Response:
        return refusal(400, "bad_request", "the request's parameters are not acceptable")

    @app.exception_handler(Exception)
    async def unforeseen(request: Request, e: Exception) -> Response:
        log.error("%s %s failed", request.method, request.url.path, exc_info=e)
        return refusal(500, "internal_error", "the server failed to answer this request; "
                                              "it has been logged")
