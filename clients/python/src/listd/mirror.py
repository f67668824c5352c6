"""Mirror: a client's copy of one list, built from a subscribe answer and kept current by applying changesets."""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any, Mapping

from .errors import MirrorMismatch
from .messages import Notification

__all__ = ["Mirror", "MirrorSection"]

# `list` is the name of the list id parameter below, as in the protocol; arrays are `_Array`.
_Array = list

_MEMBERS = (
    "sectionDeletes",
    "sectionInserts",
    "sectionMoves",
    "sectionReloads",
    "itemDeletes",
    "itemInserts",
    "itemMoves",
    "itemReloads",
    "itemReconfigures",
    "selected",
    "deselected",
    "expanded",
    "collapsed",
    "selectionMode",
    "columns",
    "emptyState",
    "editing",
)

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
            raise MirrorMismatch(f"a snapshot without sections or selection: {_text(snapshot)}")
        #: The sections, in order.
        self.sections: _Array[MirrorSection] = [_section(section) for section in copy.deepcopy(sections)]
        #: The selected item ids, in index-path order.
        self.selection: _Array[str] = [_string(item) for item in selection]
        #: The list attributes that are not the default — ``columns``, ``emptyState``,
        #: ``editing`` — as the wire carries them.
        self.attributes: dict[str, Any] = {}
        for key in _ATTRIBUTES:
            self._set_attribute(key, snapshot, copy.deepcopy(snapshot.get(key)))

    def _set_attribute(self, key: str, source: Mapping[str, Any], value: Any) -> None:
        """Sets ``key`` from ``source`` if it has it; a default value (``[]``, ``null``,
        ``false``) removes it. Kept in snapshot order."""
        if key not in source:
            return
        if value is None or value is False or value == []:
            self.attributes.pop(key, None)
        else:
            self.attributes[key] = value
        self.attributes = {name: self.attributes[name] for name in _ATTRIBUTES if name in self.attributes}

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
        entries = answer.get("lists")
        if isinstance(entries, _Array):
            chosen = [entry for entry in entries if list is None or entry.get("list") == list]
            if len(chosen) != 1:
                raise MirrorMismatch(
                    f"the subscribe answer has {len(chosen)} entries{'' if list is None else f' for {list!r}'}; "
                    "name the list"
                )
            answer = chosen[0]
        name, version, snapshot = answer.get("list"), answer.get("version"), answer.get("snapshot")
        if not isinstance(name, str) or not isinstance(version, int) or snapshot is None:
            raise MirrorMismatch(f"a subscribe entry without list, version or snapshot: {_text(answer)}")
        return cls(name, version, snapshot)

    # -- Applying

    def apply(self, did_change: Mapping[str, Any] | Notification) -> None:
        """Applies one ``list/didChange`` (its params, or the ``Notification``): the change from
        ``self.version`` to the next. Raises ``MirrorMismatch``, changing nothing, if it is of
        another list, does not start at the mirror's version, or does not fit the rows. (``version`` is
        later than ``previousVersion + 1`` for a change composed for a subscriber that fell behind.)"""
        params = did_change.params if isinstance(did_change, Notification) else did_change
        if isinstance(did_change, Notification) and did_change.method != "list/didChange":
            raise MirrorMismatch(f"{did_change.method} is not list/didChange")
        if not isinstance(params, Mapping) or params.get("list") != self.list:
            raise MirrorMismatch(f"a didChange of list {_text(params and params.get('list'))}, mirror of {self.list!r}")
        previous, version, changeset = params.get("previousVersion"), params.get("version"), params.get("changeset")
        if not isinstance(previous, int) or not isinstance(version, int) or changeset is None:
            raise MirrorMismatch(f"a didChange without versions or changeset: {_text(params)}")
        if previous != self.version:
            raise MirrorMismatch(f"a didChange from version {previous} applied to a mirror at version {self.version}")
        if version <= previous:  # later than previous + 1: composed for a subscriber that fell behind
            raise MirrorMismatch(f"a didChange from version {previous} to {version}")
        copy_ = self.copy()
        copy_.apply_changeset(changeset)
        self.sections, self.selection, self.version = copy_.sections, copy_.selection, version
        self.attributes = copy_.attributes

    def update(self, notification: Notification) -> bool:
        """Applies ``notification`` if it is a ``list/didChange`` of this list (``True``);
        ignores any other (``False``). Raises ``MirrorMismatch`` as ``apply`` does."""
        if notification.method != "list/didChange" or notification.list != self.list:
            return False
        self.apply(notification)
        return True

    def apply_changeset(self, changeset: Mapping[str, Any]) -> None:
        """Applies a wire changeset in place, in the five steps of Protocol/README.md §4. The
        version does not change; on ``MirrorMismatch`` the mirror is left half-applied (``apply``
        works on a copy)."""
        if not isinstance(changeset, Mapping):
            raise MirrorMismatch(f"the changeset is not an object: {_text(changeset)}")
        for key in changeset:
            if key not in _MEMBERS:
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

        # 1. Section reloads and row updates, in old coordinates.
        for reload in entries("sectionReloads"):
            index = _int(reload.get("index") if isinstance(reload, Mapping) else None)
            if not 0 <= index < old_count or sections[index].id != reload.get("id"):
                raise MirrorMismatch(f"the section reload {_text(reload)} does not match the section at {index}")
            sections[index].header = _optional_string(reload.get("header"))
            sections[index].footer = _optional_string(reload.get("footer"))
            sections[index].kind = _optional_string(reload.get("kind"))
            sections[index].header_mode = _optional_string(reload.get("headerMode"))
        for run in entries("itemReloads") + entries("itemReconfigures"):
            section, start, rows = _run(run)
            if not (0 <= section < old_count and 0 <= start and start + len(rows) <= len(sections[section].rows)):
                raise MirrorMismatch(f"the row update {_text(run)} is out of range")
            for offset, row in enumerate(rows):
                if sections[section].rows[start + offset].get("id") != row.get("id"):
                    raise MirrorMismatch(f"the row update at [{section}, {start + offset}] does not match {_text(row)}")
                sections[section].rows[start + offset] = row

        # 2. Removals in old coordinates: rows (moved ones kept aside), then sections.
        removed: list[set[int]] = [set() for _ in range(old_count)]

        def remove(section: int, row: int) -> None:
            if not (0 <= section < old_count and 0 <= row < len(sections[section].rows)):
                raise MirrorMismatch(f"the old index path [{section}, {row}] is out of range")
            if row in removed[section]:
                raise MirrorMismatch(f"the old index path [{section}, {row}] is removed twice")
            removed[section].add(row)

        for delete in entries("itemDeletes"):
            section, start, count = _ints(delete, 3)
            if count <= 0:
                raise MirrorMismatch(f"an empty item delete {_text(delete)}")
            for position in range(start, start + count):
                remove(section, position)
        placements: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        for move in entries("itemMoves"):
            from_section, from_row, to_section, to_row, count = _ints(move, 5)
            if count <= 0:
                raise MirrorMismatch(f"an empty item move {_text(move)}")
            for offset in range(count):
                remove(from_section, from_row + offset)
                placements.setdefault(to_section, []).append(
                    (to_row + offset, sections[from_section].rows[from_row + offset])
                )
        for index, gone_rows in enumerate(removed):
            if gone_rows:
                sections[index].rows = [
                    row for position, row in enumerate(sections[index].rows) if position not in gone_rows
                ]
        gone, arriving = _leaving_sections(entries("sectionDeletes"), entries("sectionMoves"), sections)

        # 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
        for insert in entries("sectionInserts"):
            if not isinstance(insert, Mapping) or "section" not in insert:
                raise MirrorMismatch(f"a section insert without section: {_text(insert)}")
            arriving.append((_int(insert.get("index")), _section(insert["section"])))
        arriving.sort(key=lambda pair: pair[0])
        remaining = [section for index, section in enumerate(sections) if index not in gone]
        self.sections = sections = _merge(arriving, remaining, "section index {}")

        # 4. Inserted and moved rows at their new index paths, ascending.
        for insert in entries("itemInserts"):
            section, start, rows = _run(insert)
            for offset, row in enumerate(rows):
                placements.setdefault(section, []).append((start + offset, row))
        for section, placed in placements.items():
            if not 0 <= section < len(sections):
                raise MirrorMismatch(f"the new section index {section} is out of range")
            placed.sort(key=lambda pair: pair[0])
            sections[section].rows = _merge(placed, sections[section].rows, f"index path [{section}, {{}}]")

        # 5. Selection: deselected ids leave, then selected ids join; kept in index-path order.
        selected = set(self.selection)
        for item in entries("deselected"):
            selected.discard(_string(item))
        for item in entries("selected"):
            selected.add(_string(item))
        for item in entries("expanded") + entries("collapsed"):
            _string(item)  # the rows already carry the state; check they are ids
        if "selectionMode" in changeset and not isinstance(changeset["selectionMode"], str):
            raise MirrorMismatch(f"selectionMode is not a string: {_text(changeset['selectionMode'])}")
        order = [row["id"] for section_ in sections for row in section_.rows if row.get("id") in selected]
        if len(order) != len(selected):
            hidden = sorted(selected - set(order))
            raise MirrorMismatch(f"selected items that are not rows: {hidden}")
        self.selection = order
        # 6. List attributes: each one present replaces the old value.
        for key in _ATTRIBUTES:
            self._set_attribute(key, changeset, copy.deepcopy(changeset.get(key)))

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
                    return f"row [{index}, {position}] {_text(x)} ≠ {_text(y)}"
        if mine["selection"] != theirs.get("selection"):
            return f"selection {mine['selection']} ≠ {theirs.get('selection')}"
        for key in _ATTRIBUTES:
            if mine.get(key) != theirs.get(key):
                return f"{key} {_text(mine.get(key))} ≠ {_text(theirs.get(key))}"
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


