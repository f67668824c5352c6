"""Test helpers: assert_changeset, which checks a changeset entry by entry with readable failures."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence, Union

from .messages import Notification

__all__ = ["assert_changeset", "changeset_of", "summarize"]

IndexPath = Sequence[int]
#: What a row member may be expected as: a count, ids, index paths, or ``{index path: id}``.
RowExpectation = Union[int, Sequence[Union[str, IndexPath]], Mapping[Any, str]]

_ANY: Any = object()

# Keyword → changeset member, and how its entries read.
_ROW_MEMBERS = {"inserts": "itemInserts", "reloads": "itemReloads", "reconfigures": "itemReconfigures"}
_ID_MEMBERS = {"selected": "selected", "deselected": "deselected", "expanded": "expanded", "collapsed": "collapsed"}
_ALL_MEMBERS = {
    "inserts": "itemInserts",
    "deletes": "itemDeletes",
    "moves": "itemMoves",
    "reloads": "itemReloads",
    "reconfigures": "itemReconfigures",
    "section_inserts": "sectionInserts",
    "section_deletes": "sectionDeletes",
    "section_moves": "sectionMoves",
    "section_reloads": "sectionReloads",
    "selected": "selected",
    "deselected": "deselected",
    "expanded": "expanded",
    "collapsed": "collapsed",
    "selection_mode": "selectionMode",
}


def changeset_of(answer: Any) -> dict[str, Any]:
    """The changeset in ``answer``: a mutation's answer or ``list/didChange`` params (``{…,
    "changeset"}``), a ``Notification``, or a changeset itself."""
    __tracebackhide__ = True  # a wrong argument is the caller's: pytest shows their line
    if isinstance(answer, Notification):
        answer = answer.params
    if not isinstance(answer, Mapping):
        raise TypeError(f"not an answer, notification or changeset: {answer!r}")
    changeset = answer.get("changeset", answer)
    if not isinstance(changeset, Mapping):
        raise TypeError(f"the changeset is not an object: {changeset!r}")
    return dict(changeset)


def summarize(changeset: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The changeset one entry per row or section, keyed like ``assert_changeset``'s arguments:

    - ``inserts`` / ``reloads`` / ``reconfigures``: ``[((section, row), id)]`` (inserts in new
      coordinates, the others in old ones);
    - ``deletes``: ``[(section, row)]`` in old coordinates;
    - ``moves``: ``[((from_section, from_row), (to_section, to_row))]``;
    - ``section_inserts`` / ``section_reloads``: ``[(index, id)]``; ``section_deletes``:
      ``[index]``; ``section_moves``: ``[(from, to)]``;
    - ``selected``, ``deselected``, ``expanded``, ``collapsed``: ids; ``selection_mode``: ``[mode]``.
    """
    summary: dict[str, list[Any]] = {key: [] for key in _ALL_MEMBERS}
    for key, member in _ROW_MEMBERS.items():
        for run in changeset.get(member, []):
            section, start = run["at"]
            for offset, row in enumerate(run["rows"]):
                summary[key].append(((section, start + offset), row.get("id")))
    for section, start, count in changeset.get("itemDeletes", []):
        summary["deletes"] += [(section, start + offset) for offset in range(count)]
    for from_section, from_row, to_section, to_row, count in changeset.get("itemMoves", []):
        summary["moves"] += [((from_section, from_row + k), (to_section, to_row + k)) for k in range(count)]
    for insert in changeset.get("sectionInserts", []):
        summary["section_inserts"].append((insert["index"], insert["section"].get("id")))
    for start, count in changeset.get("sectionDeletes", []):
        summary["section_deletes"] += list(range(start, start + count))
    for source, target in changeset.get("sectionMoves", []):
        summary["section_moves"].append((source, target))
    for reload in changeset.get("sectionReloads", []):
        summary["section_reloads"].append((reload["index"], reload.get("id")))
    for key, member in _ID_MEMBERS.items():
        summary[key] = list(changeset.get(member, []))
    if "selectionMode" in changeset:
        summary["selection_mode"] = [changeset["selectionMode"]]
    for key in ("inserts", "reloads", "reconfigures", "deletes", "moves"):
        summary[key].sort(key=lambda entry: entry[0] if key != "deletes" else entry)
    return summary


