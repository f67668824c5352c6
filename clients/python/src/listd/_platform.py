"""The one place the Python client differs between Linux and macOS: peer credentials and the default socket directory."""

from __future__ import annotations

import os
import socket
import struct
import sys

__all__ = ["peer_uid", "default_socket_base", "PEER_CREDENTIALS_CALL", "MAX_PATH_BYTES"]

_DARWIN = sys.platform == "darwin"

#: How the peer's uid is read, for messages.
PEER_CREDENTIALS_CALL = "LOCAL_PEERCRED" if _DARWIN else "SO_PEERCRED"

#: The longest socket path, in bytes: ``sun_path`` (108 bytes on Linux, 104 on macOS) less its NUL.
MAX_PATH_BYTES = 103 if _DARWIN else 107

# <sys/un.h> on macOS: SOL_LOCAL and LOCAL_PEERCRED (Python exposes the latter on macOS only).
_SOL_LOCAL = 0
_LOCAL_PEERCRED = getattr(socket, "LOCAL_PEERCRED", 0x001)
# struct xucred (<sys/ucred.h>): u_int cr_version; uid_t cr_uid; short cr_ngroups; gid_t cr_groups[16].
_XUCRED = struct.Struct("=IIh2x16I")


def peer_uid(sock: socket.socket) -> int | None:
    """The uid of the process at the other end of a connected Unix socket, or None.

    Linux: ``getsockopt(SOL_SOCKET, SO_PEERCRED)`` (``struct ucred``). macOS:
    ``getsockopt(SOL_LOCAL, LOCAL_PEERCRED)`` (``struct xucred``), as Apple's unix(4) documents."""
    try:
        if _DARWIN:
            data = sock.getsockopt(_SOL_LOCAL, _LOCAL_PEERCRED, _XUCRED.size)
            _version, uid = struct.unpack_from("=II", data)
            return int(uid)
        data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except OSError:
        return None
    _pid, uid, _gid = struct.unpack("3i", data)
    return int(uid)


def default_socket_base() -> str | None:
    """The directory the default socket's ``listd/listd.sock`` goes in, as the daemon chooses it,
    trailing slashes removed (``""`` for ``/``); None for the fallback, ``/tmp/listd-$UID``.

    Linux: ``$XDG_RUNTIME_DIR``. macOS: the per-user temporary directory, ``$TMPDIR``, else
    ``confstr("CS_DARWIN_USER_TEMP_DIR")`` (a GUI app may lack ``$TMPDIR``); ``XDG_RUNTIME_DIR`` is
    not read there. A value that is not an absolute path counts as unset (the XDG Base Directory
    spec says a relative path must be ignored)."""
    if _DARWIN:
        temporary = _absolute(os.environ.get("TMPDIR", ""))
        if temporary is None:
            try:
                temporary = _absolute(os.confstr("CS_DARWIN_USER_TEMP_DIR") or "")
            except (ValueError, OSError):
                temporary = None
        return temporary
    return _absolute(os.environ.get("XDG_RUNTIME_DIR", ""))


def _absolute(path: str) -> str | None:
    """``path`` without its trailing slashes, or None unless it is absolute."""
    if not path.startswith("/"):
        return None
    return path.rstrip("/")
