"""What Client and AsyncClient share of a session: handlers, the notification queue, routing what arrives, and the answers' frames."""

from __future__ import annotations

import collections
import contextlib
import itertools
import logging
from typing import Any, Callable, ContextManager, Iterable, Iterator, TypeVar, Union

from .errors import ConnectionClosed, ResponseError, hide_in_traceback
from .framing import FrameDecoder, FramingError
from .messages import Notification, Response, ServerRequest, classify, error_frame, handler_error
from .requests import Requests

__all__ = ["Session"]

log = logging.getLogger("listd")

R = TypeVar("R")

#: What arrives from the daemon.
Incoming = Union[Notification, ServerRequest, Response]


class Session(Requests[R]):
    """The part of a session that does not depend on how it waits: ``Client`` blocks a thread,
    ``AsyncClient`` awaits. ``R`` is what a request returns (see ``Requests``).

    A subclass provides ``call`` and ``notify``, ``_then`` (run a function on a request's result,
    now or once awaited), and a waiter for each request in ``self._pending`` that ``_complete``
    completes (an ``asyncio.Future``, a ``PendingRequest``)."""

    def __init__(self, timeout: float | None, name: str) -> None:
        #: The default wait for an answer, in seconds (``None``: no limit).
        self.timeout = timeout
        #: The client name ``initialize`` sends.
        self.name = name
        #: The ``initialize`` answer, once initialized.
        self.server: dict[str, Any] | None = None
        self._ids = itertools.count(1)
        self._pending: dict[Any, Any] = {}
        self._notifications: collections.deque[Notification] = collections.deque()
        self._notification_handlers: dict[str, Callable[[Any], Any]] = {}
        self._request_handlers: dict[str, Callable[[Any], Any]] = {}
        self._closed: BaseException | None = None
        self._closing = False

    # -- What a subclass provides

    def call(self, method: str, params: Any = None) -> R:
        raise NotImplementedError

    def notify(self, method: str, params: Any = None) -> None:
        raise NotImplementedError

    def _then(self, result: Any, then: Callable[[Any], Any]) -> Any:
        """``then`` applied to ``result``: at once, or (an awaitable) once it is awaited."""
        raise NotImplementedError

    def _complete(self, waiter: Any, error: BaseException | None, result: Any = None) -> None:
        """Completes a request's ``waiter`` with ``error``, or else ``result``."""
        raise NotImplementedError

    def _guard(self) -> ContextManager[Any]:
        """Held while the queue, the handlers or the waiting requests change (a lock, or nothing
        where one event loop does it all)."""
        return contextlib.nullcontext()

    # -- Requests

    def _request(self, method: str, params: dict[str, Any]) -> R:
        __tracebackhide__ = hide_in_traceback
        return self.call(method, params)

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self.notify(method, params)

    def _initialize(self, params: dict[str, Any]) -> R:
        def initialized(result: Any) -> Any:
            self.server = result
            self.initialized()
            return result

        return self._then(self.call("initialize", params), initialized)

    @property
    def session(self) -> int | None:
        """This session's id (from the ``initialize`` answer), as ``owner`` shows it."""
        return self.server.get("session") if self.server else None

    @property
    def closed(self) -> bool:
        """Whether the connection has ended."""
        return self._closed is not None

    # -- Notifications

    def _take_notification(
        self, method: str | None, where: Callable[[Notification], bool] | None
    ) -> Notification | None:
        """Removes and returns the first queued notification of ``method`` (any if ``None``) that
        ``where`` accepts, or ``None``."""
        for index, notification in enumerate(self._notifications):
            if (method is None or notification.method == method) and (where is None or where(notification)):
                del self._notifications[index]
                return notification
        return None

    def _none_queued(self) -> ConnectionClosed:
        return ConnectionClosed(f"the connection closed with no such notification queued: {self._closed}")

    @staticmethod
    def _no_notification(method: str | None, timeout: float | None) -> TimeoutError:
        return TimeoutError(f"no {method or 'notification'} within {timeout:g} s")

    def drain_notifications(self) -> list[Notification]:
        """The notifications queued now, removed from the queue, without waiting."""
        with self._guard():
            drained = list(self._notifications)
            self._notifications.clear()
            return drained

    # -- Handlers

    def on_notification(self, method: str, handler: Callable[[Any], Any] | None) -> None:
        """Calls ``handler(params)`` for each notification of ``method`` (instead of queueing
        it); ``None`` removes the handler. (``AsyncClient``: a plain or ``async`` function.)"""
        with self._guard():
            if handler is None:
                self._notification_handlers.pop(method, None)
            else:
                self._notification_handlers[method] = handler

    def on_request(self, method: str, handler: Callable[[Any], Any] | None) -> None:
        """Answers the daemon's requests of ``method`` with ``handler(params)``'s return value
        (awaited if it is a coroutine); a ``ResponseError`` it raises is the error answer (any
        other exception: -32603). Without a handler the daemon is answered ``MethodNotFound``."""
        with self._guard():
            if handler is None:
                self._request_handlers.pop(method, None)
            else:
                self._request_handlers[method] = handler

    def on_refresh(self, handler: Callable[[str], Any] | None) -> None:
        """As a list's owner, answers ``owner/refresh``: ``handler(list_id)`` (plain or ``async``
        with ``AsyncClient``) updates the list (with ``list_edit`` or ``list_replace``) and returns;
        only then does the viewer's ``event_refresh`` complete. A ``ResponseError`` it raises
        reaches the viewer."""
        if handler is None:
            self.on_request("owner/refresh", None)
            return

        def refresh(params: Any) -> Any:
            return self._then(handler(params["list"]), lambda _: None)

        self.on_request("owner/refresh", refresh)

    def on_event(self, handler: Callable[[dict[str, Any]], Any] | None) -> None:
        """As a list's owner, calls ``handler(event)`` for each user event (``owner/event``:
        ``{list, event, item?, action?, isOn?, before?, after?, section?, session, version}``)."""
        self.on_notification("owner/event", handler)

    def on_owner_lost(self, handler: Callable[[dict[str, Any]], Any] | None) -> None:
        """Calls ``handler({list, reason, by})`` when another session disposes or claims a list
        this session owned (``owner/lost``)."""
        self.on_notification("owner/lost", handler)

    # -- Reading

    @staticmethod
    def _incoming(decoder: FrameDecoder, data: bytes) -> Iterator[Incoming]:
        """What the bytes ``data`` complete, in order."""
        for message in decoder.feed(data):
            yield from classify(message)

    def _read_failure(self, error: BaseException) -> ConnectionClosed | None:
        """Why reading ended with ``error``, or ``None`` when it is the client's own closing."""
        if isinstance(error, FramingError):
            return ConnectionClosed(f"the daemon sent something that is not a frame: {error}")
        if self._closing:
            return None
        return ConnectionClosed(f"reading from the daemon failed: {error}")

    def _take_waiting(self, response: Response) -> Iterable[Any]:
        """The waiters a response answers: its request's, or every one for an answer without an id
        (a frame the daemon could not read fails every request in progress rather than leave them
        waiting)."""
        with self._guard():
            if response.id is not None:
                waiter = self._pending.pop(response.id, None)
                return [] if waiter is None else [waiter]
            waiting = list(self._pending.values())
            self._pending.clear()
            return waiting

    def _answered(self, response: Response) -> None:
        """Completes the requests ``response`` answers."""
        error = response.error
        if response.id is None and error is None:
            error = ResponseError("an answer without an id", code=-32603)
        for waiter in self._take_waiting(response):
            self._complete(waiter, error, response.result)

    def _fail_waiting(self, reason: BaseException) -> None:
        """Fails every request still waiting with ``reason`` (the connection has ended)."""
        with self._guard():
            waiting = list(self._pending.values())
            self._pending.clear()
        for waiter in waiting:
            self._complete(waiter, reason)

    # -- Answering the daemon's requests

    def _request_handler(self, request: ServerRequest) -> Callable[[Any], Any] | None:
        with self._guard():
            return self._request_handlers.get(request.method)

    @staticmethod
    def _unhandled(request: ServerRequest) -> bytes:
        """The answer to a request nobody handles."""
        return error_frame(request.id, ResponseError(f"no handler for {request.method}", code=-32601))

    @staticmethod
    def _failed(request: ServerRequest, error: Exception) -> bytes:
        """The answer to a request whose handler raised ``error`` (logged unless a ``ResponseError``)."""
        if not isinstance(error, ResponseError):
            log.exception("listd: the handler of %s raised", request.method)
        return error_frame(request.id, handler_error(request.method, error))

    @staticmethod
    def _handler_raised(notification: Notification) -> None:
        log.exception("listd: the handler of %s raised", notification.method)

