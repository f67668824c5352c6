// The bounded queue of whole frames waiting to be written, and who writes them when.
import Foundation

/// Frames waiting to be written to one descriptor, bounded by their total size in bytes.
///
/// Any thread appends whole frames; at most one thread writes at a time, in order, so frames
/// never interleave. A small frame finding nothing ahead of it is written at once by the thread
/// sending it; otherwise the queue asks for room to write (``onWantsOutput``) and the event
/// loop calls ``drain()`` when the descriptor is writable — no thread waits on a peer that does
/// not read. A descriptor that cannot be polled (a regular file) is written by whoever finds
/// the queue idle, blocking. The byte count includes frames being written, so a peer that stops
/// reading makes ``enqueue(_:)`` fail once `limit` bytes are pending.
///
/// `@unchecked Sendable`: all mutable state is guarded by `lock`.
final class OutgoingQueue: @unchecked Sendable {
  enum EnqueueResult {
    case queued
    case overflow(pending: Int)
    case closed
  }

  enum DrainResult {
    /// Nothing is left to write now (or another thread is writing it).
    case idle
    /// The descriptor is full: the queue asked for room to write.
    case waiting
    /// Closed, and everything is written or discarded: the output is finished (reported once).
    case finished
    case failed(Int32)
  }

  let limit: Int
  let output: Int32
  /// Whether the event loop watches `output`: otherwise writes block.
  let pollable: Bool
  /// Whether writes to `output` return EAGAIN rather than block (a pipe or a socket).
  let nonBlocking: Bool
  /// Called once the queue is closed and everything is written or discarded. Set before use.
  var onFinished: (@Sendable () -> Void)?
  /// Called when a write fails (with errno). Set before use.
  var onFailed: (@Sendable (Int32) -> Void)?
  /// Called after ``drain()`` wrote queued frames and the queue still works (outside the lock),
  /// so a producer that held messages back can send them. Set before use.
  var onWritten: (@Sendable () -> Void)?
  /// Called under the queue's lock when the queue starts or stops waiting for room to write.
  private var onWantsOutput: (@Sendable (Bool) -> Void)?

  private let lock = NSLock()
  private var frames: [[UInt8]] = []
  private var head = 0
  /// Bytes of `frames[head]` already written.
  private var offset = 0
  private var pendingBytes = 0
  private var closed = false
  private var discard = false
  private var finishReported = false
  /// A thread is writing (outside the lock).
  private var writing = false
  /// Waiting for the loop to say the descriptor is writable.
  private var waiting = false
  /// While held (a read's frames are being handled) answers are only queued: they go out
  /// together when released.
  private var holds = 0

  /// Frames up to this size may be written by the sending thread itself.
  static let directWriteLimit = 4096
  /// Most bytes gathered into one `writev`.
  private static let batchLimit = 1 << 20

  init(limit: Int, output: Int32, pollable: Bool, nonBlocking: Bool) {
    self.limit = limit
    self.output = output
    self.pollable = pollable
    self.nonBlocking = nonBlocking
  }

  private var isEmpty: Bool { head == frames.count }

  /// Appends one frame, writing it at once when it is small and nothing is ahead of it (the
  /// common small answer). Returns `.queued` also when a write failed: the failure is reported
  /// by the next ``drain()``.
  func enqueue(_ frame: [UInt8]) -> EnqueueResult {
    lock.lock()
    if closed {
      lock.unlock()
      return .closed
    }
    if pendingBytes + frame.count > limit && pendingBytes > 0 {
      lock.unlock()
      return .overflow(pending: pendingBytes + frame.count)
    }
    let idle = holds == 0 && !writing && !waiting && isEmpty
    if idle && pollable && frame.count <= Self.directWriteLimit, let written = writeNow(frame) {
      if written < frame.count {
        frames.append(frame)
        offset = written
        pendingBytes += frame.count - written
        setWaiting(true)
      }
      lock.unlock()
      return .queued
    }
    frames.append(frame)
    pendingBytes += frame.count
    let start = holds == 0 && !writing && !waiting
    if start && pollable { setWaiting(true) }
    lock.unlock()
    if start && !pollable { drain() }
    return .queued
  }

  /// Writes `frame` if the descriptor has room without blocking; bytes written, or nil when
  /// there is no room or the write failed (the frame is then queued, and ``drain()`` reports
  /// the failure). Under `lock`.
  private func writeNow(_ frame: [UInt8]) -> Int? {
    if !nonBlocking {
      var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
      guard poll(&descriptor, 1, 0) == 1, descriptor.revents == Int16(POLLOUT) else { return nil }
    }
    let written = frame.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
    return written > 0 ? written : nil
  }

  /// Sets what is told when the queue starts or stops waiting for room to write; tells it at
  /// once if the queue is waiting already.
  func setOutputHandler(_ handler: (@Sendable (Bool) -> Void)?) {
    lock.lock()
    defer { lock.unlock() }
    onWantsOutput = handler
    if waiting { handler?(true) }
  }

