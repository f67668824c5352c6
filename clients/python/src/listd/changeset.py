"""The one changeset decoder: applies a wire changeset (full, lean or windowed) to sections held as row counts and the rows known by index."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any, Mapping

from .errors import MirrorMismatch
from .messages import Notification

__all__ = [
    "HeldSection",
    "UNBOUNDED",
    "apply_changeset",
    "did_change_parts",
    "held_section",
    "inserted_section",
    "keep_window",
    "subscribe_entry",
]

# `list` is the name of the list id parameter below, as in the protocol; arrays are `_Array`.
_Array = list

#: The members of a changeset (Protocol/README.md §4); a windowed subscriber's also carry ``enter``.
MEMBERS = (
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

#: A window that holds every row: a full mirror is a windowed one with this limit.
UNBOUNDED = sys.maxsize


@dataclasses.dataclass
class HeldSection:
    """One section as a mirror holds it: id, header, footer, row count, the rows known by index,
    kind and header mode (``None`` for the default ``supplementary``). A full mirror knows every
    row; a windowed one those of its window."""

    id: str
    header: str | None = None
    footer: str | None = None
    count: int = 0
    known: dict[int, dict[str, Any]] = dataclasses.field(default_factory=dict)
    kind: str | None = None
    header_mode: str | None = None


def apply_changeset(
    sections: list[HeldSection], selection: set[str], changeset: Any, *, windowed: bool
) -> list[HeldSection]:
    """Applies a wire changeset in the five steps of Protocol/README.md §4 and returns the new
    sections; ``sections`` (whose objects it changes) and ``selection`` are the caller's copies.

    ``windowed``: the changeset is a windowed subscriber's, whose runs may carry a ``count`` for
    rows outside the window, whose inserted sections may be counted (``rowCount``, ``rowsAt``) and
    which may carry ``enter``. Without it every run and inserted section carries its rows.
    Raises ``MirrorMismatch`` for a changeset that does not fit."""
    if not isinstance(changeset, Mapping):
        raise MirrorMismatch(f"the changeset is not an object: {text(changeset)}")
    for key in changeset:
        if key not in MEMBERS and not (windowed and key == "enter"):
            raise MirrorMismatch(f"unknown changeset member {key!r}")

    def entries(key: str) -> list[Any]:
        value = changeset.get(key)
        if value is None:
            return []
        if not isinstance(value, list) or not value:
            raise MirrorMismatch(f"{key!r} must be a non-empty array when present, got {text(value)}")
        return value

    def run(value: Any) -> tuple[int, int, int, list[dict[str, Any]] | None]:
        return _run(value, windowed)

    old_count = len(sections)

    # 1. Section reloads; reloads and reconfigures write their carried rows at old index paths.
    for reload in entries("sectionReloads"):
        index = to_int(reload.get("index") if isinstance(reload, Mapping) else None)
        if not 0 <= index < old_count or sections[index].id != reload.get("id"):
            raise MirrorMismatch(f"the section reload {text(reload)} does not match the section at {index}")
        held = sections[index]
        held.header, held.footer = optional_string(reload.get("header")), optional_string(reload.get("footer"))
        held.kind, held.header_mode = optional_string(reload.get("kind")), optional_string(reload.get("headerMode"))
    for update in entries("itemReloads") + entries("itemReconfigures"):
        section, start, count, rows = run(update)
        if not (0 <= section < old_count and 0 <= start and start + count <= sections[section].count):
            raise MirrorMismatch(f"the row update {text(update)} is out of range")
        known = sections[section].known
        for offset, row in enumerate(rows or []):
            old = known.get(start + offset)
            if old is not None and old.get("id") != row.get("id"):
                raise MirrorMismatch(f"the row update at [{section}, {start + offset}] does not match {text(row)}")
            known[start + offset] = row

    # 2. Removals in old coordinates (moved rows kept aside with what is known of them), then sections.
    removed: list[list[tuple[int, int]]] = [[] for _ in range(old_count)]

    def remove(section: int, start: int, count: int, entry: Any, what: str) -> None:
        if count <= 0:
            raise MirrorMismatch(f"an empty {what} {text(entry)}")
        if not 0 <= section < old_count or start < 0 or start + count > sections[section].count:
            first = start if not 0 <= section < old_count or start < 0 else max(start, sections[section].count)
            raise MirrorMismatch(f"the old index path [{section}, {first}] is out of range")
        removed[section].append((start, start + count))

    for delete in entries("itemDeletes"):
        section, start, count = to_ints(delete, 3)
        remove(section, start, count, delete, "item delete")
    placements: dict[int, list[tuple[int, int, dict[int, dict[str, Any]]]]] = {}
    for move in entries("itemMoves"):
        from_section, from_row, to_section, to_row, count = to_ints(move, 5)
        remove(from_section, from_row, count, move, "item move")
        carried = _known_in(sections[from_section].known, from_row, count)
        placements.setdefault(to_section, []).append((to_row, count, carried))
    for index, ranges in enumerate(removed):
        if ranges:
            _remove_rows(sections[index], index, ranges)
    gone, arriving = _leaving_sections(entries("sectionDeletes"), entries("sectionMoves"), sections)

    # 3. Inserted and moved sections at their new indexes, ascending; the rest keep their order.
    for insert in entries("sectionInserts"):
        if not isinstance(insert, Mapping) or "section" not in insert:
            raise MirrorMismatch(f"a section insert without section: {text(insert)}")
        arriving.append((to_int(insert.get("index")), inserted_section(insert["section"], windowed)))
    arriving.sort(key=lambda pair: pair[0])
    remaining = [section for index, section in enumerate(sections) if index not in gone]
    sections = merge(arriving, remaining, "section index {}")

    # 4. Inserted and moved rows at their new index paths, ascending.
    for insert in entries("itemInserts"):
        section, start, count, rows = run(insert)
        placements.setdefault(section, []).append((start, count, dict(enumerate(rows or []))))
    for section, placed in placements.items():
        if not 0 <= section < len(sections):
            raise MirrorMismatch(f"the new section index {section} is out of range")
        _place_rows(sections[section], section, placed)

    # 5. Selection: deselected ids leave, then selected ids join.
    for item in entries("deselected"):
        selection.discard(to_string(item))
    for item in entries("selected"):
        selection.add(to_string(item))
    for item in entries("expanded") + entries("collapsed"):
        to_string(item)  # the rows already carry the state; check they are ids
    if "selectionMode" in changeset and not isinstance(changeset["selectionMode"], str):
        raise MirrorMismatch(f"selectionMode is not a string: {text(changeset['selectionMode'])}")

    # Rows entering a window, in new coordinates.
    for enter in entries("enter"):
        section, start, count, rows = run(enter)
        fits = 0 <= section < len(sections) and 0 <= start and start + count <= sections[section].count
        if rows is None or not fits:
            raise MirrorMismatch(f"the enter {text(enter)} is out of range or carries no rows")
        for offset, row in enumerate(rows):
            sections[section].known[start + offset] = row
    return sections


def keep_window(sections: list[HeldSection], offset: int, limit: int, version: int) -> None:
    """Drops the rows outside the window ``[offset, offset + limit)`` of the flattened rows and
    checks every row inside it is known (for a full mirror, ``UNBOUNDED``: every row)."""
    first = 0
    for index, section in enumerate(sections):
        lower, upper = max(offset - first, 0), min(offset + limit - first, section.count)
        if lower > 0 or upper < section.count:
            section.known = {row: value for row, value in section.known.items() if lower <= row < upper}
        if len(section.known) != max(upper - lower, 0):
            row = next(row for row in range(lower, upper) if row not in section.known)
            raise MirrorMismatch(f"the window row [{index}, {row}] of version {version} is unknown")
        first += section.count


def _known_in(known: dict[int, dict[str, Any]], start: int, count: int) -> dict[int, dict[str, Any]]:
    """The known rows of ``[start, start + count)`` by their offset from ``start``."""
    if count <= len(known):
        return {offset: known[start + offset] for offset in range(count) if start + offset in known}
    return {index - start: row for index, row in known.items() if start <= index < start + count}


def _remove_rows(section: HeldSection, index: int, ranges: list[tuple[int, int]]) -> None:
    """Removes the old rows of ``ranges`` (``[start, end)``, in any order) from ``section``."""
    ranges.sort()
    for (_, end), (start, _) in zip(ranges, ranges[1:]):
        if end > start:
            raise MirrorMismatch(f"the old index path [{index}, {start}] is removed twice")
    kept: dict[int, dict[str, Any]] = {}
    next_range, removed_before = 0, 0
    for row in sorted(section.known):
        while next_range < len(ranges) and ranges[next_range][1] <= row:
            removed_before += ranges[next_range][1] - ranges[next_range][0]
            next_range += 1
        if next_range < len(ranges) and ranges[next_range][0] <= row:
            continue  # removed
        kept[row - removed_before] = section.known[row]
    section.known = kept
    section.count -= sum(end - start for start, end in ranges)


def _place_rows(section: HeldSection, index: int, placed: list[tuple[int, int, dict[int, dict[str, Any]]]]) -> None:
    """Places runs ``(start, count, rows known by offset)`` at their new indexes, ascending; the
    rows already there keep their order around them."""
    placed.sort(key=lambda run: run[0])
    total = section.count + sum(count for _, count, _ in placed)
    end = 0
    for start, count, _ in placed:
        if start < end or start + count > total:
            raise MirrorMismatch(f"the new index path [{index}, {start}] is out of range or repeated")
        end = start + count
    known: dict[int, dict[str, Any]] = {}
    next_run, shift = 0, 0
    for row in sorted(section.known):
        while next_run < len(placed) and placed[next_run][0] <= row + shift:
            shift += placed[next_run][1]
            next_run += 1
        known[row + shift] = section.known[row]
    for start, _, carried in placed:
        for offset, value in carried.items():
            known[start + offset] = value
    section.known = known
    section.count = total


def merge(placed: list[tuple[int, Any]], existing: list[Any], what: str) -> list[Any]:
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


def _leaving_sections(
    deletes: list[Any], moves: list[Any], sections: list[Any]
) -> tuple[set[int], list[tuple[int, Any]]]:
    """Step 2 for sections: the old indexes that leave (deleted or moved) and the moved sections
    with their new indexes. Raises ``MirrorMismatch`` for a range or a move that does not fit."""
    old_count = len(sections)
    gone: set[int] = set()
    for delete in deletes:
        start, count = to_ints(delete, 2)
        if not (start >= 0 and count > 0 and start + count <= old_count):
            raise MirrorMismatch(f"the section delete {text(delete)} is out of range")
        for index in range(start, start + count):
            if index in gone:
                raise MirrorMismatch(f"section {index} is removed twice")
            gone.add(index)
    arriving: list[tuple[int, Any]] = []
    for move in moves:
        source, target = to_ints(move, 2)
        if not 0 <= source < old_count or source in gone:
            raise MirrorMismatch(f"the section move {text(move)} is out of range or removes a section twice")
        gone.add(source)
        arriving.append((target, sections[source]))
    return gone, arriving


def inserted_section(value: Any, windowed: bool) -> HeldSection:
    """A section as a snapshot or an insert carries it: full (``rows``), or for a windowed
    subscriber counted (``rowCount``, with ``rows`` from ``rowsAt``)."""
    if not isinstance(value, Mapping) or not isinstance(value.get("id"), str):
        raise MirrorMismatch(f"a section without id or rows: {text(value)}")
    rows = value.get("rows")
    if windowed and rows is None:
        rows = []
    if not isinstance(rows, list):
        raise MirrorMismatch(f"a section without id or rows: {text(value)}")
    check_rows(rows)
    count = to_int(value["rowCount"]) if windowed and "rowCount" in value else len(rows)
    at = to_int(value["rowsAt"]) if windowed and "rowsAt" in value else 0
    if at < 0 or at + len(rows) > count:
        raise MirrorMismatch(f"the section's rows are out of range: {text(value)}")
    return held_section(value, count, {at + offset: row for offset, row in enumerate(rows)})


def held_section(value: Mapping[str, Any], count: int, known: dict[int, dict[str, Any]]) -> HeldSection:
    """A wire section's id, header, footer, kind and header mode, checked, with ``count`` rows of
    which ``known``."""
    return HeldSection(
        to_string(value.get("id")),
        optional_string(value.get("header")),
        optional_string(value.get("footer")),
        count,
        known,
        kind=optional_string(value.get("kind")),
        header_mode=optional_string(value.get("headerMode")),
    )


def _run(value: Any, windowed: bool) -> tuple[int, int, int, list[dict[str, Any]] | None]:
    """``{"at": [section, start], "rows": [row…]}``, or a windowed subscriber's
    ``{"at": [section, start], "count": n}`` for rows outside its window (rows ``None``)."""
    rows = value.get("rows") if isinstance(value, Mapping) else None
    if not windowed and (not isinstance(rows, list) or not rows):
        raise MirrorMismatch(f"a row run without at or rows: {text(value)}")
    if not isinstance(value, Mapping):
        raise MirrorMismatch(f"a row run that is not an object: {text(value)}")
    section, start = to_ints(value.get("at"), 2)
    if isinstance(rows, list) and rows and "count" not in value:
        return section, start, len(rows), check_rows(rows)
    if rows is not None:
        raise MirrorMismatch(f"a row run with both rows and count, or empty rows: {text(value)}")
    count = to_int(value.get("count"))
    if count <= 0:
        raise MirrorMismatch(f"an empty row run: {text(value)}")
    return section, start, count, None


def did_change_parts(
    did_change: Mapping[str, Any] | Notification, list: str, version: int, what: str
) -> tuple[int, Any]:
    """The new version and the changeset of a ``list/didChange`` (its params, or the
    ``Notification``) for a ``what`` of ``list`` at ``version``. Raises ``MirrorMismatch`` if it is
    of another list or does not start at ``version``. (Its ``version`` is later than
    ``previousVersion + 1`` for a change composed for a subscriber that fell behind.)"""
    params = did_change.params if isinstance(did_change, Notification) else did_change
    if isinstance(did_change, Notification) and did_change.method != "list/didChange":
        raise MirrorMismatch(f"{did_change.method} is not list/didChange")
    if not isinstance(params, Mapping) or params.get("list") != list:
        raise MirrorMismatch(f"a didChange of list {text(params and params.get('list'))}, {what} of {list!r}")
    previous, new, changeset = params.get("previousVersion"), params.get("version"), params.get("changeset")
    if not isinstance(previous, int) or not isinstance(new, int) or changeset is None:
        raise MirrorMismatch(f"a didChange without versions or changeset: {text(params)}")
    if previous != version:
        raise MirrorMismatch(f"a didChange from version {previous} applied to a {what} at version {version}")
    if new <= previous:
        raise MirrorMismatch(f"a didChange from version {previous} to {new}")
    return new, changeset


def subscribe_entry(answer: Mapping[str, Any], list: str | None) -> Mapping[str, Any]:
    """A ``list_subscribe`` answer's entry for ``list`` (or its only entry), or ``answer`` itself
    when it is an entry."""
    entries = answer.get("lists")
    if not isinstance(entries, _Array):
        return answer
    chosen = [entry for entry in entries if list is None or entry.get("list") == list]
    if len(chosen) != 1:
        raise MirrorMismatch(
            f"the subscribe answer has {len(chosen)} entries{'' if list is None else f' for {list!r}'}; name the list"
        )
    return chosen[0]


def check_rows(rows: list[Any]) -> list[dict[str, Any]]:
    """``rows``, once each is checked to be an object with a string id."""
    for row in rows:
        if not isinstance(row, Mapping) or not isinstance(row.get("id"), str):
            raise MirrorMismatch(f"a row without id: {text(row)}")
    return rows


def text(value: Any) -> str:
    """``value`` as compact JSON for a message (at most 500 characters)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))[:500]
    except (TypeError, ValueError):
        return repr(value)[:500]


def to_ints(value: Any, count: int) -> list[int]:
    if not isinstance(value, list) or len(value) != count:
        raise MirrorMismatch(f"expected an array of {count} integers, got {text(value)}")
    return [to_int(number) for number in value]


def to_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MirrorMismatch(f"expected an integer, got {text(value)}")
    return value


def to_string(value: Any) -> str:
    if not isinstance(value, str):
        raise MirrorMismatch(f"expected a string, got {text(value)}")
    return value


def optional_string(value: Any) -> str | None:
    return None if value is None else to_string(value)
