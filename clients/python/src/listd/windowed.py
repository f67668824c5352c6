"""WindowedMirror: what a windowed subscriber holds of a list — section counts, its window's rows, the selection."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Mapping

from .changeset import (
    HeldSection,
    apply_changeset,
    did_change_parts,
    held_section,
    keep_window,
    subscribe_entry,
    text,
    to_int,
    to_ints,
    to_string,
)
from .errors import MirrorMismatch
from .messages import Notification

__all__ = ["WindowedMirror", "WindowedSection"]

_Array = list


#: One section of a windowed mirror: id, header, footer, row count, the rows known by index, kind
#: and header mode (``None`` for the default ``supplementary``), as a ``MirrorSection``.
WindowedSection = HeldSection


class WindowedMirror:
    """A list seen through a window (Protocol/README.md, "Windowed subscriptions").

    Holds every section's id, header, footer, kind, header mode and row count, the rows of the window ``[offset,
    offset + limit)`` of the flattened visible rows, and the selection — O(sections + window +
    selection), whatever the size of the list. Build it from a windowed ``list_subscribe`` answer
    (``WindowedMirror.from_subscribe``), ``apply`` every ``list/didChange`` of the list, and
    ``apply_set_window`` the answer of ``list_set_window``. ``window_rows`` equals the rows
    ``query/window`` answers (without ``section`` and ``indexPath``) at the mirror's version.
    """

    def __init__(self, entry: Mapping[str, Any], limit: int) -> None:
        """A mirror from a windowed subscribe entry ``{list, version, window, sections, selection}``
        for a window of ``limit`` rows."""
        name, version = entry.get("list"), entry.get("version")
        if not isinstance(name, str) or not isinstance(version, int):
            raise MirrorMismatch(f"a windowed entry without list or version: {text(entry)}")
        #: The list id.
        self.list = name
        #: The version the mirror is at.
        self.version = version
        self.offset = 0
        self.limit = limit
        self.sections: _Array[WindowedSection] = []
        self.selection: set[str] = set()
        self._reset(entry, limit)

    @classmethod
    def from_subscribe(cls, answer: Mapping[str, Any], limit: int, list: str | None = None) -> WindowedMirror:
        """A mirror from a windowed ``list_subscribe`` answer (its entry for ``list``, or its only
        one); ``limit`` is the window's size asked for."""
        return cls(subscribe_entry(answer, list), limit)

    def apply_set_window(self, answer: Mapping[str, Any], limit: int) -> None:
        """Starts afresh from a ``list_set_window`` answer for a window of ``limit`` rows."""
        if answer.get("list") != self.list or not isinstance(answer.get("version"), int):
            raise MirrorMismatch(f"a setWindow answer of another list or without version: {text(answer)}")
        copy_ = self.copy()
        copy_.version = answer["version"]
        copy_._reset(answer, limit)
        self.__dict__.update(copy_.__dict__)

    def _reset(self, entry: Mapping[str, Any], limit: int) -> None:
        window, sections, selection = entry.get("window"), entry.get("sections"), entry.get("selection")
        if not isinstance(window, Mapping) or not isinstance(sections, _Array) or not isinstance(selection, _Array):
            raise MirrorMismatch(f"a windowed entry without window, sections or selection: {text(entry)}")
        self.offset = to_int(window.get("offset"))
        self.limit = limit
        self.sections = [held_section(section, to_int(section.get("rows")), {}) for section in sections]
        self.selection = {to_string(item) for item in selection}
        for row in window.get("rows") or []:
            section, index = to_ints(row.get("indexPath"), 2)
            if not (0 <= section < len(self.sections) and 0 <= index < self.sections[section].count):
                raise MirrorMismatch(f"a window row at [{section}, {index}] is out of range")
            self.sections[section].known[index] = {k: v for k, v in row.items() if k not in ("section", "indexPath")}
        keep_window(self.sections, self.offset, self.limit, self.version)

    # -- Applying

    def apply(self, did_change: Mapping[str, Any] | Notification) -> None:
        """Applies one filtered ``list/didChange`` (its params, or the ``Notification``) from
        ``self.version`` to a later version. Raises ``MirrorMismatch``, changing nothing, if it
        does not fit."""
        version, changeset = did_change_parts(did_change, self.list, self.version, "windowed mirror")
        held = [dataclasses.replace(section, known=dict(section.known)) for section in self.sections]
        selection = set(self.selection)
        held = apply_changeset(held, selection, changeset, windowed=True)
        keep_window(held, self.offset, self.limit, self.version)
        self.sections, self.selection, self.version = held, selection, version

    # -- Reading

    @property
    def total_rows(self) -> int:
        """The number of rows of all sections."""
        return sum(section.count for section in self.sections)

    @property
    def window_rows(self) -> list[dict[str, Any]]:
        """The window's rows in order, as the wire carries them."""
        return [section.known[row] for section in self.sections for row in sorted(section.known)]

    def copy(self) -> WindowedMirror:
        """An independent copy."""
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        return (
            f"WindowedMirror({self.list!r} v{self.version}: [{self.offset}, {self.offset + self.limit}) "
            f"of {self.total_rows} rows, {len(self.sections)} sections)"
        )
