// checkSnapshot: a diffable data source's own rules — unique item and section identifiers, every item in a section.

/// An item of a snapshot to check: its identifier and the identifier of its section (nil: none).
public struct SnapshotCheckItem: Hashable, Sendable {
  public var id: String
  public var section: String?
  public init(id: String, section: String?) {
    self.id = id
    self.section = section
  }
}

/// Checks a snapshot's identifiers as `NSDiffableDataSourceSnapshot` would, reporting every
/// problem at once: duplicate section identifiers (one problem listing them all), duplicate item
/// identifiers (likewise), then each item in no section or in a section the snapshot lacks.
/// Identifiers are listed in the order of their first occurrence. Empty when all is well.
/// O(sections + items) expected (hashing).
public func checkSnapshot(sections: [String], items: [SnapshotCheckItem]) -> [CheckProblem] {
  var problems: [CheckProblem] = []
  let sectionDuplicates = duplicates(sections)
  if !sectionDuplicates.isEmpty {
    problems.append(
      CheckProblem(
        .duplicateSectionIdentifiers, UIKitMessages.duplicateSectionIdentifiers(sectionDuplicates),
        at: .identifiers(sectionDuplicates)))
  }
  let itemDuplicates = duplicates(items.map(\.id))
  if !itemDuplicates.isEmpty {
    problems.append(
      CheckProblem(
        .duplicateItemIdentifiers, UIKitMessages.duplicateItemIdentifiers(itemDuplicates),
        at: .identifiers(itemDuplicates)))
  }
  let known = Set(sections)
  for item in items {
    if let section = item.section, known.contains(section) { continue }
    let message: String
    if sections.isEmpty {
      message = UIKitMessages.noSections
    } else if let section = item.section {
      message = UIKitMessages.itemInUnknownSection(item.id, section: section)
    } else {
      message = UIKitMessages.itemInNoSection(item.id)
    }
    problems.append(CheckProblem(.itemInNoSection, message, at: .identifiers([item.id])))
  }
  return problems
}

/// The values that occur more than once, each once, in the order of their first occurrence. O(n).
private func duplicates(_ values: [String]) -> [String] {
  var counts: [String: Int] = [:]
  for value in values { counts[value, default: 0] += 1 }
  var reported = Set<String>()
  return values.filter { counts[$0]! > 1 && reported.insert($0).inserted }
}
