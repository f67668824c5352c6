// A raw client of a spawned daemon's stdio.
import ListdTestSupport

extension RawClient {
  /// A raw client of `daemon`'s stdio (the pipes stay the daemon's).
  convenience init(_ daemon: DaemonProcess) {
    self.init(reading: daemon.output, writing: daemon.input)
  }
}
