// The seeds a property test runs: fixed by default, printed, and one of them chosen from the environment.
import Foundation

/// The seeds of a seeded property test, so that a failure reproduces: the test runs `defaults`
/// unless the environment variable `variable` holds a seed, and then runs that one alone. Either
/// way it prints what it runs and how to run one seed again; a failure should name its seed.
///
/// ```swift
/// for seed in PropertySeeds.seeds("LISTD_MODEL_MIRROR_SEED", default: 0..<20_000) { … }
/// ```
public enum PropertySeeds {
  /// `defaults`, or the single seed `variable` gives. O(count of `defaults`).
  public static func seeds(_ variable: String, default defaults: Range<UInt64>, test: String = #function)
    -> [UInt64]
  {
    seeds(
      variable, default: Array(defaults), described: "\(defaults.lowerBound)..<\(defaults.upperBound)",
      test: test)
  }

  /// `defaults`, or the single seed `variable` gives.
  public static func seeds(_ variable: String, default defaults: [UInt64], test: String = #function)
    -> [UInt64]
  {
    seeds(
      variable, default: defaults, described: defaults.map(String.init).joined(separator: ", "), test: test)
  }

  /// The one seed of a single-seed test: `default`, or the one `variable` gives.
  public static func seed(_ variable: String, default seed: UInt64, test: String = #function) -> UInt64 {
    seeds(variable, default: [seed], test: test)[0]
  }

  private static func seeds(_ variable: String, default defaults: [UInt64], described: String, test: String)
    -> [UInt64]
  {
    if let text = ProcessInfo.processInfo.environment[variable], let seed = UInt64(text) {
      print("\(test): seed \(seed) (from \(variable))")
      return [seed]
    }
    let words =
      defaults.count == 1
      ? "seed \(described) (\(variable)=n runs seed n instead)"
      : "seeds \(described) (\(variable)=n runs seed n alone)"
    print("\(test): \(words)")
    return defaults
  }
}
