// The hint after `unknown list`: the daemon's list whose id is near the one typed, and what a --spawn daemon holds.
import CommandLineDescription
import JSONRPC
import ListClient

/// What to try after -32010 `unknown list`, asking the daemon for its lists.
enum UnknownListHint {
  /// The most list ids to compare a mistyped id with (one page of `list/list`).
  static let candidateLimit = 1000

  /// The hint for `error` (nil when it is not an unknown list): `did you mean 'big'?` when a
  /// list of the daemon is a typo away; with --spawn, that its daemon is private and starts
  /// empty (or holds only the demo lists) — `listctl lists` would show nothing more.
  static func hint(for error: ResponseError, client: ListClient, spawn: [String]?) async -> String? {
    guard error.code.rawValue == -32010, let missing = error.data?["list"]?.stringValue else { return nil }
    let ids =
      ((try? await client.lists(limit: candidateLimit))?.lists ?? []).compactMap { $0["list"]?.stringValue }
    let nearest = Suggestion.closest(to: missing, among: ids).map { "did you mean '\($0)'? " } ?? ""
    guard let spawn else { return nearest + "`listctl lists` shows the lists there are" }
    if spawn.contains("--demo") {
      return nearest
        + "the daemon --spawn starts is private: it holds only the demo lists (\(ids.joined(separator: ", ")))"
    }
    return nearest
      + "the daemon --spawn starts is private and starts empty: create the list in the same session "
      + "(`listctl --spawn -- run SCRIPT`), use --spawn --demo for the demo lists, or a shared daemon "
      + "(`listd --listen --stay`)"
  }
}