def _merge(placed: list[tuple[int, Any]], existing: list[Any], what: str) -> list[Any]:
    """``existing`` with each ``(index, value)`` of ``placed`` (ascending) put at its index."""
    merged: list[Any] = []
    queue = iter(existing)
    left = len(existing)
    next_placed = 0
    while next_placed < len(placed) or left:
        if next_placed < len(placed) and placed[next_placed][0] == len(merged):
            merged.append(placed[next_placed][1])
            next_placed += 1
        elif left:
            merged.append(next(queue))
            left -= 1
        else:
            raise MirrorMismatch(f"the new {what.format(placed[next_placed][0])} is out of range or repeated")
    return merged



def _leaving_sections(deletes: list[Any], moves: list[Any], sections: list[Any]) -> tuple[set[int], list[tuple[int, Any]]]:
    """Step 2 for sections: the old indexes that leave (deleted or moved) and the moved sections
    with their new indexes. Raises ``MirrorMismatch`` for a range or a move that does not fit."""
    old_count = len(sections)
    gone: set[int] = set()
    for delete in deletes:
        start, count = _ints(delete, 2)
        if not (start >= 0 and count > 0 and start + count <= old_count):
            raise MirrorMismatch(f"the section delete {_text(delete)} is out of range")
        for index in range(start, start + count):
            if index in gone:
                raise MirrorMismatch(f"section {index} is removed twice")
            gone.add(index)
    arriving: list[tuple[int, Any]] = []
    for move in moves:
        source, target = _ints(move, 2)
        if not 0 <= source < old_count or source in gone:
            raise MirrorMismatch(f"the section move {_text(move)} is out of range or removes a section twice")
        gone.add(source)
        arriving.append((target, sections[source]))
    return gone, arriving

