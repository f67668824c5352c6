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

/// Reads a JSON file, or stdin for `-`.
func readJSON(_ path: String) throws -> JSONValue {
  let data: Data
  if path == "-" {
    data = FileHandle.standardInput.readDataToEndOfFile()
  } else {
    guard let contents = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read \(path)")
    }
    data = contents
  }
  return try parseJSON(String(decoding: data, as: UTF8.self), what: path == "-" ? "stdin" : path)
}

/// Parses JSON text given on the command line or read from a file; a usage error names `what`.
func parseJSON(_ text: String, what: String) throws -> JSONValue {
  do {
    return try JSONValue(parsing: text)
  } catch {
    throw UsageError("\(what) is not valid JSON: \(error)")
  }
}
