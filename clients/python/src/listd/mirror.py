"""Mirror: a client's copy of one list, built from a subscribe answer and kept current by applying changesets."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any, Mapping

from .changeset import (
    UNBOUNDED,
    HeldSection,
    apply_changeset,
    did_change_parts,
    inserted_section,
    keep_window,
    subscribe_entry,
    text,
    to_string,
)
from .errors import MirrorMismatch
from .messages import Notification

__all__ = ["Mirror", "MirrorSection"]

# `list` is the name of the list id parameter below, as in the protocol; arrays are `_Array`.
_Array = list

#: The changeset and snapshot members that are list attributes, in snapshot order.
_ATTRIBUTES = ("columns", "emptyState", "editing")


@dataclasses.dataclass
class MirrorSection:
    """One section of a mirror: its id, header, footer, kind, header mode (``None`` for the
    default ``supplementary``) and visible rows (wire JSON objects)."""

    id: str
    header: str | None = None
    footer: str | None = None
    rows: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    kind: str | None = None
    header_mode: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """The section as a snapshot carries it: ``{"id", "header"?, "footer"?, "kind"?,
        "headerMode"?, "rows"}``."""
        wire: dict[str, Any] = {"id": self.id}
        if self.header is not None:
            wire["header"] = self.header
        if self.footer is not None:
            wire["footer"] = self.footer
        if self.kind is not None:
            wire["kind"] = self.kind
        if self.header_mode is not None:
            wire["headerMode"] = self.header_mode
        wire["rows"] = self.rows
        return wire

    @classmethod
    def _of(cls, held: HeldSection) -> MirrorSection:
        """A held section every row of which is known."""
        rows = [held.known[row] for row in range(held.count)]
        return cls(held.id, held.header, held.footer, rows, held.kind, held.header_mode)


class Mirror:
    """The rows of one list as a client holds them, kept current from ``list/didChange``.

    Build it from a ``list_subscribe`` answer (``Mirror.from_subscribe``), then ``apply`` every
    ``list/didChange`` of the list, in order: it follows Protocol/README.md §4, "Applying a
    changeset", on the wire JSON. Rows are the JSON objects of the wire. A changeset that does
    not fit — another list, a version other than the mirror's, an index out of range, a row whose id
    is not the one at its place — raises ``MirrorMismatch`` and leaves the mirror unchanged
    (resubscribe to recover).

    ``mirror.snapshot`` is the mirror in the form of a subscribe answer's ``snapshot``, with the
    selection in index-path order, so it compares equal to a fresh snapshot of the same version.
    """

    def __init__(self, list: str, version: int, snapshot: Mapping[str, Any]) -> None:
        """A mirror of ``list`` at ``version`` from a wire snapshot ``{"sections", "selection"}``."""
        #: The list id.
        self.list = list
        #: The version the rows are at.
        self.version = version
        sections = snapshot.get("sections") if isinstance(snapshot, Mapping) else None
        selection = snapshot.get("selection") if isinstance(snapshot, Mapping) else None
        if not isinstance(sections, _Array) or not isinstance(selection, _Array):
            raise MirrorMismatch(f"a snapshot without sections or selection: {text(snapshot)}")
        #: The sections, in order.
        self.sections: _Array[MirrorSection] = [
            MirrorSection._of(inserted_section(section, windowed=False)) for section in copy.deepcopy(sections)
        ]
        #: The selected item ids, in index-path order.
        self.selection: _Array[str] = [to_string(item) for item in selection]
        #: The list attributes that are not the default — ``columns``, ``emptyState``,
        #: ``editing`` — as the wire carries them.
        self.attributes: dict[str, Any] = _attributes({}, snapshot)

    @property
    def columns(self) -> list[dict[str, Any]]:
        """The list's columns (``[]`` unless it is a table)."""
        return self.attributes.get("columns", [])

    @property
    def empty_state(self) -> dict[str, Any] | None:
        """The list's empty state ``{kind?, query?, title, image?, description?}``, if any."""
        return self.attributes.get("emptyState")

    @property
    def is_editing(self) -> bool:
        """Whether the list is in editing mode."""
        return self.attributes.get("editing") is True

    @classmethod
    def from_subscribe(cls, answer: Mapping[str, Any], list: str | None = None) -> Mirror:
        """A mirror from a ``list_subscribe`` answer: its entry for ``list`` (or its only entry),
        or an entry ``{list, version, snapshot, …}`` itself. The subscription must have asked for
        the full snapshot (the default)."""
        answer = subscribe_entry(answer, list)
        name, version, snapshot = answer.get("list"), answer.get("version"), answer.get("snapshot")
        if not isinstance(name, str) or not isinstance(version, int) or snapshot is None:
            raise MirrorMismatch(f"a subscribe entry without list, version or snapshot: {text(answer)}")
        return cls(name, version, snapshot)

    # -- Applying

    def apply(self, did_change: Mapping[str, Any] | Notification) -> None:
        """Applies one ``list/didChange`` (its params, or the ``Notification``): the change from
        ``self.version`` to the next. Raises ``MirrorMismatch``, changing nothing, if it is of
        another list, does not start at the mirror's version, or does not fit the rows. (``version`` is
        later than ``previousVersion + 1`` for a change composed for a subscriber that fell behind.)"""
        version, changeset = did_change_parts(did_change, self.list, self.version, "mirror")
        self.apply_changeset(changeset)
        self.version = version

    def update(self, notification: Notification) -> bool:
        """Applies ``notification`` if it is a ``list/didChange`` of this list (``True``);
        ignores any other (``False``). Raises ``MirrorMismatch`` as ``apply`` does."""
        if notification.method != "list/didChange" or notification.list != self.list:
            return False
        self.apply(notification)
        return True

    def apply_changeset(self, changeset: Mapping[str, Any]) -> None:
        """Applies a wire changeset in the five steps of Protocol/README.md §4 (the decoder a
        ``WindowedMirror`` uses, with a window that holds every row). The version does not change;
        on ``MirrorMismatch`` the mirror is left unchanged."""
        held = [
            HeldSection(s.id, s.header, s.footer, len(s.rows), dict(enumerate(s.rows)), s.kind, s.header_mode)
            for s in self.sections
        ]
        selected = set(self.selection)
        held = apply_changeset(held, selected, changeset, windowed=False)
        keep_window(held, 0, UNBOUNDED, self.version)
        sections = [MirrorSection._of(section) for section in held]
        # The selection in index-path order: every selected item is a visible row.
        order = [row["id"] for section in sections for row in section.rows if row.get("id") in selected]
        if len(order) != len(selected):
            hidden = sorted(selected - set(order))
            raise MirrorMismatch(f"selected items that are not rows: {hidden}")
        self.sections, self.selection, self.attributes = sections, order, _attributes(self.attributes, changeset)

    # -- Reading and comparing

    @property
    def snapshot(self) -> dict[str, Any]:
        """The mirror as a wire snapshot ``{"sections": […], "selection": […], "columns"?,
        "emptyState"?, "editing"?}``."""
        return {
            "sections": [section.to_wire() for section in self.sections],
            "selection": list(self.selection),
            **copy.deepcopy(self.attributes),
        }

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Every visible row, section after section."""
        return [row for section in self.sections for row in section.rows]

    def row_ids(self) -> list[list[str]]:
        """The row ids of each section."""
        return [[row["id"] for row in section.rows] for section in self.sections]

    def copy(self) -> Mirror:
        """An independent copy."""
        return Mirror(self.list, self.version, copy.deepcopy(self.snapshot))

    def first_difference(self, other: Mirror | Mapping[str, Any]) -> str | None:
        """Where this mirror first differs from ``other`` (a mirror, or a wire snapshot, whose
        version is then not compared), or ``None`` if they are equal."""
        if isinstance(other, Mirror):
            if other.list != self.list:
                return f"list {self.list!r} ≠ {other.list!r}"
            if other.version != self.version:
                return f"version {self.version} ≠ {other.version}"
            theirs = other.snapshot
        else:
            theirs = dict(other)
        mine = self.snapshot
        my_ids = [section["id"] for section in mine["sections"]]
        their_ids = [section.get("id") for section in theirs.get("sections", [])]
        if my_ids != their_ids:
            return f"section ids {my_ids} ≠ {their_ids}"
        for index, (a, b) in enumerate(zip(mine["sections"], theirs["sections"])):
            if a.get("kind") != b.get("kind") or a.get("headerMode") != b.get("headerMode"):
                return f"section {index} kind/headerMode {a.get('kind')!r}/{a.get('headerMode')!r} ≠ {b.get('kind')!r}/{b.get('headerMode')!r}"
            if a.get("header") != b.get("header") or a.get("footer") != b.get("footer"):
                return f"section {index} header/footer {a.get('header')!r}/{a.get('footer')!r} ≠ {b.get('header')!r}/{b.get('footer')!r}"
            a_rows, b_rows = a["rows"], b.get("rows", [])
            a_ids, b_ids = [row.get("id") for row in a_rows], [row.get("id") for row in b_rows]
            if a_ids != b_ids:
                return f"section {index} row ids {a_ids} ≠ {b_ids}"
            for position, (x, y) in enumerate(zip(a_rows, b_rows)):
                if x != y:
                    return f"row [{index}, {position}] {text(x)} ≠ {text(y)}"
        if mine["selection"] != theirs.get("selection"):
            return f"selection {mine['selection']} ≠ {theirs.get('selection')}"
        for key in _ATTRIBUTES:
            if mine.get(key) != theirs.get(key):
                return f"{key} {text(mine.get(key))} ≠ {text(theirs.get(key))}"
        return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mirror):
            return self.list == other.list and self.version == other.version and self.snapshot == other.snapshot
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<Mirror {self.list!r} v{self.version}: {len(self.sections)} sections, "
            f"{sum(len(section.rows) for section in self.sections)} rows, {len(self.selection)} selected>"
        )


def _attributes(attributes: Mapping[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """``attributes`` with each list attribute ``source`` has set from it (a copy); a default value
    (``[]``, ``null``, ``false``) removes it. Kept in snapshot order."""
    merged = dict(attributes)
    for key in _ATTRIBUTES:
        if key in source:
            value = copy.deepcopy(source[key])
            if value is None or value is False or value == []:
                merged.pop(key, None)
            else:
                merged[key] = value
    return {name: merged[name] for name in _ATTRIBUTES if name in merged}
