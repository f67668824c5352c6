// The daemon's fatal errors: printed once to stderr (and logged with --log-file), exit status 1.
import Foundation
import JSONRPC

/// Prints `listd: MESSAGE` to stderr, logs it to `logFile` when logs go to a file (the stderr
/// logger would print it a second time), and exits with status 1.
func fatal(_ message: String, logFile: Logger?) -> Never {
  logFile?.error(message)
  FileHandle.standardError.write(Data("listd: \(message)\n".utf8))
  exit(1)
}
