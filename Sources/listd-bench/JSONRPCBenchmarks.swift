// The `jsonrpc` suite: JSON parse/write and framing throughput vs Foundation (filled in by issue 3).
import JSONRPC

enum JSONRPCBenchmarks {
  static func run(_ options: BenchOptions) {
    printHeading("JSONRPC", options)
  }
}
