// Platform-specific calls live only in each module's Platform files (issue 25): a scan of Sources/ and clients/.
import Foundation
import XCTest

final class PlatformConfinementTests: XCTestCase {
  /// What marks code as Linux- or Darwin-specific: the calls, headers and files of one
  /// platform, and the conditionals that choose between them.
  static let tokens = [
    "SO_PEERCRED", "ucred", "epoll_", "kqueue", "kevent", "malloc_trim", "malloc_zone_", "/proc/",
    "import Glibc", "import Darwin", "fdatasync", "F_FULLFSYNC", "MSG_NOSIGNAL", "SO_NOSIGPIPE",
    "getpeereid", "LOCAL_PEERCRED", "task_info",
  ]

  /// `#if os(…)` (and `#elseif`), and `canImport(Glibc)` / `canImport(Darwin)`.
  static let conditionals = try! NSRegularExpression(
    pattern: #"#(else)?if\b[^\n]*\bos\(|canImport\((Glibc|Darwin)\)"#)

  /// The source files scanned: Swift, C, Python, Lua and Emacs Lisp.
  static let extensions: Set<String> = ["swift", "c", "h", "py", "lua", "el"]

  /// Whether `path` (relative to the repository) is a Platform file: under a folder named
  /// `Platform`, or named `Platform…` (`platform.lua`, `_platform.py`).
  static func isPlatformFile(_ path: String) -> Bool {
    let components = path.split(separator: "/").map { $0.lowercased() }
    if components.dropLast().contains("platform") { return true }
    let name = components.last ?? ""
    return name.hasPrefix("platform") || name.hasPrefix("_platform")
  }

  /// Each platform-specific thing in `text`, as `path:line: token`, unless `path` is a Platform file.
  static func violations(in text: String, path: String) -> [String] {
    guard !isPlatformFile(path) else { return [] }
    var found: [String] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(line)
      for token in tokens where line.contains(token) { found.append("\(path):\(index + 1): \(token)") }
      let range = NSRange(line.startIndex..., in: line)
      if let match = conditionals.firstMatch(in: line, range: range), let text = Range(match.range, in: line)
      {
        found.append("\(path):\(index + 1): \(line[text])")
      }
    }
    return found
  }

  /// Every scanned file under `folder` of the repository, relative paths (build output and
  /// caches left out).
  static func sourceFiles(under folder: String) -> [String] {
    let root = repositoryRoot.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
      return []
    }
    var files: [String] = []
    for case let url as URL in walker {
      let name = url.lastPathComponent
      if name.hasPrefix(".") || name == "__pycache__" || name == "node_modules" {
        walker.skipDescendants()
        continue
      }
      guard extensions.contains(url.pathExtension) else { continue }
      files.append(folder + "/" + url.path.dropFirst(root.path.count + 1))
    }
    return files.sorted()
  }

  func testPlatformSpecificCodeIsOnlyInPlatformFiles() throws {
    let files = Self.sourceFiles(under: "Sources") + Self.sourceFiles(under: "clients")
    XCTAssertGreaterThan(files.count, 100, "the scan found the sources: \(files.count) files")
    var violations: [String] = []
    for file in files {
      let text = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
      violations += Self.violations(in: text, path: file)
    }
    XCTAssert(
      violations.isEmpty,
      "platform-specific code outside a Platform file (move it behind the module's Platform layer):\n"
        + violations.joined(separator: "\n"))
  }

  /// The scan itself: it finds each kind of thing, and spares Platform files only.
  func testTheScanFindsEachTokenAndConditionalAndSparesPlatformFiles() {
    for token in Self.tokens {
      XCTAssertEqual(
        Self.violations(in: "x\n  \(token)(y)\n", path: "Sources/M/File.swift"),
        ["Sources/M/File.swift:2: \(token)"])
    }
    for conditional in [
      "#if os(Linux)", "#elseif os(macOS)", "#if canImport(Glibc)", "#elseif canImport(Darwin)",
    ] {
      XCTAssertEqual(Self.violations(in: conditional, path: "clients/tui/X.swift").count, 1, conditional)
    }
    XCTAssertEqual(
      Self.violations(in: "#if canImport(FoundationEssentials)\n#if DEBUG", path: "Sources/M/F.swift"), [])
    for path in [
      "Sources/JSONRPC/Platform/EventBackend.swift", "Sources/listctl/Platform.swift",
      "clients/python/src/listd/_platform.py", "clients/nvim/lua/listd/platform.lua",
    ] {
      XCTAssertTrue(Self.isPlatformFile(path), path)
      XCTAssertEqual(Self.violations(in: "import Glibc\n#if os(Linux)", path: path), [], path)
    }
    for path in [
      "Sources/JSONRPC/EventLoop.swift", "clients/python/src/listd/sockets.py", "Sources/Platforms/A.swift",
    ] {
      XCTAssertFalse(Self.isPlatformFile(path), path)
    }
  }
}
