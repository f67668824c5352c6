"""The mirror property against the real daemon: after every change of a random history, each subscriber's Mirror equals the daemon's own snapshot."""

from __future__ import annotations

import os
from typing import Any

import pytest
from histories import RandomHistory
from support import AsyncFacade

import listd

STEPS = int(os.environ.get("LISTD_MIRROR_STEPS", "1000"))
SEEDS = (
    [int(os.environ["LISTD_MIRROR_SEED"])]
    if "LISTD_MIRROR_SEED" in os.environ
    else [11311, 12311, 13311]
)


def daemon_state(checker: listd.Client, list_id: str) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """The list as the daemon holds it now: its version and snapshot (a fresh subscribe answer,
    then unsubscribed), and its whole outline, hidden items included (pipelined)."""
    subscribe = checker.send_request("list/subscribe", {"list": list_id})
    unsubscribe = checker.send_request("list/unsubscribe", {"list": list_id})
    outline = checker.send_request("query/outline", {"list": list_id})
    (entry,) = subscribe.result()["lists"]
    unsubscribe.result()
    return entry["version"], entry["snapshot"], outline.result()["nodes"]


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed{seed}" for seed in SEEDS])
def test_mirrors_equal_the_daemon_after_every_change(seed: int, listd_daemon: listd.Daemon) -> None:
    """A sync and an async subscriber (and one joining halfway) follow a random history of
    ``STEPS`` steps; after each, every mirror must equal the daemon's snapshot, and every
    notification's changeset the one the change was answered with.

    ``LISTD_MIRROR_SEED=n`` replays a seed; ``LISTD_MIRROR_STEPS=n`` changes the length."""
    print(f"mirror property: seed {seed} (LISTD_MIRROR_SEED={seed} replays it), {STEPS} steps")
    history = RandomHistory(seed, "m")
    owner = listd_daemon.connect("owner")
    viewer = listd_daemon.connect("viewer")
    checker = listd_daemon.connect("checker")
    owner.list_create("m", title="Mirror", selection_mode="multiple", content=history.content())
    sync_subscriber = listd_daemon.connect("sync-subscriber")
    async_subscriber = AsyncFacade(lambda: listd.AsyncClient.connect(listd_daemon.socket_path, name="async-subscriber"))
    subscribers: list[tuple[str, Any, listd.Mirror]] = [
        (name, client, listd.Mirror.from_subscribe(client.list_subscribe("m")))
        for name, client in (("sync", sync_subscriber), ("async", async_subscriber))
    ]
    version, snapshot, outline = daemon_state(checker, "m")
    history.observe(snapshot, outline)
    changed = failed = 0
    try:
        for step in range(STEPS):
            if step == STEPS // 2:
                latecomer = listd_daemon.connect("latecomer")
                subscribers.append(("latecomer", latecomer, listd.Mirror.from_subscribe(latecomer.list_subscribe("m"))))
            description, send = history.step()
            context = f"seed {seed}, step {step}: {description[:400]}"
            try:
                answer = send(owner, viewer)
            except listd.ResponseError as error:
                failed += 1
                answer = None
                assert error.code not in (-32603, -32700, -32600), f"{context}: {error}"
            answered = answer.get("changeset") if isinstance(answer, dict) else None
            version, snapshot, outline = daemon_state(checker, "m")
            if answer is not None:
                assert (
                    answer["version"] == version
                ), f"{context}: answered v{answer['version']}, the daemon is at v{version}"
            for name, client, mirror in subscribers:
                before = mirror.version
                while mirror.version < version:
                    notification = client.next_notification("list/didChange", timeout=30, where=lambda n: n.list == "m")
                    try:
                        mirror.apply(notification)
                    except listd.MirrorMismatch as error:
                        pytest.fail(f"{context}: the {name} mirror at v{mirror.version}: {error}", pytrace=False)
                    if answered is not None and mirror.version == version:
                        assert (
                            notification.params["changeset"] == answered
                        ), f"{context}: {name}'s notification ≠ the answer"
                difference = mirror.first_difference(snapshot)
                assert (
                    difference is None
                ), f"{context}: the {name} mirror at v{mirror.version} ≠ the daemon: {difference}"
                changed += mirror.version > before and name == "sync"
            history.observe(snapshot, outline)
        for name, client, _ in subscribers:
            extra = [n for n in client.drain_notifications() if n.method == "list/didChange"]
            assert extra == [], f"seed {seed}: {name} received changes past the last version"
    finally:
        async_subscriber.close()
    print(
        f"mirror property: {STEPS} steps, {changed} changes, {failed} refused, final v{version}, {len(history.rows)} rows"
    )
    assert changed > STEPS // 2, "most steps change the list"
    assert failed > 0, "some steps are refused"