def assert_changeset(
    answer: Any,
    *,
    inserts: RowExpectation = _ANY,
    deletes: int | Sequence[IndexPath] = _ANY,
    moves: int | Sequence[Any] = _ANY,
    reloads: RowExpectation = _ANY,
    reconfigures: RowExpectation = _ANY,
    section_inserts: int | Sequence[Union[str, int]] = _ANY,
    section_deletes: int | Sequence[int] = _ANY,
    section_moves: int | Sequence[Sequence[int]] = _ANY,
    section_reloads: int | Sequence[Union[str, int]] = _ANY,
    selected: int | Sequence[str] = _ANY,
    deselected: int | Sequence[str] = _ANY,
    expanded: int | Sequence[str] = _ANY,
    collapsed: int | Sequence[str] = _ANY,
    selection_mode: str | None = _ANY,
    version: int = _ANY,
    partial: bool = False,
) -> dict[str, Any]:
    """Asserts what a changeset does, row by row, and returns it.

    ``answer`` is a mutation's answer, ``list/didChange`` params, a ``Notification`` or a bare
    changeset. Each keyword describes one member (see ``summarize``); every member not named must
    be empty, unless ``partial=True``, which checks only those named. ``version`` checks the
    answer's version.

    - rows (``inserts``, ``reloads``, ``reconfigures``): a count, the ids in index-path order
      (``["b", "c"]``), the index paths (``[(0, 1), (0, 2)]``), or ``{(0, 1): "b"}``;
    - ``deletes``: a count or the old index paths, ``[(0, 2)]``;
    - ``moves``: a count, ``[((0, 0), (1, 2))]`` pairs of old and new index paths, or the wire's
      ``[from_section, from_row, to_section, to_row, count]`` entries;
    - ``section_inserts`` / ``section_reloads``: a count, ids or indexes; ``section_deletes``:
      a count or old indexes; ``section_moves``: a count or ``[(from, to)]``;
    - ``selected``, ``deselected``, ``expanded``, ``collapsed``: a count or the ids, in any order;
      ``selection_mode``: the new mode (``None``: unchanged).

    Raises ``AssertionError`` listing every member that differs, with the changeset.
    """
    # pytest shows the caller's line and the message, not this function's source.
    __tracebackhide__ = True
    changeset = changeset_of(answer)
    summary = summarize(changeset)
    expected: dict[str, Any] = {
        "inserts": inserts,
        "deletes": deletes,
        "moves": moves,
        "reloads": reloads,
        "reconfigures": reconfigures,
        "section_inserts": section_inserts,
        "section_deletes": section_deletes,
        "section_moves": section_moves,
        "section_reloads": section_reloads,
        "selected": selected,
        "deselected": deselected,
        "expanded": expanded,
        "collapsed": collapsed,
    }
    problems: list[str] = []
    for key, expectation in expected.items():
        actual = summary[key]
        if expectation is _ANY:
            if not partial and actual:
                problems.append(f"{key}: expected none, got {_show(key, actual)}")
            continue
        problem = _compare(key, expectation, actual)
        if problem:
            problems.append(f"{key}: {problem}")
    mode = changeset.get("selectionMode")
    if selection_mode is not _ANY and selection_mode != mode:
        problems.append(f"selection_mode: expected {selection_mode!r}, got {mode!r}")
    elif selection_mode is _ANY and not partial and mode is not None:
        problems.append(f"selection_mode: expected none, got {mode!r}")
    if version is not _ANY:
        got = answer.params.get("version") if isinstance(answer, Notification) else answer.get("version")
        if got != version:
            problems.append(f"version: expected {version}, got {got}")
    if problems:
        where = ""
        source = answer.params if isinstance(answer, Notification) else answer
        if isinstance(source, Mapping) and "changeset" in source:
            where = f" of list {source.get('list')!r} v{source.get('version')}"
        raise AssertionError(
            f"the changeset{where} does not match:\n  "
            + "\n  ".join(problems)
            + "\nchangeset: "
            + json.dumps(changeset, ensure_ascii=False, separators=(",", ":"))
        )
    return changeset


