// Gives the memory of large transient requests and answers back to the OS once they are freed.
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// glibc keeps freed heap memory for reuse: after a million-item `list/create` the parsed request,
/// decoded content and encoded answer (about 600 MB) stayed resident next to the 300 MB list.
/// After large content work the daemon asks malloc to return free pages, off the request's path,
/// once the transient values are gone.
enum MemoryTrim {
  /// Content work below this many items is not worth a trim.
  static let threshold = 50_000

  /// Schedules `malloc_trim` shortly after work on `items` items (twice: the answer of a large
  /// request may take a moment to be written and freed). No-op elsewhere than glibc.
  static func afterLargeWork(items: Int) {
    guard items >= threshold else { return }
    soon()
  }

  /// Runs `malloc_trim` now, on the caller's thread. No-op elsewhere than glibc.
  static func now() {
    _ = mallocTrim?(0)
  }

  /// Schedules `malloc_trim` twice, shortly. No-op elsewhere than glibc.
  static func soon() {
    guard let trim = mallocTrim else { return }
    for delay in [0.1, 1.0] {
      DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { _ = trim(0) }
    }
  }

  /// glibc's `malloc_trim` (not exported by the Glibc module), looked up once.
  private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    #else
      return nil
    #endif
  }()
}
