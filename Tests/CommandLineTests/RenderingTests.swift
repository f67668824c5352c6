// The renderers and the option table on small descriptions: escaping, wrapping, parsing and its errors.
import XCTest

@testable import CommandLineDescription

final class RenderingTests: XCTestCase {
  struct Settings {
    var path: String?
    var listen: String?
    var spawn: [String]?
    var count = 0
    var verbose = false
  }

  static let table: OptionTable<Settings> = [
    .value("--path", "PATH", .files, "a path") { $0.path = $1.text },
    OptionEntry(Option("--listen", .optional("PATH", .files), help: "listen")) {
      $0.listen = $1.text ?? "default"
    },
    OptionEntry(Option("--spawn", .untilDoubleDash("ARGS…"), help: "spawn")) { $0.spawn = $1.words },
    .value("--count", "N", "how many") { $0.count = try $1.positiveInteger() },
    .flag("--verbose", "say more") { $0.verbose = true },
  ]

  func parse(_ arguments: [String]) throws -> Settings {
    var settings = Settings()
    try Self.table.parse(arguments, into: &settings)
    return settings
  }

  func testTheTableParsesEachKindOfOption() throws {
    let all = try parse(["--path", "p", "--listen", "--spawn", "a", "--b", "--", "--count", "3", "--verbose"])
    XCTAssertEqual(all.path, "p")
    XCTAssertEqual(all.listen, "default")
    XCTAssertEqual(all.spawn, ["a", "--b"])
    XCTAssertEqual(all.count, 3)
    XCTAssertTrue(all.verbose)
    XCTAssertEqual(try parse(["--listen", "here"]).listen, "here")
    // --spawn's words end at `--` or at the next option of the table.
    XCTAssertEqual(try parse(["--spawn", "x", "--verbose"]).spawn, ["x"])
    XCTAssertTrue(try parse(["--spawn", "x", "--verbose"]).verbose)
    XCTAssertEqual(try parse(["--spawn"]).spawn, [])
  }

  func testParseErrorsNameTheOptionAndTheValue() {
    for (arguments, message) in [
      (["--nope"], "unknown option '--nope'"), (["--path"], "--path needs a value"),
      (["--path", "--verbose"], "--path needs a value"),
      (["--count", "x"], "--count needs a positive integer, got 'x'"),
      (["--count", "0"], "--count needs a positive integer, got '0'"),
    ] {
      XCTAssertThrowsError(try parse(arguments), "\(arguments)") { error in
        XCTAssertEqual("\(error)", message)
      }
    }
  }

  func description(help: String, about: String) -> ToolDescription {
    ToolDescription(
      name: "tool", summary: "a tool", usage: ["tool [options]"], about: [about],
      options: [Option("--x", .required("V", .none), help: help)] + Self.table.options,
      sections: [Section("NOTES", ["{where} is where"], inHelp: true)],
      variables: ["where": Variable(here: "/here", rule: "$RULE")])
  }

  func testTheManPageEscapesWhatRoffWouldMisread() {
    let page = description(help: ".starts with a dot", about: "`tool --x` sets a back\\slash; -x too")
      .manPage(version: "1")
    XCTAssertTrue(page.contains("\n\\&.starts with a dot\n"), page)
    XCTAssertTrue(page.contains("\n\\fBtool \\-\\-x\\fR sets a back\\eslash; \\-x too\n"), page)
    XCTAssertTrue(page.contains("\\fB\\-\\-x\\fR \\fIV\\fR"), page)
    XCTAssertTrue(page.contains("\n$RULE is where\n"), "the manual gives the rule: \(page)")
    XCTAssertTrue(page.hasPrefix(".\\\" tool(1)"))
    XCTAssertTrue(page.contains("\n.TH \"TOOL\" 1 \"\" \"tool 1\" \"User Commands\"\n"), page)
  }

  func testHelpWrapsTo100ColumnsAndShowsTheValueHere() {
    let long = Array(repeating: "word", count: 80).joined(separator: " ")
    let help = description(help: long, about: long).help
    XCTAssertTrue(help.split(separator: "\n").allSatisfy { $0.count <= 100 }, help)
    XCTAssertTrue(help.contains("\n  --x V                  word word"), help)
    XCTAssertTrue(help.contains("\n                         word word"), help)
    XCTAssertTrue(help.contains("\n/here is where"), help)
    XCTAssertTrue(
      help.contains("\n  --generate-completion SHELL\n                         print the completion"), help)
  }

  func testTheOptionListGivesEachOptionAndItsValue() {
    let list = description(help: "x", about: "y").answer(.optionList, version: "1", protocolVersion: 1)
    XCTAssertEqual(list, "--x\tV\n--path\tPATH\n--listen\tPATH\n--spawn\tARGS…\n--count\tN\n--verbose\t")
  }
}
