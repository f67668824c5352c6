// Table tests of checkBatchUpdate and checkSnapshot: invalid updates with their exact problems, valid ones with their counts.
import XCTest

@testable import ListModel

final class BatchUpdateCheckTests: XCTestCase {
  typealias P = ListIndexPath

  /// One invalid case: the update, and every problem expected (rule, UIKit's message, where).
  struct Invalid {
    var name: String
    var before: [Int]
    var after: [Int]? = nil
    var update: BatchUpdate
    var problems: [(CheckRule, String, CheckProblem.Location?)]
  }

  /// `<NSIndexPath: 0x0> {length = 2, path = s - r}`, as the messages print an index path.
  static func ip(_ section: Int, _ row: Int) -> String {
    "<NSIndexPath: 0x0> {length = 2, path = \(section) - \(row)}"
  }
  static func at(_ section: Int, _ row: Int) -> CheckProblem.Location {
    .indexPath(P(section: section, item: row))
  }

  static func update(_ build: (inout BatchUpdate) -> Void) -> BatchUpdate {
    var update = BatchUpdate()
    build(&update)
    return update
  }
  static func run(_ s: Int, _ r: Int, _ n: Int = 1) -> BatchUpdate.ItemRun {
    .init(section: s, row: r, count: n)
  }
  static func move(_ s: Int, _ r: Int, _ t: Int, _ q: Int, _ n: Int = 1) -> BatchUpdate.ItemMove {
    .init(from: P(section: s, item: r), to: P(section: t, item: q), count: n)
  }

  static let countMessage =
    "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (5) must be equal to the number of items contained in that section before the update (4), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out)."

