// Gives the memory of large transient requests and answers back to the OS once they are freed; few malloc arenas.
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// glibc keeps freed heap memory for reuse: after a million-item `list/create` the parsed request,
/// decoded content and encoded answer (about 600 MB) stayed resident next to the 300 MB list.
/// After large content work the daemon asks malloc to return free pages, off the request's path,
/// once the transient values are gone.
public enum MemoryTrim {
  /// Content work below this many items is not worth a trim.
  static let threshold = 50_000

  /// Schedules `malloc_trim` shortly after work on `items` items (twice: the answer of a large
  /// request may take a moment to be written and freed). No-op elsewhere than glibc.
  static func afterLargeWork(items: Int) {
    guard items >= threshold else { return }
    soon()
  }

  /// Runs `malloc_trim` now, on the caller's thread. No-op elsewhere than glibc.
  public static func now() {
    _ = mallocTrim?(0)
  }

  /// Schedules `malloc_trim` twice, shortly. No-op elsewhere than glibc.
  static func soon() {
    guard let trim = mallocTrim else { return }
    for delay in [0.1, 1.0] {
      DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { _ = trim(0) }
    }
  }

  /// Caps glibc's malloc arenas at one per core (at least 2; glibc's default is 8 per core).
  /// Handlers run on many dispatch threads, and each new thread may get an arena of its own:
  /// the small, long-lived allocations of 10,000 small lists then sat among freed transient ones
  /// (requests, answers) in a dozen arenas — about 9 KB of RSS per list that one or two arenas
  /// do not hold. Call first thing, before any thread starts. No-op elsewhere than glibc.
  public static func limitArenas() {
    #if canImport(Glibc)
      guard let symbol = dlsym(nil, "mallopt") else { return }
      let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
      let arenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
      _ = mallopt(arenaMax, Int32(max(2, min(ProcessInfo.processInfo.activeProcessorCount, 64))))
    #endif
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
