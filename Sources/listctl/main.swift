// listctl: the command-line client of listd. Exit codes: 0 ok, 1 error answer, 2 usage, 3 cannot connect.
import CommandLineDescription
import Foundation

switch RawArguments.decoded() {
case .success(let arguments):
  exit(await Listctl.main(arguments))
case .failure(let error):
  FileHandle.standardError.write(Data(UsageMessage.report("\(error)", tool: "listctl").utf8))
  exit(2)
}