  static let invalid: [Invalid] = [
    // Counts.
    Invalid(
      name: "the issue's count example", before: [4], after: [5], update: BatchUpdate(),
      problems: [(.itemCount, countMessage, .section(0))]),
    Invalid(
      name: "count: a delete not reflected", before: [4, 2], after: [4, 2],
      update: update { $0.deleteItems = [run(1, 0)] },
      problems: [
        (
          .itemCount,
          "Invalid update: invalid number of items in section 1. The number of items contained in an existing section after the update (2) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (0 inserted, 1 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).",
          .section(1)
        )
      ]),
    Invalid(
      name: "count: a move between sections not reflected", before: [3, 3], after: [3, 3],
      update: update { $0.moveItems = [move(0, 0, 1, 0)] },
      problems: [
        (
          .itemCount,
          "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (3) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 1 moved out).",
          .section(0)
        ),
        (
          .itemCount,
          "Invalid update: invalid number of items in section 1. The number of items contained in an existing section after the update (3) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (1 moved in, 0 moved out).",
          .section(1)
        ),
      ]),
    Invalid(
      name: "count: inserts into a moved section use its new index", before: [1, 2], after: [5, 1],
      update: update {
        $0.moveSections = [.init(from: 1, to: 0)]
        $0.insertItems = [run(0, 2, 2)]
      },
      problems: [
        (
          .itemCount,
          "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (5) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (2 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).",
          .section(0)
        )
      ]),
    Invalid(
      name: "section count: nothing inserted", before: [1], after: [1, 0], update: BatchUpdate(),
      problems: [
        (
          .sectionCount,
          "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).",
          nil
        )
      ]),
    Invalid(
      name: "section count: a delete too many", before: [1, 1, 1], after: [1, 1, 1],
      update: update { $0.deleteSections = [2] },
      problems: [
        (
          .sectionCount,
          "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (3) must be equal to the number of sections contained in the collection view before the update (3), plus or minus the number of sections inserted or deleted (0 inserted, 1 deleted).",
          nil
        )
      ]),
    Invalid(
      name: "section count: two inserted, one there", before: [0], after: [0, 0],
      update: update { $0.insertSections = [0, 1] },
      problems: [
        (
          .sectionCount,
          "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (2 inserted, 0 deleted).",
          nil
        )
      ]),
    // Sections out of bounds.
    Invalid(
      name: "delete a section past the end", before: [1, 1], update: update { $0.deleteSections = [2] },
      problems: [
        (
          .deleteSectionOutOfBounds,
          "attempt to delete section 2, but there are only 2 sections before the update", .section(2)
        )
      ]),
    Invalid(
      name: "delete a negative section", before: [1], update: update { $0.deleteSections = [-1] },
      problems: [
        (
          .deleteSectionOutOfBounds,
          "attempt to delete section -1, but there are only 1 sections before the update", .section(-1)
        )
      ]),
    Invalid(
      name: "insert a section past the end", before: [1], update: update { $0.insertSections = [2] },
      problems: [
        (
          .insertSectionOutOfBounds,
          "attempt to insert section 2 but there are only 2 sections after the update", .section(2)
        )
      ]),
    Invalid(
      name: "reload a section past the end", before: [1], update: update { $0.reloadSections = [1] },
      problems: [
        (
          .reloadSectionOutOfBounds,
          "attempt to delete section 1, but there are only 1 sections before the update", .section(1)
        )
      ]),
    Invalid(
      name: "move a section from past the end", before: [1, 1],
      update: update { $0.moveSections = [.init(from: 5, to: 0)] },
      problems: [
        (
          .moveSectionOutOfBounds,
          "attempt to move section 5, but there are only 2 sections before the update", .section(5)
        )
      ]),
    Invalid(
      name: "move a section to past the end", before: [1, 1],
      update: update { $0.moveSections = [.init(from: 0, to: 2)] },
      problems: [
        (
          .moveSectionOutOfBounds,
          "attempt to move section 0 to section 2, but there are only 2 sections after the update",
          .section(2)
        )
      ]),
    // Section conflicts.
    Invalid(
      name: "delete and move a section", before: [1, 1],
      update: update {
        $0.deleteSections = [0]
        $0.insertSections = [0]
        $0.moveSections = [.init(from: 0, to: 1)]
      },
      problems: [
        (
          .deleteAndMoveSection, "attempt to perform a delete and a move from the same section (0)",
          .section(0)
        )
      ]),
    Invalid(
      name: "insert and move to one section", before: [1, 1],
      update: update {
        $0.deleteSections = [1]
        $0.insertSections = [0]
        $0.moveSections = [.init(from: 0, to: 0)]
      },
      problems: [
        (
          .insertAndMoveSection, "attempt to perform an insert and a move to the same section (0)",
          .section(0)
        )
      ]),
    Invalid(
      name: "a section moved twice", before: [1, 1, 1],
      update: update { $0.moveSections = [.init(from: 0, to: 2), .init(from: 0, to: 1)] },
      problems: [(.moveSectionTwice, "attempt to perform two moves from the same section (0)", .section(0))]),
    Invalid(
      name: "two sections moved to one index", before: [1, 1, 1],
      update: update { $0.moveSections = [.init(from: 0, to: 2), .init(from: 1, to: 2)] },
      problems: [
        (.moveSectionsToSameIndex, "attempt to perform two moves to the same section (2)", .section(2))
      ]),
    Invalid(
      name: "delete and reload a section", before: [1, 1],
      update: update {
        $0.deleteSections = [1]
        $0.reloadSections = [1]
      },
      problems: [(.deleteAndReloadSection, "attempt to delete and reload the same section (1)", .section(1))]),
    // Items out of bounds, old coordinates.
    Invalid(
      name: "delete an item past the end", before: [3], update: update { $0.deleteItems = [run(0, 3)] },
      problems: [
        (
          .deleteItemOutOfBounds,
          "attempt to delete item 3 from section 0 which only contains 3 items before the update", at(0, 3)
        )
      ]),
    Invalid(
      name: "delete a run that runs past the end", before: [3],
      update: update { $0.deleteItems = [run(0, 1, 5)] },
      problems: [
        (
          .deleteItemOutOfBounds,
          "attempt to delete item 3 from section 0 which only contains 3 items before the update", at(0, 3)
        )
      ]),
    Invalid(
      name: "delete an item of a section past the end", before: [3],
      update: update { $0.deleteItems = [run(1, 0)] },
      problems: [
        (
          .deleteItemOutOfBounds,
          "attempt to delete item 0 from section 1, but there are only 1 sections before the update",
          at(1, 0)
        )
      ]),
    Invalid(
      name: "delete a negative row", before: [3], update: update { $0.deleteItems = [run(0, -1)] },
      problems: [
        (
          .deleteItemOutOfBounds,
          "attempt to delete item -1 from section 0 which only contains 3 items before the update", at(0, -1)
        )
      ]),
    Invalid(
      name: "reload an item past the end", before: [2], update: update { $0.reloadItems = [run(0, 2)] },
      problems: [
        (
          .reloadItemOutOfBounds,
          "attempt to delete item 2 from section 0 which only contains 2 items before the update", at(0, 2)
        )
      ]),
    Invalid(
      name: "reload an item of a section past the end", before: [2],
      update: update { $0.reloadItems = [run(3, 0)] },
      problems: [
        (
          .reloadItemOutOfBounds,
          "attempt to delete item 0 from section 3, but there are only 1 sections before the update",
          at(3, 0)
        )
      ]),
    Invalid(
      name: "reconfigure an item past the end", before: [2],
      update: update { $0.reconfigureItems = [run(0, 4)] },
      problems: [
        (
          .reconfigureItemOutOfBounds,
          "attempt to reconfigure item 4 from section 0 which only contains 2 items before the update",
          at(0, 4)
        )
      ]),
    Invalid(
      name: "move from past the end", before: [2], update: update { $0.moveItems = [move(0, 2, 0, 0)] },
      problems: [
        (
          .moveItemOutOfBounds,
          "attempt to move index path (\(ip(0, 2))) that does not exist - there are only 2 items in section 0 before the update",
          at(0, 2)
        )
      ]),
    Invalid(
      name: "move from a section past the end", before: [2],
      update: update { $0.moveItems = [move(1, 0, 0, 0)] },
      problems: [
        (
          .moveItemOutOfBounds,
          "attempt to move index path (\(ip(1, 0))) that does not exist - there are only 1 sections before the update",
          at(1, 0)
        )
      ]),
    // Items out of bounds, new coordinates.
    Invalid(
      name: "insert an item past the end", before: [2], update: update { $0.insertItems = [run(0, 3)] },
      problems: [
        (
          .insertItemOutOfBounds,
          "attempt to insert item 3 into section 0, but there are only 3 items in section 0 after the update",
          at(0, 3)
        )
      ]),
    Invalid(
      name: "insert past the given after count", before: [2], after: [3],
      update: update { $0.insertItems = [run(0, 3)] },
      problems: [
        (
          .insertItemOutOfBounds,
          "attempt to insert item 3 into section 0, but there are only 3 items in section 0 after the update",
          at(0, 3)
        )
      ]),
    Invalid(
      name: "insert into a section past the end", before: [2],
      update: update { $0.insertItems = [run(1, 0)] },
      problems: [
        (
          .insertItemOutOfBounds,
          "attempt to insert item 0 into section 1, but there are only 1 sections after the update",
          at(1, 0)
        )
      ]),
    Invalid(
      name: "move to past the end", before: [2], update: update { $0.moveItems = [move(0, 0, 0, 2)] },
      problems: [
        (
          .moveItemOutOfBounds,
          "attempt to move index path (\(ip(0, 0))) to index path (\(ip(0, 2))) that does not exist - there are only 2 items in section 0 after the update",
          at(0, 2)
        )
      ]),
    Invalid(
      name: "move to a section past the end", before: [2],
      update: update { $0.moveItems = [move(0, 0, 4, 0)] },
      problems: [
        (
          .moveItemOutOfBounds,
          "attempt to move index path (\(ip(0, 0))) to index path (\(ip(4, 0))) that does not exist - there are only 1 sections after the update",
          at(4, 0)
        )
      ]),
    // Item conflicts, old coordinates.
    Invalid(
      name: "the same index path deleted twice", before: [3],
      update: update { $0.deleteItems = [run(0, 1), run(0, 1)] },
      problems: [(.deleteItemTwice, "attempt to delete the same index path twice (\(ip(0, 1)))", at(0, 1))]),
    Invalid(
      name: "two delete runs that overlap", before: [5],
      update: update { $0.deleteItems = [run(0, 0, 3), run(0, 2, 2)] },
      problems: [(.deleteItemTwice, "attempt to delete the same index path twice (\(ip(0, 2)))", at(0, 2))]),
    Invalid(
      name: "deleted and moved", before: [3],
      update: update {
        $0.deleteItems = [run(0, 1)]
        $0.insertItems = [run(0, 0)]
        $0.moveItems = [move(0, 1, 0, 2)]
      },
      problems: [
        (
          .deleteAndMoveItem, "attempt to perform a delete and a move from the same index path (\(ip(0, 1)))",
          at(0, 1)
        )
      ]),
    Invalid(
      name: "moved twice from one index path", before: [3],
      update: update { $0.moveItems = [move(0, 0, 0, 1), move(0, 0, 0, 2)] },
      problems: [
        (.moveItemTwice, "attempt to perform two moves from the same index path (\(ip(0, 0)))", at(0, 0))
      ]),
    Invalid(
      name: "deleted and reloaded", before: [3],
      update: update {
        $0.deleteItems = [run(0, 0)]
        $0.reloadItems = [run(0, 0)]
      },
      problems: [
        (.deleteAndReloadItem, "attempt to delete and reload the same index path (\(ip(0, 0)))", at(0, 0))
      ]),
    Invalid(
      name: "reloaded and moved", before: [3],
      update: update {
        $0.reloadItems = [run(0, 2)]
        $0.moveItems = [move(0, 2, 0, 0)]
      },
      problems: [
        (
          .reloadAndMoveItem, "attempt to perform a delete and a move from the same index path (\(ip(0, 2)))",
          at(0, 2)
        )
      ]),
    Invalid(
      name: "deleted and reconfigured", before: [3],
      update: update {
        $0.deleteItems = [run(0, 1)]
        $0.reconfigureItems = [run(0, 1)]
      },
      problems: [
        (
          .deleteAndReconfigureItem, "attempt to delete and reconfigure the same index path (\(ip(0, 1)))",
          at(0, 1)
        )
      ]),
    Invalid(
      name: "moved out of a deleted section", before: [2, 2],
      update: update {
        $0.deleteSections = [0]
        $0.insertItems = [run(0, 2)]
        $0.moveItems = [move(0, 0, 0, 0)]
      },
      problems: [(.moveItemFromDeletedSection, "cannot move a row out of a deleted section (0)", at(0, 0))]),
    // Item conflicts, new coordinates.
    Invalid(
      name: "two inserts at one index path", before: [1],
      update: update { $0.insertItems = [run(0, 1), run(0, 1)] },
      problems: [(.insertItemTwice, "attempt to insert the same index path twice (\(ip(0, 1)))", at(0, 1))]),
    Invalid(
      name: "an insert and a move to one index path", before: [3, 1],
      update: update {
        $0.insertItems = [run(0, 0)]
        $0.moveItems = [move(1, 0, 0, 0)]
      },
      problems: [
        (
          .insertAndMoveItem, "attempt to perform an insert and a move to the same index path (\(ip(0, 0)))",
          at(0, 0)
        )
      ]),
    Invalid(
      name: "two moves to one index path", before: [3],
      update: update { $0.moveItems = [move(0, 0, 0, 2), move(0, 1, 0, 2)] },
      problems: [
        (
          .moveItemsToSameIndexPath, "attempt to perform two moves to the same index path (\(ip(0, 2)))",
          at(0, 2)
        )
      ]),
    Invalid(
      name: "moved into an inserted section", before: [2],
      update: update {
        $0.insertSections = [1]
        $0.moveItems = [move(0, 0, 1, 0)]
      },
      problems: [
        (.moveItemIntoInsertedSection, "cannot move a row into a newly inserted section (1)", at(1, 0))
      ]),
    // Several problems at once, in the documented order.
    Invalid(
      name: "every problem, not only the first", before: [2], after: [9],
      update: update {
        $0.deleteItems = [run(0, 0), run(0, 0), run(0, 7)]
        $0.insertItems = [run(0, 0)]
      },
      problems: [
        (
          .deleteItemOutOfBounds,
          "attempt to delete item 7 from section 0 which only contains 2 items before the update", at(0, 7)
        ),
        (.deleteItemTwice, "attempt to delete the same index path twice (\(ip(0, 0)))", at(0, 0)),
        (
          .itemCount,
          "Invalid update: invalid number of items in section 0. The number of items contained in an existing section after the update (9) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (1 inserted, 2 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).",
          .section(0)
        ),
      ]),
    Invalid(
      name: "section problems skip new-coordinate checks, not old ones", before: [1], after: [1, 1],
      update: update {
        $0.deleteItems = [run(0, 3)]
        $0.insertItems = [run(5, 0)]
      },
      problems: [
        (
          .sectionCount,
          "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (2) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).",
          nil
        ),
        (
          .deleteItemOutOfBounds,
          "attempt to delete item 3 from section 0 which only contains 1 items before the update", at(0, 3)
        ),
      ]),
  ]

