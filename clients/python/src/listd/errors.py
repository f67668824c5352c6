"""The exceptions of the listd client: error answers, connection failures and mirror mismatches."""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "ListdError",
    "ResponseError",
    "ParseError",
    "InvalidRequest",
    "MethodNotFound",
    "InvalidParams",
    "InternalError",
    "ServerNotInitialized",
    "RequestCancelled",
    "ContentModified",
    "UnknownList",
    "UnknownSection",
    "UnknownItem",
    "DuplicateId",
    "InvalidEdit",
    "HistoryUnavailable",
    "NoOwner",
    "OwnerTimeout",
    "NotOwner",
    "Stopping",
    "JournalFailed",
    "ConnectionClosed",
    "RequestTimeout",
    "SocketError",
    "NoDaemon",
    "UntrustedSocket",
    "DaemonNotFound",
    "MirrorMismatch",
    "ERROR_CLASSES",
]


class ListdError(Exception):
    """The base class of every exception this package raises."""


class ResponseError(ListdError):
    """An error answer of the daemon (a JSON-RPC error object).

    ``code`` is the JSON-RPC code (Protocol/README.md §1, "Errors"), ``message`` the daemon's
    message, which names the offending field and value, and ``data`` its machine-readable detail
    (``{"field": …}``, ``{"list": …}``, ``{"editIndex": …}``, …) or ``None``. The daemon's codes
    raise the subclass named after them (``UnknownList`` for -32010, …), so
    ``except listd.UnknownList`` and ``except listd.ResponseError`` both work.

    An owner's callback may raise one too: the daemon then forwards it to the viewer that asked.
    """

    #: The code of this class; ``None`` for the base class, whose instances carry any code.
    CODE: ClassVar[int | None] = None
    #: The protocol's name of the code ("unknown list").
    NAME: ClassVar[str] = "error"

    def __init__(self, message: str, data: Any = None, *, code: int | None = None) -> None:
        resolved = code if code is not None else self.CODE
        if resolved is None:
            raise TypeError("ResponseError needs a code")
        super().__init__(message)
        self.code: int = resolved
        self.message: str = message
        self.data: Any = data

    @classmethod
    def from_wire(cls, error: Any) -> ResponseError:
        """The exception for a JSON-RPC ``error`` object, of the subclass its code names."""
        if not isinstance(error, dict):
            return ResponseError(f"malformed error object: {error!r}", code=-32603)
        code = error.get("code")
        message = error.get("message")
        if not isinstance(code, int) or isinstance(code, bool):
            code = -32603
        if not isinstance(message, str):
            message = repr(message)
        subclass = ERROR_CLASSES.get(code, ResponseError)
        return subclass(message, error.get("data"), code=code)

    def to_wire(self) -> dict[str, Any]:
        """The JSON-RPC error object: ``{"code", "message", "data"?}``."""
        wire: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            wire["data"] = self.data
        return wire

    def __str__(self) -> str:
        name = ERROR_CLASSES[self.code].NAME if self.code in ERROR_CLASSES else "error"
        text = f"{self.message} ({name} {self.code})"
        if self.data is not None:
            text += f" data={self.data!r}"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, {self.data!r}, code={self.code})"


class ParseError(ResponseError):
    """-32700: a malformed frame or JSON text."""

    CODE = -32700
    NAME = "parse error"


class InvalidRequest(ResponseError):
    """-32600: not a JSON-RPC 2.0 request, or one after shutdown."""

    CODE = -32600
    NAME = "invalid request"


class MethodNotFound(ResponseError):
    """-32601: an unknown method."""

    CODE = -32601
    NAME = "method not found"


class InvalidParams(ResponseError):
    """-32602: a missing, unknown or ill-typed field; data.field is its path."""

    CODE = -32602
    NAME = "invalid params"


class InternalError(ResponseError):
    """-32603: a bug; the daemon keeps serving."""

    CODE = -32603
    NAME = "internal error"


class ServerNotInitialized(ResponseError):
    """-32002: a request before initialize."""

    CODE = -32002
    NAME = "server not initialized"


