// Tests/long-tests.txt, the one place the long set is named: every name in it is a test that exists.
import Foundation
import XCTest

final class LongTestListTests: XCTestCase {
  /// A misspelt or renamed entry would quietly put a long test back into `script/test`'s minutes;
  /// each XCTest entry must name a class (and test) of its target, each pytest entry a file or a test function.
  func testEveryEntryNamesATestThatExists() throws {
    let root = repositoryRoot
    let list = try String(contentsOf: root.appendingPathComponent("Tests/long-tests.txt"), encoding: .utf8)
    let targets = [
      "ListTUITests": "clients/tui/Tests/ListTUITests",
      "NeovimPluginTests": "clients/nvim/test/NeovimPluginTests",
      "EmacsPackageTests": "clients/emacs/test/EmacsPackageTests",
    ]
    var entries = 0
    for line in list.split(separator: "\n") where !line.hasPrefix("#") {
      guard let name = line.split(separator: " ").first.map(String.init) else { continue }
      entries += 1
      if name.hasSuffix(".py") {
        XCTAssertTrue(
          FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path),
          "\(name): no such pytest file")
        continue
      }
      if name.contains("::") {
        let parts = name.components(separatedBy: "::")
        let source = try String(contentsOf: root.appendingPathComponent(parts[0]), encoding: .utf8)
        XCTAssertTrue(
          source.contains("def \(parts[1].split(separator: "[")[0])("), "\(name): no such pytest test")
        continue
      }
      let path = name.split(separator: "/")
      let dotted = path[0].split(separator: ".")
      XCTAssertEqual(dotted.count, 2, "\(name): expected Target.Class or Target.Class/testName")
      guard dotted.count == 2 else { continue }
      let target = String(dotted[0])
      let folder = root.appendingPathComponent(targets[target] ?? "Tests/\(target)")
      let sources = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(".swift") }
        .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        .joined()
      XCTAssertTrue(
        sources.contains("class \(dotted[1]): XCTestCase"), "\(name): no such class in \(folder.path)")
      if path.count == 2 { XCTAssertTrue(sources.contains("func \(path[1])("), "\(name): no such test") }
    }
    XCTAssertGreaterThan(entries, 0)
  }
}
