"""The daemon's Unix socket: its default path, and connecting only to a socket and daemon of this user."""

from __future__ import annotations

import errno
import os
import socket
import stat

from . import _platform
from .errors import NoDaemon, SocketError, UntrustedSocket

__all__ = ["default_socket_path", "connect_socket", "peer_uid", "MAX_PATH_BYTES"]

#: The longest socket path, in bytes: ``sun_path`` less its NUL (107 on Linux, 103 on macOS).
MAX_PATH_BYTES = _platform.MAX_PATH_BYTES


def default_socket_path() -> str:
    """The path ``listd --listen`` serves without a PATH, as listctl finds it:
    ``$XDG_RUNTIME_DIR/listd/listd.sock`` on Linux, ``$TMPDIR/listd/listd.sock`` on macOS (else
    ``confstr(CS_DARWIN_USER_TEMP_DIR)``), else ``/tmp/listd-$UID/listd.sock``; a relative directory
    counts as unset and trailing slashes are dropped."""
    base = _platform.default_socket_base()
    if base is not None:
        return base + "/listd/listd.sock"
    return f"/tmp/listd-{os.getuid()}/listd.sock"


def peer_uid(sock: socket.socket) -> int | None:
    """The uid of the process at the other end of a connected Unix socket (from the kernel), or None."""
    return _platform.peer_uid(sock)


def _privacy_problem(directory: str, info: os.stat_result) -> str | None:
    """Why ``directory`` is not private to this user, or None (as listd and listctl judge it)."""
    uid = os.getuid()
    if not stat.S_ISDIR(info.st_mode):
        return f"{directory} is not a directory"
    if info.st_uid != uid:
        return f"{directory} belongs to uid {info.st_uid}, not to this user (uid {uid})"
    if info.st_mode & 0o077:
        return (
            f"{directory} can be entered by other users (mode {info.st_mode & 0o777:o}); "
            "use a directory only you can enter (chmod 700)"
        )
    return None


def connect_socket(
    path: str | os.PathLike[str] | None = None, *, private_directory: bool | None = None
) -> socket.socket:
    """A connected, blocking socket to the daemon at ``path`` (default: ``default_socket_path()``),
    after the checks listctl makes, so that another local user listening first at a path you
    trust never receives your requests:

    - at the default path (or with ``private_directory=True``), the socket's directory must be
      this user's and nobody else may enter it (``listd`` creates it 0700);
    - the socket file must be a socket owned by this user;
    - the process that accepted must run as this user (its peer credentials, from the kernel).

    Raises ``NoDaemon`` when nothing exists or listens there, ``UntrustedSocket`` when a check
    fails, and ``SocketError`` for anything else; each message names the path and the problem.
    """
    text = default_socket_path() if path is None else os.fspath(path)
    if private_directory is None:
        private_directory = text == default_socket_path()
    if "\0" in text:
        raise SocketError(text, "the path contains a NUL byte")
    if not text:
        raise SocketError(text, "the path is empty")
    size = len(os.fsencode(text))
    if size > MAX_PATH_BYTES:
        raise SocketError(text, f"the path is {size} bytes; the limit is {MAX_PATH_BYTES} bytes")
    uid = os.getuid()
    if private_directory:
        directory = os.path.dirname(text) or "."
        try:
            info = os.stat(directory)
        except FileNotFoundError:
            raise NoDaemon(text, f"{directory} does not exist (no daemon has listened there)") from None
        except OSError as error:
            raise SocketError(text, f"cannot inspect {directory}: {error.strerror}") from None
        problem = _privacy_problem(directory, info)
        if problem:
            raise UntrustedSocket(text, problem)
    try:
        info = os.stat(text)
    except FileNotFoundError:
        raise NoDaemon(text, "No such file or directory (start one with `listd --listen --stay`)") from None
    except OSError as error:
        raise SocketError(text, error.strerror or str(error)) from None
    if stat.S_ISDIR(info.st_mode):
        raise SocketError(text, "it is a directory, not a socket")
    if not stat.S_ISSOCK(info.st_mode):
        raise SocketError(text, "it is not a socket")
    if info.st_uid != uid:
        raise UntrustedSocket(text, f"the socket belongs to uid {info.st_uid}, not to this user (uid {uid})")

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(text)
    except OSError as error:
        sock.close()
        if error.errno in (errno.ENOENT, errno.ECONNREFUSED):
            raise NoDaemon(text, error.strerror or str(error)) from None
        raise SocketError(text, error.strerror or str(error)) from None
    owner = peer_uid(sock)
    if owner is None or owner != uid:
        sock.close()
        problem = (
            f"cannot read the peer's credentials ({_platform.PEER_CREDENTIALS_CALL})"
            if owner is None
            else f"the daemon there runs as uid {owner}, not as this user (uid {uid})"
        )
        raise UntrustedSocket(text, problem)
    return sock
