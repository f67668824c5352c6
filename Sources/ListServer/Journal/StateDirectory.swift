// The state directory: created private, locked for the daemon's lifetime, and its generation files.
import Foundation
import JSONRPC

/// `--state DIR`: mode 0700, held with an exclusive `flock` on `DIR/lock` (so a second daemon
/// on the same directory is refused), holding generations `N.checkpoint` and `N.journal`.
final class StateDirectory: Sendable {
  let path: String
  private let lockFD: Int32

  /// Creates `path` (mode 0700) if missing and locks it; throws naming the holder if locked.
  init(_ path: String) throws(JournalError) {
    self.path = path
    if mkdir(path, 0o700) != 0 && errno != EEXIST {
      throw JournalError("cannot create the state directory \(path): \(Self.reason())")
    }
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw JournalError("the state directory \(path) is not a directory")
    }
    let lockPath = path + "/lock"
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw JournalError("cannot open \(lockPath): \(Self.reason())") }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let holder = (try? String(contentsOfFile: lockPath, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
      close(fd)
      throw JournalError(
        "the state directory \(path) is in use by another listd"
          + (holder.map { $0.isEmpty ? "" : " (pid \($0))" } ?? ""))
    }
    ftruncate(fd, 0)
    let pid = Array("\(getpid())\n".utf8)
    _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    lockFD = fd
  }

  deinit { close(lockFD) }

  /// The file of generation `generation` with `suffix` ("checkpoint" or "journal").
  func file(_ generation: Int, _ suffix: String) -> String {
    path + "/" + String(repeating: "0", count: max(0, 10 - String(generation).count))
      + "\(generation).\(suffix)"
  }

  /// The generations that have a file with `suffix`, ascending.
  func generations(_ suffix: String) -> [Int] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.compactMap { name -> Int? in
      guard name.hasSuffix("." + suffix) else { return nil }
      return Int(name.dropLast(suffix.count + 1))
    }.sorted()
  }

  /// The whole content of a file, or nil if it does not exist.
  func read(_ file: String) throws(JournalError) -> [UInt8]? {
    let fd = open(file, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw JournalError("cannot open \(file): \(Self.reason())")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = chunk.withUnsafeMutableBytes { Platform.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw JournalError("cannot read \(file): \(Self.reason())")
      }
      if count == 0 { return bytes }
      bytes += chunk[0..<count]
    }
  }

  /// Makes renames and creations in the directory durable.
  func syncDirectory() {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// The text of `errno`.
  static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
