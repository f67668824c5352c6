"""The order a row shows its accessories in (Protocol/README.md, "Accessory order"), whatever their order in the array."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

#: UIKit's system accessories, each with its place on its edge (leading to trailing). Any other
#: type is a custom view: shown in array order, nearest the content.
ACCESSORY_ORDER: dict[str, int] = {
    "delete": 1,
    "multiselect": 2,
    "label": 3,
    "detail": 4,
    "checkmark": 5,
    "popUpMenu": 6,
    "outlineDisclosure": 7,
    "reorder": 8,
    "disclosureIndicator": 9,
}

#: The types whose default placement is the leading edge (every other type's is trailing).
LEADING_BY_DEFAULT = frozenset({"delete", "multiselect"})


def placement(accessory: Mapping[str, Any]) -> str:
    """The accessory's edge: its ``placement``, else its type's default (``leading`` or ``trailing``)."""
    given = accessory.get("placement")
    if given in ("leading", "trailing"):
        return str(given)
    return "leading" if accessory.get("type") in LEADING_BY_DEFAULT else "trailing"


def display_order(accessories: Sequence[Mapping[str, Any]] | None) -> list[Mapping[str, Any]]:
    """``accessories`` as a row shows them, leading to trailing: the leading edge (system
    accessories by ``ACCESSORY_ORDER``, then custom ones), then the trailing edge (custom ones,
    then system accessories by ``ACCESSORY_ORDER``); custom ones keep their array order.

    >>> [a["type"] for a in display_order([{"type": "disclosureIndicator"}, {"type": "badge", "text": "1"}])]
    ['badge', 'disclosureIndicator']
    """

    def key(entry: tuple[int, Mapping[str, Any]]) -> tuple[int, int, int]:
        index, accessory = entry
        leading = placement(accessory) == "leading"
        rank = ACCESSORY_ORDER.get(str(accessory.get("type")))
        if rank is None:  # a custom view: nearest the content
            rank = len(ACCESSORY_ORDER) + 1 if leading else 0
        return (0 if leading else 1, rank, index)

    return [accessory for _, accessory in sorted(enumerate(accessories or []), key=key)]


def repeated_system_types(accessories: Sequence[Mapping[str, Any]] | None) -> list[str]:
    """The system accessory types that occur more than once (UIKit throws on such a cell; listd refuses it)."""
    seen: set[str] = set()
    repeated: list[str] = []
    for accessory in accessories or []:
        kind = str(accessory.get("type"))
        if kind in ACCESSORY_ORDER:
            if kind in seen and kind not in repeated:
                repeated.append(kind)
            seen.add(kind)
    return repeated
