// The event loop's backends: which one LISTD_EVENT_LOOP chooses, and what each must do.
import Foundation

/// One ready descriptor, as a backend reports it: the token it was registered with, and what it
/// is ready for. `failed` (an error or a hang-up) counts as ready for whatever is wanted.
struct Readiness {
  var token: UInt64
  var readable = false
  var writable = false
  var failed = false
}

/// A readiness backend of the ``EventLoop``. Every registration is one-shot: once a descriptor
/// is reported it is not reported again until ``rearm(_:token:input:output:)``.
protocol EventBackend: AnyObject, Sendable {
  /// Starts watching `fd` for input and/or output (with neither, for errors only); false if
  /// the descriptor cannot be watched.
  func add(_ fd: Int32, token: UInt64, input: Bool, output: Bool) -> Bool
  /// Watches `fd` again, with the interest of now.
  func rearm(_ fd: Int32, token: UInt64, input: Bool, output: Bool)
  /// Stops watching `fd` (before it is closed).
  func remove(_ fd: Int32, token: UInt64)
  /// Blocks until a descriptor is ready; nil when interrupted (the caller waits again).
  func wait() -> Readiness?
}

/// Which backend the event loop uses: `LISTD_EVENT_LOOP=epoll|kqueue|poll`, by default the
/// platform's best (epoll on Linux, kqueue on Darwin, poll(2) elsewhere).
public enum EventLoopKind: String, Sendable, CaseIterable {
  case epoll, kqueue, poll

  /// The environment variable that chooses.
  public static let environmentVariable = "LISTD_EVENT_LOOP"

  /// The backends this build has, the default first.
  public static var available: [EventLoopKind] {
    #if os(Linux)
      [.epoll, .poll]
    #elseif canImport(Darwin)
      [.kqueue, .poll]
    #else
      [.poll]
    #endif
  }

  /// The backend `environment` chooses (unset or empty: the default). Throws, naming the
  /// variable and the value, for a name that is unknown or not available here.
  public static func chosen(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(EventLoopChoiceError) -> EventLoopKind
  {
    guard let value = environment[environmentVariable], !value.isEmpty else { return available[0] }
    guard let kind = EventLoopKind(rawValue: value), available.contains(kind) else {
      let names = available.enumerated().map {
        $0.offset == 0 ? "\($0.element.rawValue) (the default)" : $0.element.rawValue
      }
      let what =
        EventLoopKind(rawValue: value) == nil
        ? "unknown event loop" : "event loop not available on this platform"
      throw EventLoopChoiceError(
        message: "\(environmentVariable)=\(value): \(what); this build has \(names.joined(separator: ", "))")
    }
    return kind
  }

  /// The ENVIRONMENT line of listd's, listctl's and listd-tui's --help and man page: each refuses
  /// a bad value, so each says what it takes.
  public static var environmentHelp: String {
    "\(environmentVariable): the event loop's backend, "
      + available.map(\.rawValue).joined(separator: " or ")
      + " (lower case; unset or empty means the default, \(available[0].rawValue)); another name is a usage "
      + "error (exit code 2) at startup."
  }

  /// Whether terminals can be watched: not by poll(2) on Darwin, whose man page lists devices
  /// as unsupported (a terminal there is read by a thread of its own).
  var watchesTerminals: Bool {
    #if canImport(Darwin)
      self != .poll
    #else
      true
    #endif
  }

  /// A new backend of this kind (one of ``available``).
  func makeBackend() -> any EventBackend {
    switch self {
    case .epoll:
      #if canImport(CEpoll)
        return EpollBackend()
      #else
        preconditionFailure("epoll is not available on this platform")
      #endif
    case .kqueue:
      #if canImport(Darwin)
        return KqueueBackend()
      #else
        preconditionFailure("kqueue is not available on this platform")
      #endif
    case .poll:
      return PollBackend()
    }
  }

  /// The backend of this process (as ``chosen(_:)`` reads it).
  static let current: EventLoopKind = (try? chosen()) ?? available[0]
}

/// `LISTD_EVENT_LOOP` names no backend of this build.
public struct EventLoopChoiceError: Error, CustomStringConvertible {
  /// Names the variable, the value and the choices.
  public let message: String
  public var description: String { message }
}
