// Blocking-free reads and writes on file descriptors, interruptible through a wake-up pipe.
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe whose read end becomes readable (and stays so) once ``wake()`` is called: the reader
/// and writer threads poll it beside their descriptor so ``Connection/close()`` can stop them
/// even while the peer neither writes nor reads.
final class WakePipe: Sendable {
  let readEnd: Int32
  let writeEnd: Int32

  init() throws(ConnectionError) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw .system("pipe", errno) }
    readEnd = fds[0]
    writeEnd = fds[1]
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
  }

  func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  deinit {
    Glibc.close(readEnd)
    Glibc.close(writeEnd)
  }
}

enum DescriptorIO {
  enum ReadResult {
    case bytes(Int)
    case endOfFile
    case woken
    case failed(Int32)
  }

  enum WriteResult {
    case done
    case woken
    case failed(Int32)
  }

  /// Makes writes to a pipe or socket non-blocking, so a peer that stops reading cannot pin the
  /// writer thread in `write`. Terminals and regular files are left alone.
  static func makeNonBlockingIfStream(_ fd: Int32) {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return }
    let type = info.st_mode & S_IFMT
    guard type == S_IFIFO || type == S_IFSOCK else { return }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  /// Waits until `fd` is readable (or the wake pipe fires), then reads once.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, wake: WakePipe) -> ReadResult {
    while true {
      var fds = [
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return .failed(errno)
      }
      if fds[1].revents != 0 { return .woken }
      guard fds[0].revents != 0 else { continue }
      let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfFile }
      if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
      return .failed(errno)
    }
  }

  /// Writes `bytes` now if `fd` is ready for writing without blocking (poll says POLLOUT, which
  /// for a pipe or a socket means a small write fits); returns how many bytes were written, or
  /// nil when it is not ready or the write failed (the writer thread then takes over and
  /// reports the failure).
  static func writeIfReady(_ fd: Int32, _ bytes: [UInt8]) -> Int? {
    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard poll(&descriptor, 1, 0) == 1, descriptor.revents & Int16(POLLOUT) != 0,
      descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0
    else { return nil }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    return written >= 0 ? written : nil
  }

  /// Writes all of `bytes`, waiting for room when the descriptor is non-blocking. Gives up
  /// (`.woken`) when the wake pipe fires, or once `deadline()` (uptime nanoseconds, 0 for none)
  /// has passed while waiting: it is checked at least every 100 ms, so it may be set at any time.
  static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, wake: WakePipe, deadline: () -> UInt64 = { 0 }
  ) -> WriteResult {
    var offset = 0
    while offset < bytes.count {
      let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if count > 0 {
        offset += count
        continue
      }
      if count < 0 && errno == EINTR { continue }
      guard count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else {
        return .failed(count < 0 ? errno : EIO)
      }
      var fds = [
        pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
        pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      let limit = deadline()
      if limit != 0 && DispatchTime.now().uptimeNanoseconds >= limit { return .woken }
      // A bounded wait even without a deadline: one may be set while this waits (a close).
      let ready = poll(&fds, 2, 100)
      if ready < 0 && errno != EINTR { return .failed(errno) }
      if fds[1].revents != 0 { return .woken }
    }
    return .done
  }
}
