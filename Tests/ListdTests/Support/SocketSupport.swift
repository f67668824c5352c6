// Helpers for socket end-to-end tests: private temp directories, daemons that listen, polling, RSS.
import Foundation
import JSON
import JSONRPC
import Synchronization
import XCTest

/// A fresh directory only this user can enter (mkdtemp: mode 0700), removed by ``remove()``.
struct PrivateDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/listd-e2e-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw TestFailure("mkdtemp: \(String(cString: strerror(errno)))")
    }
    path = String(cString: made)
  }

  /// A path inside the directory.
  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// `lstat` of a path: its mode bits and file type, or nil if it does not exist.
func fileStatus(_ path: String) -> stat? {
  var info = stat()
  return lstat(path, &info) == 0 ? info : nil
}

extension DaemonProcess {
  /// Starts `listd --listen path` (plus `arguments`) and waits until the socket accepts connections.
  static func listening(
    on path: String, _ arguments: [String] = [], environment: [String: String]? = nil,
    descriptorLimit: Int? = nil
  ) throws -> DaemonProcess {
    let daemon = try DaemonProcess(
      ["--listen", path] + arguments, environment: environment, descriptorLimit: descriptorLimit)
    let ready = waitUntil {
      guard let info = fileStatus(path), info.st_mode & S_IFMT == S_IFSOCK else { return false }
      return daemon.process.isRunning
    }
    guard ready else {
      daemon.stop()
      throw TestFailure("listd did not create its socket \(path)")
    }
    return daemon
  }

  var pid: Int32 { process.processIdentifier }

  /// The daemon's resident set size in KiB (`VmRSS` of /proc/PID/status).
  func residentKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
  }

  /// The daemon's open descriptors (entries of /proc/PID/fd).
  func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
  }

  /// The daemon's threads (`Threads` of /proc/PID/status).
  func threadCount() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
      return Int(line.split(separator: "\t", omittingEmptySubsequences: true).last ?? "")
    }
    return nil
  }

  /// Sends `signal` to the daemon.
  func send(signal: Int32) { kill(pid, signal) }
}

extension TestClient {
  /// A client of a daemon's socket, retrying the connection for a moment (the daemon may be
  /// between binding and listening). Closes its descriptor when closed.
  static func connect(_ path: String, name: String = "socket", configure: (Connection) -> Void = { _ in })
    throws -> TestClient
  {
    var fd: Int32 = -1
    var lastError: (any Error)?
    waitUntil(timeout: 5) {
      do {
        fd = try UnixSocket.connect(to: path)
        return true
      } catch {
        lastError = error
        return false
      }
    }
    guard fd >= 0 else { throw lastError ?? TestFailure("cannot connect to \(path)") }
    let client = try TestClient(reading: fd, writing: fd, name: name, configure: configure)
    socketDescriptors.withLock { $0[ObjectIdentifier(client)] = fd }
    return client
  }

  /// Drops the socket the way a vanishing client does (the daemon sees end of file), without a
  /// `shutdown`/`exit`; checks conformance first. Only for clients made by ``connect(_:name:configure:)``.
  func disconnect(file: StaticString = #filePath, line: UInt = #line) {
    assertConformance(file: file, line: line)
    guard let fd = socketDescriptors.withLock({ $0.removeValue(forKey: ObjectIdentifier(self)) }) else {
      XCTFail("not a socket client", file: file, line: line)
      return
    }
    Glibc.shutdown(fd, Int32(SHUT_RDWR))
    connection.close()
    connection.waitUntilClosed()
    Glibc.close(fd)
  }
}

/// The descriptors of socket clients, for ``TestClient/disconnect(file:line:)``.
private let socketDescriptors = Mutex<[ObjectIdentifier: Int32]>([:])

/// Logs of a daemon started with `--log-file`.
func logContents(_ path: String) -> String {
  (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
