// When a committed change is on disk, relative to its answer (`--sync`).

/// How `--state` makes committed changes durable.
public enum SyncMode: String, CaseIterable, Sendable {
  /// Each change is written and synced to disk (see `Platform.syncData`) before its answer.
  case always
  /// Group commit: each change is written at once; its answer (and its notifications) wait
  /// for the sync of its group, which covers every change written before it.
  case batch
  /// Each change is written before its answer; the OS flushes it when it decides (a `kill -9`
  /// loses nothing, a power loss can lose the last seconds).
  case none
}
