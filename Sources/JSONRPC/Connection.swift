// The duplex JSON-RPC connection over file descriptors: served by the event loop's threads, dispatch.
import Foundation
import Synchronization

/// A full-duplex JSON-RPC 2.0 connection over a readable and a writable file descriptor (stdio,
/// a Unix socket, a pipe).
///
/// - The connection owns no thread: the process's few **event loop** threads (``EventLoop``) serve every
///   connection's descriptors, made non-blocking when they are pipes or sockets. When the input
///   is readable, one of them reads, splits frames with a ``FrameReader`` (framing detected from
///   the first byte unless fixed in ``Options``), parses and decodes messages, and dispatches
///   requests and notifications to the registered handlers on a dispatch queue — never running a
///   handler itself (but see `inline`). Malformed frames, JSON and messages are answered with the
///   exact JSON-RPC error; responses are matched to the requests sent with
///   ``sendRequest(_:_:timeout:)``. An input that cannot be polled (a regular file) gets a
///   thread of its own, which never waits for long.
/// - Whole frames are queued in a bounded ``OutgoingQueue`` in the framing the peer uses and
///   written when the output has room. Any thread may send at any time; frames never
///   interleave. A peer that stops reading is disconnected (with a log line) once
///   `maxOutgoingBytes` are pending.
/// - Handlers run concurrently (``DispatchMode/concurrent``) or one at a time in arrival order
///   (``DispatchMode/serial``); either way a handler may answer later, from anywhere, through
///   its ``IncomingRequest``.
/// - `$/cancelRequest` cancels the request's ``CancellationToken`` and (by default) answers -32800.
/// - At end of input the connection answers the requests still in progress, flushes, closes and
///   calls the ``onClose(_:)`` handlers. ``stopReading(holdingOpen:refusing:)`` ends the input
///   early, for a clean stop: what was read is answered, what was not is left unread.
/// - Nothing but frames is ever written to the output; logs go to ``Options/logger`` (standard
///   error by default).
///
/// Writing to a closed pipe would raise SIGPIPE; ``start()`` sets SIGPIPE to be ignored for the
/// process, as servers do.
///
/// `@unchecked Sendable`: every mutable member is behind a lock (`state`, `handlers`, the
/// reading state's) or is itself thread-safe (`OutgoingQueue`, `Channel`); the rest is immutable.
public final class Connection: ChannelHandler, @unchecked Sendable {
  public let options: Options
  public var logger: Logger { options.logger }
  let input: Int32
  let output: Int32
  let inputKind: DescriptorKind
  /// Input and output are one socket (which a close could reset).
  let isSocket: Bool
  let outgoing: OutgoingQueue
  let handlerQueue: DispatchQueue
  /// Handler blocks queued on `handlerQueue` and not finished.
  let queuedHandlers = Atomic<Int>(0)
  /// What reads the input: set by ``start()``.
  let reading = ReadingState()
  let state = Locked(State())
  let handlers = Locked(Handlers())
  let finishedCondition = NSCondition()

  /// A connection reading `input` and writing `output` (they may be the same socket). Call
  /// ``start()`` after registering handlers.
  public init(input: Int32, output: Int32, options: Options = Options()) throws(ConnectionError) {
    self.input = input
    self.output = output
    self.options = options
    inputKind = DescriptorKind(input)
    let outputKind = input == output ? inputKind : DescriptorKind(output)
    isSocket = input == output && DescriptorKind.isSocket(input)
    outgoing = OutgoingQueue(
      limit: options.maxOutgoingBytes, output: output, pollable: outputKind.isPollable,
      nonBlocking: outputKind == .stream)
    reading.reader = FrameReader(framing: options.framing, maxFrameSize: options.maxFrameSize)
    reading.framingKnown = options.framing != nil
    switch options.dispatch {
    case .concurrent:
      handlerQueue = DispatchQueue(label: "\(options.name).handlers", attributes: .concurrent)
    case .serial:
      handlerQueue = DispatchQueue(label: "\(options.name).handlers")
    }
  }

  /// A connection on standard input and output.
  public static func standardIO(options: Options = Options()) throws(ConnectionError) -> Connection {
    try Connection(input: 0, output: 1, options: options)
  }
}