def _compare(key: str, expectation: Any, actual: list[Any]) -> str | None:
    __tracebackhide__ = True
    if (
        isinstance(expectation, bool)
        or not isinstance(expectation, (int, Sequence, Mapping))
        or isinstance(expectation, str)
    ):
        raise TypeError(f"{key}: expected a count, a list or a mapping, got {expectation!r}")
    if isinstance(expectation, int):
        return (
            None if len(actual) == expectation else f"expected {expectation}, got {len(actual)}: {_show(key, actual)}"
        )
    if key in ("inserts", "reloads", "reconfigures"):
        return _compare_rows(key, expectation, actual)
    if key == "deletes":
        wanted = sorted(_path(key, path) for path in expectation)
        return None if wanted == actual else f"expected {_paths(wanted)}, got {_paths(actual)}"
    if key == "moves":
        wanted_moves: list[Any] = []
        for move in expectation:
            if isinstance(move, Sequence) and len(move) == 5:
                fs, fr, ts, tr, count = move
                wanted_moves += [((fs, fr + k), (ts, tr + k)) for k in range(count)]
            elif isinstance(move, Sequence) and len(move) == 2:
                wanted_moves.append((_path(key, move[0]), _path(key, move[1])))
            else:
                raise TypeError(f"moves: expected ((from_section, from_row), (to_section, to_row)), got {move!r}")
        wanted_moves.sort(key=lambda pair: pair[0])
        return None if wanted_moves == actual else f"expected {_show(key, wanted_moves)}, got {_show(key, actual)}"
    if key in ("section_inserts", "section_reloads"):
        items = list(expectation)
        if all(isinstance(item, str) for item in items):
            got = [section for _, section in actual]
        elif all(isinstance(item, int) and not isinstance(item, bool) for item in items):
            got = [index for index, _ in actual]
        else:
            raise TypeError(f"{key}: expected section ids or indexes, got {expectation!r}")
        return None if items == got else f"expected {items}, got {got}"
    if key == "section_deletes":
        wanted = sorted(expectation)
        return None if wanted == actual else f"expected {wanted}, got {actual}"
    if key == "section_moves":
        wanted = [tuple(move) for move in expectation]
        return None if sorted(wanted) == sorted(actual) else f"expected {wanted}, got {actual}"
    # id lists: in any order
    wanted_ids = list(expectation)
    if sorted(wanted_ids) == sorted(actual):
        return None
    missing = [item for item in wanted_ids if item not in actual]
    extra = [item for item in actual if item not in wanted_ids]
    return (
        f"expected {wanted_ids}, got {actual}"
        + (f" (missing {missing})" if missing else "")
        + (f" (unexpected {extra})" if extra else "")
    )


def _compare_rows(key: str, expectation: Any, actual: list[tuple[tuple[int, int], str]]) -> str | None:
    __tracebackhide__ = True
    if isinstance(expectation, Mapping):
        wanted = sorted((_path(key, path), item) for path, item in expectation.items())
        return None if wanted == actual else f"expected {_show(key, wanted)}, got {_show(key, actual)}"
    items = list(expectation)
    if all(isinstance(item, str) for item in items):
        got = [item for _, item in actual]
        return None if items == got else f"expected {items}, got {got} (at {_paths([path for path, _ in actual])})"
    paths = sorted(_path(key, item) for item in items)
    got_paths = [path for path, _ in actual]
    return None if paths == got_paths else f"expected {_paths(paths)}, got {_show(key, actual)}"


def _path(key: str, value: Any) -> tuple[int, int]:
    __tracebackhide__ = True
    if (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and len(value) == 2
        and all(isinstance(n, int) for n in value)
    ):
        return (value[0], value[1])
    raise TypeError(f"{key}: expected an index path (section, row), got {value!r}")


def _paths(paths: list[tuple[int, int]]) -> str:
    return "[" + ", ".join(f"[{s}, {r}]" for s, r in paths) + "]"


def _show(key: str, entries: list[Any]) -> str:
    if key in ("inserts", "reloads", "reconfigures"):
        return "[" + ", ".join(f"{item!r} at [{s}, {r}]" for (s, r), item in entries) + "]"
    if key == "deletes":
        return _paths(entries)
    if key == "moves":
        return "[" + ", ".join(f"[{a}, {b}] → [{c}, {d}]" for (a, b), (c, d) in entries) + "]"
    return repr(entries)
