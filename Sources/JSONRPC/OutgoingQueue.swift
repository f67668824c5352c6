// The bounded queue of whole frames waiting for the writer thread.
import Foundation

/// Frames waiting to be written, bounded by their total size in bytes.
///
/// Producers (any thread) append whole frames; the single writer thread takes them in order, so
/// frames are never interleaved. The byte count includes the batch being written, so a peer that
/// stops reading makes ``enqueue(_:)`` fail once `limit` bytes are pending, instead of memory
/// growing without bound.
///
/// `@unchecked Sendable`: all mutable state is guarded by `condition`.
final class OutgoingQueue: @unchecked Sendable {
  enum EnqueueResult {
    case queued
    case overflow(pending: Int)
    case closed
  }

  let limit: Int
  private let condition = NSCondition()
  private var frames: [[UInt8]] = []
  private var pendingBytes = 0
  private var closed = false
  private var discard = false
  /// Whether the writer holds a batch it has not finished writing.
  private var writing = false

  /// Frames up to this size may be written by the sending thread itself (see ``enqueue(_:writingDirectly:)``).
  static let directWriteLimit = 4096

  init(limit: Int) {
    self.limit = limit
  }

  /// Appends one frame. O(1) amortized.
  func enqueue(_ frame: [UInt8]) -> EnqueueResult {
    condition.lock()
    defer { condition.unlock() }
    if closed { return .closed }
    if pendingBytes + frame.count > limit && pendingBytes > 0 {
      return .overflow(pending: pendingBytes + frame.count)
    }
    frames.append(frame)
    pendingBytes += frame.count
    condition.signal()
    return .queued
  }

  /// Like ``enqueue(_:)``, but when nothing is queued or being written and the frame is small,
  /// first offers it to `write` on the calling thread — saving the hand-off to the writer
  /// thread for the common small answer. `write` must not block; it returns how many bytes it
  /// wrote (the rest is queued) or nil when the descriptor is not ready. Order is kept: it runs
  /// under the queue's lock, so no other frame can be queued or taken meanwhile.
  func enqueue(_ frame: [UInt8], writingDirectly write: ([UInt8]) -> Int?) -> EnqueueResult {
    condition.lock()
    if !closed && !writing && frames.isEmpty && frame.count <= Self.directWriteLimit,
      let written = write(frame)
    {
      defer { condition.unlock() }
      if written >= frame.count { return .queued }
      let rest = Array(frame[max(written, 0)...])
      frames.append(rest)
      pendingBytes += rest.count
      condition.signal()
      return .queued
    }
    condition.unlock()
    return enqueue(frame)
  }

  /// Blocks until frames are available; returns them joined (at most ~1 MiB per batch), or nil
  /// once the queue is closed and (unless discarding) empty.
  func nextBatch() -> [UInt8]? {
    condition.lock()
    defer { condition.unlock() }
    while frames.isEmpty && !closed { condition.wait() }
    if discard || frames.isEmpty { return nil }
    var batch = frames[0]
    var taken = 1
    while taken < frames.count && batch.count + frames[taken].count <= 1 << 20 {
      batch.append(contentsOf: frames[taken])
      taken += 1
    }
    frames.removeFirst(taken)
    writing = true
    return batch
  }

  /// Marks `count` bytes of a batch as written.
  func didWrite(_ count: Int) {
    condition.lock()
    pendingBytes -= count
    writing = false
    condition.unlock()
  }

  /// Bytes queued or being written.
  var pending: Int {
    condition.lock()
    defer { condition.unlock() }
    return pendingBytes
  }

  /// Stops accepting frames. With `discardPending`, frames not yet taken are dropped; otherwise
  /// the writer drains them first.
  func close(discardPending: Bool) {
    condition.lock()
    closed = true
    if discardPending {
      discard = true
      frames = []
    }
    condition.broadcast()
    condition.unlock()
  }
}
