"""The synchronous client: a JSON-RPC session with listd over a Unix socket or a spawned daemon's stdio."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import threading
import time
from typing import IO, Any, Callable, Iterator, Union

from .errors import ConnectionClosed, RequestTimeout, hide_in_traceback
from .framing import FrameDecoder, FramingError
from .locate import find_listd, spawn_arguments
from .messages import Notification, Response, ServerRequest, notification_frame, request_frame, result_frame
from .session import Session
from .sockets import connect_socket

__all__ = ["Client", "PendingRequest", "DEFAULT_TIMEOUT"]

#: How long a request waits for its answer unless told otherwise, in seconds (as listctl).
DEFAULT_TIMEOUT = 30.0

_UNSET: Any = object()

NotificationHandler = Callable[[Any], None]


class _Transport:
    """A byte stream to the daemon."""

    def read(self) -> bytes:
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def end_of_input(self) -> None:
        """The daemon closed its side: close ours for writing too, so a daemon that is stopping
        waits for nothing more from this client (it drains a socket until its peer closes)."""

    def release(self) -> None:
        """Frees what reading used, once the reader has stopped."""


class _SocketTransport(_Transport):
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def read(self) -> bytes:
        return self.sock.recv(1 << 16)

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def end_of_input(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class _ProcessTransport(_Transport):
    """The stdin and stdout of a spawned daemon; closing ends the daemon (its stdin closes)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self.stdin: IO[bytes] = process.stdin
        self.stdout_fd = process.stdout.fileno()

    def read(self) -> bytes:
        return os.read(self.stdout_fd, 1 << 16)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self.stdin.write(view)
            view = view[written or 0 :]
        self.stdin.flush()

    def close(self) -> None:
        try:
            self.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def release(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()


class PendingRequest:
    """A request sent and not yet answered (``Client.send_request``): wait for it or cancel it."""

    def __init__(self, client: Client, request_id: int, method: str) -> None:
        self._client = client
        self._event = threading.Event()
        self._result: Any = None
        self._error: BaseException | None = None
        #: The request's id.
        self.id = request_id
        #: The method.
        self.method = method

    def _succeed(self, result: Any) -> None:
        self._result = result
        self._event.set()

    def _fail(self, error: BaseException) -> None:
        self._error = error
        self._event.set()

    def done(self) -> bool:
        """Whether the answer (or the end of the connection) has arrived."""
        return self._event.is_set()

    def result(self, timeout: float | None = _UNSET) -> Any:
        """The result; raises the daemon's ``ResponseError``, ``ConnectionClosed``, or
        ``RequestTimeout`` after ``timeout`` seconds (default: the client's), having cancelled it."""
        __tracebackhide__ = hide_in_traceback
        if timeout is _UNSET:
            timeout = self._client.timeout
        if not self._event.wait(timeout):
            self._client._forget(self.id)
            self.cancel()
            raise RequestTimeout(self.method, self.id, timeout if timeout is not None else 0.0)
        if self._error is not None:
            raise self._error
        return self._result

    def cancel(self) -> None:
        """Sends ``$/cancelRequest``: unless it has completed, the answer is ``RequestCancelled``."""
        if not self.done():
            self._client.cancel_request(self.id)


class Client(Session[Any]):
    """A session of a running ``listd`` (Protocol/README.md), for scripts and tests.

    Connect with ``Client.connect()`` (the socket ``listd --listen`` serves) or
    ``Client.spawn()`` (a private daemon on stdio); both ``initialize`` the session unless told
    not to. Every request of the protocol is a method (``client.list_create("todo", …)``) that
    returns the result or raises the daemon's error as a ``ResponseError`` subclass.

    Notifications arrive in order on ``notifications()`` / ``next_notification()``, except those
    of a method that has a handler (``on_event``, ``on_notification``): the handler takes them.
    Handlers and the answers to the daemon's requests (``on_refresh``) run one at a time, in
    arrival order, on a thread of the client's own, so they may call the client.

    The client is thread-safe, and a context manager that closes it.
    """

    def __init__(
        self, transport: _Transport, *, timeout: float | None = DEFAULT_TIMEOUT, name: str = "listd-python"
    ) -> None:
        super().__init__(timeout, name)
        self._transport = transport
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._work: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._worker = threading.Thread(target=self._work_loop, name="listd-handlers", daemon=True)
        self._reader = threading.Thread(target=self._read_loop, name="listd-reader", daemon=True)
        self._worker.start()
        self._reader.start()

    # -- Connecting

    @classmethod
    def connect(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        name: str = "listd-python",
        initialize: bool = True,
        private_directory: bool | None = None,
    ) -> Client:
        """Connects to the daemon's socket at ``path`` (default: where ``listd --listen`` serves,
        ``listd.default_socket_path()``), after listctl's checks that the socket, its directory
        and the daemon are this user's (see ``listd.connect_socket``), then initializes the
        session as ``name``.

        Raises ``NoDaemon`` when nothing listens there, ``UntrustedSocket`` when a check fails.
        """
        client = cls(
            _SocketTransport(connect_socket(path, private_directory=private_directory)), timeout=timeout, name=name
        )
        return client._start(initialize)

    @classmethod
    def spawn(
        cls,
        *args: str,
        listd: str | os.PathLike[str] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        name: str = "listd-python",
        initialize: bool = True,
        stderr: int | IO[Any] | None = None,
        log_level: str | None = "warning",
    ) -> Client:
        """Starts a private daemon, ``listd`` with ``args`` (``"--demo"``, …), and talks to it over
        its stdin and stdout; it ends when the client closes. ``listd`` defaults to
        ``listd.find_listd()`` ($LISTD_BIN, $LISTD, the PATH). Its stderr is inherited unless
        ``stderr`` says otherwise (``subprocess.DEVNULL``, a file); it logs at ``log_level``
        (``--log-level``: warnings and errors by default, so its info lines stay out of the
        caller's stderr; ``None`` or a ``--log-level`` in ``args`` leaves the choice to them).
        """
        executable = find_listd(listd)
        process = subprocess.Popen(
            [executable, *spawn_arguments(args, log_level)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            bufsize=0,
        )
        client = cls(_ProcessTransport(process), timeout=timeout, name=name)
        return client._start(initialize)

    def _start(self, initialize: bool) -> Client:
        if initialize:
            try:
                self.initialize(client_info={"name": self.name})
            except BaseException:
                self.close()
                raise
        return self

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The spawned daemon's process, or ``None`` for a socket connection."""
        return self._transport.process if isinstance(self._transport, _ProcessTransport) else None

    # -- Requests

    def _then(self, result: Any, then: Callable[[Any], Any]) -> Any:
        return then(result)

    def _guard(self) -> threading.Lock:
        return self._lock

    def _complete(self, waiter: PendingRequest, error: BaseException | None, result: Any = None) -> None:
        if error is not None:
            waiter._fail(error)
        else:
            waiter._succeed(result)

    def call(self, method: str, params: Any = None, *, timeout: float | None = _UNSET) -> Any:
        """Sends any request and returns its result; raises the daemon's ``ResponseError``,
        ``ConnectionClosed``, or ``RequestTimeout`` after ``timeout`` seconds (default:
        ``self.timeout``), having sent ``$/cancelRequest``."""
        __tracebackhide__ = hide_in_traceback
        return self.send_request(method, params).result(timeout)

    def send_request(self, method: str, params: Any = None) -> PendingRequest:
        """Sends a request without waiting: pipeline several, then ``result()`` each."""
        with self._lock:
            if self._closed is not None:
                raise ConnectionClosed(f"the connection is closed: {self._closed}")
            request_id = next(self._ids)
            pending = PendingRequest(self, request_id, method)
            self._pending[request_id] = pending
        try:
            self._send(request_frame(request_id, method, params))
        except BaseException:
            self._forget(request_id)
            raise
        return pending

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (``exit``, ``$/setTrace``, …)."""
        self._send(notification_frame(method, params))

    def _send(self, frame: bytes) -> None:
        with self._write_lock:
            try:
                self._transport.write(frame)
            except OSError as error:
                raise ConnectionClosed(f"cannot write to the daemon: {error}") from error

    def _forget(self, request_id: Any) -> None:
        with self._lock:
            self._pending.pop(request_id, None)

    # -- Notifications

    def next_notification(
        self,
        method: str | None = None,
        *,
        timeout: float | None = _UNSET,
        where: Callable[[Notification], bool] | None = None,
    ) -> Notification:
        """The first queued notification of ``method`` (any method if ``None``) that ``where``
        accepts, waiting up to ``timeout`` seconds (default: ``self.timeout``; ``None``: no limit).
        Notifications it passes over stay queued, in order.

        Raises ``TimeoutError`` when none arrives in time, ``ConnectionClosed`` when the
        connection has ended with none queued.
        """
        if timeout is _UNSET:
            timeout = self.timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._arrived:
            while True:
                found = self._take_notification(method, where)
                if found is not None:
                    return found
                if self._closed is not None:
                    raise self._none_queued()
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise self._no_notification(method, timeout)
                self._arrived.wait(remaining)

    def notifications(self, *, timeout: float | None = None) -> Iterator[Notification]:
        """Every notification, in arrival order, as it arrives; ends when the connection closes.

        With ``timeout``, raises ``TimeoutError`` when none arrives within that many seconds.
        """
        while True:
            try:
                yield self.next_notification(timeout=timeout)
            except ConnectionClosed:
                return

    # -- Closing

    def close(self) -> None:
        """Closes the connection (a spawned daemon sees its stdin close and exits, waited for up
        to 5 s). Requests still waiting raise ``ConnectionClosed``."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
        self._transport.close()
        if threading.current_thread() is not self._reader:
            self._reader.join(10)
            if not self._reader.is_alive():
                self._transport.release()
        self._finish(ConnectionClosed("the client closed the connection"))

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- Reading

    def _read_loop(self) -> None:
        decoder = FrameDecoder()
        reason: BaseException | None = ConnectionClosed("the daemon closed the connection")
        try:
            while True:
                data = self._transport.read()
                if not data:
                    self._transport.end_of_input()
                    break
                for incoming in self._incoming(decoder, data):
                    self._dispatch(incoming)
        except (FramingError, OSError, ValueError) as error:
            reason = self._read_failure(error) or reason
        self._finish(reason)

    def _dispatch(self, incoming: Union[Notification, ServerRequest, Response]) -> None:
        if isinstance(incoming, Response):
            self._answered(incoming)
            return
        if isinstance(incoming, ServerRequest):
            self._work.put(lambda: self._answer(incoming))
            return
        with self._lock:
            handler = self._notification_handlers.get(incoming.method)
            if handler is None:
                self._notifications.append(incoming)
                self._arrived.notify_all()
                return
        self._work.put(lambda: self._run_handler(handler, incoming))

    def _run_handler(self, handler: NotificationHandler, notification: Notification) -> None:
        try:
            handler(notification.params)
        except Exception:
            self._handler_raised(notification)

    def _answer(self, request: ServerRequest) -> None:
        handler = self._request_handler(request)
        if handler is None:
            frame = self._unhandled(request)
        else:
            try:
                frame = result_frame(request.id, handler(request.params))
            except Exception as error:
                frame = self._failed(request, error)
        try:
            self._send(frame)
        except ConnectionClosed:
            pass

    def _work_loop(self) -> None:
        while True:
            job = self._work.get()
            if job is None:
                return
            job()

    def _finish(self, reason: BaseException) -> None:
        with self._lock:
            if self._closed is not None:
                return
            self._closed = reason
            self._arrived.notify_all()
        self._fail_waiting(reason)
        self._work.put(None)