class RequestCancelled(ResponseError):
    """-32800: the request was cancelled ($/cancelRequest)."""

    CODE = -32800
    NAME = "request cancelled"


class ContentModified(ResponseError):
    """-32801: ifVersion is not the list's version; data.currentVersion is."""

    CODE = -32801
    NAME = "content modified"


class UnknownList(ResponseError):
    """-32010: no such list; data.list."""

    CODE = -32010
    NAME = "unknown list"


class UnknownSection(ResponseError):
    """-32011: no such section; data.section."""

    CODE = -32011
    NAME = "unknown section"


class UnknownItem(ResponseError):
    """-32012: no such item; data.item."""

    CODE = -32012
    NAME = "unknown item"


class DuplicateId(ResponseError):
    """-32013: a list, section or item id that exists; data.id."""

    CODE = -32013
    NAME = "duplicate id"


class InvalidEdit(ResponseError):
    """-32014: an edit the list refuses; data.reason."""

    CODE = -32014
    NAME = "invalid edit"


class HistoryUnavailable(ResponseError):
    """-32015: older than the kept history; data.oldestVersion, data.currentVersion."""

    CODE = -32015
    NAME = "history unavailable"


class NoOwner(ResponseError):
    """-32016: a user event on a list whose owner has gone."""

    CODE = -32016
    NAME = "no owner"


class OwnerTimeout(ResponseError):
    """-32017: the owner did not answer a refresh in time."""

    CODE = -32017
    NAME = "owner timeout"


class NotOwner(ResponseError):
    """-32018: the list is another live session's; data.list, data.owner."""

    CODE = -32018
    NAME = "not owner"


class Stopping(ResponseError):
    """-32019: the request was read once the daemon began to stop (or after this session's
    ``exit``) and was not executed; data.method."""

    CODE = -32019
    NAME = "stopping"


class JournalFailed(ResponseError):
    """-32020: with ``--state``, the change could not be written to the journal, so it was not
    made; data.list, data.cause. The same request succeeds once space returns."""

    CODE = -32020
    NAME = "journal failed"


#: The subclass of ``ResponseError`` for each code the protocol defines.
ERROR_CLASSES: dict[int, type[ResponseError]] = {
    cls.CODE: cls  # type: ignore[misc,unused-ignore]  # CODE is set on each subclass
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        ServerNotInitialized,
        RequestCancelled,
        ContentModified,
        UnknownList,
        UnknownSection,
        UnknownItem,
        DuplicateId,
        InvalidEdit,
        HistoryUnavailable,
        NoOwner,
        OwnerTimeout,
        NotOwner,
        Stopping,
        JournalFailed,
    )
}


class ConnectionClosed(ListdError, ConnectionError):
    """The connection ended (the daemon exited or closed it) before the answer came."""


class RequestTimeout(ListdError, TimeoutError):
    """No answer within the timeout; the client sent ``$/cancelRequest`` for it."""

    def __init__(self, method: str, request_id: int, timeout: float) -> None:
        super().__init__(f"no answer to {method} (id {request_id}) within {timeout:g} s")
        self.method = method
        self.request_id = request_id
        self.timeout = timeout


class SocketError(ListdError, OSError):
    """The daemon's socket cannot be used; the message names the path and the problem."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"cannot connect to {path}: {problem}")
        self.path = path
        self.problem = problem


class NoDaemon(SocketError):
    """Nothing exists or listens at the socket path (start ``listd --listen --stay``)."""


class UntrustedSocket(SocketError):
    """The socket, its directory or the daemon behind it belongs to another user: refused."""


class DaemonNotFound(ListdError, FileNotFoundError):
    """No ``listd`` executable was found to start."""


class MirrorMismatch(ListdError, ValueError):
    """A changeset or notification that does not fit a ``Mirror`` (resubscribe to recover)."""


def hide_in_traceback(excinfo: Any) -> bool:
    """pytest's ``__tracebackhide__`` for the request path: a frame of the client raising the
    daemon's answer or the connection's end (a ``ListdError``) is hidden, so a failing test shows
    its own line and the message; any other exception (a bug) keeps the client's frames."""
    return excinfo is not None and isinstance(excinfo.value, ListdError)

