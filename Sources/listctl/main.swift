// listctl: the command-line client of listd. Exit codes: 0 ok, 1 error answer, 2 usage, 3 cannot connect.
import CommandLineDescription
import Foundation
import JSONRPC

// LISTD_EVENT_LOOP names the event loop's backend (as for the daemon): an unknown name is a usage error.
do {
  _ = try EventLoopKind.chosen()
} catch {
  FileHandle.standardError.write(Data("listctl: \(error)\n".utf8))
  exit(2)
}

switch RawArguments.decoded() {
case .success(let arguments):
  exit(await Listctl.main(arguments))
case .failure(let error):
  FileHandle.standardError.write(Data(UsageMessage.report("\(error)", tool: "listctl").utf8))
  exit(2)
}
