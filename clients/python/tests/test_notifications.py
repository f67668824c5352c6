"""Notifications as iterators, owner callbacks, timeouts and a connection's end, in both clients."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import listd


def test_notifications_iterate_in_order_and_end_with_the_connection(listd_daemon: listd.Daemon) -> None:
    viewer = listd_daemon.connect("viewer")
    owner = listd_daemon.connect("owner")
    owner.list_create("l", content={"sections": [{"id": "s", "items": []}]})
    viewer.list_subscribe("l")
    for n in range(3):
        owner.list_edit("l", [{"op": "appendItems", "items": [{"id": f"i{n}"}]}])
    owner.list_dispose("l")
    seen = []
    for notification in viewer.notifications(timeout=10):
        seen.append((notification.method, notification.params.get("version")))
        if notification.method == "list/didDispose":
            viewer.close()  # the iterator then ends
    assert seen == [
        ("list/didCreate", None),
        ("list/didChange", 1),
        ("list/didChange", 2),
        ("list/didChange", 3),
        ("list/didDispose", 3),
    ]
    with pytest.raises(listd.ConnectionClosed):
        viewer.list_all()
    owner.close()


def test_next_notification_skips_others_keeps_them_and_times_out(listd_client: listd.Client) -> None:
    listd_client.list_create("a")
    listd_client.list_create("b")
    assert listd_client.next_notification("list/didCreate", where=lambda n: n.list == "b").list == "b"
    assert listd_client.next_notification().list == "a"  # passed over, still queued
    with pytest.raises(TimeoutError, match="no list/didChange within 0.05 s"):
        listd_client.next_notification("list/didChange", timeout=0.05)


def test_the_async_client_iterates_and_answers_owner_requests_with_coroutines(listd_daemon: listd.Daemon) -> None:
    async def main() -> None:
        async with await listd.AsyncClient.connect(listd_daemon.socket_path, name="owner") as owner:
            events: asyncio.Queue[Any] = asyncio.Queue()

            async def on_event(event: dict[str, Any]) -> None:
                await owner.list_edit("l", [{"op": "deleteItems", "items": [event["item"]]}])  # the owner decides
                await events.put(event)

            async def on_refresh(list_id: str) -> None:
                await owner.list_edit(list_id, [{"op": "appendItems", "items": [{"id": "fresh"}]}])

            owner.on_event(on_event)
            owner.on_refresh(on_refresh)
            await owner.list_create("l", content={"sections": [{"id": "s", "items": [{"id": "a"}, {"id": "b"}]}]})
            async with await listd.AsyncClient.connect(listd_daemon.socket_path, name="viewer") as viewer:
                mirror = listd.Mirror.from_subscribe(await viewer.list_subscribe("l"))
                await viewer.event_delete("l", "a")
                event = await asyncio.wait_for(events.get(), 10)
                assert (event["event"], event["item"], event["session"]) == ("delete", "a", viewer.session)
                assert await viewer.event_refresh("l") == {"list": "l", "version": 2}
                async for notification in viewer.notifications(timeout=10):
                    mirror.update(notification)
                    if mirror.version == 2:
                        break
                assert mirror.row_ids() == [["b", "fresh"]]

    asyncio.run(main())


def test_an_owner_error_reaches_the_viewer_and_a_crashing_handler_is_an_internal_error(
    listd_daemon: listd.Daemon,
) -> None:
    owner = listd_daemon.connect("owner")
    owner.list_create("l")
    viewer = listd_daemon.connect("viewer")

    def refuse(list_id: str) -> None:
        raise listd.InvalidEdit(f"{list_id} cannot refresh now", {"reason": "busy"})

    owner.on_refresh(refuse)
    with pytest.raises(listd.InvalidEdit, match="failed to refresh: l cannot refresh now"):
        viewer.event_refresh("l")

    def crash(list_id: str) -> None:
        raise RuntimeError("boom")

    owner.on_refresh(crash)
    with pytest.raises(listd.InternalError, match="RuntimeError: boom"):
        viewer.event_refresh("l")
    owner.close()
    viewer.close()


def test_a_timed_out_request_is_cancelled_and_the_session_goes_on(listd_daemon: listd.Daemon) -> None:
    owner = listd_daemon.connect("owner")
    release = threading.Event()
    owner.on_refresh(lambda _: release.wait(30))
    owner.list_create("l")
    viewer = listd_daemon.connect("viewer")
    with pytest.raises(listd.RequestTimeout) as error:
        viewer.call("event/refresh", {"list": "l"}, timeout=0.2)
    assert isinstance(error.value, TimeoutError) and error.value.method == "event/refresh"
    release.set()
    assert viewer.list_info("l")["version"] == 0
    owner.close()
    viewer.close()


def test_pending_requests_fail_when_the_daemon_goes_away(listd_daemon: listd.Daemon) -> None:
    owner = listd_daemon.connect("owner")
    asked = threading.Event()

    def refresh(_: object) -> None:
        asked.set()
        threading.Event().wait(30)

    owner.on_refresh(refresh)
    owner.list_create("l")
    viewer = listd_daemon.connect("viewer")
    pending = viewer.send_request("event/refresh", {"list": "l"})
    # Stopped only once the daemon has read the refresh (it asked the owner): one it had not
    # read yet would never be answered (daemon/stopping, then end of file), one read after the
    # stop began would be refused (-32019).
    assert asked.wait(30)
    listd_daemon.stop()
    # A clean stop gives up the refresh the owner never answered (-32016), then closes.
    with pytest.raises(listd.NoOwner):
        pending.result(30)
    with pytest.raises(listd.ConnectionClosed):
        viewer.list_all()
    assert viewer.closed
    owner.close()
    viewer.close()


def test_an_error_without_an_id_fails_the_requests_in_progress(listd_daemon: listd.Daemon, listd_bin: str) -> None:
    # A frame over the daemon's limit cannot be attributed: its -32700 has id null.
    with listd.Client.spawn("--max-frame-bytes", "2000", listd=listd_bin) as client:
        with pytest.raises(listd.ParseError, match="2000"):
            client.list_create(
                "big", content={"sections": [{"id": "s", "items": [{"id": str(n)} for n in range(500)]}]}
            )
        assert client.list_all() == {"lists": [], "total": 0}


def test_a_spawned_daemon_ends_with_its_client(listd_bin: str) -> None:
    client = listd.Client.spawn("--demo", listd=listd_bin)
    assert {info["list"] for info in client.list_all()["lists"]} >= {"contacts", "files"}
    process = client.process
    client.close()
    assert process is not None and process.returncode == 0


def _spawned_daemon_log(kind: str, listd_bin: str, tmp_path: Any, *args: str, **options: Any) -> str:
    log_path = tmp_path / f"{kind}.log"
    with open(log_path, "wb") as log:
        if kind == "sync":
            with listd.Client.spawn(*args, listd=listd_bin, stderr=log, **options) as client:
                client.list_all()
        else:

            async def session() -> None:
                async with await listd.AsyncClient.spawn(*args, listd=listd_bin, stderr=log, **options) as client:
                    await client.list_all()

            asyncio.run(session())
    return log_path.read_text()


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_spawned_daemon_logs_warnings_only_unless_asked(kind: str, listd_bin: str, tmp_path: Any) -> None:
    # Its info lines ("session 1 attached", "stopped") would land on the user's stderr.
    assert _spawned_daemon_log(kind, listd_bin, tmp_path, "--demo") == ""
    assert "info: session 1 attached" in _spawned_daemon_log(kind, listd_bin, tmp_path, "--demo", log_level="info")
    assert "info: session 1 attached" in _spawned_daemon_log(kind, listd_bin, tmp_path, "--log-level", "info")
    assert "info: session 1 attached" in _spawned_daemon_log(kind, listd_bin, tmp_path, log_level=None)


def test_unencodable_params_are_refused_before_anything_is_sent(listd_client: listd.Client) -> None:
    with pytest.raises(ValueError):
        listd_client.list_create("x", content={"sections": [{"id": "s", "items": [{"id": "a", "data": float("nan")}]}]})
    with pytest.raises(TypeError):
        listd_client.list_create("x", content={"sections": {"not", "json"}})
    assert listd_client.list_all() == {"lists": [], "total": 0}


def test_one_client_serves_many_threads(listd_client: listd.Client) -> None:
    failures: list[BaseException] = []

    def work(n: int) -> None:
        try:
            listd_client.list_create(f"t{n}", content={"sections": [{"id": "s", "items": []}]})
            for k in range(30):
                answer = listd_client.list_edit(f"t{n}", [{"op": "appendItems", "items": [{"id": f"i{k}"}]}])
                assert answer["version"] == k + 1 and answer["list"] == f"t{n}"
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert sorted(info["version"] for info in listd_client.list_all()["lists"]) == [30] * 8
