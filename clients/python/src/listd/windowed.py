"""WindowedMirror: what a windowed subscriber holds of a list — section counts, its window's rows, the selection."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Mapping

from .errors import MirrorMismatch
from .messages import Notification
from .mirror import _MEMBERS, _int, _ints, _leaving_sections, _optional_string, _string, _text

__all__ = ["WindowedMirror", "WindowedSection"]

_Array = list


@dataclasses.dataclass
class WindowedSection:
    """One section of a windowed mirror: id, header, footer, row count, the rows known by index,
    kind and header mode (``None`` for the default ``supplementary``), as a ``MirrorSection``."""

    id: str
    header: str | None = None
    footer: str | None = None
    count: int = 0
    known: dict[int, dict[str, Any]] = dataclasses.field(default_factory=dict)
    kind: str | None = None
    header_mode: str | None = None


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
            raise MirrorMismatch(f"a windowed entry without list or version: {_text(entry)}")
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
        entries = answer.get("lists")
        if isinstance(entries, _Array):
            chosen = [entry for entry in entries if list is None or entry.get("list") == list]
            if len(chosen) != 1:
                raise MirrorMismatch(f"the subscribe answer has {len(chosen)} entries; name the list")
            answer = chosen[0]
        return cls(answer, limit)

    def apply_set_window(self, answer: Mapping[str, Any], limit: int) -> None:
        """Starts afresh from a ``list_set_window`` answer for a window of ``limit`` rows."""
        if answer.get("list") != self.list or not isinstance(answer.get("version"), int):
            raise MirrorMismatch(f"a setWindow answer of another list or without version: {_text(answer)}")
        copy_ = self.copy()
        copy_.version = answer["version"]
        copy_._reset(answer, limit)
        self.__dict__.update(copy_.__dict__)

    def _reset(self, entry: Mapping[str, Any], limit: int) -> None:
        window, sections, selection = entry.get("window"), entry.get("sections"), entry.get("selection")
        if not isinstance(window, Mapping) or not isinstance(sections, _Array) or not isinstance(selection, _Array):
            raise MirrorMismatch(f"a windowed entry without window, sections or selection: {_text(entry)}")
        self.offset = _int(window.get("offset"))
        self.limit = limit
        self.sections = [
            WindowedSection(
                _string(section.get("id")),
                _optional_string(section.get("header")),
                _optional_string(section.get("footer")),
                _int(section.get("rows")),
                kind=_optional_string(section.get("kind")),
                header_mode=_optional_string(section.get("headerMode")),
            )
            for section in sections
        ]
        self.selection = {_string(item) for item in selection}
        for row in window.get("rows") or []:
            section, index = _ints(row.get("indexPath"), 2)
            if not (0 <= section < len(self.sections) and 0 <= index < self.sections[section].count):
                raise MirrorMismatch(f"a window row at [{section}, {index}] is out of range")
            self.sections[section].known[index] = {k: v for k, v in row.items() if k not in ("section", "indexPath")}
        self._keep_window()

    # -- Applying

    def apply(self, did_change: Mapping[str, Any] | Notification) -> None:
        """Applies one filtered ``list/didChange`` (its params, or the ``Notification``) from
        ``self.version`` to a later version. Raises ``MirrorMismatch``, changing nothing, if it
        does not fit."""
        params = did_change.params if isinstance(did_change, Notification) else did_change
        if not isinstance(params, Mapping) or params.get("list") != self.list:
            raise MirrorMismatch(f"a didChange of another list, windowed mirror of {self.list!r}")
        previous, version, changeset = params.get("previousVersion"), params.get("version"), params.get("changeset")
        if previous != self.version or not isinstance(version, int) or version <= previous:
            raise MirrorMismatch(f"a didChange from {previous} to {version} applied to a windowed mirror at {self.version}")
        copy_ = self.copy()
        copy_._apply_changeset(changeset)
        copy_.version = version
        self.__dict__.update(copy_.__dict__)

    def _apply_changeset(self, changeset: Any) -> None:
        if not isinstance(changeset, Mapping):
            raise MirrorMismatch(f"the changeset is not an object: {_text(changeset)}")
        for key in changeset:
            if key not in _MEMBERS and key != "enter":
                raise MirrorMismatch(f"unknown changeset member {key!r}")

        def entries(key: str) -> list[Any]:
            value = changeset.get(key)
            if value is None:
                return []
            if not isinstance(value, list) or not value:
                raise MirrorMismatch(f"{key!r} must be a non-empty array when present, got {_text(value)}")
            return value

        sections = self.sections
        old_count = len(sections)

        # 1. Section reloads; reloads and reconfigures write their carried rows at old index paths.
        for reload in entries("sectionReloads"):
            index = _int(reload.get("index"))
            if not 0 <= index < old_count or sections[index].id != reload.get("id"):
                raise MirrorMismatch(f"the section reload {_text(reload)} does not match the section at {index}")
            sections[index].header = _optional_string(reload.get("header"))
            sections[index].footer = _optional_string(reload.get("footer"))
            sections[index].kind = _optional_string(reload.get("kind"))
            sections[index].header_mode = _optional_string(reload.get("headerMode"))
        for run in entries("itemReloads") + entries("itemReconfigures"):
            section, start, count, rows = _run(run)
            if not (0 <= section < old_count and 0 <= start and start + count <= sections[section].count):
                raise MirrorMismatch(f"the row update {_text(run)} is out of range")
            for offset, row in enumerate(rows or []):
                old = sections[section].known.get(start + offset)
                if old is not None and old.get("id") != row.get("id"):
                    raise MirrorMismatch(f"the row update at [{section}, {start + offset}] does not match {_text(row)}")
                sections[section].known[start + offset] = row

        # 2. Removals in old coordinates (moved rows kept aside with what is known of them).
        removed: list[list[tuple[int, int]]] = [[] for _ in range(old_count)]

        def remove(section: int, start: int, count: int) -> None:
            if not (0 <= section < old_count and 0 <= start and count > 0 and start + count <= sections[section].count):
                raise MirrorMismatch(f"the old rows [{section}, {start}] +{count} are out of range")
            removed[section].append((start, start + count))

        for delete in entries("itemDeletes"):
            section, start, count = _ints(delete, 3)
            remove(section, start, count)
        placements: dict[int, list[tuple[int, int, dict[int, dict[str, Any]]]]] = {}
        for move in entries("itemMoves"):
            from_section, from_row, to_section, to_row, count = _ints(move, 5)
            remove(from_section, from_row, count)
            carried = {
                index - from_row: row
                for index, row in sections[from_section].known.items()
                if from_row <= index < from_row + count
            }
            placements.setdefault(to_section, []).append((to_row, count, carried))
        for index, ranges in enumerate(removed):
            if not ranges:
                continue
            ranges.sort()
            for (_, end), (start, _) in zip(ranges, ranges[1:]):
                if end > start:
                    raise MirrorMismatch(f"old rows of section {index} are removed twice")
            kept = {}
            for row, value in sections[index].known.items():
                if any(start <= row < end for start, end in ranges):
                    continue
                kept[row - sum(end - start for start, end in ranges if end <= row)] = value
            sections[index].known = kept
            sections[index].count -= sum(end - start for start, end in ranges)
        gone, arriving = _leaving_sections(entries("sectionDeletes"), entries("sectionMoves"), sections)

        # 3. Inserted and moved sections at their new indexes, ascending.
        for insert in entries("sectionInserts"):
            arriving.append((_int(insert.get("index")), _inserted_section(insert.get("section"))))
        arriving.sort(key=lambda pair: pair[0])
        remaining = [section for index, section in enumerate(sections) if index not in gone]
        merged: list[WindowedSection] = []
        while arriving or remaining:
            if arriving and arriving[0][0] == len(merged):
                merged.append(arriving.pop(0)[1])
            elif remaining:
                merged.append(remaining.pop(0))
            else:
                raise MirrorMismatch(f"the new section index {arriving[0][0]} is out of range or repeated")
        self.sections = sections = merged

        # 4. Inserted and moved rows at their new index paths, ascending.
        for insert in entries("itemInserts"):
            section, start, count, rows = _run(insert)
            placements.setdefault(section, []).append((start, count, dict(enumerate(rows or []))))
        for section, placed in placements.items():
            if not 0 <= section < len(sections):
                raise MirrorMismatch(f"the new section index {section} is out of range")
            placed.sort(key=lambda run: run[0])
            total = sections[section].count + sum(count for _, count, _ in placed)
            end = 0
            for start, count, _ in placed:
                if start < end or start + count > total:
                    raise MirrorMismatch(f"new rows at [{section}, {start}] are out of range or repeated")
                end = start + count
            known = {}
            for row, value in sections[section].known.items():
                position = row
                for start, count, _ in placed:
                    if start <= position:
                        position += count
                known[position] = value
            for start, _, carried in placed:
                for offset, value in carried.items():
                    known[start + offset] = value
            sections[section].known = known
            sections[section].count = total

        # 5. Selection.
        for item in entries("deselected"):
            self.selection.discard(_string(item))
        for item in entries("selected"):
            self.selection.add(_string(item))

        # Rows entering the window; then only the window is kept.
        for run in entries("enter"):
            section, start, count, rows = _run(run)
            if rows is None or not (0 <= section < len(sections) and 0 <= start and start + count <= sections[section].count):
                raise MirrorMismatch(f"the enter {_text(run)} is out of range or carries no rows")
            for offset, row in enumerate(rows):
                sections[section].known[start + offset] = row
        self._keep_window()

    def _keep_window(self) -> None:
        """Drops the rows outside the window and checks every row inside it is known."""
        first = 0
        for index, section in enumerate(self.sections):
            lower, upper = max(self.offset - first, 0), min(self.offset + self.limit - first, section.count)
            section.known = {row: value for row, value in section.known.items() if lower <= row < upper}
            for row in range(lower, upper):
                if row not in section.known:
                    raise MirrorMismatch(f"the window row [{index}, {row}] of version {self.version} is unknown")
            first += section.count

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


def _inserted_section(value: Any) -> WindowedSection:
    """An inserted section: full (``rows``) or counted (``rowCount``, ``rowsAt``, ``rows``)."""
    if not isinstance(value, Mapping):
        raise MirrorMismatch(f"a section insert without section: {_text(value)}")
    rows = value.get("rows") or []
    count = _int(value["rowCount"]) if "rowCount" in value else len(rows)
    at = _int(value["rowsAt"]) if "rowsAt" in value else 0
    if at < 0 or at + len(rows) > count:
        raise MirrorMismatch(f"the section's rows are out of range: {_text(value)}")
    return WindowedSection(
        _string(value.get("id")),
        _optional_string(value.get("header")),
        _optional_string(value.get("footer")),
        count,
        {at + offset: row for offset, row in enumerate(rows)},
        kind=_optional_string(value.get("kind")),
        header_mode=_optional_string(value.get("headerMode")),
    )


def _run(value: Any) -> tuple[int, int, int, list[dict[str, Any]] | None]:
    """``{"at": [section, start], "rows": [row…]}`` or ``{"at": [section, start], "count": n}``."""
    if not isinstance(value, Mapping):
        raise MirrorMismatch(f"a row run that is not an object: {_text(value)}")
    section, start = _ints(value.get("at"), 2)
    rows = value.get("rows")
    if isinstance(rows, list) and rows and "count" not in value:
        return section, start, len(rows), rows
    if rows is not None:
        raise MirrorMismatch(f"a row run with both rows and count, or empty rows: {_text(value)}")
    count = _int(value.get("count"))
    if count <= 0:
        raise MirrorMismatch(f"an empty row run: {_text(value)}")
    return section, start, count, None