def test_a_changeset_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    snapshot = {
        "sections": [{"id": "s", "header": "S", "rows": [{"id": "a", "level": 0}, {"id": "b", "level": 0}]}],
        "selection": ["b"],
    }
    mirror = listd.Mirror("l", 3, snapshot)
    before = mirror.copy()
    bad = [
        ({"list": "other", "version": 4, "previousVersion": 3, "changeset": {}}, 'list "other"'),
        (
            {"list": "l", "version": 5, "previousVersion": 4, "changeset": {}},
            "from version 4 applied to a mirror at version 3",
        ),
        ({"list": "l", "version": 3, "previousVersion": 3, "changeset": {}}, "from version 3 to 3"),
        (
            {"list": "l", "version": 4, "previousVersion": 3, "changeset": {"itemDeletes": [[0, 2, 1]]}},
            "[0, 2] is out of range",
        ),
        (
            {"list": "l", "version": 4, "previousVersion": 3, "changeset": {"itemDeletes": [[0, 0, 1], [0, 0, 1]]}},
            "removed twice",
        ),
        (
            {
                "list": "l",
                "version": 4,
                "previousVersion": 3,
                "changeset": {"itemReconfigures": [{"at": [0, 0], "rows": [{"id": "b"}]}]},
            },
            "does not match",
        ),
        (
            {
                "list": "l",
                "version": 4,
                "previousVersion": 3,
                "changeset": {"itemInserts": [{"at": [0, 5], "rows": [{"id": "c"}]}]},
            },
            "out of range",
        ),
        ({"list": "l", "version": 4, "previousVersion": 3, "changeset": {"sectionMoves": [[0, 1]]}}, "out of range"),
        ({"list": "l", "version": 4, "previousVersion": 3, "changeset": {"bogus": []}}, "unknown changeset member"),
        ({"list": "l", "version": 4, "previousVersion": 3, "changeset": {"selected": ["zz"]}}, "not rows"),
    ]
    for did_change, message in bad:
        with pytest.raises(listd.MirrorMismatch, match=message.replace("[", r"\[").replace("]", r"\]")):
            mirror.apply(did_change)
        assert mirror == before
    mirror.apply(
        {
            "list": "l",
            "version": 4,
            "previousVersion": 3,
            "changeset": {"itemMoves": [[0, 1, 0, 0, 1]], "deselected": ["b"], "selected": ["a"]},
        }
    )
    assert mirror.row_ids() == [["b", "a"]] and mirror.selection == ["a"] and mirror.version == 4


def test_the_selection_stays_in_index_path_order() -> None:
    snapshot = {"sections": [{"id": "s", "rows": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}], "selection": ["a", "c"]}
    mirror = listd.Mirror("l", 0, snapshot)
    mirror.apply(
        {
            "list": "l",
            "version": 1,
            "previousVersion": 0,
            "changeset": {"itemMoves": [[0, 2, 0, 0, 1]], "selected": ["b"]},
        }
    )
    assert mirror.snapshot["selection"] == ["c", "a", "b"]


def test_a_full_mirror_refuses_a_windowed_subscribers_forms_and_changes_nothing() -> None:
    """Mirror and WindowedMirror share one decoder; only a windowed subscriber's changesets may
    leave rows out (``count`` runs, counted sections) or carry ``enter``."""
    snapshot = {"sections": [{"id": "s", "rows": [{"id": "a"}, {"id": "b"}]}], "selection": []}
    mirror = listd.Mirror("l", 0, snapshot)
    before = mirror.copy()
    windowed_forms = [
        ({"itemInserts": [{"at": [0, 0], "count": 2}]}, "without at or rows"),
        ({"itemReloads": [{"at": [0, 1], "count": 1}]}, "without at or rows"),
        ({"enter": [{"at": [0, 0], "rows": [{"id": "a"}]}]}, "unknown changeset member"),
        ({"sectionInserts": [{"index": 1, "section": {"id": "t", "rowCount": 3}}]}, "without id or rows"),
    ]
    for changeset, message in windowed_forms:
        with pytest.raises(listd.MirrorMismatch, match=message):
            mirror.apply_changeset(changeset)
        assert mirror == before, changeset
    windowed = listd.WindowedMirror(
        {
            "list": "l",
            "version": 0,
            "window": {"offset": 0, "rows": [{"id": "a", "indexPath": [0, 0]}]},
            "sections": [{"id": "s", "rows": 2}],
            "selection": [],
        },
        1,
    )
    windowed.apply(
        {
            "list": "l",
            "previousVersion": 0,
            "version": 1,
            "changeset": {
                "itemInserts": [{"at": [0, 0], "rows": [{"id": "z"}]}],
                "sectionInserts": [{"index": 1, "section": {"id": "t", "rowCount": 3}}],
            },
        }
    )
    assert [(s.id, s.count) for s in windowed.sections] == [("s", 3), ("t", 3)] and windowed.window_rows == [{"id": "z"}]
