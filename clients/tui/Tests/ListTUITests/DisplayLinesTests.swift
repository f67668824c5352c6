// Display lines (headers, rows, footers) against a brute-force flattening, on random layouts and header modes.
import ListTUI
import SeededRandom
import XCTest

final class DisplayLinesTests: XCTestCase {
  func testEntriesRowsAndLinesAgreeWithABruteForceFlattening() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<500 {
      let sections = (0..<random.int(in: 0...5)).map { index in
        SectionShape(
          id: "s\(index)", header: random.chance(percent: 50) ? "H" : nil,
          footer: random.chance(percent: 30) ? "F" : nil,
          headerMode: random.element([nil, nil, "supplementary", "none", "firstItemInSection"])!,
          rows: random.int(in: 0...6))
      }
      let layout = ListLayout(sections: sections)
      var all: [DisplayEntry] = []
      var row = 0
      for (index, section) in sections.enumerated() {
        // A header line only for header text shown as a supplementary view (Presentation).
        if section.header != nil, section.headerMode ?? "supplementary" == "supplementary" {
          all.append(.header(index))
        }
        for _ in 0..<section.rows {
          all.append(.row(row))
          row += 1
        }
        if section.footer != nil { all.append(.footer(index)) }
      }
      XCTAssertEqual(layout.totalRows, row)
      XCTAssertEqual(layout.displayLineCount, all.count)
      for absolute in 0..<row {
        XCTAssertEqual(all[layout.displayLine(ofRow: absolute)], .row(absolute))
        let path = layout.indexPath(ofRow: absolute)!
        XCTAssertEqual(layout.absolute(section: path.section, row: path.row), absolute)
      }
      for start in 0...(all.count + 2) {
        for count in 0...(all.count + 2) {
          let expected = Array(all.dropFirst(start).prefix(count))
          XCTAssertEqual(layout.displayEntries(from: start, count: count), expected)
          let rows = expected.compactMap { if case .row(let r) = $0 { r } else { nil } }
          let range = layout.rows(onDisplayLines: start..<(start + count))
          XCTAssertEqual(Array(range), rows, "lines \(start)..<\(start + count) of \(sections)")
        }
      }
    }
  }
}
