"""A seeded generator of random list histories: edit batches, outline and selection requests, replaces and user events."""

from __future__ import annotations

import random
from typing import Any, Callable

TEXTS = ["Alpha", "Beta", "Gamma", "Delta", "Ε", "日本", "", "a much longer text than the others"]
PAYLOAD_FIELDS = (
    "text",
    "secondaryText",
    "image",
    "data",
    "accessories",
    "leadingSwipeActions",
    "trailingSwipeActions",
    "contextMenuActions",
    "selectable",
    "movable",
)

HEADER_MODES = ("supplementary", "none", "firstItemInSection")


class RandomHistory:
    """Draws the next step of a history from the list's state as the daemon last showed it (its
    snapshot: visible rows only) and the ids created so far (hidden ones among them). Most steps
    are valid; some are not (an unknown id, an anchor inside the moved subtree, a bad op), and
    must change nothing."""

    def __init__(self, seed: int, list_id: str) -> None:
        self.random = random.Random(seed)
        self.list = list_id
        self.counter = 0
        self.items_: list[str] = []
        self.sections: list[str] = []
        self.rows: list[dict[str, Any]] = []
        self.snapshot: dict[str, Any] = {"sections": [], "selection": []}

    # -- State

    def observe(self, snapshot: dict[str, Any], outline: list[dict[str, Any]]) -> None:
        """The daemon's snapshot after the last step, and its outline (``query/outline`` nodes:
        every item, hidden ones too)."""
        self.items_ = []
        stack = list(reversed(outline))
        while stack:
            node = stack.pop()
            self.items_.append(node["id"])
            stack.extend(reversed(node.get("children", [])))
        self.snapshot = snapshot
        self.sections = [section["id"] for section in snapshot["sections"]]
        self.rows = [row for section in snapshot["sections"] for row in section["rows"]]

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def some_item(self) -> str:
        """Mostly a visible row, sometimes a hidden item, rarely one that does not exist."""
        r = self.random
        if r.random() < 0.01:
            return self.fresh("missing")
        pool = [row["id"] for row in self.rows] if r.random() < 0.75 else self.items_
        return r.choice(pool or self.items_ or ["missing"])

    def some_section(self) -> str:
        return self.random.choice(self.sections) if self.sections else "missing"

    # -- Content

    def payload(self, item: dict[str, Any]) -> dict[str, Any]:
        r = self.random
        item["text"] = r.choice(TEXTS)
        if r.random() < 0.3:
            item["secondaryText"] = f"detail {r.randint(0, 3)}"
        if r.random() < 0.1:
            item["image"] = "folder"
        if r.random() < 0.2:
            # Canonical form on the wire: members sorted, 2.0 → 2.
            item["data"] = r.choice(
                [
                    {"n": r.randint(0, 2), "tags": ["a", "b"]},
                    {"z": 1, "a": 2.0},
                    {"nested": {"b": [1.5, None, True]}},
                    "text",
                    3,
                ]
            )
        if r.random() < 0.25:
            item["accessories"] = [
                r.choice(
                    [
                        {"type": "disclosureIndicator"},
                        {"type": "checkmark"},
                        {"type": "badge", "text": str(r.randint(1, 9))},
                        {"type": "toggle", "isOn": r.random() < 0.5},
                        {"type": "progress", "value": r.choice([0, 0.25, 1])},
                        {"type": "popUpMenu", "actions": [{"id": "a", "title": "A"}]},
                    ]
                )
            ]
        if r.random() < 0.1:
            item["trailingSwipeActions"] = [{"id": "delete", "title": "Delete", "style": "destructive"}]
        if r.random() < 0.05:
            item["contextMenuActions"] = [{"id": "copy", "title": "Copy", "style": "normal"}]
        if r.random() < 0.05:
            item["selectable"] = False
        if r.random() < 0.1:
            item["movable"] = True
        return item

    def item(self, depth: int = 0) -> dict[str, Any]:
        item_id = self.fresh("i")
        item = self.payload({"id": item_id})
        if depth < 2 and self.random.random() < 0.3:
            item["children"] = [self.item(depth + 1) for _ in range(self.random.randint(1, 3))]
            if self.random.random() < 0.5:
                item["expanded"] = True
        return item

    def items(self, low: int, high: int) -> list[dict[str, Any]]:
        return [self.item(0 if self.random.random() < 0.5 else 1) for _ in range(self.random.randint(low, high))]

    def content(self) -> dict[str, Any]:
        """A content for list/create or list/replace: new sections, or the current rows rearranged."""
        r = self.random
        sections = []
        for section in self.snapshot["sections"]:
            if r.random() < 0.15:
                continue
            roots = self.tree(section["rows"])
            roots = [root for root in roots if r.random() < 0.8]
            r.shuffle(roots)
            if r.random() < 0.5:
                roots += self.items(0, 2)
            entry: dict[str, Any] = {"id": section["id"], "items": roots}
            if r.random() < 0.7 and section.get("header") is not None:
                entry["header"] = section["header"]
            for key in ("kind", "headerMode"):
                if r.random() < 0.7 and key in section:
                    entry[key] = section[key]
            sections.append(self.style(entry) if r.random() < 0.2 else entry)
        while len(sections) < 2 or r.random() < 0.2:
            fresh = {"id": self.fresh("s"), "header": f"H{self.counter}", "items": self.items(1, 4)}
            sections.append(self.style(fresh))
        return {"sections": sections}

    def style(self, section: dict[str, Any]) -> dict[str, Any]:
        """``section`` with, at random, a ``kind`` and a ``headerMode`` (Presentation)."""
        r = self.random
        if r.random() < 0.3:
            section["kind"] = f"k{r.randint(0, 1)}"
        if r.random() < 0.3:
            section["headerMode"] = r.choice(HEADER_MODES)
        return section

    def tree(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Content items from visible rows (their hidden descendants are left out)."""
        nodes: dict[str, dict[str, Any]] = {}
        roots: list[dict[str, Any]] = []
        for row in rows:
            node = {key: value for key, value in row.items() if key in PAYLOAD_FIELDS or key == "id"}
            if self.random.random() < 0.2:
                node["text"] = self.random.choice(TEXTS)
            if row.get("expanded") and self.random.random() < 0.8:
                node["expanded"] = True
            nodes[row["id"]] = node
            parent = nodes.get(row.get("parent", ""))
            if parent is None:
                roots.append(node)
            else:
                parent.setdefault("children", []).append(node)
        return roots

    # -- Steps

    def edit(self) -> dict[str, Any]:
        """One edit, mostly valid, of every op of Protocol/README.md §5."""
        r = self.random
        count = len(self.items_)
        grow = 3 if count < 80 else 0 if count > 300 else 1
        shrink = 3 if count > 300 else 1
        sections = len(self.sections)
        weights = {
            "appendItems": 8 * grow,
            "insertItems": 5 * grow,
            "appendChildren": 4 * grow,
            "deleteItems": 6 * shrink,
            "moveItem": 10,
            "expand": 5,
            "collapse": 4,
            "updateItems": 4,
            "patchItems": 4,
            "reloadItems": 2,
            "reconfigureItems": 2,
            "replaceItems": 2,
            "select": 5,
            "deselect": 3,
            "selectAll": 1,
            "deselectAll": 1,
            "appendSections": 5 if sections < 3 else 1 if sections < 7 else 0,
            "insertSections": 3 if sections < 3 else 1 if sections < 7 else 0,
            "deleteSections": 3 if sections > 6 else 1 if sections > 3 else 0,
            "moveSection": 3,
            "updateSection": 3,
            "reloadSections": 1,
        }
        op = r.choices(list(weights), list(weights.values()))[0]
        if r.random() < 0.002:
            op = "deleteAllItems"
        anchor = lambda: r.choice(["before", "after"])  # noqa: E731
        if op == "appendItems":
            edit: dict[str, Any] = {"op": op, "items": self.items(1, 3)}
            if r.random() < 0.7:
                edit["section"] = self.some_section()
            return edit
        if op == "insertItems":
            return {"op": op, "items": self.items(1, 3), anchor(): self.some_item()}
        if op == "appendChildren":
            return {"op": op, "parent": self.some_item(), "items": self.items(1, 2)}
        if op == "deleteItems":
            return {"op": op, "items": sorted({self.some_item() for _ in range(r.randint(1, 3))})}
        if op == "moveItem":
            where = r.random()
            if where < 0.6:
                return {"op": op, "item": self.some_item(), anchor(): self.some_item()}
            if where < 0.8:
                return {"op": op, "item": self.some_item(), "section": self.some_section()}
            return {"op": op, "item": self.some_item(), "parent": self.some_item()}
        if op in ("expand", "collapse"):
            parents = [row["id"] for row in self.rows if row.get("hasChildren")]
            edit = {"op": op, "item": r.choice(parents) if parents and r.random() < 0.8 else self.some_item()}
            if r.random() < 0.25:
                edit["recursive"] = True
            return edit
        if op == "updateItems":
            return {
                "op": op,
                "items": [
                    self.payload({"id": item}) for item in sorted({self.some_item() for _ in range(r.randint(1, 2))})
                ],
            }
        if op == "patchItems":
            patches = []
            for item in sorted({self.some_item() for _ in range(r.randint(1, 2))}):
                patch: dict[str, Any] = {"id": item}
                if r.random() < 0.6:
                    patch["text"] = r.choice(TEXTS)
                if r.random() < 0.3:
                    patch["secondaryText"] = None
                if r.random() < 0.3:
                    patch["data"] = {"floor": r.randint(0, 3), "n": None}
                if r.random() < 0.2:
                    patch["selectable"] = r.random() < 0.7
                patches.append(patch)
            return {"op": op, "items": patches}
        if op in ("reloadItems", "reconfigureItems"):
            return {"op": op, "items": sorted({self.some_item() for _ in range(r.randint(1, 2))})}
        if op == "replaceItems":
            section = self.some_section()
            rows = next((s["rows"] for s in self.snapshot["sections"] if s["id"] == section), [])
            roots = [root for root in self.tree(rows) if r.random() < 0.7] + self.items(0, 2)
            r.shuffle(roots)
            return {"op": op, "section": section, "items": roots}
        if op in ("select", "deselect"):
            visible = [row["id"] for row in self.rows]
            chosen = sorted({r.choice(visible) for _ in range(r.randint(1, 3))}) if visible else ["missing"]
            return {"op": op, "items": chosen}
        if op in ("appendSections", "insertSections"):
            new = []
            for _ in range(r.randint(1, 2)):
                section = {"id": self.fresh("s")}
                if r.random() < 0.5:
                    section["header"] = f"H{self.counter}"
                if r.random() < 0.7:
                    section["items"] = self.items(1, 4)
                new.append(self.style(section))
            if op == "appendSections" or not self.sections:
                return {"op": "appendSections", "sections": new}
            return {"op": op, "sections": new, anchor(): self.some_section()}
        if op == "deleteSections":
            return {"op": op, "sections": [self.some_section()]}
        if op == "moveSection":
            return {"op": op, "section": self.some_section(), anchor(): self.some_section()}
        if op == "updateSection":
            edit = {"op": op, "section": self.some_section()}
            if r.random() < 0.7:
                edit["header"] = None if r.random() < 0.2 else f"H{r.randint(0, 5)}"
            if r.random() < 0.5:
                edit["footer"] = None if r.random() < 0.3 else f"F{r.randint(0, 5)}"
            if r.random() < 0.4:
                edit["kind"] = None if r.random() < 0.3 else f"k{r.randint(0, 1)}"
            if r.random() < 0.4:
                edit["headerMode"] = None if r.random() < 0.2 else r.choice(HEADER_MODES)
            return edit
        if op == "reloadSections":
            return {"op": op, "sections": [self.some_section()]}
        return {"op": op}

    def invalid_edit(self) -> dict[str, Any]:
        """An edit that fails its whole batch."""
        r = self.random
        choice = r.randint(0, 4)
        if choice == 0:
            return {"op": "deleteItems", "items": [self.fresh("missing")]}
        if choice == 1:
            return {"op": "appendItems", "items": [{"id": self.some_item()}], "section": self.some_section()}
        if choice == 2:
            return {"op": "frobnicate"}
        if choice == 3:
            return {"op": "insertSections", "sections": [{"id": self.fresh("s")}], "before": "no-such-section"}
        return {"op": "moveItem", "item": self.some_item()}  # no anchor

    def step(self) -> tuple[str, Callable[[Any, Any], Any]]:
        """The next step: its description, and a function sending it (``send(owner, viewer)``)."""
        r = self.random
        kind = r.random()
        if kind < 0.72:
            edits = [self.edit() for _ in range(r.randint(1, 4))]
            if r.random() < 0.05:
                edits.insert(r.randint(0, len(edits)), self.invalid_edit())
            return f"list/edit {edits}", lambda owner, viewer: owner.list_edit(self.list, edits)
        if kind < 0.77:
            item = self.some_item() if r.random() < 0.6 else None
            recursive = r.choice([None, True])
            method = r.choice(["outline_expand", "outline_collapse"])
            return (
                f"{method} item={item} recursive={recursive}",
                lambda owner, viewer: getattr(viewer, method)(self.list, item=item, recursive=recursive),
            )
        if kind < 0.80:
            level = r.randint(0, 3)
            section = self.some_section() if r.random() < 0.5 else None
            return (
                f"outline/expandToLevel {level} section={section}",
                lambda owner, viewer: viewer.outline_expand_to_level(self.list, level, section=section),
            )
        if kind < 0.88:
            method = r.choice(
                ["selection_select", "selection_deselect", "selection_select_all", "selection_deselect_all"]
            )
            if method in ("selection_select", "selection_deselect"):
                items = [self.some_item() for _ in range(r.randint(1, 3))]
                return f"{method} {items}", lambda owner, viewer: getattr(viewer, method)(self.list, items)
            return method, lambda owner, viewer: getattr(viewer, method)(self.list)
        if kind < 0.96:
            item = self.some_item()
            method = r.choice(["event_select", "event_deselect"])
            return f"{method} {item}", lambda owner, viewer: getattr(viewer, method)(self.list, item)
        content = self.content()
        return f"list/replace {content}", lambda owner, viewer: owner.list_replace(self.list, content)
