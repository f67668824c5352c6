"""JSON-RPC 2.0 messages as the clients send and read them: building frames, sorting what arrives."""

from __future__ import annotations

import dataclasses
from typing import Any, Union

from .errors import ResponseError
from .framing import encode_message

__all__ = ["Notification", "ServerRequest", "Response", "classify"]


@dataclasses.dataclass(frozen=True)
class Notification:
    """A notification the daemon sent: ``list/didChange``, ``list/didCreate``, ``owner/event``, …

    ``params`` is the params object (a ``dict``), or ``None`` when it had none.
    """

    method: str
    params: Any = None

    @property
    def list(self) -> str | None:
        """The ``list`` member of the params, if any: the list the notification is about."""
        if isinstance(self.params, dict):
            value = self.params.get("list")
            return value if isinstance(value, str) else None
        return None


@dataclasses.dataclass(frozen=True)
class ServerRequest:
    """A request the daemon sent (``owner/refresh``): it waits for the answer with this ``id``."""

    id: Any
    method: str
    params: Any = None


@dataclasses.dataclass(frozen=True)
class Response:
    """An answer to one of our requests: ``result``, or ``error`` (a ``ResponseError``).

    ``id`` is ``None`` for an error the daemon could not attribute (a frame it could not read).
    """

    id: Any
    result: Any = None
    error: ResponseError | None = None


Incoming = Union[Notification, ServerRequest, Response]


def classify(message: Any) -> list[Incoming]:
    """What a decoded message is; a batch (an array) gives one entry per member."""
    if isinstance(message, list):
        return [entry for member in message for entry in classify(member)]
    if not isinstance(message, dict):
        return [Response(None, error=ResponseError(f"not a JSON-RPC message: {message!r}", code=-32600))]
    method = message.get("method")
    if isinstance(method, str):
        if "id" in message:
            return [ServerRequest(message["id"], method, message.get("params"))]
        return [Notification(method, message.get("params"))]
    if "error" in message:
        return [Response(message.get("id"), error=ResponseError.from_wire(message["error"]))]
    return [Response(message.get("id"), result=message.get("result"))]


def request_frame(request_id: int, method: str, params: Any) -> bytes:
    """A request frame; params left out when ``None``."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return encode_message(message)


def notification_frame(method: str, params: Any) -> bytes:
    """A notification frame; params left out when ``None``."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return encode_message(message)


def result_frame(request_id: Any, result: Any) -> bytes:
    """The answer to a request of the daemon's."""
    return encode_message({"jsonrpc": "2.0", "id": request_id, "result": result})


def error_frame(request_id: Any, error: ResponseError) -> bytes:
    """The error answer to a request of the daemon's."""
    return encode_message({"jsonrpc": "2.0", "id": request_id, "error": error.to_wire()})


def handler_error(method: str, error: BaseException) -> ResponseError:
    """What the daemon is told when a handler for its request ``method`` raised ``error``."""
    if isinstance(error, ResponseError):
        return error
    return ResponseError(f"{method} handler raised {type(error).__name__}: {error}", code=-32603)
