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
    framesTable(options)
  }

  /// Runs one case in a loop for a profiler (`LISTD_BENCH_PROFILE=parse|write|framing perf record …`).
  static func profile(_ target: String) {
    let value = JSONRPCPayloads.jsonValue(JSONRPCPayloads.snapshot(items: 10_000))
    let bytes = value.jsonBytes()
    if target == "framing" {
      let stream = JSONRPCPayloads.smallRequests(100_000).reduce(into: [UInt8]()) {
        FrameWriter().append(body: $1.jsonBytes(), to: &$0)
      }
      for _ in 0..<50 {
        var total = 0
        feedInReads(stream) { total &+= $0.count }
        blackHole(total)
      }
      return
    }
    for _ in 0..<200 {
      switch target {
      case "parse": blackHole(try! JSONValue(parsing: bytes))
      default: blackHole(value.jsonBytes())
      }
    }
  }

  /// Feeds `stream` to a fresh FrameReader in 64 KiB reads, as a socket delivers it, handing
  /// every borrowed frame body to `body`. Traps on a framing error (the input is well-formed).
  static func feedInReads(_ stream: [UInt8], _ body: (UnsafeRawBufferPointer) -> Void) {
    var reader = FrameReader()
    stream.withUnsafeBytes { all in
      var offset = 0
      while offset < all.count {
        let end = min(all.count, offset + 65536)
        reader.feedBorrowed(UnsafeRawBufferPointer(rebasing: all[offset..<end])) { event in
          guard case .frame(let frame) = event else { fatalError("framing error in the benchmark") }
          body(frame)
        }
        offset = end
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
    // The six cases run round-robin, so slow drifts of a shared machine hit them all alike.
    let timings = measureRoundRobin(
      options,
      [
        { blackHole(try! JSONValue(parsing: bytes)) },
        { blackHole(try! JSONSerialization.jsonObject(with: data)) },
        { blackHole(try! JSONDecoder().decode(BenchSnapshot.self, from: data)) },
        { blackHole(value.jsonBytes()) },
        { blackHole(try! JSONSerialization.data(withJSONObject: foundationObject)) },
        { blackHole(try! JSONEncoder().encode(snapshot)) },
      ])
    let (parse, parseJS, parseCodable) = (timings[0], timings[1], timings[2])
    let (write, writeJS, writeCodable) = (timings[3], timings[4], timings[5])
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

  /// (b) Small request frames through the frame reader, parser and message decoder.
  static func framesTable(_ options: BenchOptions) {
    let count = options.quick ? 20_000 : 100_000
    let messages = JSONRPCPayloads.smallRequests(count)
    let bodies = messages.map { $0.jsonBytes() }
    let datas = bodies.map { Data($0) }
    let bodyBytes = bodies.reduce(0) { $0 + $1.count }
    let contentLengthStream = bodies.reduce(into: [UInt8]()) {
      FrameWriter(framing: .contentLength).append(body: $1, to: &$0)
    }
    let newlineStream = bodies.reduce(into: [UInt8]()) {
      FrameWriter(framing: .newlineDelimited).append(body: $1, to: &$0)
    }
    let decodedMessages = messages.map { try! Message(json: $0) }
    let foundationObjects = datas.map { try! JSONSerialization.jsonObject(with: $0) }
    let codableRequests = datas.map { try! JSONDecoder().decode(BenchRequest.self, from: $0) }
    print(
      "\n(b) \(count) small request frames: \(bodyBytes) body bytes, \(contentLengthStream.count) bytes framed "
        + "(Content-Length), fed in 64 KiB reads")
    let table = Table([
      ("case", 44), ("median", 10), ("p90", 10), ("throughput", 11), ("messages/s", 11), ("vs ours", 8),
    ])
    func row(_ name: String, _ timing: Timing, _ bytes: Int, _ reference: Timing?) {
      table.printRow([
        name, formatDuration(timing.median), formatDuration(timing.p90), mbPerSecond(bytes, timing),
        String(format: "%.2fM", Double(count) / timing.median / 1e6),
        reference.map { formatRatio(timing.median / $0.median) } ?? "",
      ])
    }
    var parser = JSONParser()
    let parseOnly = { () -> Int in
      var total = 0
      for body in bodies {
        body.withUnsafeBytes { bytes in
          if case .object(let object) = try! parser.parseReusingStorage(bytes) { total &+= object.count }
        }
      }
      return total
    }
    /// Feeds `stream` in 64 KiB reads, parsing (and optionally decoding) every borrowed body.
    func framed(_ stream: [UInt8], parse: Bool, decode: Bool) -> () -> Int {
      {
        var total = 0
        feedInReads(stream) { body in
          if decode {
            if case .single(.success) = Incoming(body: body, reusing: &parser) { total &+= 1 }
          } else if parse {
            if case .object(let object) = try! parser.parseReusingStorage(body) { total &+= object.count }
          } else {
            total &+= body.count
          }
        }
        return total
      }
    }
    // Parse-only and framed runs alternate, so both see the same machine and allocator state.
    let (parseTiming, framedTiming, overheadRatios) = measurePair(
      options, parseOnly, framed(contentLengthStream, parse: true, decode: false))
    let framingOnly = measure(options, framed(contentLengthStream, parse: false, decode: false))
    let framedNewline = measure(options, framed(newlineStream, parse: true, decode: false))
    let framedDecoded = measure(options, framed(contentLengthStream, parse: true, decode: true))
    let foundationParse = measure(options) { () -> Int in
      var total = 0
      for data in datas {
        if let object = try! JSONSerialization.jsonObject(with: data) as? NSDictionary {
          total &+= object.count
        }
      }
      return total
    }
    let codableParse = measure(options) { () -> Int in
      var total = 0
      let decoder = JSONDecoder()
      for data in datas { total &+= try! decoder.decode(BenchRequest.self, from: data).method.utf8.count }
      return total
    }
    row("parse bodies  JSONParser", parseTiming, bodyBytes, nil)
    row("framing only  FrameReader (Content-Length)", framingOnly, contentLengthStream.count, parseTiming)
    row("frame + parse (Content-Length)", framedTiming, contentLengthStream.count, parseTiming)
    row("frame + parse (newline-delimited)", framedNewline, newlineStream.count, parseTiming)
    row("frame + parse + decode Message", framedDecoded, contentLengthStream.count, parseTiming)
    row("parse bodies  JSONSerialization", foundationParse, bodyBytes, parseTiming)
    row("parse bodies  JSONDecoder (Codable)", codableParse, bodyBytes, parseTiming)

    let writeOurs = measure(options) { () -> Int in
      var output: [UInt8] = []
      output.reserveCapacity(contentLengthStream.count)
      let framer = FrameWriter(framing: .contentLength)
      var writer = JSONWriter(reservingCapacity: 256)
      for message in decodedMessages {
        writer.bytes.removeAll(keepingCapacity: true)
        message.write(to: &writer)
        framer.append(body: writer.bytes, to: &output)
      }
      return output.count
    }
    let writeFoundation = measure(options) { () -> Int in
      var output = Data()
      for object in foundationObjects {
        let body = try! JSONSerialization.data(withJSONObject: object)
        output.append(contentsOf: Array("Content-Length: \(body.count)\r\n\r\n".utf8))
        output.append(body)
      }
      return output.count
    }
    let writeCodable = measure(options) { () -> Int in
      var output = Data()
      let encoder = JSONEncoder()
      for request in codableRequests {
        let body = try! encoder.encode(request)
        output.append(contentsOf: Array("Content-Length: \(body.count)\r\n\r\n".utf8))
        output.append(body)
      }
      return output.count
    }
    row("write frames  Message + FrameWriter", writeOurs, contentLengthStream.count, nil)
    row("write frames  JSONSerialization", writeFoundation, contentLengthStream.count, writeOurs)
    row("write frames  JSONEncoder (Codable)", writeCodable, contentLengthStream.count, writeOurs)
    let overhead = (framedTiming.median / parseTiming.median - 1) * 100
    print(
      String(
        format:
          "framing adds %.1f%% to parse time (median of per-run paired ratios: %.1f%%); framing alone: %@ per frame",
        overhead, (overheadRatios.median - 1) * 100, formatDuration(framingOnly.median / Double(count))))
  }

  /// Times each case once per round, `options.warmup + options.runs` rounds; returns one
  /// Timing per case (warm-up rounds dropped).
  static func measureRoundRobin(_ options: BenchOptions, _ cases: [() -> Void]) -> [Timing] {
    var samples = [[Double]](repeating: [], count: cases.count)
    for round in 0..<(options.warmup + options.runs) {
      for (index, body) in cases.enumerated() {
        let start = now()
        body()
        let elapsed = now() - start
        if round >= options.warmup { samples[index].append(elapsed) }
      }
    }
    return samples.map { Timing(samples: $0) }
  }

  /// Times `first` and `second` alternately; returns both timings and the per-run ratios second/first.
  static func measurePair(
    _ options: BenchOptions, _ first: () -> Int, _ second: () -> Int
  ) -> (Timing, Timing, Timing) {
    var a: [Double] = []
    var b: [Double] = []
    for run in 0..<(options.warmup + options.runs) {
      let start = now()
      blackHole(first())
      let middle = now()
      blackHole(second())
      let end = now()
      if run >= options.warmup {
        a.append(middle - start)
        b.append(end - middle)
      }
    }
    return (Timing(samples: a), Timing(samples: b), Timing(samples: zip(b, a).map { $0 / $1 }))
  }
}

/// Codable mirror of the small requests, for the JSONDecoder/JSONEncoder baseline.
struct BenchRequest: Codable {
  struct Edit: Codable {
    var op: String
    var ids: [String]
  }

  struct Params: Codable {
    var list: String?
    var ids: [String]?
    var ifVersion: Int?
    var edits: [Edit]?
    var id: Int?
  }

  var jsonrpc: String
  var id: Int?
  var method: String
  var params: Params?
}
