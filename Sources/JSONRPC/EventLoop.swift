import CEpoll
// The process-wide epoll loop: a few I/O threads serve every connection's descriptors.
import Foundation
import JSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What a loop thread lends a ready channel: a read buffer and a JSON parser, reused for
/// every connection it serves (so an idle connection owns neither).
struct LoopContext {
  let buffer: UnsafeMutableRawBufferPointer
  var parser = JSONParser()

  init(bufferSize: Int) {
    buffer = .allocate(byteCount: bufferSize, alignment: 1)
  }
}

/// Reacts to a channel's readiness. Called on a loop thread, never for the same channel on two
/// threads at once.
protocol ChannelHandler: AnyObject, Sendable {
  func channelReady(readable: Bool, writable: Bool, context: inout LoopContext)
}

/// One descriptor watched by the ``EventLoop``, wanting input, output or both.
///
/// Registered one-shot: once an event is delivered the descriptor is disabled until the
/// handler returns, so at most one thread serves a channel at a time, and it is re-armed then
/// with the interest of that moment. Interest changed meanwhile (by any thread) takes effect at
/// that re-arm; changed while idle, at once.
///
/// `@unchecked Sendable`: the mutable members are behind `lock`.
final class Channel: @unchecked Sendable {
  let fd: Int32
  private let loop: EventLoop
  private let lock = NSLock()
  private var token: UInt64 = 0
  private var wantsInput = false
  private var wantsOutput = false
  private var busy = false
  private var registered = false
  private var handler: (any ChannelHandler)?

  fileprivate init(fd: Int32, loop: EventLoop) {
    self.fd = fd
    self.loop = loop
  }

  /// Starts watching, for input if `input` and for output if it was asked already
  /// (``setOutput(_:)``); false if the descriptor cannot be polled (a regular file, /dev/null) —
  /// it is then not registered.
  func register(_ handler: any ChannelHandler, input: Bool) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    self.handler = handler
    wantsInput = input
    token = loop.add(self)
    guard loop.control(EPOLL_CTL_ADD, fd, events: interest, token: token) else {
      loop.remove(token)
      self.handler = nil
      return false
    }
    registered = true
    return true
  }

  /// Changes whether input is wanted.
  func setInput(_ wanted: Bool) {
    lock.lock()
    defer { lock.unlock() }
    guard wantsInput != wanted else { return }
    wantsInput = wanted
    rearmIfIdle()
  }

  /// Changes whether output (room to write) is wanted.
  func setOutput(_ wanted: Bool) {
    lock.lock()
    defer { lock.unlock() }
    guard wantsOutput != wanted else { return }
    wantsOutput = wanted
    rearmIfIdle()
  }

  /// Stops watching for good and drops the handler. Call before closing the descriptor.
  func unregister() {
    lock.lock()
    defer { lock.unlock() }
    guard registered else { return }
    registered = false
    handler = nil
    _ = loop.control(EPOLL_CTL_DEL, fd, events: 0, token: token)
    loop.remove(token)
  }

  private var interest: UInt32 {
    (wantsInput ? UInt32(EPOLLIN.rawValue) : 0) | (wantsOutput ? UInt32(EPOLLOUT.rawValue) : 0)
      | UInt32(EPOLLONESHOT.rawValue)
  }

  /// Under `lock`.
  private func rearmIfIdle() {
    guard registered, !busy else { return }
    _ = loop.control(EPOLL_CTL_MOD, fd, events: interest, token: token)
  }

  /// An event was delivered (on a loop thread).
  fileprivate func fire(_ events: UInt32, context: inout LoopContext) {
    lock.lock()
    guard registered, let handler else {
      lock.unlock()
      return
    }
    busy = true
    let failed = events & UInt32(EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
    let readable = wantsInput && (events & UInt32(EPOLLIN.rawValue) != 0 || failed)
    let writable = wantsOutput && (events & UInt32(EPOLLOUT.rawValue) != 0 || failed)
    lock.unlock()
    handler.channelReady(readable: readable, writable: writable, context: &context)
    lock.lock()
    busy = false
    if registered && (wantsInput || wantsOutput) {
      _ = loop.control(EPOLL_CTL_MOD, fd, events: interest, token: token)
    }
    lock.unlock()
  }
}

/// The epoll instance and its threads, shared by every ``Connection`` of the process.
///
/// A few threads wait on one epoll descriptor, taking one event at a time; channels are
/// one-shot, so a busy connection (parsing a large frame) holds one thread while the others
/// serve the rest. Events carry a token, never a pointer: an event for a channel unregistered
/// meanwhile finds nothing.
final class EventLoop: Sendable {
  /// The loop of the process, started on first use. Two threads: one busy with a large frame
  /// (a million-item `list/create` parses for a good part of a second) leaves the other serving
  /// every other connection; an idle daemon keeps the 4 threads it had before (main, accept,
  /// these two).
  static let shared = EventLoop(threads: 2)

  private let epoll: Int32
  private let channels = Mutex<(next: UInt64, byToken: [UInt64: Channel])>((1, [:]))

  private init(threads: Int) {
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    precondition(epoll >= 0, "epoll_create1 failed: \(String(cString: strerror(errno)))")
    for index in 0..<threads {
      let thread = Thread { [self] in run() }
      thread.name = "jsonrpc.io.\(index)"
      thread.stackSize = 8 << 20  // room for parsing JSON nested up to maxDepth
      thread.start()
    }
  }

  /// A channel for `fd`, not registered yet.
  func channel(_ fd: Int32) -> Channel { Channel(fd: fd, loop: self) }

  fileprivate func add(_ channel: Channel) -> UInt64 {
    channels.withLock { channels in
      let token = channels.next
      channels.next += 1
      channels.byToken[token] = channel
      return token
    }
  }

  fileprivate func remove(_ token: UInt64) {
    _ = channels.withLock { $0.byToken.removeValue(forKey: token) }
  }

  fileprivate func control(_ operation: Int32, _ fd: Int32, events: UInt32, token: UInt64) -> Bool {
    var event = epoll_event()
    event.events = events
    event.data.u64 = token
    return epoll_ctl(epoll, operation, fd, &event) == 0
  }

  private func run() {
    var context = LoopContext(bufferSize: 64 << 10)
    // One event per wait: a thread busy with a large frame holds back no other ready channel.
    let capacity = 1
    let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    while true {
      let count = epoll_wait(epoll, events, Int32(capacity), -1)
      if count < 0 {
        if errno == EINTR { continue }
        fatalError("epoll_wait failed: \(String(cString: strerror(errno)))")
      }
      for index in 0..<Int(count) {
        let event = events[index]
        guard let channel = channels.withLock({ $0.byToken[event.data.u64] }) else { continue }
        channel.fire(event.events, context: &context)
      }
    }
  }
}
