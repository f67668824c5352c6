"""The protocol's requests as methods: one per client-to-server method of Protocol/protocol.json.

Each method takes the method's params as arguments in snake_case (``ifVersion`` is
``if_version``): required params positionally or by keyword, optional ones by keyword, left out
when ``None``. ``Client`` returns the result; ``AsyncClient`` returns an awaitable of it. The
results are the JSON objects Protocol/README.md describes (``dict`` / ``list`` / ``str`` …).
"""

from __future__ import annotations

from typing import Any, Generic, Literal, Mapping, Sequence, TypeVar

from .errors import hide_in_traceback

__all__ = ["Requests", "Content", "Edit", "Appearance", "SelectionMode", "TraceLevel", "SnapshotForm"]

#: ``{"sections": [{"id", "header"?, "footer"?, "items": [item…]}]}`` (Protocol/README.md §3).
Content = Mapping[str, Any]
#: One edit of ``list_edit``: ``{"op": "appendItems", "items": […], …}`` (Protocol/README.md §5).
Edit = Mapping[str, Any]
Appearance = Literal["plain", "grouped", "insetGrouped", "sidebar", "sidebarPlain"]
SelectionMode = Literal["none", "single", "multiple"]
TraceLevel = Literal["off", "messages", "verbose"]
SnapshotForm = Literal["full", "window", "none"]
#: What a mutation's answer carries of the rows: ``"all"`` (default) or ``"none"`` (the structure only).
AnswerRows = Literal["all", "none"]

R = TypeVar("R")


def _params(params: dict[str, Any]) -> dict[str, Any]:
    """The params without the members left out (None)."""
    return {name: value for name, value in params.items() if value is not None}


# Every method here only forwards to the client's request path: pytest hides these frames when the
# request raises a ListdError, so a user's failing test shows their call and the daemon's message.
__tracebackhide__ = hide_in_traceback


