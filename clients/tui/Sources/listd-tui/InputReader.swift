// Reads the terminal's bytes on a thread of its own and delivers decoded keys.
import Foundation
import JSONRPC
import ListTUI

/// A thread that reads stdin, decodes keys (a lone Esc after 30 ms of silence) and hands them
/// to `deliver`; `ended` runs when stdin closes.
enum InputReader {
  static func start(deliver: @escaping @Sendable (Key) -> Void, ended: @escaping @Sendable () -> Void) {
    let thread = Thread {
      var decoder = KeyDecoder()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let ready = Platform.waitForInput(0, milliseconds: decoder.hasPending ? 30 : nil)
        if ready < 0 {
          if errno == EINTR { continue }
          ended()
          return
        }
        if ready == 0 {
          for key in decoder.flush() { deliver(key) }
          continue
        }
        let count = read(0, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        if count <= 0 {
          ended()
          return
        }
        for key in decoder.feed(buffer[0..<count]) { deliver(key) }
      }
    }
    thread.start()
  }
}
