// Frees a request's large intermediates (decoded content) after its answer, off the request path.
import Dispatch

enum LateRelease {
  /// Keeps `value` alive a moment and then releases it on a utility thread. The caller's own
  /// reference ends with the request, so the last release — the freeing of every item the value
  /// holds — happens there and not before the answer is written. With `items` at or above
  /// ``MemoryTrim``'s threshold, the allocator is trimmed once the value is freed: freeing a
  /// million decoded items can outlast the trims scheduled after the answer, and the pages it
  /// frees would otherwise stay resident. O(1) here.
  static func later<T: Sendable>(_ value: T, items: Int = 0) {
    let held = Held(value)
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(50)) {
      held.release()
      if items >= MemoryTrim.threshold { MemoryTrim.now() }
    }
  }

  /// The value until ``release()``. `@unchecked Sendable`: `value` is set once, in `init`, and
  /// cleared once, by the one closure that holds this.
  private final class Held<T: Sendable>: @unchecked Sendable {
    private var value: T?
    init(_ value: T) { self.value = value }
    func release() { value = nil }
  }
}
