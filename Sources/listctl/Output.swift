// Writing to stdout and stderr: readable lines and JSON.
import Foundation
import JSON

/// Unbuffered writes to the standard streams.
enum FileHandleOutput {
  /// Writes `text` to stderr.
  static func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// Prints `value` as pretty JSON (or one compact line with `compact`).
func printJSON(_ value: JSONValue, compact: Bool = false) {
  print(value.jsonString(prettyPrinted: !compact))
}

/// Reads a JSON file, or stdin for `-`. The bytes must be UTF-8 (as the daemon requires): an
/// invalid byte is an input error naming the file and its offset, never a silent U+FFFD.
func readJSON(_ path: String) throws -> JSONValue {
  let bytes = path == "-" ? [UInt8](FileHandle.standardInput.readDataToEndOfFile()) : try readFile(path)
  do {
    return try JSONValue(parsing: bytes)
  } catch {
    throw InputError("\(path == "-" ? "stdin" : path) is not valid JSON: \(error)")
  }
}

/// The bytes of the file at `path`; an input error with the system's reason if it cannot be read.
func readFile(_ path: String) throws -> [UInt8] {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { throw InputError("cannot read \(path): \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else { throw InputError("cannot read \(path): \(String(cString: strerror(errno)))") }
    if count == 0 { return bytes }
    bytes.append(contentsOf: chunk[..<count])
  }
}

/// Parses JSON text given on the command line or read from a file; a usage error names `what`.
func parseJSON(_ text: String, what: String) throws -> JSONValue {
  do {
    return try JSONValue(parsing: text)
  } catch {
    throw UsageError("\(what) is not valid JSON: \(error)")
  }
}

/// Stdout cannot be written (other than its reader going away).
struct OutputFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Stdout's reader went away (`listctl show big | head`): nothing more is worth printing.
struct OutputClosed: Error {}

/// Unbuffered writes of whole lines to stdout that notice when its reader has gone.
enum StandardOutput {
  /// Writes `lines`, each with a newline; throws ``OutputClosed`` on EPIPE (SIGPIPE is ignored,
  /// as the connection to the daemon needs).
  static func write(_ lines: [String]) throws {
    guard !lines.isEmpty else { return }
    fflush(nil)  // anything print() buffered comes first
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 && errno == EPIPE { throw OutputClosed() }
      guard count >= 0 else {
        throw OutputFailure("cannot write to stdout: \(String(cString: strerror(errno)))")
      }
      written += count
    }
  }
}
