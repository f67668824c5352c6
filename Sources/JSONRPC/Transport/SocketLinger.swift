// Closes a socket after its last answers without resetting it: half-close, drop what the peer still sends, then close.
import Foundation

/// Closes a connected socket whose last frames are written so that the peer reads every one of
/// them, then end of file.
///
/// Closing a socket with unread input resets the connection: the peer's read ends in
/// ECONNRESET instead of end of file (over TCP, answers it had not read yet are destroyed), and
/// its writes fail — a client that gives up on a failed write loses the answers still waiting
/// in its buffer. So the socket is half-closed first (the peer reads end of file right after
/// the last answer), then what the peer still sends is read and dropped until it closes its
/// side, or `timeout` passes; only then is the descriptor closed. A peer with nothing unread at
/// the half-close is not waited for: closing then cannot reset, and an idle client that keeps
/// its end open does not hold anything up.
///
/// `@unchecked Sendable`: the mutable members are behind `lock`, which also keeps reads and the
/// close apart (a read after the close could take another descriptor's bytes).
final class SocketLinger: ChannelHandler, @unchecked Sendable {
  private let fd: Int32
  private let completion: @Sendable () -> Void
  private let lock = NSLock()
  private var channel: Channel?
  private var closed = false

  /// Reads per readiness event, so a peer that floods does not hold a loop thread.
  private static let readsPerEvent = 16

  private init(fd: Int32, completion: @escaping @Sendable () -> Void) {
    self.fd = fd
    self.completion = completion
  }

  /// Half-closes the non-blocking socket `fd` and closes it once the peer has closed its side
  /// (at once if it has nothing unread), or after `timeout`; then calls `completion` (possibly
  /// on the calling thread, before returning).
  static func close(_ fd: Int32, timeout: Duration, then completion: @escaping @Sendable () -> Void) {
    let linger = SocketLinger(fd: fd, completion: completion)
    shutdown(fd, Int32(SHUT_WR))
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    let first = buffer.withUnsafeMutableBytes { linger.drain(into: $0) }
    guard first == .drained else {  // the peer closed, or had sent nothing
      linger.finish()
      return
    }
    let channel = EventLoop.shared.channel(fd)
    linger.lock.withLock { linger.channel = channel }
    guard channel.register(linger, input: true) else {
      linger.finish()
      return
    }
    let deadline = DispatchTime.now() + .nanoseconds(Connection.nanoseconds(timeout))
    DispatchQueue.global().asyncAfter(deadline: deadline) { linger.finish() }
  }

  private enum DrainOutcome {
    /// Bytes were read and dropped; the peer may send more.
    case drained
    /// Nothing was waiting.
    case empty
    /// End of file, or an error: the peer is gone.
    case ended
  }

  /// Reads and drops what is waiting, up to ``readsPerEvent`` reads.
  private func drain(into buffer: UnsafeMutableRawBufferPointer) -> DrainOutcome {
    var outcome = DrainOutcome.empty
    var reads = 0
    while reads < Self.readsPerEvent {
      let count = read(fd, buffer.baseAddress, buffer.count)
      if count > 0 {
        outcome = .drained
        reads += 1
        continue
      }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return outcome }
      return .ended
    }
    return outcome
  }

  func channelReady(readable: Bool, writable: Bool, context: inout LoopContext) {
    guard readable else { return }
    let ended = lock.withLock { () -> Bool in
      if closed { return false }
      return drain(into: context.buffer) == .ended
    }
    if ended { finish() }
  }

  /// Closes the descriptor, once.
  private func finish() {
    let channel = lock.withLock { () -> Channel?? in
      if closed { return nil }
      closed = true
      defer { self.channel = nil }
      return .some(self.channel)
    }
    guard let channel else { return }
    channel?.unregister()  // before the close: the number may be reused at once
    Platform.close(fd)
    completion()
  }
}
