"""Columns, cells, kinds, empty states and editing mode through the Python client: create, edit, and a Mirror that follows them."""

from __future__ import annotations

import pytest

import listd

COLUMNS = [{"id": "name", "title": "Name"}, {"id": "size", "title": "Size", "alignment": "trailing", "sortable": True}]


def test_a_mirror_follows_columns_empty_state_and_editing(listd_daemon: listd.Daemon) -> None:
    owner = listd_daemon.connect("owner")
    viewer = listd_daemon.connect("viewer")
    created = owner.list_create(
        "t",
        columns=COLUMNS,
        empty_state={"title": "No Files", "image": "folder"},
        content={
            "sections": [
                {"id": "s", "kind": "files", "headerMode": "none", "items": [
                    {"id": "a", "kind": "file", "cells": {"name": "a", "size": 1}},
                ]}
            ]
        },
    )
    assert created["changeset"]["columns"] == COLUMNS
    mirror = listd.Mirror.from_subscribe(viewer.list_subscribe("t"))
    assert mirror.columns == COLUMNS
    assert mirror.empty_state == {"title": "No Files", "image": "folder"}
    assert mirror.sections[0].kind == "files" and mirror.sections[0].header_mode == "none"
    owner.list_edit(
        "t",
        [
            {"op": "patchItems", "items": [{"id": "a", "kind": "folder", "cells": {"size": None}}]},
            {"op": "setColumns", "columns": COLUMNS[:1]},
            {"op": "setEmptyState", "emptyState": {"kind": "search", "query": "zebra"}},
            {"op": "setEditing", "editing": True},
            {"op": "updateSection", "section": "s", "kind": None, "headerMode": "firstItemInSection"},
        ],
    )
    mirror.apply(viewer.next_notification("list/didChange"))
    assert mirror.columns == COLUMNS[:1]
    assert mirror.empty_state is not None and mirror.empty_state["query"] == "zebra"
    assert mirror.is_editing
    assert mirror.rows[0]["kind"] == "folder"
    fresh = listd.Mirror.from_subscribe(listd_daemon.connect("checker").list_subscribe("t"))
    assert mirror.first_difference(fresh) is None
    owner.list_edit("t", [{"op": "setEmptyState", "emptyState": None}, {"op": "setEditing", "editing": False}])
    mirror.apply(viewer.next_notification("list/didChange"))
    assert mirror.empty_state is None and not mirror.is_editing
    assert "emptyState" not in mirror.snapshot and "editing" not in mirror.snapshot


def test_a_cell_for_an_unknown_column_names_it(listd_daemon: listd.Daemon) -> None:
    owner = listd_daemon.connect("owner")
    with pytest.raises(listd.InvalidParams) as raised:
        owner.list_create("t", content={"sections": [{"id": "s", "items": [{"id": "a", "cells": {"size": 1}}]}]})
    assert raised.value.data["field"] == "cells.size"
