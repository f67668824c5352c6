// A connection's options: framing, limits, dispatch mode, logging, closing.
import JSON

extension Connection {
  /// How handlers are scheduled.
  public enum DispatchMode: Sendable, Hashable {
    /// Handlers run concurrently on a dispatch queue.
    case concurrent
    /// Handlers run one at a time, in arrival order. A handler that answers later (see
    /// ``onRequestDeferred(_:cancellation:_:)``) lets the next one start as soon as it returns.
    /// The completion of a request this side sent runs in that order too, after the handlers of
    /// the messages read before its answer (a timeout or a closed connection completes it at once).
    case serial
  }

  public struct Options: Sendable {
    /// The framing of both directions; nil detects it from the input's first byte and answers
    /// in the same framing (messages sent before detection use Content-Length).
    public var framing: Framing?
    /// Incoming frames larger than this are refused (answered -32700) without being stored.
    public var maxFrameSize: Int
    /// Bytes pending on the output beyond which the peer is considered gone and disconnected.
    public var maxOutgoingBytes: Int
    /// Nesting limit of incoming JSON.
    public var maxDepth: Int
    public var dispatch: DispatchMode
    public var logger: Logger
    /// Prefix of log lines, to tell connections apart.
    public var name: String
    /// Close the descriptors when the connection has closed.
    public var closesDescriptors: Bool
    /// Longest time a closing connection spends flushing pending output to a peer that does not read.
    public var flushTimeout: Duration
    /// For a socket whose descriptors the connection closes: once its last frames are written
    /// after a local close, it is half-closed and what the peer still sends is dropped until the
    /// peer closes too, for at most this long, so that the peer reads every frame and then end
    /// of file rather than a reset (see ``waitUntilClosed()``). Nil closes at once.
    public var lingerTimeout: Duration?

    public init(
      framing: Framing? = nil, maxFrameSize: Int = FrameReader.defaultMaxFrameSize,
      maxOutgoingBytes: Int = 64 << 20, maxDepth: Int = JSONParser.defaultMaxDepth,
      dispatch: DispatchMode = .concurrent, logger: Logger = .standardError(), name: String = "jsonrpc",
      closesDescriptors: Bool = false, flushTimeout: Duration = .seconds(5), lingerTimeout: Duration? = nil
    ) {
      self.framing = framing
      self.maxFrameSize = maxFrameSize
      self.maxOutgoingBytes = maxOutgoingBytes
      self.maxDepth = maxDepth
      self.dispatch = dispatch
      self.logger = logger
      self.name = name
      self.closesDescriptors = closesDescriptors
      self.flushTimeout = flushTimeout
      self.lingerTimeout = lingerTimeout
    }
  }
}
