// How to start a daemon where a client looked for one: the advice listctl and listd-tui give when nothing answers.
import Foundation

extension ListClient {
  /// How to have a daemon listening at `socket` (nil: the default path), ending with
  /// `alternative`, the client's own way (`use --spawn`). listd serves a socket only in a
  /// directory nobody else can enter: when `socket`'s is not, the advice says so.
  public static func startAdvice(socket: String?, alternative: String) -> String {
    guard let socket else { return "start a daemon with 'listd --listen --stay', or \(alternative)" }
    let directory = (socket as NSString).deletingLastPathComponent
    var info = stat()
    if stat(directory.isEmpty ? "." : directory, &info) == 0, info.st_mode & 0o077 != 0 {
      return "start a daemon with 'listd --listen DIR/\((socket as NSString).lastPathComponent) --stay' "
        + "in a directory only you can enter (\(directory) is mode \(String(info.st_mode & 0o777, radix: 8))), "
        + "and point --socket there, or \(alternative)"
    }
    return "start a daemon with 'listd --listen \(socket) --stay', or \(alternative)"
  }
}
