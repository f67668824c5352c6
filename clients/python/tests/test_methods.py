"""Every method of the protocol, through both clients, against the real daemon, with every param it takes."""

from __future__ import annotations

import os
import threading
from typing import Any, Callable

import pytest
from support import protocol

import listd
from listd.testing import assert_changeset

CONTENT: dict[str, Any] = {
    "sections": [
        {
            "id": "today",
            "header": "Today",
            "items": [
                {
                    "id": "spec",
                    "text": "Write the spec",
                    "accessories": [{"type": "toggle", "isOn": False}],
                    "trailingSwipeActions": [{"id": "delete", "title": "Delete", "style": "destructive"}],
                    "movable": True,
                },
                {"id": "code", "text": "Write the code", "movable": True},
            ],
        },
        {"id": "files", "items": [{"id": "src", "text": "src", "children": [{"id": "main", "text": "main.swift"}]}]},
    ]
}

Exercise = Callable[[Callable[..., Any], listd.Daemon], None]
EXERCISES: dict[str, Exercise] = {}


def exercise(method: str) -> Callable[[Exercise], Exercise]:
    def register(function: Exercise) -> Exercise:
        EXERCISES[method] = function
        return function

    return register


def todo(client: Any, mode: str = "multiple") -> None:
    client.list_create("todo", selection_mode=mode, content=CONTENT)


# -- Lifecycle