class Requests(Generic[R]):
    """Every request and notification a client sends, as methods; ``R`` is what a request returns
    (the result for ``Client``, an awaitable of it for ``AsyncClient``)."""

    def _request(self, method: str, params: dict[str, Any]) -> R:
        raise NotImplementedError

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        raise NotImplementedError

    def _initialize(self, params: dict[str, Any]) -> R:
        """Sends ``initialize``, keeps its answer, then sends ``initialized``."""
        raise NotImplementedError

    def initialize(
        self,
        *,
        client_info: Mapping[str, Any] | None = None,
        capabilities: Mapping[str, Any] | None = None,
        process_id: int | None = None,
        trace: TraceLevel | None = None,
        work_done_token: str | int | None = None,
    ) -> R:
        """Starts the session (the first request of every connection) and sends ``initialized``.

        Returns ``{serverInfo: {name, version}, protocolVersion, session, capabilities: {methods,
        notifications, limits}}``. ``client_info={"name": …}`` is the name ``list_info`` shows as
        the owner of lists this session creates. ``Client.connect`` and ``Client.spawn`` call it
        for you unless given ``initialize=False``."""
        return self._initialize(
            _params(
                {
                    "clientInfo": client_info,
                    "capabilities": capabilities,
                    "processId": process_id,
                    "trace": trace,
                    "workDoneToken": work_done_token,
                }
            )
        )

    def initialized(self) -> None:
        """Sends the ``initialized`` notification (``initialize`` already does)."""
        return self._notify("initialized", {})

    def shutdown(self) -> R:
        """Asks the daemon to finish every change queued so far; it answers ``None``, and refuses later
        requests with ``InvalidRequest``. Follow it with ``exit()``."""
        return self._request("shutdown", {})

    def exit(self) -> None:
        """Sends ``exit``: a spawned daemon exits (0 after ``shutdown``), a socket connection closes."""
        return self._notify("exit", {})

    def cancel_request(self, id: Any) -> None:
        """Sends ``$/cancelRequest`` for the request ``id``: if it has not completed, it is answered
        with ``RequestCancelled`` (-32800). ``PendingRequest.cancel()`` does this for you."""
        return self._notify("$/cancelRequest", _params({"id": id}))

    def set_trace(self, value: TraceLevel) -> None:
        """Sends ``$/setTrace``: ``"messages"`` or ``"verbose"`` makes the daemon send a ``$/logTrace``
        notification describing each request of this session; ``"off"`` stops them."""
        return self._notify("$/setTrace", _params({"value": value}))

    def list_create(
        self,
        list: str,
        *,
        title: str | None = None,
        appearance: Appearance | None = None,
        selection_mode: SelectionMode | None = None,
        content: Content | None = None,
        rows: AnswerRows | None = None,
        work_done_token: str | int | None = None,
        columns: list[dict[str, Any]] | None = None,
        empty_state: dict[str, Any] | None = None,
        editing: bool | None = None,
    ) -> R:
        """Creates the list ``list``, owned by this session (it hears the list's user events).

        ``content`` is ``{"sections": [{"id", "header"?, "footer"?, "items": [item…]}]}``. A table
        has ``columns`` (``[{"id", "title", "alignment"?, "width"?, "sortable"?}]``; items carry
        ``cells``); ``empty_state`` is ``{"title", "image"?, "description"?}``; ``editing`` the
        editing mode. Returns ``{list, version: 0, changeset}``, the changeset inserting its
        sections (and its columns, empty state, editing): ``{id, header?, footer?, kind?, headerMode?, rowCount}``
        each, the content not echoed, unless ``rows="all"``, which gives each section's rows. Raises ``DuplicateId`` if the id is
        taken, ``InvalidParams`` naming a bad field (a cell for an unknown column too)."""
        return self._request(
            "list/create",
            _params(
                {
                    "list": list,
                    "title": title,
                    "appearance": appearance,
                    "selectionMode": selection_mode,
                    "columns": columns,
                    "emptyState": empty_state,
                    "editing": editing,
                    "content": content,
                    "rows": rows,
                    "workDoneToken": work_done_token,
                }
            ),
        )

    def list_dispose(self, list: str, *, force: bool | None = None) -> R:
        """Disposes ``list``; every session gets ``list/didDispose``. Returns ``{list, version}``.

        A list another live session owns raises ``NotOwner`` unless ``force=True`` (its owner then
        gets ``owner/lost``)."""
        return self._request("list/dispose", _params({"list": list, "force": force}))

    def list_claim(self, list: str, *, force: bool | None = None) -> R:
        """Makes this session the owner of ``list`` (whose owner's session has closed). Returns ``{list,
        owner: {session, name?}}``. A list another live session owns raises ``NotOwner`` unless
        ``force=True`` (its owner then gets ``owner/lost``)."""
        return self._request("list/claim", _params({"list": list, "force": force}))

    def list_all(self, *, offset: int | None = None, limit: int | None = None) -> R:
        """The lists in creation order, paged: ``{lists: [info], total}`` — ``offset`` skips that many,
        ``limit`` caps the page (default: every list), ``total`` counts every list."""
        return self._request("list/all", _params({"offset": offset, "limit": limit}))

    def list_info(self, list: str, *, at_version: int | None = None) -> R:
        """Describes ``list``: ``{list, title, appearance, selectionMode, version, sections, items, rows,
        selected, owner: {session, name?} | None, subscribers}``."""
        return self._request("list/info", _params({"list": list, "atVersion": at_version}))

    def list_replace(
        self,
        list: str,
        content: Content,
        *,
        if_version: int | None = None,
        work_done_token: str | int | None = None,
        explain: bool | None = None,
        rows: AnswerRows | None = None,
    ) -> R:
        """Replaces the whole content of ``list`` (items keep their identity, expansion and selection
        where they stay). Returns ``{list, version, changeset, explain?}``; equal content changes
        nothing (the current version, ``{}``). ``if_version`` makes it fail with
        ``ContentModified`` unless the list is at that version; ``explain=True`` adds why each row
        changed."""
        return self._request(
            "list/replace",
            _params(
                {
                    "list": list,
                    "content": content,
                    "ifVersion": if_version,
                    "workDoneToken": work_done_token,
                    "explain": explain,
                    "rows": rows,
                }
            ),
        )

    def list_edit(
        self,
        list: str,
        edits: Sequence[Edit],
        *,
        if_version: int | None = None,
        work_done_token: str | int | None = None,
        explain: bool | None = None,
        rows: AnswerRows | None = None,
    ) -> R:
        """Applies ``edits`` to ``list`` atomically: all of them or, on an error, none.

        Each edit is ``{"op": …, …}`` (Protocol/README.md §5: ``appendItems``, ``moveItem``,
        ``patchItems``, ``select``, …). Returns ``{list, version, changeset, explain?}``; an error's
        ``data["editIndex"]`` names the edit that failed. ``if_version``: fail with
        ``ContentModified`` unless the list is at that version."""
        return self._request(
            "list/edit",
            _params(
                {
                    "list": list,
                    "edits": edits,
                    "ifVersion": if_version,
                    "workDoneToken": work_done_token,
                    "explain": explain,
                    "rows": rows,
                }
            ),
        )

    def outline_expand(
        self, list: str, *, item: str | None = None, recursive: bool | None = None, if_version: int | None = None,
        rows: AnswerRows | None = None,
    ) -> R:
        """Expands ``item`` (its whole subtree with ``recursive=True``), or without ``item`` every item
        with children. Returns ``{list, version, changeset}``."""
        return self._request(
            "outline/expand", _params({"list": list, "item": item, "recursive": recursive, "ifVersion": if_version, "rows": rows})
        )

    def outline_collapse(
        self, list: str, *, item: str | None = None, recursive: bool | None = None, if_version: int | None = None,
        rows: AnswerRows | None = None,
    ) -> R:
        """Collapses ``item`` (its whole subtree with ``recursive=True``), or without ``item`` every item.
        Returns ``{list, version, changeset}``."""
        return self._request(
            "outline/collapse", _params({"list": list, "item": item, "recursive": recursive, "ifVersion": if_version, "rows": rows})
        )

    def outline_expand_to_level(
        self, list: str, level: int, *, section: str | None = None, if_version: int | None = None,
        rows: AnswerRows | None = None,
    ) -> R:
        """Expands the items with children whose level is below ``level`` and collapses the rest (of
        ``section``, or of every section). Returns ``{list, version, changeset}``."""
        return self._request(
            "outline/expandToLevel",
            _params({"list": list, "level": level, "section": section, "ifVersion": if_version, "rows": rows}),
        )

    def selection_select(self, list: str, items: Sequence[str], *, if_version: int | None = None, rows: AnswerRows | None = None) -> R:
        """Selects ``items`` as the list's selection mode allows (``single`` replaces the selection).
        Returns ``{list, version, changeset}``; raises ``InvalidEdit`` for a hidden or unselectable
        item or mode ``none``, ``UnknownItem`` for an unknown id."""
        return self._request("selection/select", _params({"list": list, "items": items, "ifVersion": if_version, "rows": rows}))

    def selection_deselect(self, list: str, items: Sequence[str], *, if_version: int | None = None, rows: AnswerRows | None = None) -> R:
        """Deselects ``items``. Returns ``{list, version, changeset}``."""
        return self._request("selection/deselect", _params({"list": list, "items": items, "ifVersion": if_version, "rows": rows}))

    def selection_select_all(self, list: str, *, if_version: int | None = None, rows: AnswerRows | None = None) -> R:
        """Selects every visible, selectable item (mode ``multiple`` only). Returns ``{list, version,
        changeset}``."""
        return self._request("selection/selectAll", _params({"list": list, "ifVersion": if_version, "rows": rows}))

    def selection_deselect_all(self, list: str, *, if_version: int | None = None, rows: AnswerRows | None = None) -> R:
        """Clears the selection. Returns ``{list, version, changeset}``."""
        return self._request("selection/deselectAll", _params({"list": list, "ifVersion": if_version, "rows": rows}))

    def query_sections(self, list: str, *, at_version: int | None = None) -> R:
        """The sections of ``list``: ``{list, version, sections: [{id, index, header?, footer?, items,
        rows}]}``."""
        return self._request("query/sections", _params({"list": list, "atVersion": at_version}))

    def query_items(self, list: str, section: str, *, offset: int | None = None, limit: int | None = None, at_version: int | None = None) -> R:
        """The rows of ``section``, from ``offset`` (default 0), at most ``limit``: ``{list, version,
        section, total, offset, rows}``."""
        return self._request(
            "query/items", _params({"list": list, "section": section, "offset": offset, "limit": limit, "atVersion": at_version})
        )

    def query_window(self, list: str, offset: int, limit: int, *, at_version: int | None = None) -> R:
        """The visible rows ``offset``…``offset+limit-1`` of all sections flattened: ``{list, version,
        totalRows, offset, rows, sections}``, each row with its ``section`` and ``indexPath``."""
        return self._request("query/window", _params({"list": list, "offset": offset, "limit": limit, "atVersion": at_version}))

    def query_item(self, list: str, item: str, *, at_version: int | None = None) -> R:
        """One item by id, hidden or not: ``{list, version, item: {…row, section, indexPath, children,
        visible, selected}}``."""
        return self._request("query/item", _params({"list": list, "item": item, "atVersion": at_version}))

    def query_item_at(self, list: str, index_path: Sequence[int], *, at_version: int | None = None) -> R:
        """The item at ``index_path`` ``[section, row]`` (visible rows): ``{list, version, item}``."""
        return self._request("query/itemAt", _params({"list": list, "indexPath": index_path, "atVersion": at_version}))

    def query_selection(self, list: str, *, at_version: int | None = None) -> R:
        """The selection in index-path order: ``{list, version, mode, items: [{id, indexPath}]}``."""
        return self._request("query/selection", _params({"list": list, "atVersion": at_version}))

    def query_outline(
        self, list: str, *, item: str | None = None, section: str | None = None, depth: int | None = None, at_version: int | None = None) -> R:
        """The outline below ``item``, or the roots of ``section``, or of every section, down to ``depth``
        levels: ``{list, version, nodes: [{id, text?, expanded, hasChildren?, children}]}``."""
        return self._request("query/outline", _params({"list": list, "item": item, "section": section, "depth": depth, "atVersion": at_version}))

    def query_search(self, list: str, text: str, *, case_sensitive: bool | None = None, limit: int | None = None, at_version: int | None = None) -> R:
        """Items whose text or secondary text contains ``text`` (case-insensitive unless
        ``case_sensitive``), hidden ones included: ``{list, version, matches: [{id, section,
        indexPath}], truncated}``."""
        return self._request(
            "query/search", _params({"list": list, "text": text, "caseSensitive": case_sensitive, "limit": limit, "atVersion": at_version})
        )

    def query_counts(self, list: str, *, at_version: int | None = None) -> R:
        """``{list, version, sections, items, rows, selected}``."""
        return self._request("query/counts", _params({"list": list, "atVersion": at_version}))

    def query_content(self, list: str, *, at_version: int | None = None) -> R:
        """The whole content of ``list`` in ``list/create``'s format, hidden children, expansion and
        selection included: ``{list, version, content, selected}``; ``at_version`` answers as the
        list was then."""
        return self._request("query/content", _params({"list": list, "atVersion": at_version}))

    def list_diff(
        self,
        list: str,
        from_: int,
        to: int,
        *,
        explain: bool | None = None,
        edits: bool | None = None,
    ) -> R:
        """One changeset that takes version ``from_`` of ``list`` to version ``to`` (either way):
        ``{list, from, to, changeset, explain?, edits?}``; ``edits=True`` adds a ``list/edit`` batch
        that makes it."""
        return self._request(
            "list/diff", _params({"list": list, "from": from_, "to": to, "explain": explain, "edits": edits})
        )

    def list_subscribe(
        self, list: str | None = None, *, snapshot: SnapshotForm | None = None, window: Mapping[str, Any] | None = None, at_version: int | None = None) -> R:
        """Subscribes to ``list``, or without it to every list present and future. Returns ``{lists:
        [{list, version, info, snapshot?, window?}]}``; from that version on, every change arrives
        as a ``list/didChange`` notification, in order, none skipped (``Mirror.from_subscribe``
        builds a mirror from the answer). ``snapshot``: ``"full"`` (default), ``"window"`` (with
        ``window={"offset": …, "limit": …}``) or ``"none"``. With ``window`` the subscription is
        windowed: the entry also carries ``sections`` and ``selection``, and each ``didChange``
        carries only the window's rows (``WindowedMirror.from_subscribe`` follows it)."""
        return self._request("list/subscribe", _params({"list": list, "snapshot": snapshot, "window": window, "atVersion": at_version}))

    def list_set_window(self, list: str, offset: int, limit: int) -> R:
        """Moves this session's window over ``list`` (a full subscription becomes windowed) and
        answers ``{list, version, window, sections, selection}``: the subscription starts afresh
        at ``version`` (``WindowedMirror.apply_set_window``); later changes follow the answer."""
        return self._request("list/setWindow", {"list": list, "offset": offset, "limit": limit})

    def list_unsubscribe(self, list: str | None = None) -> R:
        """Ends the subscription to ``list``, or without it every subscription of this session."""
        return self._request("list/unsubscribe", _params({"list": list}))

    def list_changes_since(self, list: str, version: int, *, explain: bool | None = None) -> R:
        """The ``list/didChange`` params of every change after ``version``: ``{list, version, changes}``.
        Raises ``HistoryUnavailable`` for a version older than the kept history (resubscribe)."""
        return self._request("list/changesSince", _params({"list": list, "version": version, "explain": explain}))

    def event_select(self, list: str, item: str) -> R:
        """Reports that a user selected ``item``: the daemon selects it and tells the owner
        (``owner/event``). Returns ``{list, version}``."""
        return self._request("event/select", _params({"list": list, "item": item}))

    def event_deselect(self, list: str, item: str) -> R:
        """Reports that a user deselected ``item``: the daemon deselects it and tells the owner.
        Returns ``{list, version}``."""
        return self._request("event/deselect", _params({"list": list, "item": item}))

    def event_toggle(self, list: str, item: str, is_on: bool) -> R:
        """Reports that a user flipped ``item``'s toggle accessory to ``is_on``; the owner decides.
        Returns ``{list, version}``."""
        return self._request("event/toggle", _params({"list": list, "item": item, "isOn": is_on}))

    def event_action(self, list: str, item: str, action: str) -> R:
        """Reports that a user invoked the swipe, context-menu or pop-up action ``action`` of ``item``;
        the owner decides. Returns ``{list, version}``."""
        return self._request("event/action", _params({"list": list, "item": item, "action": action}))

    def event_delete(self, list: str, item: str) -> R:
        """Reports that a user asked to delete ``item``; the owner decides. Returns ``{list,
        version}``; ``NoOwner`` if the list has none."""
        return self._request("event/delete", _params({"list": list, "item": item}))

    def event_move(
        self, list: str, item: str, *, before: str | None = None, after: str | None = None, section: str | None = None
    ) -> R:
        """Reports that a user dragged ``item`` (which must be movable) ``before`` or ``after`` another,
        or to the end of ``section``; the owner decides. Returns ``{list, version}``."""
        return self._request(
            "event/move", _params({"list": list, "item": item, "before": before, "after": after, "section": section})
        )

    def event_refresh(self, list: str, *, timeout_ms: int | None = None) -> R:
        """Asks the owner to refresh ``list`` (an ``owner/refresh`` request) and answers ``{list,
        version}`` once it has; ``OwnerTimeout`` after ``timeout_ms`` (default 10 s)."""
        return self._request("event/refresh", _params({"list": list, "timeoutMs": timeout_ms}))

    def diff_preview(
        self,
        list: str,
        *,
        content: Content | None = None,
        edits: Sequence[Edit] | None = None,
        if_version: int | None = None,
        explain: bool | None = None,
    ) -> R:
        """What ``list_replace`` (with ``content``) or ``list_edit`` (with ``edits``) would answer now —
        the same version, changeset and errors — committing nothing. Give exactly one of the two."""
        return self._request(
            "diff/preview",
            _params({"list": list, "content": content, "edits": edits, "ifVersion": if_version, "explain": explain}),
        )

    def diff_contents(
        self,
        old: Content,
        new: Content,
        *,
        selection_mode: SelectionMode | None = None,
        explain: bool | None = None,
        columns: list[dict[str, Any]] | None = None,
    ) -> R:
        """The changeset from content ``old`` to content ``new``, with no list involved: ``{changeset,
        explain?}``. ``columns``: what both sides' cells may name."""
        return self._request(
            "diff/contents",
            _params(
                {"old": old, "new": new, "selectionMode": selection_mode, "columns": columns, "explain": explain}
            ),
        )

    def list_explain(self, list: str, *, version: int | None = None, item: str | None = None) -> R:
        """Why a kept change did what it did: the change that produced ``version``, or the latest kept
        change that concerns ``item``: ``{list, version, previousVersion, changeset, explain,
        item?}``. Give ``version``, ``item`` or both."""
        return self._request("list/explain", _params({"list": list, "version": version, "item": item}))

    def check_batch_update(
        self, before: Sequence[int], update: Mapping[str, Any], *, after: Sequence[int] | None = None
    ) -> R:
        """What UIKit's ``performBatchUpdates`` would make of ``update`` (a changeset's index members)
        on sections of ``before`` rows: ``{valid: True, after}``, or ``{valid: False, problems}``
        with UIKit's messages. ``after``: the counts the data source reports afterwards."""
        return self._request("check/batchUpdate", _params({"before": before, "update": update, "after": after}))

    def check_snapshot(self, *, content: Content | None = None, flat: Mapping[str, Any] | None = None) -> R:
        """What ``NSDiffableDataSourceSnapshot`` refuses in ``content``, or in ``flat`` (``{sections,
        items: [{id, section?}]}``): duplicate identifiers, items in no section."""
        return self._request("check/snapshot", _params({"content": content, "flat": flat}))

    # Live views (Protocol/README.md, Live views).

    def view_create(
        self,
        view: str,
        source: str,
        *,
        title: str | None = None,
        filter: Mapping[str, Any] | None = None,
        sort: Sequence[Mapping[str, Any]] | None = None,
        group: Mapping[str, Any] | None = None,
    ) -> R:
        """Creates ``view``, a live read-only list derived from ``source`` (a list or a view) and owned
        by this session: ``filter`` ``{query?, match?, predicates?: [{field, op, value}]}``, ``sort``
        ``[{field, descending?}]``, ``group`` ``{field, by?: "value" | "initial", descending?}``.
        Returns ``{list, source, version: 0, changeset}``."""
        return self._request(
            "view/create",
            _params({"view": view, "source": source, "title": title, "filter": filter, "sort": sort, "group": group}),
        )

    def view_update(
        self,
        view: str,
        *,
        filter: Mapping[str, Any] | None = None,
        sort: Sequence[Mapping[str, Any]] | None = None,
        group: Mapping[str, Any] | None = None,
    ) -> R:
        """Replaces the parts of ``view``'s definition given (None leaves a part as it is; ``filter={}``
        and ``sort=[]`` clear one), in one changeset. Returns ``{list, version, changeset}``."""
        return self._request("view/update", _params({"view": view, "filter": filter, "sort": sort, "group": group}))

    def view_info(self, view: str) -> R:
        """Describes ``view``: ``{view, source, filter, sort, group, version, rows}``."""
        return self._request("view/info", {"view": view})
