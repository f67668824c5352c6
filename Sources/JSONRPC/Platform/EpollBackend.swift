// The Linux backend of the event loop: one epoll instance, one-shot registrations.
#if canImport(CEpoll)
  import CEpoll

  /// epoll(7) with `EPOLLONESHOT`: the threads all wait on one instance, each taking one event.
  final class EpollBackend: EventBackend {
    private let epoll: Int32

    init() {
      epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
      precondition(epoll >= 0, "epoll_create1 failed: \(String(cString: strerror(errno)))")
    }

    func add(_ fd: Int32, token: UInt64, input: Bool, output: Bool) -> Bool {
      control(EPOLL_CTL_ADD, fd, token: token, input: input, output: output)
    }

    func rearm(_ fd: Int32, token: UInt64, input: Bool, output: Bool) {
      _ = control(EPOLL_CTL_MOD, fd, token: token, input: input, output: output)
    }

    func remove(_ fd: Int32, token: UInt64) {
      var event = epoll_event()
      _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    private func control(_ operation: Int32, _ fd: Int32, token: UInt64, input: Bool, output: Bool) -> Bool {
      var event = epoll_event()
      event.events =
        (input ? UInt32(EPOLLIN.rawValue) : 0) | (output ? UInt32(EPOLLOUT.rawValue) : 0)
        | UInt32(EPOLLONESHOT.rawValue)
      event.data.u64 = token
      return epoll_ctl(epoll, operation, fd, &event) == 0
    }

    func wait() -> Readiness? {
      var event = epoll_event()
      let count = epoll_wait(epoll, &event, 1, -1)
      if count < 0 {
        if errno == EINTR { return nil }
        fatalError("epoll_wait failed: \(String(cString: strerror(errno)))")
      }
      guard count == 1 else { return nil }
      let events = event.events
      return Readiness(
        token: event.data.u64,
        readable: events & UInt32(EPOLLIN.rawValue) != 0,
        writable: events & UInt32(EPOLLOUT.rawValue) != 0,
        failed: events & UInt32(EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0)
    }
  }
#endif
