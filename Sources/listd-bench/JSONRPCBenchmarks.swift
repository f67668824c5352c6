// The `jsonrpc` suite: JSON parse/write and framing throughput vs Foundation, printed as ratio tables.
import JSONRPC

enum JSONRPCBenchmarks {
  static func run(_ options: BenchOptions) {
    if let target = ProcessInfo.processInfo.environment["LISTD_BENCH_PROFILE"] {
      profile(target)
      return
    }
    printHeading("JSONRPC", options)
    payloadTable(options)
  }

  /// Runs one case in a loop for a profiler (`LISTD_BENCH_PROFILE=parse|write perf record …`).
  static func profile(_ target: String) {
    let value = JSONRPCPayloads.jsonValue(JSONRPCPayloads.snapshot(items: 10_000))
    let bytes = value.jsonBytes()
    for _ in 0..<200 {
      switch target {
      case "parse": blackHole(try! JSONValue(parsing: bytes))
      default: blackHole(value.jsonBytes())
      }
    }
  }

  static func mbPerSecond(_ bytes: Int, _ timing: Timing) -> String {
    String(format: "%.0f MB/s", Double(bytes) / timing.median / 1e6)
  }

  /// (a) The 10k-item snapshot: parse and write with ours, JSONSerialization and Codable.
  static func payloadTable(_ options: BenchOptions) {
    let items = options.quick ? 2000 : 10_000
    let snapshot = JSONRPCPayloads.snapshot(items: items)
    let value = JSONRPCPayloads.jsonValue(snapshot)
    let bytes = value.jsonBytes()
    let data = Data(bytes)
    let foundationObject = try! JSONSerialization.jsonObject(with: data)
    precondition((try? JSONValue(parsing: bytes)) == value, "payload does not round-trip")
    print("\n(a) snapshot payload: \(items) items, \(bytes.count) bytes")
    let table = Table([("case", 34), ("median", 10), ("p90", 10), ("throughput", 11), ("ours vs it", 10)])
    let parse = measure(options) { try! JSONValue(parsing: bytes) }
    let parseJS = measure(options) { try! JSONSerialization.jsonObject(with: data) }
    let parseCodable = measure(options) { try! JSONDecoder().decode(BenchSnapshot.self, from: data) }
    let write = measure(options) { value.jsonBytes() }
    let writeJS = measure(options) { try! JSONSerialization.data(withJSONObject: foundationObject) }
    let writeCodable = measure(options) { try! JSONEncoder().encode(snapshot) }
    func row(_ name: String, _ timing: Timing, _ ours: Timing?) {
      table.printRow([
        name, formatDuration(timing.median), formatDuration(timing.p90), mbPerSecond(bytes.count, timing),
        ours.map { formatRatio(timing.median / $0.median) } ?? "",
      ])
    }
    row("parse  JSONParser → JSONValue", parse, nil)
    row("parse  JSONSerialization", parseJS, parse)
    row("parse  JSONDecoder (Codable)", parseCodable, parse)
    row("write  JSONWriter ← JSONValue", write, nil)
    row("write  JSONSerialization", writeJS, write)
    row("write  JSONEncoder (Codable)", writeCodable, write)
  }
}
