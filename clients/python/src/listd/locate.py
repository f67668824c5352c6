"""Finds the listd executable to start: an explicit path, $LISTD_BIN, $LISTD, or listd on the PATH."""

from __future__ import annotations

import os
import shutil

from .errors import DaemonNotFound

__all__ = ["find_listd", "spawn_arguments"]


def find_listd(explicit: str | os.PathLike[str] | None = None) -> str:
    """The ``listd`` to start: ``explicit`` if given, else ``$LISTD_BIN``, else ``$LISTD`` (the
    variable listctl and ListClient read), else ``listd`` on the ``PATH``.

    Raises ``DaemonNotFound`` naming what was tried.
    """
    if explicit is not None:
        path = os.fspath(explicit)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise DaemonNotFound(f"listd not found: {path} is not an executable file")
        return path
    for variable in ("LISTD_BIN", "LISTD"):
        value = os.environ.get(variable, "")
        if value:
            if not (os.path.isfile(value) and os.access(value, os.X_OK)):
                raise DaemonNotFound(f"listd not found: ${variable} is {value}, which is not an executable file")
            return value
    found = shutil.which("listd")
    if found:
        return found
    raise DaemonNotFound(
        "listd not found: set LISTD_BIN to its path or put it on the PATH "
        "(`swift build` in the listd repository puts it in .build/debug)"
    )


def spawn_arguments(args: tuple[str, ...], log_level: str | None) -> list[str]:
    """A spawned daemon's arguments: ``args`` after ``--log-level log_level``, unless ``log_level``
    is ``None`` or ``args`` choose a level themselves (the caller's word wins)."""
    if log_level is None or any(arg == "--log-level" or arg.startswith("--log-level=") for arg in args):
        return list(args)
    return ["--log-level", log_level, *args]
