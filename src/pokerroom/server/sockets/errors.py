"""The room's errors over HTTP: every error response carries the ``code`` and ``params`` of
its error (pokerroom/errors.py) beside FastAPI's ``detail``, so that a client shows it in the
player's language. An exception with no code of its own is sent as ``error.unknown``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pokerroom.errors import CodedError, Params, code_of, message


class ApiError(StarletteHTTPException):
    """An HTTP error with its code (pokerroom/errors.py) and parameters; the message is the
    code's English text with them."""

    def __init__(
        self,
        status: int,
        code: str,
        *,
        headers: Mapping[str, str] | None = None,
        **params: str | int,
    ) -> None:
        super().__init__(status, message(code, **params), dict(headers or {}))
        self.code = code
        self.params: Params = dict(params)

    @classmethod
    def of(cls, status: int, error: Exception) -> ApiError:
        """``error`` (raised with its code in a layer below) as the HTTP error ``status``."""
        made = cls(status, "error.unknown", message=str(error))  # the same English
        made.code, made.params = code_of(error)
        return made


def _body(detail: Any, code: str, params: Params) -> dict[str, Any]:
    return {"detail": detail, "code": code, "params": params}


async def _http_error(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if isinstance(error, ApiError):
        code, params = error.code, error.params
    elif error.status_code == 404 and error.detail == "Not Found":
        code, params = "http.not_found", {}
    elif error.status_code == 405:
        code, params = "http.method_not_allowed", {}
    elif isinstance(error.detail, str):  # an HTTPException raised with no code
        code, params = "error.unknown", {"message": error.detail}
    else:  # pragma: no cover - the room's routes give a string
        code, params = "http.error", {"status": error.status_code}
    return JSONResponse(
        _body(error.detail, code, params), status_code=error.status_code, headers=error.headers
    )


async def _invalid_request(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = error.errors()
    first = errors[0] if errors else {}
    field = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    params: Params = {"field": field, "reason": str(first.get("msg", ""))}
    return JSONResponse(_body(jsonable_encoder(errors), "request.invalid", params), status_code=422)


def install(app: FastAPI) -> None:
    """Every error response of ``app`` carries ``code`` and ``params`` beside ``detail``."""
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)


class RefusalError(CodedError):
    """A message the room refuses before a table's rules see it (a rate, a full inbox, a table
    run elsewhere), with its code: sent to the client as an error frame, not raised."""
