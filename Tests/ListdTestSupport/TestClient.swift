// A JSON-RPC client for protocol tests: talks to a listd (a process, or a server in this one) and checks every answer against the spec.
import Foundation
import JSON
import JSONRPC
import XCTest

/// A client session of a running daemon, over its stdio pipes, its socket or an in-process pair.
///
/// Requests are synchronous (with a timeout) for readable tests. Every result, error and
/// notification the server sends is validated against `Protocol/protocol.json`; tests call
/// ``assertConformance(file:line:)`` (``close()`` does it) to fail on any mismatch.
public final class TestClient: @unchecked Sendable {
  // `@unchecked Sendable`: mutable state is behind `condition`.
  public let connection: Connection
  private let condition = NSCondition()
  private var received: [(method: String, params: JSONValue)] = []
  private var problems: [String] = []
  private var cursor: [String: Int] = [:]

  /// The options of a test client's connection. Serial dispatch: notifications are recorded in
  /// arrival order (a concurrent queue could record a later `list/didChange` before an earlier one).
  public static func connectionOptions(name: String, ownsDescriptors: Bool = false) -> Connection.Options {
    var options = Connection.Options(
      framing: .contentLength, dispatch: .serial, logger: .disabled, name: name)
    options.flushTimeout = .seconds(2)
    options.closesDescriptors = ownsDescriptors
    return options
  }

  /// A client on `connection`, not started yet (made with ``connectionOptions(name:ownsDescriptors:)``:
  /// one end of an in-process pair, say). `configure` registers extra handlers (an owner's
  /// `owner/refresh`) before the connection starts.
  public init(connection: Connection, configure: (Connection) -> Void = { _ in }) {
    self.connection = connection
    connection.onUnhandledNotification { [weak self] notification in
      self?.record(notification.method, notification.rawParams ?? .null)
    }
    configure(connection)
    connection.start()
  }

  /// A client over `input`/`output` (the daemon's stdout and stdin).
  public convenience init(
    reading input: Int32, writing output: Int32, name: String = "test", ownsDescriptors: Bool = false,
    configure: (Connection) -> Void = { _ in }
  ) throws {
    let options = Self.connectionOptions(name: name, ownsDescriptors: ownsDescriptors)
    try self.init(
      connection: Connection(input: input, output: output, options: options), configure: configure)
  }

  /// A client of a daemon's socket.
  public static func socket(
    _ path: String, name: String = "socket", configure: (Connection) -> Void = { _ in }
  )
    throws -> TestClient
  {
    let fd = try UnixSocket.connect(to: path)
    return try TestClient(reading: fd, writing: fd, name: name, ownsDescriptors: true, configure: configure)
  }

  private func record(_ method: String, _ params: JSONValue) {
    let issues = ProtocolSpec.shared.checkParams(method, params)
    condition.lock()
    received.append((method, params))
    problems += issues
    condition.broadcast()
    condition.unlock()
  }

  private func note(_ issues: [String]) {
    guard !issues.isEmpty else { return }
    condition.lock()
    problems += issues
    condition.unlock()
  }

  // MARK: - Requests

  /// Sends a request and waits for its answer: the result, or the `ResponseError` thrown.
  @discardableResult
  public func request(_ method: String, _ params: JSONValue? = nil, timeout: TimeInterval = 20) throws
    -> JSONValue
  {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox()
    connection.sendRequest(method, params) { result in
      box.result = result
      done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success, let result = box.result else {
      throw TestFailure("no answer to \(method) within \(timeout) s")
    }
    switch result {
    case .success(let value):
      note(ProtocolSpec.shared.checkResult(method, value))
      return value
    case .failure(let error as ResponseError):
      note(ProtocolSpec.shared.checkError(method, code: Int(error.code.rawValue), message: error.message))
      throw error
    case .failure(let error):
      throw error
    }
  }

  /// Sends a request that must fail; returns its error (and fails the test if it succeeded).
  public func error(
    _ method: String, _ params: JSONValue? = nil, file: StaticString = #filePath, line: UInt = #line
  )
    -> ResponseError
  {
    do {
      let result = try request(method, params)
      XCTFail("\(method) succeeded with \(result), expected an error", file: file, line: line)
    } catch let error as ResponseError {
      return error
    } catch {
      XCTFail("\(method): \(error)", file: file, line: line)
    }
    return ResponseError(.internalError, "no error")
  }

  public func notify(_ method: String, _ params: JSONValue? = nil) {
    connection.notify(method, params)
  }

  /// `initialize` + `initialized`.
  @discardableResult
  public func initialize(name: String = "listd-tests") throws -> JSONValue {
    let result = try request("initialize", ["clientInfo": ["name": .string(name)]])
    notify("initialized", [:])
    return result
  }

  // MARK: - Notifications

  /// Waits for the next `method` notification not yet taken that satisfies `matching`.
  public func next(
    _ method: String, timeout: TimeInterval = 10, matching: (JSONValue) -> Bool = { _ in true }
  ) -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      var index = cursor[method] ?? 0
      while index < received.count {
        let (name, params) = received[index]
        index += 1
        if name == method && matching(params) {
          cursor[method] = index
          return params
        }
      }
      guard condition.wait(until: deadline) else { return nil }
    }
  }

  /// Every notification received so far, in order.
  public var notifications: [(method: String, params: JSONValue)] {
    condition.lock()
    defer { condition.unlock() }
    return received
  }

  // MARK: - End

  /// Fails the test if any server message did not match `Protocol/protocol.json`.
  public func assertConformance(file: StaticString = #filePath, line: UInt = #line) {
    condition.lock()
    let issues = problems
    condition.unlock()
    XCTAssertEqual(
      issues, [], "server messages that do not match Protocol/protocol.json", file: file, line: line)
  }

  /// Checks conformance and closes the connection.
  public func close(file: StaticString = #filePath, line: UInt = #line) {
    assertConformance(file: file, line: line)
    connection.close()
  }

  /// The list's `version` from `list/info`.
  public func version(of list: String) throws -> Int64 {
    guard let version = try request("list/info", ["list": .string(list)])["version"]?.intValue else {
      throw TestFailure("list/info of \(list) has no version")
    }
    return version
  }
}

/// A result handed from a completion handler to the waiting test thread.
private final class ResultBox: @unchecked Sendable {
  // `@unchecked Sendable`: written once before the semaphore is signalled, read after.
  var result: Result<JSONValue, any Error>?
}

/// A test helper failure with a message.
public struct TestFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
