// The Darwin backend of the event loop: one kqueue, a read and a write filter per descriptor.
#if canImport(Darwin)
  import Darwin

  /// kevent(2), the function (its struct has the same name; six unlabeled arguments pick the call).
  @inline(__always)
  private func keventCall(
    _ queue: Int32, _ changes: UnsafePointer<kevent>?, _ changeCount: Int32,
    _ events: UnsafeMutablePointer<kevent>?, _ eventCount: Int32, _ timeout: UnsafePointer<timespec>?
  ) -> Int32 {
    Darwin.kevent(queue, changes, changeCount, events, eventCount, timeout)
  }

  /// kqueue(2) behind the event loop's one-shot interface, per Apple's kqueue(2) man page.
  ///
  /// Each descriptor has an `EVFILT_READ` and an `EVFILT_WRITE` filter, both added at once
  /// with `EV_DISPATCH` (disabled as soon as an event is delivered) and enabled or disabled
  /// (`EV_ENABLE` / `EV_DISABLE`) to the interest of the moment. The token rides in `udata`.
  /// The two filters may fire on two threads at once: the channel serves one and drops the
  /// other, which its re-arm reports again if still ready (filters are level-triggered).
  /// Changes carry `EV_RECEIPT`, so each answers with an `EV_ERROR` entry (its `data` 0 on
  /// success) and never with a pending event.
  final class KqueueBackend: EventBackend {
    private let queue: Int32

    init() {
      queue = kqueue()
      precondition(queue >= 0, "kqueue failed: \(String(cString: strerror(errno)))")
      _ = fcntl(queue, F_SETFD, FD_CLOEXEC)
    }

    func add(_ fd: Int32, token: UInt64, input: Bool, output: Bool) -> Bool {
      let add = EV_ADD | EV_DISPATCH
      guard
        apply([
          change(fd, EVFILT_READ, add | (input ? 0 : EV_DISABLE), token),
          change(fd, EVFILT_WRITE, add | (output ? 0 : EV_DISABLE), token),
        ])
      else {
        remove(fd, token: token)
        return false
      }
      return true
    }

    func rearm(_ fd: Int32, token: UInt64, input: Bool, output: Bool) {
      _ = apply([
        change(fd, EVFILT_READ, input ? EV_ENABLE : EV_DISABLE, token),
        change(fd, EVFILT_WRITE, output ? EV_ENABLE : EV_DISABLE, token),
      ])
    }

    func remove(_ fd: Int32, token: UInt64) {
      _ = apply([change(fd, EVFILT_READ, EV_DELETE, token), change(fd, EVFILT_WRITE, EV_DELETE, token)])
    }

    func wait() -> Readiness? {
      var event = kevent()
      let count = keventCall(queue, nil, 0, &event, 1, nil)
      if count < 0 {
        if errno == EINTR { return nil }
        fatalError("kevent failed: \(String(cString: strerror(errno)))")
      }
      guard count == 1 else { return nil }
      let token = UInt64(UInt(bitPattern: event.udata))
      if event.flags & UInt16(EV_ERROR) != 0 { return Readiness(token: token, failed: true) }
      // EV_EOF is not a failure: reading then returns 0 (the peer's end, perhaps only of its
      // writing), writing fails with EPIPE — what the handler is told by readable / writable.
      return Readiness(
        token: token, readable: event.filter == Int16(EVFILT_READ),
        writable: event.filter == Int16(EVFILT_WRITE))
    }

    private func change(_ fd: Int32, _ filter: Int32, _ flags: Int32, _ token: UInt64) -> kevent {
      kevent(
        ident: UInt(fd), filter: Int16(filter), flags: UInt16(flags | EV_RECEIPT), fflags: 0, data: 0,
        udata: UnsafeMutableRawPointer(bitPattern: UInt(token)))
    }

    /// Applies `changes`; true if every one succeeded.
    private func apply(_ changes: [kevent]) -> Bool {
      var receipts = [kevent](repeating: kevent(), count: changes.count)
      // The receipts fill the event list, so no pending event is taken; a zero timeout, so the
      // call never waits for one either.
      var noWait = timespec(tv_sec: 0, tv_nsec: 0)
      let count = changes.withUnsafeBufferPointer { changes in
        receipts.withUnsafeMutableBufferPointer {
          keventCall(
            queue, changes.baseAddress, Int32(changes.count), $0.baseAddress, Int32($0.count), &noWait)
        }
      }
      guard count == Int32(changes.count) else { return false }
      return receipts.allSatisfy { $0.flags & UInt16(EV_ERROR) == 0 || $0.data == 0 }
    }
  }
#endif
