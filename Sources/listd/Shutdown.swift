// Stops the daemon once: flushes stdout, removes the socket, exits with the right code.
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
  private var _stdio: Connection?
  private var _server: ListServer?
  private var sources: [any DispatchSourceProtocol] = []

  var listener: UnixSocketListener? {
    get { lock.withLock { _listener } }
    set { lock.withLock { _listener = newValue } }
  }

  var stdio: Connection? {
    get { lock.withLock { _stdio } }
    set { lock.withLock { _stdio = newValue } }
  }

  /// The server whose journal is made durable before exiting.
  var server: ListServer? {
    get { lock.withLock { _server } }
    set { lock.withLock { _server = newValue } }
  }

  /// Keeps a signal source alive for the life of the process.
  func keep(_ source: any DispatchSourceProtocol) {
    lock.withLock { sources.append(source) }
  }

  /// Removes the socket, answers every request already read on stdio (a `shutdown` followed at
  /// once by `exit`, say) and lets stdout drain, then exits.
  func exit(_ code: Int32) {
    let (first, listener, stdio) = lock.withLock { () -> (Bool, UnixSocketListener?, Connection?) in
      defer { started = true }
      return (!started, _listener, _stdio)
    }
    guard first else { return }
    // Off the calling thread: it may be one the connection waits for while it closes.
    DispatchQueue.global().async {
      listener?.stop()
      if let stdio {
        stdio.closeAfterAnswering()
        stdio.waitUntilClosed()
      }
      self.server?.closeState()
      Foundation.exit(code)
    }
  }
}
