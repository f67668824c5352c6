"""Daemon: a listd started on a private socket in a temporary directory, for tests and scripts."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Any

from .client import DEFAULT_TIMEOUT, Client
from .errors import ListdError, NoDaemon
from .locate import find_listd
from .sockets import MAX_PATH_BYTES, connect_socket

__all__ = ["Daemon"]


class Daemon:
    """A ``listd --listen PATH --stay`` of its own: a socket in a new directory only you can
    enter, logs in a file beside it. ``stop()`` (or leaving the ``with`` block) ends it with
    SIGTERM, as a user would, and removes the directory.

        with listd.Daemon.start("--demo") as daemon:
            with daemon.connect() as client:
                print(client.list_all())
    """

    def __init__(self, process: subprocess.Popen[bytes], directory: str, socket_path: str, log_path: str) -> None:
        #: The daemon's process.
        self.process = process
        #: The private directory holding the socket and the log.
        self.directory = directory
        #: The socket it serves.
        self.socket_path = socket_path
        #: Its log (stderr).
        self.log_path = log_path

    @classmethod
    def start(
        cls,
        *args: str,
        listd: str | os.PathLike[str] | None = None,
        log_level: str = "info",
        ready_timeout: float = 30.0,
    ) -> Daemon:
        """Starts ``listd`` (default ``listd.find_listd()``) with ``args`` on a private socket and
        returns once it accepts connections. Raises ``ListdError`` with its log if it exits first
        or is not listening within ``ready_timeout`` seconds."""
        executable = find_listd(listd)
        directory = _private_directory()
        socket_path = os.path.join(directory, "listd.sock")
        log_path = os.path.join(directory, "listd.log")
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [executable, "--listen", socket_path, "--stay", "--log-level", log_level, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        daemon = cls(process, directory, socket_path, log_path)
        try:
            daemon._wait_until_listening(ready_timeout)
        except BaseException:
            daemon.stop()
            raise
        return daemon

    def _wait_until_listening(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        delay = 0.005
        while True:
            if self.process.poll() is not None:
                raise ListdError(f"listd exited with status {self.process.returncode} before listening:\n{self.log()}")
            try:
                connect_socket(self.socket_path).close()
                return
            except NoDaemon:
                pass
            if time.monotonic() > deadline:
                raise ListdError(f"listd is not listening on {self.socket_path} after {timeout:g} s:\n{self.log()}")
            time.sleep(delay)
            delay = min(delay * 2, 0.1)

    def connect(
        self, name: str = "listd-python", *, timeout: float | None = DEFAULT_TIMEOUT, initialize: bool = True
    ) -> Client:
        """A new ``Client`` session on this daemon (initialized as ``name`` unless told not to)."""
        return Client.connect(self.socket_path, timeout=timeout, name=name, initialize=initialize)

    async def connect_async(
        self, name: str = "listd-python", *, timeout: float | None = DEFAULT_TIMEOUT, initialize: bool = True
    ) -> Any:
        """A new ``AsyncClient`` session on this daemon."""
        from .aio import AsyncClient

        return await AsyncClient.connect(self.socket_path, timeout=timeout, name=name, initialize=initialize)

    def log(self) -> str:
        """What the daemon has logged so far."""
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as file:
                return file.read()
        except OSError:
            return ""

    @property
    def running(self) -> bool:
        """Whether the process is still running."""
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> int:
        """Stops the daemon with SIGTERM (SIGKILL after ``timeout`` seconds), removes its
        directory, and returns its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)
        return self.process.returncode

    def __enter__(self) -> Daemon:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<Daemon pid {self.process.pid} on {self.socket_path}>"


def _private_directory() -> str:
    """A new directory only this user can enter, short enough for a socket path inside it."""
    directory = tempfile.mkdtemp(prefix="listd-")
    if len(os.fsencode(directory)) + len("/listd.sock") > MAX_PATH_BYTES:
        shutil.rmtree(directory, ignore_errors=True)
        directory = tempfile.mkdtemp(prefix="listd-", dir="/tmp")
    os.chmod(directory, 0o700)
    return directory
