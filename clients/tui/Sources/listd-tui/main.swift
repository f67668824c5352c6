// listd-tui: a terminal UI for listd — a live list picker and list view over the daemon's socket.
import CommandLineDescription
import Foundation
import JSONRPC
import ListClient

typealias UnixSocketPath = UnixSocket

let arguments = Array(CommandLine.arguments.dropFirst())
// --help, --version, --generate-man, --generate-completion SHELL.
if let status = Options.commandLine.answerStandardOptions(
  arguments, version: ListClient.version, protocolVersion: ListClient.protocolVersion)
{
  exit(status)
}
let options: Options
do {
  options = try Options.parse(arguments)
} catch {
  FileHandle.standardError.write(Data(UsageMessage.report("\(error)", tool: "listd-tui").utf8))
  exit(2)
}
// LISTD_EVENT_LOOP names the event loop's backend (as for the daemon): an unknown name is a usage error.
do {
  _ = try EventLoopKind.chosen()
} catch {
  FileHandle.standardError.write(Data("listd-tui: \(error)\n".utf8))
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