  /// Under `lock`.
  private func setWaiting(_ value: Bool) {
    guard waiting != value else { return }
    waiting = value
    onWantsOutput?(value)
  }

  /// Holds answers back while a read's frames are handled (see ``release()``).
  func hold() {
    lock.lock()
    holds += 1
    lock.unlock()
  }

  /// Ends a ``hold()``; the caller then calls ``drain()`` if this returns true.
  func release() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    holds -= 1
    return holds == 0 && !writing && !waiting && !isEmpty
  }

  /// Writes what is queued until it is all written or the descriptor is full (then waits for
  /// room). Called by the loop when the descriptor is writable, after a ``release()``, and for
  /// a descriptor that cannot be polled. Returns at once if another thread is writing. Reports
  /// the end of the output or a failure through ``onFinished`` or ``onFailed``.
  func drain() {
    switch drainLocked() {
    case .finished: onFinished?()
    case .failed(let code):
      onFailed?(code)
      // Already closed (flushing the last answers), the close above did not finish it.
      lock.lock()
      let finished = takeFinish()
      lock.unlock()
      if finished { onFinished?() }
    case .idle, .waiting: onWritten?()
    }
  }

  private func drainLocked() -> DrainResult {
    lock.lock()
    defer { lock.unlock() }
    if writing { return .idle }
    setWaiting(false)
    writing = true
    var iovecs: [iovec] = []
    while true {
      if discard {
        frames = []
        head = 0
        offset = 0
        pendingBytes = 0
      }
      if isEmpty {
        writing = false
        frames.removeAll(keepingCapacity: frames.capacity <= 64)
        head = 0
        return takeFinish() ? .finished : .idle
      }
      // Gather frames (the arrays stay alive in `batch` while the lock is released).
      let batch = Array(frames[head..<min(frames.count, head + 64)])
      let firstOffset = offset
      lock.unlock()
      var total = 0
      iovecs.removeAll(keepingCapacity: true)
      let result: Int = withIOVecs(batch, firstOffset: firstOffset, into: &iovecs) { pointer, count in
        total = 0
        for index in 0..<count { total += pointer[index].iov_len }
        return writev(output, pointer, Int32(count))
      }
      let code = errno
      lock.lock()
      if result > 0 {
        advance(by: result)
        continue
      }
      if result < 0 && code == EINTR { continue }
      if result < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
        writing = false
        if pollable {
          setWaiting(true)
          return .waiting
        }
        lock.unlock()
        usleep(1_000)  // a descriptor that cannot be polled but was made non-blocking elsewhere
        lock.lock()
        writing = true
        continue
      }
      // The peer is gone: nothing more can be written.
      writing = false
      discard = true
      frames = []
      head = 0
      offset = 0
      pendingBytes = 0
      return .failed(result < 0 ? code : EIO)
    }
  }

  /// Calls `body` with iovecs over `batch` (the first starting at `firstOffset`), up to
  /// ``batchLimit`` bytes.
  private func withIOVecs(
    _ batch: [[UInt8]], firstOffset: Int, into iovecs: inout [iovec],
    _ body: (UnsafePointer<iovec>, Int) -> Int
  ) -> Int {
    // The frames' storage stays valid while `batch` holds them; nothing writes to it.
    var bytes = 0
    for (index, frame) in batch.enumerated() {
      let start = index == 0 ? firstOffset : 0
      let length = frame.count - start
      frame.withUnsafeBytes { raw in
        iovecs.append(
          iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + start), iov_len: length))
      }
      bytes += length
      if bytes >= Self.batchLimit { break }
    }
    return withExtendedLifetime(batch) { iovecs.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) } }
  }

  /// Marks `count` bytes written. Under `lock`.
  private func advance(by count: Int) {
    var left = count
    pendingBytes -= count
    while left > 0 && !isEmpty {
      let remaining = frames[head].count - offset
      if left >= remaining {
        left -= remaining
        frames[head] = []
        head += 1
        offset = 0
      } else {
        offset += left
        left = 0
      }
    }
    if head > 64 && head * 2 > frames.count {
      frames.removeFirst(head)
      head = 0
    }
  }

  /// Whether the queue is closed and finished now, for the first time. Under `lock`.
  private func takeFinish() -> Bool {
    guard closed, isEmpty || discard, !writing, !finishReported else { return false }
    finishReported = true
    return true
  }

  /// Bytes queued or being written.
  var pending: Int {
    lock.lock()
    defer { lock.unlock() }
    return pendingBytes
  }

  /// Stops accepting frames. With `discardPending`, frames not yet written are dropped;
  /// otherwise they are still written. Calls ``onFinished`` if the output is finished now
  /// (otherwise ``drain()`` will). Returns whether it was.
  @discardableResult
  func close(discardPending: Bool) -> Bool {
    let finished = closeLocked(discardPending: discardPending)
    if finished { onFinished?() }
    return finished
  }

  private func closeLocked(discardPending: Bool) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    if discardPending {
      discard = true
      if !writing {
        frames = []
        head = 0
        offset = 0
        pendingBytes = 0
        setWaiting(false)
      }
    }
    return takeFinish()
  }
}
