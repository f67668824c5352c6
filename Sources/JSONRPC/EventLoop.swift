// The process-wide event loop: a few I/O threads serve every connection's descriptors, on the backend of EventLoopKind.
import Foundation
import JSON
import Synchronization

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
    guard loop.backend.add(fd, token: token, input: wantsInput, output: wantsOutput) else {
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
    loop.backend.remove(fd, token: token)
    loop.remove(token)
  }

  /// Under `lock`.
  private func rearmIfIdle() {
    guard registered, !busy else { return }
    loop.backend.rearm(fd, token: token, input: wantsInput, output: wantsOutput)
  }

  /// An event was delivered (on a loop thread).
  fileprivate func fire(_ event: Readiness, context: inout LoopContext) {
    lock.lock()
    // Busy: a backend with one filter per direction (Darwin's) delivered the other direction
    // meanwhile. Dropped: the re-arm when the handler returns reports it again if still ready.
    guard registered, !busy, let handler else {
      lock.unlock()
      return
    }
    busy = true
    let readable = wantsInput && (event.readable || event.failed)
    let writable = wantsOutput && (event.writable || event.failed)
    lock.unlock()
    handler.channelReady(readable: readable, writable: writable, context: &context)
    lock.lock()
    busy = false
    if registered && (wantsInput || wantsOutput) {
      loop.backend.rearm(fd, token: token, input: wantsInput, output: wantsOutput)
    }
    lock.unlock()
  }
}

/// The readiness backend and its threads, shared by every ``Connection`` of the process.
///
/// A few threads wait on one backend (the platform's best, or poll(2): see ``EventLoopKind``),
/// taking one event at a time; channels are one-shot, so a busy connection
/// (parsing a large frame) holds one thread while the others serve the rest. Events carry a
/// token, never a pointer: an event for a channel unregistered meanwhile finds nothing.
final class EventLoop: Sendable {
  /// The loop of the process, started on first use, with the backend `LISTD_EVENT_LOOP` names
  /// (the platform's best by default). Two threads: one busy with a large frame (a million-item
  /// `list/create` parses for a good part of a second) leaves the other serving every other
  /// connection; an idle daemon keeps the 4 threads it had before (main, accept, these two).
  static let shared = EventLoop(threads: 2)

  let backend: any EventBackend
  private let channels = Mutex<(next: UInt64, byToken: [UInt64: Channel])>((1, [:]))

  private init(threads: Int) {
    let kind: EventLoopKind
    do {
      kind = try EventLoopKind.chosen()
    } catch {
      // The daemon checks at startup (``EventLoopKind/chosen(_:)``); a client meets it here.
      fatalError("\(error)")
    }
    backend = kind.makeBackend()
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

  private func run() {
    var context = LoopContext(bufferSize: 64 << 10)
    while true {
      // One event per wait: a thread busy with a large frame holds back no other ready channel.
      guard let event = backend.wait() else { continue }
      guard let channel = channels.withLock({ $0.byToken[event.token] }) else { continue }
      channel.fire(event, context: &context)
    }
  }
}
