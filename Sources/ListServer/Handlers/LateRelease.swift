// Frees a request's large intermediates (decoded content) after its answer, off the request path.
import Dispatch

enum LateRelease {
  /// Keeps `value` alive a moment and then releases it on a utility thread. The caller's own
  /// reference ends with the request, so the last release — the freeing of every item the value
  /// holds — happens there and not before the answer is written. O(1) here.
  static func later<T: Sendable>(_ value: T) {
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(50)) {
      withExtendedLifetime(value) {}
    }
  }
}
