// Entry point of the benchmark executable: picks a suite by name and runs it.

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
  usage: listd-bench SUITE [--runs N] [--quick]
  suites:
    model     snapshot build, diff, outline expand/collapse, selection (ListModel)
    jsonrpc   JSON parse/write and framing throughput against Foundation (JSONRPC)
    daemon    the release listd end to end: query latency and throughput, replace with churn,
              fan-out, RSS (needs .build/release/listd: swift build -c release)
    views     a live view of 100k items: create (sort + filter) vs sorting the values, 1,000
              single-item source changes (p50, p99), view/update re-sorting
    scale     lists of up to 1,000,000 items, each figure against its target and a same-run
              baseline: build, build+diff, expandAll changesets, single-item edits and versions of
              a 1,000,000-item list, daemon replace/edit/RSS; a summary of the targets missed
              (LISTD_BENCH_ONLY=build|outline|edits|versions|daemon|daemon-edits|daemon-rss
              runs one group; LISTD_BENCH_BASELINE=path/to/listd interleaves its daemon edits
              too, for absolute times: each daemon then evicts the other's caches)
    tui       listd-tui's keystroke-to-frame time on a 1,000,000-row list vs a 1,000-row one
    all       every suite in turn
  """

guard let suite = arguments.first else {
  print(usage)
  exit(2)
}
let options = BenchOptions(arguments: Array(arguments.dropFirst()))
switch suite {
case "model": ModelBenchmarks.run(options)
case "jsonrpc": JSONRPCBenchmarks.run(options)
case "daemon": DaemonBenchmarks.run(options)
case "scale": ScaleBenchmarks.run(options)
case "tui": TUIBenchmarks.run(options)
case "views": ViewBenchmarks.run(options)
case "all":
  ModelBenchmarks.run(options)
  JSONRPCBenchmarks.run(options)
  DaemonBenchmarks.run(options)
  TUIBenchmarks.run(options)
  ViewBenchmarks.run(options)
  ScaleBenchmarks.run(options)
case "-h", "--help", "help": print(usage)
default:
  FileHandle.standardError.write("listd-bench: unknown suite '\(suite)'\n\(usage)\n".data(using: .utf8)!)
  exit(2)
}
