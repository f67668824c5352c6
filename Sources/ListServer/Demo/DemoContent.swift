// The embedded demo content of `listd --demo`, in the wire content format of Protocol/README.md.

/// Demo lists as JSON content documents, parsed at start-up like any client's content.
enum DemoContent {
  /// Contacts: a plain list with accessories, badges, swipe and context-menu actions.
  static let contacts = #"""
    {"sections": [
      {"id": "letter-A", "header": "A", "items": [
        {"id": "ada", "text": "Ada Lovelace", "secondaryText": "ada@analytical.org", "image": "person.circle", "data": {"topic": "Mathematics", "email": "ada@analytical.org"}, "accessories": [{"type": "disclosureIndicator"}, {"type": "badge", "text": "1"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]},
        {"id": "alan", "text": "Alan Turing", "secondaryText": "alan@bletchley.uk", "image": "person.circle", "data": {"topic": "Computing", "email": "alan@bletchley.uk"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-B", "header": "B", "items": [
        {"id": "barbara", "text": "Barbara Liskov", "secondaryText": "barbara@mit.edu", "image": "person.circle", "data": {"topic": "Programming", "email": "barbara@mit.edu"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-C", "header": "C", "items": [
        {"id": "claude", "text": "Claude Shannon", "secondaryText": "claude@bell-labs.com", "image": "person.circle", "data": {"topic": "Information", "email": "claude@bell-labs.com"}, "accessories": [{"type": "disclosureIndicator"}, {"type": "badge", "text": "4"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-D", "header": "D", "items": [
        {"id": "donald", "text": "Donald Knuth", "secondaryText": "don@stanford.edu", "image": "person.circle", "data": {"topic": "Algorithms", "email": "don@stanford.edu"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-E", "header": "E", "items": [
        {"id": "edsger", "text": "Edsger Dijkstra", "secondaryText": "edsger@utexas.edu", "image": "person.circle", "data": {"topic": "Paths", "email": "edsger@utexas.edu"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-F", "header": "F", "items": [
        {"id": "frances", "text": "Frances Allen", "secondaryText": "fran@ibm.com", "image": "person.circle", "data": {"topic": "Compilers", "email": "fran@ibm.com"}, "accessories": [{"type": "disclosureIndicator"}, {"type": "badge", "text": "3"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-G", "header": "G", "items": [
        {"id": "grace", "text": "Grace Hopper", "secondaryText": "grace@navy.mil", "image": "person.circle", "data": {"topic": "COBOL", "email": "grace@navy.mil"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-H", "header": "H", "items": [
        {"id": "hedy", "text": "Hedy Lamarr", "secondaryText": "hedy@mgm.com", "image": "person.circle", "data": {"topic": "Radio", "email": "hedy@mgm.com"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-I", "header": "I", "items": [
        {"id": "ivan", "text": "Ivan Sutherland", "secondaryText": "ivan@utah.edu", "image": "person.circle", "data": {"topic": "Graphics", "email": "ivan@utah.edu"}, "accessories": [{"type": "disclosureIndicator"}, {"type": "badge", "text": "2"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-J", "header": "J", "items": [
        {"id": "john", "text": "John McCarthy", "secondaryText": "john@stanford.edu", "image": "person.circle", "data": {"topic": "Lisp", "email": "john@stanford.edu"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-K", "header": "K", "items": [
        {"id": "ken", "text": "Ken Thompson", "secondaryText": "ken@bell-labs.com", "image": "person.circle", "data": {"topic": "Unix", "email": "ken@bell-labs.com"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-L", "header": "L", "items": [
        {"id": "leslie", "text": "Leslie Lamport", "secondaryText": "leslie@microsoft.com", "image": "person.circle", "data": {"topic": "Clocks", "email": "leslie@microsoft.com"}, "accessories": [{"type": "disclosureIndicator"}, {"type": "badge", "text": "1"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-M", "header": "M", "items": [
        {"id": "margaret", "text": "Margaret Hamilton", "secondaryText": "margaret@nasa.gov", "image": "person.circle", "data": {"topic": "Apollo", "email": "margaret@nasa.gov"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-N", "header": "N", "items": [
        {"id": "niklaus", "text": "Niklaus Wirth", "secondaryText": "niklaus@ethz.ch", "image": "person.circle", "data": {"topic": "Pascal", "email": "niklaus@ethz.ch"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-R", "header": "R", "items": [
        {"id": "radia", "text": "Radia Perlman", "secondaryText": "radia@dec.com", "image": "person.circle", "data": {"topic": "Spanning trees", "email": "radia@dec.com"}, "accessories": [{"type": "disclosureIndicator"}, {"type": "badge", "text": "4"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-T", "header": "T", "items": [
        {"id": "tony", "text": "Tony Hoare", "secondaryText": "tony@oxford.ac.uk", "image": "person.circle", "data": {"topic": "Quicksort", "email": "tony@oxford.ac.uk"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]},
      {"id": "letter-W", "header": "W", "items": [
        {"id": "whitfield", "text": "Whitfield Diffie", "secondaryText": "whit@stanford.edu", "image": "person.circle", "data": {"topic": "Key exchange", "email": "whit@stanford.edu"}, "accessories": [{"type": "disclosureIndicator"}], "leadingSwipeActions": [{"id": "favorite", "title": "Favorite"}], "trailingSwipeActions": [{"id": "archive", "title": "Archive"}, {"id": "delete", "title": "Delete", "style": "destructive"}], "contextMenuActions": [{"id": "copy-email", "title": "Copy Email"}, {"id": "call", "title": "Call"}, {"id": "delete", "title": "Delete", "style": "destructive"}]}]}
    ]}
    """#

  /// Settings: grouped sections with headers, footers, toggles, badges and labels.
  static let settings = #"""
    {"sections": [
      {"id": "connectivity", "header": "Connectivity", "items": [
        {"id": "airplane", "text": "Airplane Mode", "accessories": [{"type": "toggle", "isOn": false}]},
        {"id": "wifi", "text": "Wi-Fi", "image": "wifi", "accessories": [{"type": "label", "text": "home-5G"}, {"type": "disclosureIndicator"}]},
        {"id": "bluetooth", "text": "Bluetooth", "image": "bluetooth", "accessories": [{"type": "label", "text": "On"}, {"type": "disclosureIndicator"}]},
        {"id": "vpn", "text": "VPN", "accessories": [{"type": "toggle", "isOn": true}, {"type": "detail"}]}]},
      {"id": "notifications", "header": "Notifications", "footer": "Badges show how many items are waiting in each app.", "items": [
        {"id": "mail", "text": "Mail", "image": "envelope", "accessories": [{"type": "badge", "text": "12"}, {"type": "disclosureIndicator"}]},
        {"id": "messages", "text": "Messages", "image": "message", "accessories": [{"type": "badge", "text": "3"}, {"type": "disclosureIndicator"}]},
        {"id": "calendar", "text": "Calendar", "image": "calendar", "accessories": [{"type": "disclosureIndicator"}]},
        {"id": "dnd", "text": "Do Not Disturb", "accessories": [{"type": "toggle", "isOn": false}], "secondaryText": "Silence calls and alerts"}]},
      {"id": "display", "header": "Display & Brightness", "items": [
        {"id": "appearance-light", "text": "Light", "accessories": [{"type": "checkmark"}]},
        {"id": "appearance-dark", "text": "Dark"},
        {"id": "text-size", "text": "Text Size", "accessories": [{"type": "popUpMenu", "actions": [{"id": "small", "title": "Small"}, {"id": "medium", "title": "Medium"}, {"id": "large", "title": "Large"}]}]},
        {"id": "true-tone", "text": "True Tone", "accessories": [{"type": "toggle", "isOn": true}]}]},
      {"id": "storage", "header": "Storage", "footer": "41.2 GB of 64 GB used.", "items": [
        {"id": "storage-used", "text": "Used", "accessories": [{"type": "progress", "value": 0.64}]},
        {"id": "offload", "text": "Offload Unused Apps", "accessories": [{"type": "toggle", "isOn": true}]},
        {"id": "reset", "text": "Reset All Settings", "contextMenuActions": [{"id": "reset", "title": "Reset", "style": "destructive"}], "trailingSwipeActions": [{"id": "reset", "title": "Reset", "style": "destructive"}]}]}
    ]}
    """#

  /// A file tree: one outline section, some folders expanded.
  static let files = #"""
    {"sections": [
      {"id": "workspace", "header": "listd", "items": [
        {"id": "Sources", "text": "Sources", "image": "folder", "children": [{"id": "Sources/ListModel", "text": "ListModel", "image": "folder", "children": [{"id": "Sources/ListModel/Snapshot.swift", "text": "Snapshot.swift", "image": "doc"}, {"id": "Sources/ListModel/Outline.swift", "text": "Outline.swift", "image": "doc"}, {"id": "Sources/ListModel/Selection.swift", "text": "Selection.swift", "image": "doc"}, {"id": "Sources/ListModel/Diff.swift", "text": "Diff.swift", "image": "doc"}, {"id": "Sources/ListModel/Changeset.swift", "text": "Changeset.swift", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}, {"id": "Sources/JSONRPC", "text": "JSONRPC", "image": "folder", "children": [{"id": "Sources/JSONRPC/FrameReader.swift", "text": "FrameReader.swift", "image": "doc"}, {"id": "Sources/JSONRPC/FrameWriter.swift", "text": "FrameWriter.swift", "image": "doc"}, {"id": "Sources/JSONRPC/Message.swift", "text": "Message.swift", "image": "doc"}, {"id": "Sources/JSONRPC/Connection.swift", "text": "Connection.swift", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}, {"id": "Sources/ListServer", "text": "ListServer", "image": "folder", "children": [{"id": "Sources/ListServer/Handlers", "text": "Handlers", "image": "folder", "children": [{"id": "Sources/ListServer/Handlers/Lifecycle.swift", "text": "Lifecycle.swift", "image": "doc"}, {"id": "Sources/ListServer/Handlers/Lists.swift", "text": "Lists.swift", "image": "doc"}, {"id": "Sources/ListServer/Handlers/Queries.swift", "text": "Queries.swift", "image": "doc"}, {"id": "Sources/ListServer/Handlers/Subscriptions.swift", "text": "Subscriptions.swift", "image": "doc"}, {"id": "Sources/ListServer/Handlers/Events.swift", "text": "Events.swift", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}, {"id": "Sources/ListServer/Registry.swift", "text": "Registry.swift", "image": "doc"}, {"id": "Sources/ListServer/Session.swift", "text": "Session.swift", "image": "doc"}], "expanded": true, "accessories": [{"type": "outlineDisclosure"}]}, {"id": "Sources/listd", "text": "listd", "image": "folder", "children": [{"id": "Sources/listd/main.swift", "text": "main.swift", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}], "expanded": true, "accessories": [{"type": "outlineDisclosure"}]},
        {"id": "Tests", "text": "Tests", "image": "folder", "children": [{"id": "Tests/ListModelTests", "text": "ListModelTests", "image": "folder", "children": [{"id": "Tests/ListModelTests/SnapshotTests.swift", "text": "SnapshotTests.swift", "image": "doc"}, {"id": "Tests/ListModelTests/MirrorPropertyTests.swift", "text": "MirrorPropertyTests.swift", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}, {"id": "Tests/ListdTests", "text": "ListdTests", "image": "folder", "children": [{"id": "Tests/ListdTests/EndToEndTests.swift", "text": "EndToEndTests.swift", "image": "doc"}, {"id": "Tests/ListdTests/ProtocolSpecTests.swift", "text": "ProtocolSpecTests.swift", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]},
        {"id": "Protocol", "text": "Protocol", "image": "folder", "children": [{"id": "Protocol/examples", "text": "examples", "image": "folder", "children": [{"id": "Protocol/examples/lifecycle.jsonl", "text": "lifecycle.jsonl", "image": "doc"}, {"id": "Protocol/examples/edits.jsonl", "text": "edits.jsonl", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]}, {"id": "Protocol/README.md", "text": "README.md", "image": "doc"}, {"id": "Protocol/protocol.json", "text": "protocol.json", "image": "doc"}], "expanded": false, "accessories": [{"type": "outlineDisclosure"}]},
        {"id": "Package.swift", "text": "Package.swift", "image": "doc"},
        {"id": "README.md", "text": "README.md", "image": "doc"}]}
    ]}
    """#

  /// The `processes` table: a command, its PID, CPU share, memory and start time as columns.
  /// Memory is a number of megabytes (the unit in the title), not text such as "1.4 GB": a
  /// view sorts a number by value, text alphabetically.
  static let processColumns = #"""
    {"columns": [
      {"id": "command", "title": "Command", "width": 18, "sortable": true},
      {"id": "pid", "title": "PID", "alignment": "trailing", "width": 6, "sortable": true},
      {"id": "cpu", "title": "CPU %", "alignment": "trailing", "width": 6, "sortable": true},
      {"id": "memory", "title": "Memory (MB)", "alignment": "trailing", "width": 11, "sortable": true},
      {"id": "kind", "title": "Kind", "width": 8},
      {"id": "started", "title": "Started", "width": 16, "sortable": true},
      {"id": "responding", "title": "OK", "alignment": "center", "width": 3}
    ]}
    """#

  static let processes = #"""
    {"sections": [
      {"id": "running", "header": "Running", "items": [
        {"id": "p1", "text": "listd", "kind": "daemon", "cells": {"command": "listd --listen --stay", "pid": 4121, "cpu": 2.5, "memory": 18.2, "kind": "daemon", "started": "2026-11-23 04:00", "responding": true}},
        {"id": "p2", "text": "swift-build", "kind": "tool", "cells": {"command": "swift-build --build-tests --configuration debug", "pid": 5310, "cpu": 187.4, "memory": 1433.6, "kind": "tool", "started": "2026-11-23 04:12", "responding": true}},
        {"id": "p3", "text": "nvim", "kind": "app", "cells": {"command": "nvim README.md", "pid": 6002, "cpu": 0.3, "memory": 42.5, "kind": "app", "started": "2026-11-23 03:58", "responding": true}},
        {"id": "p4", "text": "zombie", "kind": "app", "cells": {"command": "defunct", "pid": 6110, "cpu": 0, "memory": null, "kind": "app", "started": null, "responding": false}}
      ]}
    ]}
    """#

  /// The `inbox` list: no rows, so a viewer shows its empty state.
  static let inboxEmptyState = #"""
    {"emptyState": {"title": "No Mail", "image": "tray", "description": "New messages appear here."}}
    """#

  static let inbox = #"""
    {"sections": [{"id": "messages", "header": "Messages"}]}
    """#
}
