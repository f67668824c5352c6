// A seeded random generator for property tests, fuzzers and benchmarks: every run replays by seed.

/// SplitMix64: a tiny, fast, seedable generator, so a failing random case can be replayed from
/// its printed seed and benchmark inputs are the same from run to run. Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `range` (which must not be empty).
  public mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }

  /// A uniform integer in `range`.
  public mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// True with the given probability (0…1).
  public mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }

  /// True `percent` times in a hundred.
  public mutating func chance(percent: Int) -> Bool { int(0..<100) < percent }

  /// A uniform element, or nil for an empty array.
  public mutating func element<T>(_ array: [T]) -> T? { array.isEmpty ? nil : array[int(0..<array.count)] }

  /// The array in a uniformly random order (Fisher–Yates).
  public mutating func shuffled<T>(_ array: [T]) -> [T] { array.shuffled(using: &self) }
}
