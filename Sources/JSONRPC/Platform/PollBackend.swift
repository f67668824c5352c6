// The portable backend of the event loop: poll(2), which every POSIX system has.
import Foundation

/// poll(2) behind the event loop's one-shot interface. poll has no instance to share between
/// threads, so the loop's threads take turns (leader and followers): one polls every armed
/// descriptor (and a wake-up pipe), disarms what is ready and queues it; the others wait for
/// the queue, and one of them polls next. No thread of its own: the daemon keeps the threads it
/// has under epoll.
///
/// Registrations change the set between two polls: each change writes a byte to the pipe so
/// that a poll in progress returns and the next one sees the set of now. A report for a token
/// removed meanwhile (its descriptor number perhaps reused) is dropped.
///
/// `@unchecked Sendable`: the mutable members are behind `condition`.
final class PollBackend: EventBackend, @unchecked Sendable {
  private struct Watch {
    var fd: Int32
    var events: Int16
    var armed: Bool
  }

  private let condition = NSCondition()
  private var watches: [UInt64: Watch] = [:]
  private var ready: [Readiness] = []
  private var readyStart = 0
  /// Whether a thread is polling.
  private var polling = false
  private let wakeRead: Int32
  private let wakeWrite: Int32

  init() {
    var fds: [Int32] = [-1, -1]
    precondition(pipe(&fds) == 0, "pipe failed: \(String(cString: strerror(errno)))")
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    (wakeRead, wakeWrite) = (fds[0], fds[1])
  }

  func add(_ fd: Int32, token: UInt64, input: Bool, output: Bool) -> Bool {
    guard fcntl(fd, F_GETFD) != -1 else { return false }
    condition.withLock { watches[token] = Watch(fd: fd, events: Self.events(input, output), armed: true) }
    wake()
    return true
  }

  func rearm(_ fd: Int32, token: UInt64, input: Bool, output: Bool) {
    condition.withLock { watches[token] = Watch(fd: fd, events: Self.events(input, output), armed: true) }
    wake()
  }

  func remove(_ fd: Int32, token: UInt64) {
    _ = condition.withLock { watches.removeValue(forKey: token) }
    wake()
  }

  func wait() -> Readiness? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if readyStart < ready.count {
        let event = ready[readyStart]
        readyStart += 1
        if readyStart == ready.count {
          ready.removeAll(keepingCapacity: true)
          readyStart = 0
        }
        return event
      }
      if polling {
        condition.wait()
        continue
      }
      polling = true
      pollOnce()
      polling = false
      // Followers: take what was queued, and one of them polls next.
      condition.broadcast()
    }
  }

  /// The longest one poll waits before the set is polled anew (see ``pollOnce()``).
  private static let longestWaitMilliseconds: Int32 = 500

  private static func events(_ input: Bool, _ output: Bool) -> Int16 {
    (input ? Int16(POLLIN) : 0) | (output ? Int16(POLLOUT) : 0)
  }

  /// Makes a poll in progress return. A full pipe already holds a wake-up: nothing lost.
  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  /// One poll of the armed set, queueing what is ready (and disarming it). Called and returns
  /// under `condition`, which it releases while it waits.
  private func pollOnce() {
    var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    var tokens: [UInt64] = [0]
    fds.reserveCapacity(watches.count + 1)
    tokens.reserveCapacity(watches.count + 1)
    for (token, watch) in watches where watch.armed {
      fds.append(pollfd(fd: watch.fd, events: watch.events, revents: 0))
      tokens.append(token)
    }
    condition.unlock()
    // A bounded wait: a thread asleep in poll holds a reference to each file it watches (Linux's
    // poll_wait), so a descriptor closed without being removed first (a client closing its end of
    // a pipe it also registered) would keep the pipe open, its reader never seeing the end, for as
    // long as nothing else woke the poll. Each new poll drops those references.
    let count = fds.withUnsafeMutableBufferPointer {
      poll($0.baseAddress, nfds_t($0.count), Self.longestWaitMilliseconds)
    }
    let failure = count < 0 ? errno : 0
    if fds[0].revents != 0 {
      var drain = [UInt8](repeating: 0, count: 256)
      while read(wakeRead, &drain, drain.count) > 0 {}
    }
    condition.lock()
    if count < 0 {
      if failure == EINTR || failure == EAGAIN { return }
      fatalError("poll failed: \(String(cString: strerror(failure)))")
    }
    for index in 1..<fds.count where fds[index].revents != 0 {
      let token = tokens[index]
      guard var watch = watches[token], watch.armed, watch.fd == fds[index].fd else { continue }
      watch.armed = false
      watches[token] = watch
      let revents = fds[index].revents
      ready.append(
        Readiness(
          token: token,
          readable: revents & Int16(POLLIN) != 0,
          writable: revents & Int16(POLLOUT) != 0,
          failed: revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0))
    }
  }
}
