// Measurement harness shared by every suite: warm-up, repeated runs, median/p90, ratio tables.
@_exported import Foundation

/// Command-line options common to all suites.
struct BenchOptions {
  /// Timed runs per case (after warm-up). At least 15 unless `--quick`.
  var runs = 15
  /// Warm-up runs per case, not recorded.
  var warmup = 3
  /// Smaller sizes and fewer runs, for smoke-testing the benchmark itself.
  var quick = false

  init(arguments: [String]) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--runs": if let n = iterator.next().flatMap(Int.init), n > 0 { runs = n }
      case "--quick":
        quick = true
        runs = 5
        warmup = 1
      default: break
      }
    }
  }
}

/// Summary statistics of repeated timings, in seconds.
struct Timing {
  var samples: [Double]
  var median: Double { percentile(0.5) }
  var p90: Double { percentile(0.9) }

  /// Nearest-rank percentile of the recorded samples. O(n log n).
  func percentile(_ p: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }
}

/// Monotonic clock in seconds.
@inline(__always) func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Keeps the optimizer from discarding a computed value.
@inline(never) func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Runs `setup` then times `body` on its result, `options.warmup` + `options.runs` times.
/// Setup is not timed, so each run can start from a fresh, uniquely referenced input.
func measure<Input, Output>(
  _ options: BenchOptions, setup: () -> Input, _ body: (inout Input) -> Output
) -> Timing {
  var samples: [Double] = []
  for run in 0..<(options.warmup + options.runs) {
    var input = setup()
    let start = now()
    let output = body(&input)
    let elapsed = now() - start
    blackHole(output)
    blackHole(input)
    if run >= options.warmup { samples.append(elapsed) }
  }
  return Timing(samples: samples)
}

/// Times `body` with no per-run setup.
func measure<Output>(_ options: BenchOptions, _ body: () -> Output) -> Timing {
  measure(options, setup: { () }) { _ in body() }
}

/// Formats a duration in seconds with a unit that keeps 3 significant digits readable.
func formatDuration(_ seconds: Double) -> String {
  if seconds.isNaN { return "-" }
  if seconds < 1e-6 { return String(format: "%.0f ns", seconds * 1e9) }
  if seconds < 1e-3 { return String(format: "%.2f µs", seconds * 1e6) }
  if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
  return String(format: "%.2f s", seconds)
}

/// Formats a ratio such as `0.42×`.
func formatRatio(_ value: Double) -> String {
  value.isFinite ? String(format: "%.2f×", value) : "-"
}

/// A fixed-width text table printed row by row, so long suites show progress as they go.
final class Table {
  let columns: [(title: String, width: Int)]
  /// Rows whose last cell marks a target met (✓) or missed (✗), by their first cell.
  private(set) var met: [String] = []
  private(set) var missed: [String] = []

  init(_ columns: [(String, Int)]) {
    self.columns = columns.map { (title: $0.0, width: $0.1) }
    printRow(self.columns.map(\.title))
    print(self.columns.map { String(repeating: "-", count: $0.width) }.joined(separator: "  "))
  }

  func printRow(_ cells: [String]) {
    var line = ""
    for (index, cell) in cells.enumerated() {
      let width = index < columns.count ? columns[index].width : cell.count
      let padded =
        index == 0
        ? cell.padding(toLength: width, withPad: " ", startingAt: 0)
        : String(repeating: " ", count: max(0, width - cell.count)) + cell
      line += (index == 0 ? "" : "  ") + padded
    }
    print(line)
    fflush(nil)  // flush all streams: stdout itself is not concurrency-safe to name
    if let last = cells.last, last.hasPrefix("✓") { met.append(cells[0]) }
    if let last = cells.last, last.hasPrefix("✗") { missed.append(cells[0]) }
  }

  /// One line per verdict: how many targets were met, and which were missed.
  func printSummary() {
    guard !met.isEmpty || !missed.isEmpty else { return }
    print("\n\(met.count) of \(met.count + missed.count) targets met.")
    if !missed.isEmpty {
      print("Missed: " + missed.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ") + ".")
    }
  }
}

/// Prints a suite heading with the run count, so every table says how it was measured.
func printHeading(_ title: String, _ options: BenchOptions) {
  print("\n== \(title) — median and p90 of \(options.runs) runs after \(options.warmup) warm-up ==")
}
