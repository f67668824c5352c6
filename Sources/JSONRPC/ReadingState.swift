// Who reads a connection's input now, whether its reading has ended, and its frame reader.
import Foundation

/// The reading side of a ``Connection``: at most one thread reads at a time (``begin()``), and
/// the reading ends exactly once — by the thread reading, or by whoever stops it while no thread
/// reads.
///
/// `@unchecked Sendable`: `guarded` is behind `lock`; `reader` and `framingKnown` are used only
/// by the thread ``begin()`` let in (or before ``Connection/start()``).
final class ReadingState: @unchecked Sendable {
  struct Guarded {
    var busy = false
    var ended = false
    /// The event loop channels of the connection's descriptors.
    var channels: [Channel] = []

    mutating func takeChannels() -> [Channel] {
      defer { channels = [] }
      return channels
    }
  }

  private let lock = NSLock()
  private var guarded = Guarded()
  var reader = FrameReader()
  var framingKnown = false

  func withLock<T>(_ body: (inout Guarded) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&guarded)
  }

  /// Lets the calling thread read; false if another thread is reading or reading has ended.
  func begin() -> Bool {
    withLock { guarded in
      if guarded.busy || guarded.ended { return false }
      guarded.busy = true
      return true
    }
  }

  /// Ends the reading if `condition()` holds (checked under the lock), returning whether it
  /// ended now. The thread reading calls it when done with its turn (which ends the turn
  /// either way); anyone else passes `unlessBusy`, and then a thread reading ends it itself.
  func end(if condition: () -> Bool, unlessBusy: Bool = false) -> Bool {
    withLock { guarded in
      if unlessBusy && guarded.busy { return false }
      guarded.busy = false
      guard !guarded.ended, condition() else { return false }
      guarded.ended = true
      return true
    }
  }
}
