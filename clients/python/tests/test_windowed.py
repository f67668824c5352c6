"""Windowed subscriptions against the real daemon: a WindowedMirror equals the full mirror's window after every change and window move."""

from __future__ import annotations

import os

import pytest
from histories import RandomHistory

import listd

STEPS = int(os.environ.get("LISTD_WINDOWED_STEPS", "400"))
SEED = int(os.environ.get("LISTD_WINDOWED_SEED", "14311"))


def window_of(mirror: listd.Mirror, offset: int, limit: int) -> list[dict]:
    return [row for section in mirror.sections for row in section.rows][offset : offset + limit]


def check(windowed: listd.WindowedMirror, full: listd.Mirror, context: str) -> None:
    assert windowed.version == full.version, context
    assert [(s.id, s.header, s.footer, s.kind, s.header_mode, s.count) for s in windowed.sections] == [
        (s.id, s.header, s.footer, s.kind, s.header_mode, len(s.rows)) for s in full.sections
    ], f"{context}: sections"
    assert windowed.window_rows == window_of(full, windowed.offset, windowed.limit), f"{context}: window rows"
    assert windowed.selection == set(full.selection), f"{context}: selection"


def test_a_windowed_mirror_equals_the_full_mirrors_window(listd_daemon: listd.Daemon) -> None:
    """A full and a windowed subscriber follow a random history of ``STEPS`` steps; the windowed
    one moves its window at random (``list_set_window``). After every change, its sections, window
    rows and selection equal the full mirror's. ``LISTD_WINDOWED_SEED=n`` replays a seed."""
    print(f"windowed mirror: seed {SEED} (LISTD_WINDOWED_SEED={SEED} replays it), {STEPS} steps")
    rng = __import__("random").Random(SEED)
    history = RandomHistory(SEED, "w")
    owner = listd_daemon.connect("owner")
    viewer = listd_daemon.connect("viewer")
    owner.list_create("w", selection_mode="multiple", content=history.content())
    full_client = listd_daemon.connect("full")
    full = listd.Mirror.from_subscribe(full_client.list_subscribe("w"))
    windowed_client = listd_daemon.connect("windowed")
    limit = 7
    windowed = listd.WindowedMirror.from_subscribe(
        windowed_client.list_subscribe("w", window={"offset": 3, "limit": limit}), limit
    )
    check(windowed, full, "subscribed")
    history.observe(full.snapshot, owner.query_outline("w")["nodes"])
    moves = 0
    for step in range(STEPS):
        if rng.random() < 0.15:
            limit = rng.choice([0, 1, 4, 12, 30])
            answer = windowed_client.list_set_window("w", rng.randint(0, sum(len(s.rows) for s in full.sections) + 3), limit)
            while windowed.version < answer["version"]:
                windowed.apply(windowed_client.next_notification("list/didChange", timeout=30))
            windowed.apply_set_window(answer, limit)
            while full.version < windowed.version:
                full.apply(full_client.next_notification("list/didChange", timeout=30))
            check(windowed, full, f"seed {SEED}, step {step}: after list_set_window")
            moves += 1
        description, send = history.step()
        try:
            send(owner, viewer)
        except listd.ResponseError:
            pass
        version = owner.list_info("w")["version"]
        while full.version < version:
            full.apply(full_client.next_notification("list/didChange", timeout=30))
            windowed.apply(windowed_client.next_notification("list/didChange", timeout=30))
            check(windowed, full, f"seed {SEED}, step {step} ({description[:200]})")
        history.observe(full.snapshot, owner.query_outline("w")["nodes"])
    print(f"windowed mirror: {STEPS} steps, {moves} window moves, final v{full.version}")
    assert moves > 0


def test_set_window_needs_a_subscription(listd_daemon: listd.Daemon) -> None:
    client = listd_daemon.connect("c")
    client.list_create("l", content={"sections": [{"id": "s", "items": [{"id": "a"}]}]})
    with pytest.raises(listd.ResponseError) as caught:
        client.list_set_window("l", 0, 1)
    assert caught.value.code == -32602 and caught.value.data == {"field": "list"}


def test_rows_none_answers_the_structure_only(listd_daemon: listd.Daemon) -> None:
    client = listd_daemon.connect("c")
    content = {"sections": [{"id": "s", "items": [{"id": "a"}, {"id": "p", "children": [{"id": "c"}]}]}]}
    created = client.list_create("l", content=content, rows="none")
    assert created["changeset"] == {"sectionInserts": [{"index": 0, "section": {"id": "s", "rowCount": 2}}]}
    expanded = client.outline_expand("l", item="p", rows="none")
    assert expanded["changeset"] == {
        "itemInserts": [{"at": [0, 2], "count": 1}],
        "itemReconfigures": [{"at": [0, 1], "count": 1}],
        "expanded": ["p"],
    }
    edited = client.list_edit("l", [{"op": "appendItems", "items": [{"id": "b"}]}], rows="all")
    assert edited["changeset"] == {"itemInserts": [{"at": [0, 3], "rows": [{"id": "b", "level": 0}]}]}
