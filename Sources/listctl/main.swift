// listctl: the command-line client of listd. Exit codes: 0 ok, 1 error answer, 2 usage, 3 cannot connect.
import Foundation

switch RawArguments.decoded() {
case .success(let arguments):
  exit(await Listctl.main(arguments))
case .failure(let error):
  FileHandle.standardError.write(Data("listctl: \(error)\n".utf8))
  exit(2)
}
