"""The asyncio client: the same session as Client, with every request a coroutine."""

from __future__ import annotations

import asyncio
import collections
import inspect
import itertools
import logging
import os
from typing import IO, Any, AsyncIterator, Awaitable, Callable, Union

from .client import DEFAULT_TIMEOUT
from .errors import ConnectionClosed, RequestTimeout, ResponseError, hide_in_traceback
from .framing import FrameDecoder, FramingError
from .locate import find_listd, spawn_arguments
from .messages import (
    Notification,
    Response,
    ServerRequest,
    classify,
    error_frame,
    handler_error,
    notification_frame,
    request_frame,
    result_frame,
)
from .requests import Requests
from .sockets import connect_socket

__all__ = ["AsyncClient"]

log = logging.getLogger("listd")

_UNSET: Any = object()

#: A handler may be a function or a coroutine function.
Handler = Callable[[Any], Union[Any, Awaitable[Any]]]


class AsyncClient(Requests[Awaitable[Any]]):
    """A session of a running ``listd`` for asyncio: ``Client``'s API with ``await``.

        async with await AsyncClient.connect() as client:
            answer = await client.list_subscribe("todo")
            async for notification in client.notifications():
                ...

    Cancelling a request's task sends ``$/cancelRequest`` for it. Handlers (``on_event``,
    ``on_refresh``, …) may be plain or ``async`` functions; they run one at a time, in arrival
    order, in a task of the client's own, so they may await the client.
    """

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        process: asyncio.subprocess.Process | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        name: str = "listd-python",
    ) -> None:
        self._reader = reader
        self._writer = writer
        #: The spawned daemon's process, or ``None`` for a socket connection.
        self.process = process
        #: The default wait for an answer, in seconds (``None``: no limit).
        self.timeout = timeout
        #: The client name ``initialize`` sends.
        self.name = name
        #: The ``initialize`` answer, once initialized.
        self.server: dict[str, Any] | None = None
        self._ids = itertools.count(1)
        self._pending: dict[Any, asyncio.Future[Any]] = {}
        self._notifications: collections.deque[Notification] = collections.deque()
        self._arrived = asyncio.Condition()
        self._notification_handlers: dict[str, Handler] = {}
        self._request_handlers: dict[str, Handler] = {}
        self._closed: BaseException | None = None
        self._closing = False
        self._work: asyncio.Queue[Callable[[], Awaitable[None]] | None] = asyncio.Queue()
        self._worker = asyncio.ensure_future(self._work_loop())
        self._read_task = asyncio.ensure_future(self._read_loop())

    # -- Connecting

    @classmethod
    async def connect(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        name: str = "listd-python",
        initialize: bool = True,
        private_directory: bool | None = None,
    ) -> AsyncClient:
        """Connects to the daemon's socket (default: where ``listd --listen`` serves) after
        listctl's trust checks, then initializes the session; see ``Client.connect``."""
        sock = connect_socket(path, private_directory=private_directory)
        sock.setblocking(False)
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=1 << 20)
        client = cls(reader, writer, timeout=timeout, name=name)
        return await client._start(initialize)

    @classmethod
    async def spawn(
        cls,
        *args: str,
        listd: str | os.PathLike[str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        name: str = "listd-python",
        initialize: bool = True,
        stderr: int | IO[Any] | None = None,
        log_level: str | None = "warning",
    ) -> AsyncClient:
        """Starts a private daemon with ``args`` and talks to it over its stdio, logging at
        ``log_level`` (warnings and errors by default); see ``Client.spawn``."""
        process = await asyncio.create_subprocess_exec(
            find_listd(listd),
            *spawn_arguments(args, log_level),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            limit=1 << 20,
        )
        assert process.stdout is not None and process.stdin is not None
        client = cls(process.stdout, process.stdin, process=process, timeout=timeout, name=name)
        return await client._start(initialize)

    async def _start(self, initialize: bool) -> AsyncClient:
        if initialize:
            try:
                await self.initialize(client_info={"name": self.name})
            except BaseException:
                await self.close()
                raise
        return self

    @property
    def session(self) -> int | None:
        """This session's id (from the ``initialize`` answer)."""
        return self.server.get("session") if self.server else None

    # -- Requests

    async def _initialize(self, params: dict[str, Any]) -> Any:
        result = await self.call("initialize", params)
        self.server = result
        self.initialized()
        return result

    async def call(self, method: str, params: Any = None, *, timeout: float | None = _UNSET) -> Any:
        """Sends any request and returns its result; raises the daemon's ``ResponseError``,
        ``ConnectionClosed``, or ``RequestTimeout`` after ``timeout`` seconds (default:
        ``self.timeout``). Cancelled or timed out, it sends ``$/cancelRequest``."""
        __tracebackhide__ = hide_in_traceback
        if timeout is _UNSET:
            timeout = self.timeout
        if self._closed is not None:
            raise ConnectionClosed(f"the connection is closed: {self._closed}")
        request_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            self._write(request_frame(request_id, method, params))
            await self._writer.drain()
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            self._cancel(request_id)
            raise RequestTimeout(method, request_id, timeout or 0.0) from None
        except asyncio.CancelledError:
            self._cancel(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)

    def _cancel(self, request_id: int) -> None:
        if self._closed is None and request_id in self._pending:
            try:
                self.cancel_request(request_id)
            except ConnectionClosed:
                pass

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (``exit``, ``$/setTrace``, …)."""
        self._write(notification_frame(method, params))

    def _request(self, method: str, params: dict[str, Any]) -> Awaitable[Any]:
        return self.call(method, params)

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self.notify(method, params)

    def _write(self, frame: bytes) -> None:
        if self._closed is not None or self._writer.is_closing():
            raise ConnectionClosed(f"the connection is closed: {self._closed}")
        self._writer.write(frame)

    # -- Notifications

    async def next_notification(
        self,
        method: str | None = None,
        *,
        timeout: float | None = _UNSET,
        where: Callable[[Notification], bool] | None = None,
    ) -> Notification:
        """The first queued notification of ``method`` (any if ``None``) that ``where`` accepts,
        waiting up to ``timeout`` seconds (default ``self.timeout``); those it passes over stay
        queued. Raises ``TimeoutError`` or ``ConnectionClosed`` as ``Client.next_notification``."""
        if timeout is _UNSET:
            timeout = self.timeout

        def find() -> Notification | None:
            for index, notification in enumerate(self._notifications):
                if (method is None or notification.method == method) and (where is None or where(notification)):
                    del self._notifications[index]
                    return notification
            return None

        async def wait() -> Notification:
            async with self._arrived:
                while True:
                    found = find()
                    if found is not None:
                        return found
                    if self._closed is not None:
                        raise ConnectionClosed(
                            f"the connection closed with no such notification queued: {self._closed}"
                        )
                    await self._arrived.wait()

        try:
            return await asyncio.wait_for(wait(), timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"no {method or 'notification'} within {timeout:g} s") from None

    async def notifications(self, *, timeout: float | None = None) -> AsyncIterator[Notification]:
        """Every notification, in arrival order; ends when the connection closes. With
        ``timeout``, raises ``TimeoutError`` when none arrives within that many seconds."""
        while True:
            try:
                yield await self.next_notification(timeout=timeout)
            except ConnectionClosed:
                return

    def drain_notifications(self) -> list[Notification]:
        """The notifications queued now, removed from the queue."""
        drained = list(self._notifications)
        self._notifications.clear()
        return drained

    # -- Handlers

    def on_notification(self, method: str, handler: Handler | None) -> None:
        """Calls ``handler(params)`` (plain or ``async``) for each notification of ``method``
        instead of queueing it; ``None`` removes it."""
        if handler is None:
            self._notification_handlers.pop(method, None)
        else:
            self._notification_handlers[method] = handler

    def on_request(self, method: str, handler: Handler | None) -> None:
        """Answers the daemon's requests of ``method`` with what ``handler(params)`` returns
        (awaited if it is a coroutine); see ``Client.on_request``."""
        if handler is None:
            self._request_handlers.pop(method, None)
        else:
            self._request_handlers[method] = handler

    def on_refresh(self, handler: Callable[[str], Union[Any, Awaitable[Any]]] | None) -> None:
        """As a list's owner, answers ``owner/refresh`` once ``handler(list_id)`` has updated the
        list; see ``Client.on_refresh``."""
        if handler is None:
            self.on_request("owner/refresh", None)
            return

        async def refresh(params: Any) -> None:
            result = handler(params["list"])
            if inspect.isawaitable(result):
                await result

        self.on_request("owner/refresh", refresh)

    def on_event(self, handler: Handler | None) -> None:
        """As a list's owner, calls ``handler(event)`` for each ``owner/event``."""
        self.on_notification("owner/event", handler)

    def on_owner_lost(self, handler: Handler | None) -> None:
        """Calls ``handler({list, reason, by})`` for each ``owner/lost``."""
        self.on_notification("owner/lost", handler)

    # -- Closing

    @property
    def closed(self) -> bool:
        """Whether the connection has ended."""
        return self._closed is not None

    async def close(self) -> None:
        """Closes the connection; a spawned daemon sees its stdin close and exits (waited for up
        to 5 s, then terminated)."""
        if self._closing:
            return
        self._closing = True
        try:
            self._writer.close()
            await self._writer.wait_closed()
        except (OSError, ConnectionError):
            pass
        if self.process is not None:
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except asyncio.TimeoutError:
                self.process.terminate()
                await self.process.wait()
        if self.process is None:
            self._read_task.cancel()
        try:
            await self._read_task
        except asyncio.CancelledError:
            pass
        await self._finish(ConnectionClosed("the client closed the connection"))
        await self._worker

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- Reading

    async def _read_loop(self) -> None:
        decoder = FrameDecoder()
        reason: BaseException = ConnectionClosed("the daemon closed the connection")
        try:
            while True:
                data = await self._reader.read(1 << 16)
                if not data:
                    # The daemon closed its side: close ours for writing too, so a stopping
                    # daemon waits for nothing more from this client.
                    try:
                        if self._writer.can_write_eof() and not self._writer.is_closing():
                            self._writer.write_eof()
                    except (OSError, RuntimeError):
                        pass
                    break
                for message in decoder.feed(data):
                    for incoming in classify(message):
                        await self._dispatch(incoming)
        except FramingError as error:
            reason = ConnectionClosed(f"the daemon sent something that is not a frame: {error}")
        except (OSError, ConnectionError) as error:
            if not self._closing:
                reason = ConnectionClosed(f"reading from the daemon failed: {error}")
        await self._finish(reason)

    async def _dispatch(self, incoming: Union[Notification, ServerRequest, Response]) -> None:
        if isinstance(incoming, Response):
            if incoming.id is None:
                error = incoming.error or ResponseError("an answer without an id", code=-32603)
                for future in self._pending.values():
                    if not future.done():
                        future.set_exception(error)
                return
            answered = self._pending.get(incoming.id)
            if answered is not None and not answered.done():
                if incoming.error is not None:
                    answered.set_exception(incoming.error)
                else:
                    answered.set_result(incoming.result)
            return
        if isinstance(incoming, ServerRequest):
            request = incoming
            self._work.put_nowait(lambda: self._answer(request))
            return
        handler = self._notification_handlers.get(incoming.method)
        if handler is None:
            async with self._arrived:
                self._notifications.append(incoming)
                self._arrived.notify_all()
            return
        notification = incoming
        self._work.put_nowait(lambda: self._run_handler(handler, notification))

    async def _run_handler(self, handler: Handler, notification: Notification) -> None:
        try:
            result = handler(notification.params)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("listd: the handler of %s raised", notification.method)

    async def _answer(self, request: ServerRequest) -> None:
        handler = self._request_handlers.get(request.method)
        if handler is None:
            frame = error_frame(request.id, ResponseError(f"no handler for {request.method}", code=-32601))
        else:
            try:
                result = handler(request.params)
                if inspect.isawaitable(result):
                    result = await result
                frame = result_frame(request.id, result)
            except Exception as error:
                if not isinstance(error, ResponseError):
                    log.exception("listd: the handler of %s raised", request.method)
                frame = error_frame(request.id, handler_error(request.method, error))
        try:
            self._write(frame)
        except ConnectionClosed:
            pass

    async def _work_loop(self) -> None:
        while True:
            job = await self._work.get()
            if job is None:
                return
            await job()

    async def _finish(self, reason: BaseException) -> None:
        if self._closed is not None:
            return
        self._closed = reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(reason)
        async with self._arrived:
            self._arrived.notify_all()
        self._work.put_nowait(None)