  /// One valid case: the update and the after counts expected.
  struct Valid {
    var name: String
    var before: [Int]
    var after: [Int]? = nil
    var update: BatchUpdate
    var expected: [Int]
  }

  static let valid: [Valid] = [
    Valid(name: "nothing", before: [4, 0, 7], update: BatchUpdate(), expected: [4, 0, 7]),
    Valid(
      name: "nothing, after given", before: [4, 0, 7], after: [4, 0, 7], update: BatchUpdate(),
      expected: [4, 0, 7]),
    Valid(name: "no sections", before: [], update: BatchUpdate(), expected: []),
    Valid(name: "one delete", before: [4], update: update { $0.deleteItems = [run(0, 3)] }, expected: [3]),
    Valid(
      name: "one insert at the end", before: [4], update: update { $0.insertItems = [run(0, 4)] },
      expected: [5]),
    Valid(
      name: "the issue's counts, consistent", before: [4], after: [5],
      update: update { $0.insertItems = [run(0, 0)] },
      expected: [5]),
    Valid(
      name: "delete and insert at one index path", before: [3],
      update: update {
        $0.deleteItems = [run(0, 1)]
        $0.insertItems = [run(0, 1)]
      }, expected: [3]),
    Valid(
      name: "a swap by moves", before: [2],
      update: update { $0.moveItems = [move(0, 0, 0, 1), move(0, 1, 0, 0)] },
      expected: [2]),
    Valid(
      name: "a move between sections", before: [2, 0], after: [1, 1],
      update: update { $0.moveItems = [move(0, 1, 1, 0)] },
      expected: [1, 1]),
    Valid(
      name: "reload everything", before: [3], update: update { $0.reloadItems = [run(0, 0, 3)] },
      expected: [3]),
    Valid(
      name: "reload and reconfigure different rows", before: [3],
      update: update {
        $0.reloadItems = [run(0, 0)]
        $0.reconfigureItems = [run(0, 1, 2)]
      }, expected: [3]),
    Valid(
      name: "moved and reconfigured", before: [3],
      update: update {
        $0.moveItems = [move(0, 0, 0, 2)]
        $0.reconfigureItems = [run(0, 0)]
      }, expected: [3]),
    Valid(
      name: "insert a section with its items", before: [1],
      update: update {
        $0.insertSections = [0]
        $0.insertItems = [run(0, 0, 2)]
      }, expected: [2, 1]),
    Valid(
      name: "insert a section with a known count", before: [1],
      update: update {
        $0.insertSections = [1]
        $0.insertedSectionCounts = [1: 5]
      }, expected: [1, 5]),
    Valid(
      name: "delete a section", before: [1, 2, 3], update: update { $0.deleteSections = [1] },
      expected: [1, 3]),
    Valid(
      name: "delete a section and rows of another", before: [1, 2, 3],
      update: update {
        $0.deleteSections = [0]
        $0.deleteItems = [run(2, 0, 2)]
      }, expected: [2, 1]),
    Valid(
      name: "move a section; its rows follow their new index", before: [1, 2, 3],
      update: update {
        $0.moveSections = [.init(from: 0, to: 2)]
        $0.deleteItems = [run(0, 0)]
        $0.insertItems = [run(2, 0, 4)]
      }, expected: [2, 3, 4]),
    Valid(
      name: "reload a section that moves", before: [1, 2],
      update: update {
        $0.moveSections = [.init(from: 1, to: 0)]
        $0.reloadSections = [1]
      }, expected: [2, 1]),
    Valid(
      name: "a run of moves into another section", before: [5, 1], after: [2, 4],
      update: update { $0.moveItems = [move(0, 1, 1, 1, 3)] }, expected: [2, 4]),
    Valid(
      name: "deletes in a deleted section are allowed", before: [2, 2],
      update: update {
        $0.deleteSections = [0]
        $0.deleteItems = [run(0, 0)]
      }, expected: [2]),
    Valid(
      name: "everything at once", before: [3, 3, 0], after: [1, 1, 3, 2],
      update: update {
        $0.insertSections = [0]
        $0.insertItems = [run(0, 0), run(1, 0)]
        $0.deleteItems = [run(1, 2)]
        $0.moveItems = [move(1, 0, 3, 0)]
        $0.moveSections = [.init(from: 2, to: 1)]
      }, expected: [1, 1, 3, 2]),
  ]

