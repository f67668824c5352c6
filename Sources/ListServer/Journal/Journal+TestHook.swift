// Test-only: makes chosen checkpoints fail as they do on a full disk, for the tests of failed checkpoints.
import Foundation

extension Journal {
  /// **Test-only hook.** `LISTD_TEST_FAILING_CHECKPOINTS` names the generations whose checkpoint
  /// write fails with `ENOSPC` ("No space left on device"), as on a full disk: comma-separated
  /// `N`, `N-M` or `N-` (N and every later one). The failure takes the same path as a real one
  /// (the checkpoint is abandoned, the journals keep everything). Only tests set it.
  static let failingCheckpoints: [ClosedRange<Int>] = parseGenerations(
    ProcessInfo.processInfo.environment["LISTD_TEST_FAILING_CHECKPOINTS"] ?? "")

  /// Whether the test hook fails the checkpoint of `generation`.
  static func failsForTest(_ generation: Int) -> Bool {
    failingCheckpoints.contains { $0.contains(generation) }
  }

  /// `N`, `N-M` and `N-` items, comma-separated; malformed items are ignored.
  static func parseGenerations(_ text: String) -> [ClosedRange<Int>] {
    text.split(separator: ",").compactMap { item in
      let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard let low = Int(bounds[0]) else { return nil }
      switch bounds.count {
      case 1: return low...low
      case 2: return bounds[1].isEmpty ? low...Int.max : Int(bounds[1]).flatMap { $0 >= low ? low...$0 : nil }
      default: return nil
      }
    }
  }
}
