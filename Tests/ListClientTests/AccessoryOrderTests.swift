// ListClient's accessory order is the spec's "Accessory order" table: accessories by type, whatever their order in the array.
import Foundation
import JSON
import ListClient
import XCTest

final class AccessoryOrderTests: XCTestCase {
  /// The table under "Accessory order" in Protocol/README.md: type → order.
  static func specOrder() throws -> [String: Int] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../..")
    let readme = try String(contentsOf: root.appendingPathComponent("Protocol/README.md"), encoding: .utf8)
    let start = try XCTUnwrap(readme.range(of: "**Accessory order.**"))
    let table = try XCTUnwrap(readme.range(of: "| order | type |", range: start.upperBound..<readme.endIndex))
    let end =
      readme.range(of: "\n\n", range: table.upperBound..<readme.endIndex)?.lowerBound ?? readme.endIndex
    var order: [String: Int] = [:]
    for line in readme[table.upperBound..<end].split(separator: "\n") {
      let cells = line.trimmingCharacters(in: .whitespaces).split(separator: "|").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count == 2, let rank = Int(cells[0]) else { continue }
      order[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = rank
    }
    return order
  }

  func testTheOrderTableIsTheSpecs() throws {
    XCTAssertEqual(AccessoryOrder.order, try Self.specOrder())
  }

  func testEachEdgeShowsCustomAccessoriesNearestTheContentThenSystemOnesByType() throws {
    let accessories: [JSONValue] = [
      ["type": "disclosureIndicator"], ["type": "image", "name": "b"], ["type": "checkmark"],
      ["type": "delete"],
      ["type": "badge", "text": "a", "placement": "leading"], ["type": "label", "text": "l"],
      ["type": "image", "name": "a"],
    ]
    let shown = AccessoryOrder.displayed(accessories).map {
      $0["name"]?.stringValue ?? $0["text"]?.stringValue ?? $0["type"]?.stringValue ?? "?"
    }
    XCTAssertEqual(shown, ["delete", "a", "b", "a", "l", "checkmark", "disclosureIndicator"])
    let every = try Self.specOrder().sorted { $0.value > $1.value }.map {
      JSONValue.object(["type": .string($0.key)])
    }
    XCTAssertEqual(
      AccessoryOrder.displayed(every).compactMap { $0["type"]?.stringValue },
      try Self.specOrder().sorted { $0.value < $1.value }.map(\.key))
  }
}
