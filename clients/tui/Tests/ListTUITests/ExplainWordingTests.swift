// The explanation's words against the cases shared with the Neovim plugin (clients/wording/explain-cases.json).
import Foundation
import JSON
import ListTUI
import XCTest

final class ExplainWordingTests: XCTestCase {
  /// clients/wording/explain-cases.json, found from this file's path.
  static let casesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("wording/explain-cases.json").path

  func testEveryCaseReadsAsTheSharedLines() throws {
    let data = try XCTUnwrap(FileManager.default.contents(atPath: Self.casesPath), Self.casesPath)
    let cases = try XCTUnwrap(JSONParser().parse(data)["cases"]?.arrayValue)
    XCTAssertGreaterThanOrEqual(cases.count, 4)
    for example in cases {
      let name = example["name"]?.stringValue ?? "?"
      let answer = try XCTUnwrap(example["answer"], name)
      let noun = example["noun"]?.stringValue ?? "row"
      let expected = (example["lines"]?.arrayValue ?? []).compactMap(\.stringValue)
      XCTAssertEqual(ExplainWords.lines(answer: answer, noun: noun), expected, name)
    }
  }
}
