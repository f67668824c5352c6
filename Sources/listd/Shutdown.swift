// Stops the daemon once: no new connections, every request read answered, socket removed, exit code.
import Dispatch
import Foundation
import JSONRPC
import ListServer

/// The daemon's single exit path, safe to call from any thread, any number of times.
final class Shutdown: @unchecked Sendable {
  // `@unchecked Sendable`: every member is read and written under `lock`.
  private let lock = NSLock()
  private var started = false
  private var _listener: UnixSocketListener?
  private var _server: ListServer?

  var listener: UnixSocketListener? {
    get { lock.withLock { _listener } }
    set { lock.withLock { _listener = newValue } }
  }

  var server: ListServer? {
    get { lock.withLock { _server } }
    set { lock.withLock { _server = newValue } }
  }

  /// Stops once, then exits with `code`: removes the socket (no new connection is accepted),
  /// then every session stops reading, answers every request it read, gets `daemon/stopping`
  /// and closes (``ListServer/stop(_:)``); stdout drains (at most the flush timeout for a peer
  /// that does not read).
  func exit(_ code: Int32, _ reason: StopReason) {
    let (first, listener, server) = lock.withLock { () -> (Bool, UnixSocketListener?, ListServer?) in
      defer { started = true }
      return (!started, _listener, _server)
    }
    guard first else { return }
    // Off the calling thread: it may be one the connections wait for while they close.
    DispatchQueue.global().async {
      listener?.stop()
      server?.stop(reason)
      server?.closeState()  // every journaled change durable (`--state`)
      Foundation.exit(code)
    }
  }
}