@exercise("initialize")
def _initialize(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect(initialize=False)
    with pytest.raises(listd.ServerNotInitialized):
        client.list_all()
    answer = client.initialize(
        client_info={"name": "py", "version": "1"},
        capabilities={},
        process_id=os.getpid(),
        trace="off",
        work_done_token="t",
    )
    assert answer["protocolVersion"] == listd.PROTOCOL_VERSION
    assert answer["serverInfo"]["name"] == "listd"
    assert client.server == answer and client.session == answer["session"]
    methods = {name for name, m in protocol()["methods"].items() if m["direction"] == "clientToServer"}
    assert set(answer["capabilities"]["methods"]) == methods
    client.list_create("mine")
    assert client.list_info("mine")["owner"] == {"session": answer["session"], "name": "py"}


@exercise("initialized")
def _initialized(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect(initialize=False)
    client.call("initialize", {})
    client.initialized()  # the notification initialize() sends; the session then works
    assert client.list_all() == {"lists": [], "total": 0}


@exercise("shutdown")
def _shutdown(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    assert client.shutdown() is None
    with pytest.raises(listd.InvalidRequest):
        client.list_all()


@exercise("exit")
def _exit(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect(spawn=[])
    client.list_create("x")
    client.shutdown()
    client.exit()
    process = client.process
    assert process is not None
    status = process.wait(10) if hasattr(process, "poll") else client.run(process.wait())
    assert status == 0
    with pytest.raises(listd.ConnectionClosed):
        client.list_all()


@exercise("$/cancelRequest")
def _cancel(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    owner = daemon.connect("owner")  # never answers the refresh until released
    release = threading.Event()
    owner.on_refresh(lambda _: release.wait(30))
    owner.list_create("slow")
    client = connect()
    if isinstance(client, listd.Client):
        pending = client.send_request("event/refresh", {"list": "slow"})
        client.cancel_request(pending.id)
        with pytest.raises(listd.RequestCancelled):
            pending.result()
    else:
        # Cancelling the awaiting task sends $/cancelRequest for it.
        import asyncio

        async def cancel_a_refresh() -> Any:
            task = asyncio.ensure_future(client.client.event_refresh("slow"))
            await asyncio.sleep(0)
            await asyncio.sleep(0.05)
            task.cancel()
            return await asyncio.gather(task, return_exceptions=True)

        (outcome,) = client.run(cancel_a_refresh())
        assert isinstance(outcome, asyncio.CancelledError)
        assert client.list_all()["lists"][0]["list"] == "slow"  # the session goes on
    release.set()
    owner.close()


@exercise("$/setTrace")
def _set_trace(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    client.set_trace("messages")
    client.list_all()
    trace = client.next_notification("$/logTrace")
    assert "list/all" in trace.params["message"]
    client.set_trace("off")


# -- Lists


@exercise("list/create")
def _create(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    answer = client.list_create(
        "todo", title="To do", appearance="insetGrouped", selection_mode="multiple", content=CONTENT, work_done_token=1
    )
    assert answer["version"] == 0
    assert_changeset(answer, section_inserts=["today", "files"])
    # The content is not echoed unless asked.
    assert all("rows" not in s["section"] and "rowCount" in s["section"] for s in answer["changeset"]["sectionInserts"])
    echoed = client.list_create("echo", content=CONTENT, rows="all")
    assert all("rows" in s["section"] for s in echoed["changeset"]["sectionInserts"])
    info = client.list_info("todo")
    assert (info["title"], info["appearance"], info["selectionMode"]) == ("To do", "insetGrouped", "multiple")
    with pytest.raises(listd.DuplicateId) as error:
        client.list_create("todo")
    assert error.value.data["id"] == "todo"


@exercise("list/dispose")
def _dispose(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    owner = daemon.connect("owner")
    lost: list[Any] = []
    handled = threading.Event()
    owner.on_owner_lost(lambda params: (lost.append(params), handled.set()))
    owner.list_create("theirs")
    client = connect()
    with pytest.raises(listd.NotOwner) as error:
        client.list_dispose("theirs")
    assert error.value.data["owner"]["name"] == "owner"
    assert client.list_dispose("theirs", force=True) == {"list": "theirs", "version": 0}
    disposed = owner.next_notification("list/didDispose")
    assert disposed.params == {"list": "theirs", "version": 0}
    assert owner.list_all() == {"lists": [], "total": 0}
    # Handlers run on the client's worker thread, answers complete on its reader: wait for it.
    assert handled.wait(10), "the owner/lost handler did not run"
    assert lost == [{"list": "theirs", "reason": "disposed", "by": {"session": client.session, "name": "subject"}}]
    owner.close()


@exercise("list/claim")
def _claim(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    owner = daemon.connect("owner")
    owner.list_create("orphan")
    client = connect()
    with pytest.raises(listd.NotOwner):
        client.list_claim("orphan")
    assert client.list_claim("orphan", force=True)["owner"] == {"session": client.session, "name": "subject"}
    assert owner.next_notification("owner/lost").params["reason"] == "claimed"
    owner.close()


@exercise("list/all")
def _all(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    (info,) = client.list_all()["lists"]
    assert (info["list"], info["sections"], info["items"], info["rows"]) == ("todo", 2, 4, 3)


@exercise("list/info")
def _info(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    info = client.list_info("todo")
    assert info["owner"] == {"session": client.session, "name": "subject"} and info["version"] == 0
    with pytest.raises(listd.UnknownList) as error:
        client.list_info("nope")
    assert error.value.data == {"list": "nope"} and "nope" in error.value.message


# -- Content


@exercise("list/replace")
def _replace(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    new = {"sections": [{"id": "today", "header": "Today", "items": [{"id": "code", "text": "Write the code"}]}]}
    answer = client.list_replace("todo", new, if_version=0, work_done_token="w", explain=True)
    assert answer["version"] == 1 and answer["explain"]["source"]["method"] == "list/replace"
    assert_changeset(answer, deletes=[(0, 0)], section_deletes=[1], reconfigures=["code"], version=1)
    with pytest.raises(listd.ContentModified) as error:
        client.list_replace("todo", CONTENT, if_version=0)
    assert error.value.data["currentVersion"] == 1


@exercise("list/edit")
def _edit(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.list_edit(
        "todo",
        [
            {"op": "appendItems", "section": "today", "items": [{"id": "test", "text": "Test"}]},
            {"op": "moveItem", "item": "code", "section": "files"},
        ],
        if_version=0,
        work_done_token=7,
        explain=True,
    )
    assert_changeset(answer, inserts=["test"], moves=[((0, 1), (1, 1))], version=1)
    assert [cause["edit"]["op"] for cause in answer["explain"]["causes"]] == ["appendItems", "moveItem"]
    with pytest.raises(listd.UnknownItem) as error:
        client.list_edit("todo", [{"op": "deleteItems", "items": ["test"]}, {"op": "deleteItems", "items": ["gone"]}])
    assert error.value.data == {"item": "gone", "editIndex": 1}
    assert client.list_info("todo")["version"] == 1  # a failed batch changes nothing


@exercise("outline/expand")
def _expand(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.outline_expand("todo", item="src", recursive=True, if_version=0)
    assert_changeset(answer, inserts=["main"], reconfigures=["src"], expanded=["src"])


@exercise("outline/collapse")
def _collapse(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.outline_expand("todo", item="src")
    answer = client.outline_collapse("todo", item="src", recursive=True, if_version=1)
    assert_changeset(answer, deletes=[(1, 1)], reconfigures=["src"], collapsed=["src"])


@exercise("outline/expandToLevel")
def _expand_to_level(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.outline_expand_to_level("todo", 1, section="files", if_version=0)
    assert_changeset(answer, inserts={(1, 1): "main"}, reconfigures=[(1, 0)], expanded=["src"])


@exercise("selection/select")
def _select(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    assert_changeset(client.selection_select("todo", ["spec", "code"], if_version=0), selected=["code", "spec"])
    client.list_create("none", selection_mode="none", content=CONTENT)
    with pytest.raises(listd.InvalidEdit):
        client.selection_select("none", ["spec"])


@exercise("selection/deselect")
def _deselect(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.selection_select("todo", ["spec", "code"])
    assert_changeset(client.selection_deselect("todo", ["spec"], if_version=1), deselected=["spec"])


@exercise("selection/selectAll")
def _select_all(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    assert_changeset(client.selection_select_all("todo", if_version=0), selected=["spec", "code", "src"])


@exercise("selection/deselectAll")
def _deselect_all(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.selection_select_all("todo")
    assert_changeset(client.selection_deselect_all("todo", if_version=1), deselected=3)


# -- Queries


@exercise("query/sections")
def _sections(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    sections = client.query_sections("todo")["sections"]
    assert [(s["id"], s["index"], s.get("header"), s["items"], s["rows"]) for s in sections] == [
        ("today", 0, "Today", 2, 2),
        ("files", 1, None, 2, 1),
    ]


@exercise("query/items")
def _items(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.query_items("todo", "today", offset=1, limit=5)
    assert (answer["total"], answer["offset"], [row["id"] for row in answer["rows"]]) == (2, 1, ["code"])


@exercise("query/window")
def _window(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.query_window("todo", 1, 2)
    assert answer["totalRows"] == 3
    assert [(row["id"], row["section"], row["indexPath"]) for row in answer["rows"]] == [
        ("code", "today", [0, 1]),
        ("src", "files", [1, 0]),
    ]


@exercise("query/item")
def _item(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    item = client.query_item("todo", "main")["item"]
    assert (item["parent"], item["indexPath"], item["visible"], item["section"]) == ("src", None, False, "files")


@exercise("query/itemAt")
def _item_at(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    assert client.query_item_at("todo", [1, 0])["item"]["id"] == "src"
    assert client.query_item_at("todo", (0, 1))["item"]["id"] == "code"


@exercise("query/selection")
def _selection(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.selection_select("todo", ["src", "spec"])
    answer = client.query_selection("todo")
    assert answer["mode"] == "multiple"
    assert answer["items"] == [{"id": "spec", "indexPath": [0, 0]}, {"id": "src", "indexPath": [1, 0]}]


@exercise("query/outline")
def _outline(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    (node,) = client.query_outline("todo", section="files", depth=1)["nodes"]
    assert (node["id"], node["expanded"], [child["id"] for child in node["children"]]) == ("src", False, ["main"])
    (main,) = client.query_outline("todo", item="main")["nodes"]
    assert main["id"] == "main"


@exercise("query/search")
def _search(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.query_search("todo", "write", case_sensitive=False, limit=1)
    assert ([match["id"] for match in answer["matches"]], answer["truncated"]) == (["spec"], True)
    assert client.query_search("todo", "write", case_sensitive=True)["matches"] == []


@exercise("query/counts")
def _counts(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    assert client.query_counts("todo") == {
        "list": "todo",
        "version": 0,
        "sections": 2,
        "items": 4,
        "rows": 3,
        "selected": 0,
    }


# -- Subscriptions


@exercise("list/subscribe")
def _subscribe(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    (entry,) = client.list_subscribe("todo", snapshot="window", window={"offset": 0, "limit": 2})["lists"]
    assert [row["id"] for row in entry["window"]["rows"]] == ["spec", "code"]
    mirror = listd.Mirror.from_subscribe(client.list_subscribe("todo"))
    client.list_edit("todo", [{"op": "deleteItems", "items": ["spec"]}])
    mirror.apply(client.next_notification("list/didChange"))
    assert mirror.version == 1 and mirror.row_ids() == [["code"], ["src"]]
    everything = client.list_subscribe(snapshot="none")
    assert everything["lists"][0].keys() == {"list", "version", "info"}


@exercise("list/unsubscribe")
def _unsubscribe(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.list_subscribe("todo")
    assert client.list_unsubscribe("todo") == {}
    client.list_edit("todo", [{"op": "deleteItems", "items": ["spec"]}])
    assert client.list_unsubscribe() == {}
    client.list_create("marker")  # every session hears of a new list: a barrier after the edit
    assert client.next_notification().method == "list/didCreate"


@exercise("list/setWindow")
def _set_window(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    mirror = listd.WindowedMirror.from_subscribe(client.list_subscribe("todo", window={"offset": 0, "limit": 1}), 1)
    assert [row["id"] for row in mirror.window_rows] == ["spec"]
    answer = client.list_set_window("todo", 1, 2)
    assert [(section["id"], section["rows"]) for section in answer["sections"]] == [("today", 2), ("files", 1)]
    mirror.apply_set_window(answer, 2)
    assert [row["id"] for row in mirror.window_rows] == ["code", "src"]
    client.list_edit("todo", [{"op": "deleteItems", "items": ["spec"]}])
    notification = client.next_notification("list/didChange")
    # src shifts from flattened row 2 to 1, still inside [1, 3): it was known, so it does not enter.
    assert notification.params["changeset"] == {"itemDeletes": [[0, 0, 1]]}
    mirror.apply(notification)
    assert mirror.version == 1 and [row["id"] for row in mirror.window_rows] == ["src"]


@exercise("list/changesSince")
def _changes_since(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.list_edit("todo", [{"op": "deleteItems", "items": ["spec"]}])
    client.selection_select("todo", ["code"])
    answer = client.list_changes_since("todo", 0, explain=True)
    assert [change["version"] for change in answer["changes"]] == [1, 2]
    assert all("explain" in change for change in answer["changes"])


# -- Time travel


@exercise("query/content")
def _content(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    before = client.query_content("todo")
    client.list_edit("todo", [{"op": "deleteItems", "items": ["spec"]}])
    assert client.query_content("todo", at_version=0) == before
    assert client.query_content("todo")["version"] == 1
    assert client.list_info("todo", at_version=0)["version"] == 0


@exercise("list/diff")
def _diff(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.list_edit("todo", [{"op": "deleteItems", "items": ["spec"]}])
    forward = client.list_diff("todo", 0, 1, explain=True, edits=True)
    assert forward["changeset"] == answer["changeset"]
    assert "explain" in forward and "edits" in forward
    backward = client.list_diff("todo", 1, 0)
    assert backward["changeset"] != {}


# -- User events (the subject is the viewer; a sync client owns the list)


def owned(daemon: listd.Daemon) -> tuple[listd.Client, list[dict[str, Any]], threading.Event]:
    owner = daemon.connect("owner")
    events: list[dict[str, Any]] = []
    heard = threading.Event()

    def on_event(event: dict[str, Any]) -> None:
        events.append(event)
        heard.set()

    owner.on_event(on_event)
    todo(owner)
    return owner, events, heard


def check_event(
    daemon: listd.Daemon, send: Callable[[Any], Any], expected: dict[str, Any], connect: Callable[..., Any]
) -> None:
    owner, events, heard = owned(daemon)
    client = connect()
    answer = send(client)
    assert answer["list"] == "todo"
    assert heard.wait(10)
    assert events == [{"list": "todo", "session": client.session, "version": answer["version"], **expected}]
    owner.close()


@exercise("event/select")
def _event_select(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    check_event(daemon, lambda c: c.event_select("todo", "code"), {"event": "select", "item": "code"}, connect)


@exercise("event/deselect")
def _event_deselect(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    check_event(daemon, lambda c: c.event_deselect("todo", "code"), {"event": "deselect", "item": "code"}, connect)


@exercise("event/toggle")
def _event_toggle(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    check_event(
        daemon,
        lambda c: c.event_toggle("todo", "spec", True),
        {"event": "toggle", "item": "spec", "isOn": True},
        connect,
    )


@exercise("event/action")
def _event_action(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    check_event(
        daemon,
        lambda c: c.event_action("todo", "spec", "delete"),
        {"event": "action", "item": "spec", "action": "delete"},
        connect,
    )


@exercise("event/delete")
def _event_delete(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    check_event(daemon, lambda c: c.event_delete("todo", "code"), {"event": "delete", "item": "code"}, connect)


@exercise("event/move")
def _event_move(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    check_event(
        daemon,
        lambda c: c.event_move("todo", "code", before="spec"),
        {"event": "move", "item": "code", "before": "spec"},
        connect,
    )
    client = connect("second")
    for where in ({"after": "spec"}, {"section": "files"}):
        with pytest.raises(listd.NoOwner):  # the owner has gone: the list stays, without one
            client.event_move("todo", "code", **where)


@exercise("event/refresh")
def _event_refresh(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    owner = daemon.connect("owner")
    todo(owner)

    def refresh(list_id: str) -> None:
        owner.list_edit(list_id, [{"op": "appendItems", "section": "today", "items": [{"id": "new", "text": "New"}]}])

    owner.on_refresh(refresh)
    client = connect()
    assert client.event_refresh("todo", timeout_ms=5000) == {"list": "todo", "version": 1}
    owner.on_refresh(None)  # no handler: the daemon is told the method is not handled
    with pytest.raises(listd.MethodNotFound):
        client.event_refresh("todo")
    owner.close()


# -- Inspector


@exercise("diff/preview")
def _preview(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.diff_preview("todo", edits=[{"op": "deleteItems", "items": ["code"]}], if_version=0, explain=True)
    assert_changeset(answer, deletes=[(0, 1)], version=1)
    assert answer["explain"]["causes"][0]["reason"] == "removed"
    assert client.list_info("todo")["version"] == 0  # nothing committed
    replaced = client.diff_preview("todo", content={"sections": []})
    assert_changeset(replaced, section_deletes=[0, 1])


@exercise("diff/contents")
def _contents(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    old = {"sections": [{"id": "s", "items": [{"id": "a", "text": "A"}]}]}
    new = {"sections": [{"id": "s", "items": [{"id": "a", "text": "B"}]}]}
    answer = client.diff_contents(old, new, selection_mode="none", explain=True)
    assert_changeset(answer, reconfigures=["a"])
    assert answer["explain"]["causes"][0]["fields"] == [{"field": "text", "old": "A", "new": "B"}]
    with pytest.raises(listd.InvalidParams) as error:
        client.diff_contents({"sections": 1}, new)
    assert error.value.data["field"].startswith("old.")


@exercise("list/explain")
def _explain(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.list_edit("todo", [{"op": "moveItem", "item": "code", "before": "spec"}])
    answer = client.list_explain("todo", version=1, item="code")
    assert answer["version"] == 1 and answer["item"] == "code"
    assert client.list_explain("todo", item="code")["version"] == 1
    assert client.list_explain("todo", item="spec")["version"] is None  # no kept change concerns it


@exercise("check/batchUpdate")
def _check_batch_update(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    assert client.check_batch_update([2, 0], {"itemMoves": [[0, 1, 1, 0, 1]]}, after=[1, 1]) == {
        "valid": True,
        "after": [1, 1],
    }
    answer = client.check_batch_update([1], {"itemDeletes": [[0, 3, 1]]})
    assert answer["valid"] is False and answer["problems"][0]["rule"] == "deleteItemOutOfBounds"


@exercise("check/snapshot")
def _check_snapshot(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    assert client.check_snapshot(content=CONTENT)["valid"] is True
    answer = client.check_snapshot(flat={"sections": ["s"], "items": [{"id": "a", "section": "s"}, {"id": "a"}]})
    assert (
        answer["valid"] is False
        and [problem["rule"] for problem in answer["problems"]][0] == "duplicateItemIdentifiers"
    )


# -- Live views


@exercise("view/create")
def _view_create(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    answer = client.view_create(
        "todo-view",
        "todo",
        title="Code first",
        filter={"query": "WRITE", "match": "all", "predicates": [{"field": "text", "op": "contains", "value": "the"}]},
        sort=[{"field": "text", "descending": False}],
        group={"field": "text", "by": "initial", "descending": False},
    )
    assert answer["source"] == "todo" and answer["version"] == 0
    rows = answer["changeset"]["sectionInserts"][0]["section"]["rows"]
    assert [row["id"] for row in rows] == ["code", "spec"]
    with pytest.raises(listd.InvalidEdit):
        client.list_edit("todo-view", [{"op": "deleteItems", "items": ["code"]}])


@exercise("view/update")
def _view_update(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.view_create("v", "todo", sort=[{"field": "text"}])
    answer = client.view_update(
        "v", filter={"predicates": [{"field": "id", "op": "in", "value": ["spec", "main"]}]}, sort=[], group={"field": "id"}
    )
    assert answer["version"] == 1
    assert client.view_info("v")["rows"] == 1  # main is hidden under src: not a row, so not in the view


@exercise("view/info")
def _view_info(connect: Callable[..., Any], daemon: listd.Daemon) -> None:
    client = connect()
    todo(client)
    client.view_create("v", "todo")
    info = client.view_info("v")
    assert info["source"] == "todo" and info["filter"] is None and info["sort"] == [] and info["group"] is None
    assert info["rows"] == 3  # the source's rows (main is hidden under src), flattened


def client_to_server() -> list[str]:
    return [name for name, method in protocol()["methods"].items() if method["direction"] == "clientToServer"]


@pytest.mark.parametrize("method", client_to_server())
def test_method_against_the_daemon(method: str, connect: Callable[..., Any], listd_daemon: listd.Daemon) -> None:
    """Each client-to-server method of protocol.json, called through the client with every
    param it has: a method without an exercise here fails."""
    assert method in EXERCISES, f"no exercise of {method} in test_methods.py"
    EXERCISES[method](connect, listd_daemon)
