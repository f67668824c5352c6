// listctl: the command-line client of listd. Exit codes: 0 ok, 1 error answer, 2 usage, 3 cannot connect.
import Foundation

let status = await Listctl.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
