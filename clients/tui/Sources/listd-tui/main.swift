// listd-tui: a terminal UI for listd — a live list picker and list view over the daemon's socket.
import Foundation
import JSONRPC
import ListClient

typealias UnixSocketPath = UnixSocket

let options: Options
do {
  guard let parsed = try Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    print(Options.usage)
    exit(0)
  }
  options = parsed
  if options.version {
    print("listd-tui \(ListClient.version) (protocol \(ListClient.protocolVersion))")
    exit(0)
  }
} catch {
  FileHandle.standardError.write(Data("listd-tui: \(error)\n\(Options.usage)\n".utf8))
  exit(2)
}
let log: Log
do {
  log = try Log(path: options.log)
} catch {
  FileHandle.standardError.write(Data("listd-tui: \(error)\n".utf8))
  exit(1)
}
let status = await Runner(options: options, log: log).run()
exit(status)
