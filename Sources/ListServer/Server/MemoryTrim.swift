// Gives the memory of large transient requests and answers back to the OS once they are freed; few malloc arenas.
import Dispatch
import Foundation
import JSONRPC

/// glibc keeps freed heap memory for reuse: after a million-item `list/create` the parsed request,
/// decoded content and encoded answer (about 600 MB) stayed resident next to the 300 MB list.
/// After large content work the daemon asks malloc to return free pages, off the request's path,
/// once the transient values are gone (``Platform/trimAllocator()``).
public enum MemoryTrim {
  /// Content work below this many items is not worth a trim.
  static let threshold = 50_000

  /// Schedules a trim shortly after work on `items` items (twice: the answer of a large
  /// request may take a moment to be written and freed). No-op where the allocator has no trim.
  static func afterLargeWork(items: Int) {
    guard items >= threshold else { return }
    soon()
  }

  /// Trims now, on the caller's thread. No-op where the allocator has no trim.
  public static func now() {
    Platform.trimAllocator()
  }

  /// Schedules a trim twice, shortly. No-op where the allocator has no trim.
  static func soon() {
    guard Platform.canTrimAllocator else { return }
    for delay in [0.1, 1.0] {
      DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { Platform.trimAllocator() }
    }
  }

  /// Caps glibc's malloc arenas at one per core (at least 2; glibc's default is 8 per core).
  /// Handlers run on many dispatch threads, and each new thread may get an arena of its own:
  /// the small, long-lived allocations of 10,000 small lists then sat among freed transient ones
  /// (requests, answers) in a dozen arenas — about 9 KB of RSS per list that one or two arenas
  /// do not hold. Call first thing, before any thread starts. No-op elsewhere than glibc.
  public static func limitArenas() {
    Platform.limitMallocArenas(to: Int32(max(2, min(ProcessInfo.processInfo.activeProcessorCount, 64))))
  }
}
