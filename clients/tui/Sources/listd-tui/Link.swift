// The connection to the daemon: connects, pumps notifications, sends requests, retries when lost.
import Foundation
import JSON
import JSONRPC
import ListClient
import ListTUI
import Synchronization

/// Keeps a session with the daemon at a socket path and turns everything it hears into
/// ``AppEvent``s: `.connected` after `initialize`, each notification, each answer,
/// `.disconnected` when the connection drops — then it retries every second, forever.
final class Link: Sendable {
  private let path: String
  /// `--socket` as given (nil: the default path), for the advice on starting a daemon.
  private let socketOption: String?
  private let events: AsyncStream<AppEvent>.Continuation
  private let log: Log
  private let client = Mutex<ListClient?>(nil)

  init(path: String, socketOption: String?, events: AsyncStream<AppEvent>.Continuation, log: Log) {
    self.path = path
    self.socketOption = socketOption
    self.events = events
    self.log = log
  }

  /// Starts connecting (and reconnecting) in the background.
  func start() {
    Task.detached { await self.run() }
  }

  private func run() async {
    var attempt = 0
    while true {
      attempt += 1
      do {
        let session = try ListClient.socket(path: path)
        // Notifications and answers reach the app in the daemon's order (see `send`).
        let events = events
        session.deliverNotifications { notification in
          events.yield(.notification(method: notification.method, params: notification.params))
        }
        try await session.initialize(name: "listd-tui", version: "1")
        client.withLock { $0 = session }
        log.write("connected to \(path)")
        events.yield(.connected)
        for await _ in session.notifications {}  // until the connection closes
        client.withLock { $0 = nil }
        session.close()
        log.write("connection lost")
        events.yield(.disconnected("the daemon at \(path) went away (connection lost)"))
      } catch {
        if attempt == 1 || attempt % 30 == 0 { log.write("cannot connect to \(path): \(error)") }
        events.yield(.disconnected(reason(error)))
      }
      try? await Task.sleep(for: .seconds(1))
    }
  }

  /// Why connecting failed, as listctl says it (no such file, not yours, refused), with how to
  /// start a daemon when none answers.
  private func reason(_ error: any Error) -> String {
    guard let error = error as? UnixSocketError else { return "\(error)" }
    guard error.kind == .noDaemon else { return error.description }
    return "\(error) — "
      + ListClient.startAdvice(socket: socketOption, alternative: "run 'listd-tui --demo' for a private one")
  }

  /// Sends a request; its answer (or failure) comes back as `.answer(tag, …)`, in the daemon's
  /// order with the notifications: a `list/setWindow` answer at version N is followed by the
  /// changes after N, which are for the new window — taken in another order, a window answered
  /// late would put the view back to N under a status line already at a later version.
  func send(_ tag: RequestTag, _ method: String, _ params: JSONValue) {
    log.write("→ \(method) \(String(decoding: params.jsonBytes(), as: UTF8.self))")
    guard let session = client.withLock({ $0 }) else {
      events.yield(.answer(tag, .failure(RequestFailure(code: nil, message: "not connected"))))
      return
    }
    let events = events
    let log = log
    session.send(method, params, timeout: .seconds(70)) { result in
      switch result {
      case .success(let value):
        events.yield(.answer(tag, .success(value)))
      case .failure(let error as ResponseError):
        log.write("← \(method) error \(error.code.rawValue): \(error.message)")
        events.yield(
          .answer(tag, .failure(RequestFailure(code: error.code.rawValue, message: error.message))))
      case .failure(let error):
        log.write("← \(method) failed: \(error)")
        events.yield(.answer(tag, .failure(RequestFailure(code: nil, message: "\(error)"))))
      }
    }
  }

  /// Closes the session.
  func close() {
    client.withLock { $0 }?.close()
  }
}