  func testInvalidBatchUpdatesReportEveryProblemWithUIKitsMessage() {
    XCTAssertGreaterThanOrEqual(Self.invalid.count, 40)
    for test in Self.invalid {
      let result = checkBatchUpdate(before: test.before, test.update, after: test.after)
      let expected = test.problems.map { CheckProblem($0.0, $0.1, at: $0.2) }
      XCTAssertEqual(result, .invalid(expected), test.name)
    }
  }

  func testValidBatchUpdatesAnswerTheirAfterCounts() {
    XCTAssertGreaterThanOrEqual(Self.valid.count, 20)
    for test in Self.valid {
      XCTAssertEqual(
        checkBatchUpdate(before: test.before, test.update, after: test.after), .valid(after: test.expected),
        test.name)
    }
  }

  /// Every rule of the issue has at least one invalid case (the snapshot rules are tested below;
  /// the cell rule through the daemon, CheckTests).
  func testEveryBatchUpdateRuleIsCovered() {
    let covered = Set(Self.invalid.flatMap { $0.problems.map(\.0) })
    let snapshotRules: Set<CheckRule> = [
      .duplicateItemIdentifiers, .duplicateSectionIdentifiers, .itemInNoSection, .duplicateSystemAccessory,
    ]
    XCTAssertEqual(Set(CheckRule.allCases).subtracting(snapshotRules).subtracting(covered), [])
  }

