// ListServer's platform calls, added to JSONRPC's `Platform`: durable syncs and the allocator's trim.
import Foundation
import JSONRPC

/// The calls of ListServer that differ between platforms.
extension Platform {
  /// Makes the data written to `fd` durable (it survives a power loss); 0, or -1 with `errno`.
  ///
  /// Linux: `fdatasync(2)`. Darwin: `fcntl(F_FULLFSYNC)`, since `fsync(2)` there leaves the
  /// data in the drive's cache (Apple's fsync(2) man page); on a file system that refuses it,
  /// `fsync(2)`, the best there is.
  @discardableResult
  static func syncData(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
      if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
      return fsync(fd)
    #else
      return fdatasync(fd)
    #endif
  }

  /// The name of ``syncData(_:)`` for messages.
  static let syncDataCall: String = {
    #if canImport(Darwin)
      "F_FULLFSYNC"
    #else
      "fdatasync"
    #endif
  }()

  /// Returns the allocator's free memory to the OS, if it has a call for that.
  ///
  /// glibc: `malloc_trim(0)` (looked up once with dlsym: the Glibc module does not export it).
  /// Darwin: `malloc_zone_pressure_relief(nil, 0)`, which asks every zone to give back what
  /// it can (Apple's malloc_zone API).
  static func trimAllocator() {
    #if canImport(Darwin)
      _ = malloc_zone_pressure_relief(nil, 0)
    #else
      _ = mallocTrim?(0)
    #endif
  }

  /// Whether ``trimAllocator()`` does anything here.
  static var canTrimAllocator: Bool {
    #if canImport(Darwin)
      true
    #else
      mallocTrim != nil
    #endif
  }

  #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up once.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
      guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
  #endif

  /// Caps glibc's malloc arenas at `count` (`mallopt(M_ARENA_MAX)`). Darwin's allocator has
  /// no such setting: nothing to do there.
  static func limitMallocArenas(to count: Int32) {
    #if canImport(Glibc)
      guard let symbol = dlsym(nil, "mallopt") else { return }
      let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
      let arenaMax: Int32 = -8  // M_ARENA_MAX in <malloc.h>
      _ = mallopt(arenaMax, count)
    #endif
  }
}
