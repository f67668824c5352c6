// The daemon's limits and settings, from the command line.
import JSONRPC

/// Limits and settings of a ``ListServer``; defaults as in Protocol/README.md §7.
public struct ServerOptions: Sendable {
  /// Versions of history kept per list for `list/changesSince`.
  public var historyLimit = 1_000
  /// The latest changes per list kept with their records, so `list/explain` can explain them
  /// (each record keeps the list as it was before the change; at least 1).
  public var explainLimit = 1_000
  /// Largest incoming frame.
  public var maxFrameBytes = 64 << 20
  /// Outgoing bytes a session may have pending before it is disconnected.
  public var maxQueueBytes = 64 << 20
  /// Default and maximum time a viewer's refresh waits for the owner.
  public var refreshTimeout: Duration = .seconds(10)
  public var maxRefreshTimeout: Duration = .seconds(60)
  /// Largest `limit` of a paged query.
  public var maxWindow = 10_000
  /// Content larger than this many items reports `$/progress` when the request has a token.
  public var progressThreshold = 10_000
  /// How long a socket session closed by the daemon after its last answers (a stop, `exit`)
  /// waits for its client to close too, dropping what it still sends, so the client reads every
  /// answer and then end of file, never a reset (`Connection.Options.lingerTimeout`).
  public var lingerTimeout: Duration = .seconds(2)
  /// How long a list whose owner's session closed stays before it is disposed; nil keeps it
  /// until a session claims or disposes it.
  public var orphanTimeout: Duration? = nil
  /// Where logs go (never stdout).
  public var logger: Logger = .standardError()
  /// `--state DIR`: where lists are journaled so they survive a restart or a crash; nil keeps
  /// everything in memory.
  public var stateDirectory: String?
  /// `--sync`: when a committed change is on disk relative to its answer.
  public var sync: SyncMode = .batch
  /// A journal larger than this many bytes starts a new generation with a checkpoint.
  public var checkpointBytes = 16 << 20
  /// `--retain-versions`, `--retain-bytes`: what the state directory keeps of older generations.
  public var retainVersions = 10_000
  public var retainBytes = 1 << 30

  public init() {}
}