  func testSnapshotCheckReportsEveryProblemAtOnce() {
    let problems = checkSnapshot(
      sections: ["s", "t", "s"],
      items: [
        .init(id: "a", section: "s"), .init(id: "b", section: "t"), .init(id: "a", section: "t"),
        .init(id: "b", section: "s"), .init(id: "c", section: "gone"), .init(id: "d", section: nil),
      ])
    XCTAssertEqual(
      problems,
      [
        CheckProblem(
          .duplicateSectionIdentifiers,
          "Supplied section identifiers are not unique. Duplicate identifiers: {(s)}",
          at: .identifiers(["s"])),
        CheckProblem(
          .duplicateItemIdentifiers,
          "Supplied item identifiers are not unique. Duplicate identifiers: {(a, b)}",
          at: .identifiers(["a", "b"])),
        CheckProblem(
          .itemInNoSection,
          "Invalid section identifier (gone) for item identifier (c): the section is not in the snapshot",
          at: .identifiers(["c"])),
        CheckProblem(
          .itemInNoSection,
          "Item identifier (d) is in no section: every item of a snapshot must be in a section",
          at: .identifiers(["d"])),
      ])
    XCTAssertEqual(
      checkSnapshot(sections: [], items: [.init(id: "a", section: nil)]),
      [
        CheckProblem(
          .itemInNoSection, "There are currently no sections in the data source. Please add a section first.",
          at: .identifiers(["a"]))
      ])
    XCTAssertEqual(checkSnapshot(sections: ["s"], items: [.init(id: "a", section: "s")]), [])
  }
}
