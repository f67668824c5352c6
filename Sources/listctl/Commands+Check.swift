// listctl check: what UIKit would do with a batch update (check/batchUpdate), or a snapshot's identifier rules (check/snapshot).
import JSON
import ListClient

/// The update is invalid (exit 1); its problems are already printed.
struct CheckFailed: Error, CustomStringConvertible {
  let count: Int
  var description: String { "invalid: \(count) problem\(count == 1 ? "" : "s")" }
}

extension Command {
  static let check = Command(
    "check", "UPDATE.json | --snapshot CONTENT.json",
    "Checks a batch update as UIKit would (check/batchUpdate), or a snapshot (check/snapshot; - for stdin).",
    details: """
      UPDATE.json holds check/batchUpdate's params: {"before": [4, 0, 7], "update": {…}, "after": […]?},
      before and after as item counts per section or as a content, update as a changeset or as UIKit
      index paths ({"deleteItems": [[0, 1]], …}). Valid: exit 0 and the section counts after it.
      Invalid: exit 1 and each problem's UIKit message on its own line (followed by its rule when
      two problems have the same message).
        --snapshot           CONTENT.json is a content ({"sections": […]}) or {"flat": {"sections", "items"}}:
                             duplicate identifiers and items in no section, every one at once
      """,
    switches: ["--snapshot"],
    positionals: 1...1,
    input: { arguments in
      let value = try readJSON(arguments.positionals[0])
      guard case .object = value else {
        throw UsageError("\(arguments.positionals[0]) must hold a JSON object, got \(value.abbreviatedJSON)")
      }
      return value
    }
  ) { context in
    let input = context.input ?? [:]
    let answer: CheckAnswer
    if context.arguments.has("--snapshot") {
      answer =
        input["flat"] != nil && input["sections"] == nil
        ? try await context.client.checkSnapshot(flat: input["flat"] ?? [:])
        : try await context.client.checkSnapshot(content: input)
    } else {
      answer = try await context.client.checkBatchUpdate(input)
    }
    if context.json {
      var object: JSONObject = ["valid": .bool(answer.valid)]
      if let after = answer.after { object.append("after", .array(after.map { .int(Int64($0)) })) }
      if !answer.problems.isEmpty {
        object.append(
          "problems",
          .array(
            answer.problems.map { problem in
              var entry: JSONObject = ["rule": .string(problem.rule), "message": .string(problem.message)]
              if let at = problem.at { entry.append("at", at) }
              return .object(entry)
            }))
      }
      printJSON(.object(object))
    } else if answer.valid {
      if let after = answer.after {
        print("valid: section counts after the update [\(after.map(String.init).joined(separator: ", "))]")
      } else {
        print("valid: identifiers unique, every item in a section")
      }
    } else {
      // Two rules can raise the same UIKit message (a delete and a reload of one moved index
      // path): those lines name their rule, so they do not read as one problem printed twice.
      var seen: [String: Int] = [:]
      for problem in answer.problems { seen[problem.message, default: 0] += 1 }
      for problem in answer.problems {
        print(
          seen[problem.message, default: 0] > 1 ? "\(problem.message)  (\(problem.rule))" : problem.message)
      }
    }
    if !answer.valid { throw CheckFailed(count: answer.problems.count) }
  }
}
