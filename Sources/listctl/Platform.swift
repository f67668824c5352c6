// The one place listctl meets the C library: its import, and calls whose names a method shadows.
#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Darwin)
  @_exported import Darwin
#endif

/// The C library's calls under names no method shadows (a session has a `close()` of its own).
enum Platform {
  /// `close(2)`.
  @discardableResult
  static func close(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(fd)
    #else
      Darwin.close(fd)
    #endif
  }
}