def _text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))[:500]
    except (TypeError, ValueError):
        return repr(value)[:500]


def _section(value: Any) -> MirrorSection:
    if (
        not isinstance(value, Mapping)
        or not isinstance(value.get("id"), str)
        or not isinstance(value.get("rows"), list)
    ):
        raise MirrorMismatch(f"a section without id or rows: {_text(value)}")
    for row in value["rows"]:
        if not isinstance(row, Mapping) or not isinstance(row.get("id"), str):
            raise MirrorMismatch(f"a row without id: {_text(row)}")
    return MirrorSection(
        value["id"],
        _optional_string(value.get("header")),
        _optional_string(value.get("footer")),
        list(value["rows"]),
        _optional_string(value.get("kind")),
        _optional_string(value.get("headerMode")),
    )


def _run(value: Any) -> tuple[int, int, list[dict[str, Any]]]:
    """``{"at": [section, start], "rows": [row…]}``."""
    if not isinstance(value, Mapping) or not isinstance(value.get("rows"), list) or not value["rows"]:
        raise MirrorMismatch(f"a row run without at or rows: {_text(value)}")
    section, start = _ints(value.get("at"), 2)
    for row in value["rows"]:
        if not isinstance(row, Mapping) or not isinstance(row.get("id"), str):
            raise MirrorMismatch(f"a row without id: {_text(row)}")
    return section, start, value["rows"]


def _ints(value: Any, count: int) -> list[int]:
    if not isinstance(value, list) or len(value) != count:
        raise MirrorMismatch(f"expected an array of {count} integers, got {_text(value)}")
    return [_int(number) for number in value]


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MirrorMismatch(f"expected an integer, got {_text(value)}")
    return value


def _string(value: Any) -> str:
    if not isinstance(value, str):
        raise MirrorMismatch(f"expected a string, got {_text(value)}")
    return value


def _optional_string(value: Any) -> str | None:
    return None if value is None else _string(value)
