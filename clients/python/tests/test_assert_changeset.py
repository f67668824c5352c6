"""assert_changeset: each form of expectation, against real answers, and failures that say what differs."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import listd
from listd.testing import summarize

CONTENT = {
    "sections": [
        {"id": "a", "items": [{"id": "x"}, {"id": "y"}, {"id": "z"}]},
        {"id": "b", "items": [{"id": "p", "children": [{"id": "q"}]}]},
    ]
}


def test_every_form_of_expectation_passes_on_a_real_answer(
    listd_client: listd.Client, assert_changeset: Callable[..., Any]
) -> None:
    listd_client.list_create("l", selection_mode="multiple", content=CONTENT)
    listd_client.list_subscribe("l")
    answer = listd_client.list_edit(
        "l",
        [
            {"op": "deleteItems", "items": ["y"]},
            {"op": "moveItem", "item": "x", "section": "b"},
            {"op": "appendItems", "section": "a", "items": [{"id": "n1"}, {"id": "n2"}]},
            {"op": "updateItems", "items": [{"id": "z", "text": "Z"}]},
            {"op": "expand", "item": "p"},
            {"op": "select", "items": ["z"]},
        ],
    )
    notification = listd_client.next_notification("list/didChange")
    for given in (answer, notification, notification.params, answer["changeset"]):
        assert_changeset(
            given,
            inserts=["n1", "n2", "q"],
            deletes=[(0, 1)],
            moves=[((0, 0), (1, 2))],
            reconfigures=["z", "p"],
            selected=["z"],
            expanded=["p"],
        )
    assert_changeset(
        answer,
        inserts={(0, 1): "n1", (0, 2): "n2", (1, 1): "q"},
        deletes=1,
        moves=[[0, 0, 1, 2, 1]],
        reconfigures=[(0, 2), (1, 0)],
        selected=1,
        expanded=1,
        version=1,
    )
    assert assert_changeset(answer, inserts=3, partial=True) == answer["changeset"]
    section = listd_client.list_edit(
        "l",
        [{"op": "moveSection", "section": "b", "before": "a"}, {"op": "updateSection", "section": "a", "header": "A"}],
    )
    assert_changeset(section, section_moves=[(0, 1)], section_reloads=["a"])
    assert_changeset(
        listd_client.list_edit("l", [{"op": "deleteSections", "sections": ["a"]}]),
        section_deletes=[1],
        deselected=["z"],
    )


def test_a_failure_lists_every_member_that_differs_with_the_changeset(listd_client: listd.Client) -> None:
    listd_client.list_create("l", content=CONTENT)
    answer = listd_client.list_edit(
        "l", [{"op": "deleteItems", "items": ["x"]}, {"op": "appendItems", "section": "a", "items": [{"id": "w"}]}]
    )
    with pytest.raises(AssertionError) as failure:
        listd.testing.assert_changeset(answer, inserts=["v"], moves=1, version=2)
    message = str(failure.value)
    assert message.startswith("the changeset of list 'l' v1 does not match:\n")
    assert "  inserts: expected ['v'], got ['w'] (at [[0, 2]])\n" in message
    assert "  deletes: expected none, got [[0, 0]]\n" in message
    assert "  moves: expected 1, got 0: []\n" in message
    assert "  version: expected 2, got 1\n" in message
    assert message.endswith(
        'changeset: {"itemDeletes":[[0,0,1]],"itemInserts":[{"at":[0,2],"rows":[{"id":"w","level":0}]}]}'
    )


def test_summarize_reads_each_member_one_row_at_a_time() -> None:
    summary = summarize(
        {
            "itemDeletes": [[0, 1, 2]],
            "itemMoves": [[0, 0, 1, 3, 2]],
            "sectionInserts": [{"index": 2, "section": {"id": "s", "rows": []}}],
        }
    )
    assert summary["deletes"] == [(0, 1), (0, 2)]
    assert summary["moves"] == [((0, 0), (1, 3)), ((0, 1), (1, 4))]
    assert summary["section_inserts"] == [(2, "s")]


def test_a_malformed_expectation_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="deletes: expected an index path"):
        listd.testing.assert_changeset({}, deletes=["x"])
