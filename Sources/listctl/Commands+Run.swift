// The run command: replays a scripted session (the Protocol/examples/*.jsonl transcript format).
import Foundation
import JSON
import ListClient

/// A mismatch between a script's expectation and the daemon's answer (exit 1).
struct ScriptMismatch: Error, CustomStringConvertible {
  let description: String
  /// The message that did not match, if one came.
  var actual: JSONValue? = nil
}

extension Command {
  static let run = Command(
    "run", "SCRIPT [--update]",
    "Replays a scripted session and checks every answer; --update rewrites the expectations.",
    details: """
      SCRIPT holds one JSON object a line, the format of Protocol/examples/*.jsonl:
        {"send": message}                 written to the daemon as is (initialize included)
        {"expect": response}              the response with that id must arrive and match
        {"expectNotification": message}   the next notification must match
        {"comment": text}                 ignored
      Matching is structural and exact, except that "*" matches any value. The run stops at the
      first mismatch, printing SCRIPT:LINE, the expected and the actual message to stderr (exit 1).
      --update rewrites SCRIPT from the actual answers, keeping the "*" wildcards.
      Use --spawn for a fresh daemon (session numbers and versions then start from scratch).
      """,
    switches: ["--update"], positionals: 1...1, connects: false
  ) { context in
    let path = context.arguments.positionals[0]
    let name = path
    let steps = try readScript(path)
    let session: RawSession
    do {
      session = try RawSession(context.endpoint, timeout: context.timeout)
    } catch {
      throw connectFailure(error, socket: context.endpoint.socket)
    }
    defer { session.close() }
    if context.arguments.has("--update") {
      try update(steps, session, path: path)
    } else {
      try check(steps, session, name: name)
    }
  }

  /// The lines of a script file that are not blank, parsed, with their line numbers.
  static func readScript(_ path: String) throws -> [(line: Int, value: JSONValue)] {
    var steps: [(line: Int, value: JSONValue)] = []
    let bytes = try readFile(path)
    for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      do {
        steps.append((index + 1, try JSONValue(parsing: line)))
      } catch {
        // Where the line is in the file: the line, column and byte offset an editor shows.
        let located = error.shifted(lines: index, bytes: line.startIndex - bytes.startIndex)
        throw InputError("\(path) is not valid JSON: \(located)")
      }
    }
    return steps
  }

  /// Checks every expectation; throws the first mismatch. Notifications `relevant` rejects are
  /// neither expected nor reported (a replay on a shared daemon ignores other lists').
  static func check(
    _ steps: [(line: Int, value: JSONValue)], _ session: RawSession, name: String,
    relevant: @escaping (JSONValue) -> Bool = { _ in true }
  ) throws {
    for (index, step) in steps.enumerated() {
      let location = "\(name):\(step.line)"
      func mismatch(_ what: String, expected: JSONValue, actual: JSONValue?) -> ScriptMismatch {
        ScriptMismatch(
          description: """
            \(location): \(what)
              expected: \(expected.jsonString(prettyPrinted: false))
              actual:   \(actual.map { $0.jsonString(prettyPrinted: false) } ?? "(nothing)")
            """, actual: actual)
      }
      if let message = step.value["send"] {
        try session.send(message)
      } else if let expected = step.value["expect"] {
        // Without an id (a bare "*"), the response to the last request sent.
        let lastID = steps[..<index].last { $0.value["send"]?["id"] != nil }?.value["send"]?["id"]
        guard let id = expected["id"] ?? lastID else {
          throw ScriptMismatch(description: "\(location): an expect needs an id, or a request before it")
        }
        guard let actual = session.response(to: id) else {
          var what =
            "no response with id \(id.jsonString(prettyPrinted: false)) within \(seconds(.milliseconds(Int64(session.timeout * 1000))))"
          if let unreadable = session.untakenNullIDErrors.first {
            what += " (the daemon could not read a request: \(unreadable.jsonString(prettyPrinted: false)))"
          }
          throw mismatch(what, expected: expected, actual: nil)
        }
        if let difference = TranscriptMatch.difference(expected, actual) {
          throw mismatch(difference, expected: expected, actual: actual)
        }
      } else if let expected = step.value["expectNotification"] {
        guard let actual = session.notification(where: relevant) else {
          throw mismatch(
            "no notification arrived within \(seconds(.milliseconds(Int64(session.timeout * 1000))))",
            expected: expected, actual: nil)
        }
        if let difference = TranscriptMatch.difference(expected, actual) {
          throw mismatch(difference, expected: expected, actual: actual)
        }
      } else if step.value["comment"] == nil {
        throw UsageError("\(location): a line must have send, expect, expectNotification or comment")
      }
    }
    let extra = session.untakenNotifications.filter(relevant)
    if !extra.isEmpty {
      throw ScriptMismatch(
        description: "\(name): notifications nobody expected:\n"
          + extra.map { "  " + $0.jsonString(prettyPrinted: false) }.joined(separator: "\n"))
    }
  }

  /// Rewrites the script: after each send, the notifications that precede its response, then the
  /// response, each merged with the old expectation's wildcards.
  private static func update(_ steps: [(line: Int, value: JSONValue)], _ session: RawSession, path: String)
    throws
  {
    var output: [JSONValue] = []
    for (index, step) in steps.enumerated() {
      if let message = step.value["send"] {
        output.append(step.value)
        try session.send(message)
        var old = steps[(index + 1)...].prefix { $0.value["send"] == nil }.map(\.value)
          .filter { $0["comment"] == nil }.makeIterator()
        func merged(_ key: String, _ actual: JSONValue) -> JSONValue {
          let previous = old.next()?[key]
          return [key: previous.map { TranscriptMatch.mergeWildcards($0, actual) } ?? actual]
        }
        if let id = message["id"] {
          guard let response = session.response(to: id) else {
            throw ScriptMismatch(description: "\(path):\(step.line): no response to id \(id.jsonString())")
          }
          while let notification = session.notification(timeout: 0.05) {
            output.append(merged("expectNotification", notification))
          }
          output.append(merged("expect", response))
        } else {
          usleep(100_000)
          while let notification = session.notification(timeout: 0.05) {
            output.append(merged("expectNotification", notification))
          }
        }
      } else if step.value["comment"] != nil {
        output.append(step.value)
      }
    }
    let text = output.map { $0.jsonString(prettyPrinted: false) }.joined(separator: "\n") + "\n"
    do {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw UsageError("cannot write \(path): \(error)")
    }
  }
}
