"""The accessory display order: the spec's table, and rows whose arrays put them in any order."""

from __future__ import annotations

import re

from support import ROOT

import listd
from listd.accessories import repeated_system_types


def spec_order() -> dict[str, int]:
    """The table under "Accessory order" in Protocol/README.md: type → order."""
    text = (ROOT / "Protocol" / "README.md").read_text(encoding="utf-8")
    table = text[text.index("**Accessory order.**") :]
    table = table[table.index("| order | type |") :]
    rows = re.findall(r"^\s*\| (\d+) \| `(\w+)` \|$", table[: table.index("\n\n")], re.M)
    return {kind: int(order) for order, kind in rows}


def test_the_order_table_is_the_specs() -> None:
    assert listd.ACCESSORY_ORDER == spec_order()


def types(accessories: list[dict[str, object]]) -> list[str]:
    return [str(a["type"]) for a in listd.display_order(accessories)]


def test_system_accessories_show_by_type_whatever_the_array_order() -> None:
    # The demo's contacts: a chevron before a badge in the array; the chevron shows trailing-most.
    assert types([{"type": "disclosureIndicator"}, {"type": "badge", "text": "1"}]) == ["badge", "disclosureIndicator"]
    assert types([{"type": "badge", "text": "12"}, {"type": "disclosureIndicator"}]) == ["badge", "disclosureIndicator"]
    every = [{"type": kind} for kind in reversed(list(spec_order()))]
    shown = types(every)
    # delete and multiselect are leading by default: before the trailing ones, in table order.
    assert shown == sorted(spec_order(), key=spec_order().get)
    # Custom accessories keep their array order, nearest the content on either edge.
    mixed = [
        {"type": "checkmark"},
        {"type": "image", "name": "b"},
        {"type": "delete"},
        {"type": "badge", "text": "a", "placement": "leading"},
        {"type": "label", "text": "l"},
        {"type": "image", "name": "a"},
    ]
    assert [a.get("name") or a.get("text") or a["type"] for a in listd.display_order(mixed)] == [
        "delete",
        "a",
        "b",
        "a",
        "l",
        "checkmark",
    ]


def test_repeated_system_types() -> None:
    assert repeated_system_types([{"type": "checkmark"}, {"type": "badge"}, {"type": "badge"}, {"type": "checkmark"}]) == [
        "checkmark"
    ]
