"""The asyncio client: the same session as Client, with every request a coroutine."""

from __future__ import annotations

import asyncio
import inspect
import os
from typing import IO, Any, AsyncIterator, Awaitable, Callable, Union

from .client import DEFAULT_TIMEOUT
from .errors import ConnectionClosed, RequestTimeout, hide_in_traceback
from .framing import FrameDecoder, FramingError
from .locate import find_listd, spawn_arguments
from .messages import Notification, Response, ServerRequest, notification_frame, request_frame, result_frame
from .session import Session
from .sockets import connect_socket

__all__ = ["AsyncClient"]

_UNSET: Any = object()

#: A handler may be a function or a coroutine function.
Handler = Callable[[Any], Union[Any, Awaitable[Any]]]


class AsyncClient(Session[Awaitable[Any]]):
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
        super().__init__(timeout, name)
        self._reader = reader
        self._writer = writer
        #: The spawned daemon's process, or ``None`` for a socket connection.
        self.process = process
        self._arrived = asyncio.Condition()
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

    # -- Requests

    def _then(self, result: Any, then: Callable[[Any], Any]) -> Any:
        if not inspect.isawaitable(result):
            return then(result)

        async def awaited() -> Any:
            return then(await result)

        return awaited()

    def _complete(self, waiter: asyncio.Future[Any], error: BaseException | None, result: Any = None) -> None:
        if waiter.done():
            return
        if error is not None:
            waiter.set_exception(error)
        else:
            waiter.set_result(result)

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

        async def wait() -> Notification:
            async with self._arrived:
                while True:
                    found = self._take_notification(method, where)
                    if found is not None:
                        return found
                    if self._closed is not None:
                        raise self._none_queued()
                    await self._arrived.wait()

        try:
            return await asyncio.wait_for(wait(), timeout)
        except asyncio.TimeoutError:
            raise self._no_notification(method, timeout) from None

    async def notifications(self, *, timeout: float | None = None) -> AsyncIterator[Notification]:
        """Every notification, in arrival order; ends when the connection closes. With
        ``timeout``, raises ``TimeoutError`` when none arrives within that many seconds."""
        while True:
            try:
                yield await self.next_notification(timeout=timeout)
            except ConnectionClosed:
                return

    # -- Closing

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
                for incoming in self._incoming(decoder, data):
                    await self._dispatch(incoming)
        except (FramingError, OSError, ConnectionError) as error:
            reason = self._read_failure(error) or reason
        await self._finish(reason)

    async def _dispatch(self, incoming: Union[Notification, ServerRequest, Response]) -> None:
        if isinstance(incoming, Response):
            self._answered(incoming)
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
            self._handler_raised(notification)

    async def _answer(self, request: ServerRequest) -> None:
        handler = self._request_handler(request)
        if handler is None:
            frame = self._unhandled(request)
        else:
            try:
                result = handler(request.params)
                if inspect.isawaitable(result):
                    result = await result
                frame = result_frame(request.id, result)
            except Exception as error:
                frame = self._failed(request, error)
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
        self._fail_waiting(reason)
        async with self._arrived:
            self._arrived.notify_all()
        self._work.put_nowait(None)
