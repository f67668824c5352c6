// The daemon's fan-out figures of issue 15: what a 100,000-row expand costs a windowed subscriber and a lean owner.
import Foundation
import JSON
import JSONRPC

extension DaemonBenchmarks {
  /// Expanding a node with 100,000 children: the bytes of the `list/didChange` a windowed
  /// subscriber (a window of 100 rows) receives, against a full subscriber's; and the owner's
  /// answer with `rows: "none"` against its answer with every row. Bytes are exact, not timed.
  static func expandBytes(_ path: String, _ options: BenchOptions) {
    let directory = NSTemporaryDirectory() + "/listd-bench-expand-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/listd.sock"
    let child = try! ChildProcess(path, ["--log-level", "error", "--listen", socket])
    defer { child.stop() }
    let owner = child.connection
    owner.initialize(name: "bench-owner")
    while !FileManager.default.fileExists(atPath: socket) { usleep(1_000) }

    let count = options.quick ? 20_000 : 100_000
    let children: [JSONValue] = (0..<count).map {
      ["id": .string("c\($0)"), "text": .string("Child row \($0)")]
    }
    owner.call(
      "list/create",
      [
        "list": "expand", "rows": "none",
        "content": [
          "sections": [["id": "s", "items": [["id": "top"], ["id": "root", "children": .array(children)]]]]
        ],
      ], id: 30)
    func subscriber(_ params: JSONValue, name: String) -> RawConnection {
      let fd = try! UnixSocket.connect(to: socket)
      let connection = RawConnection(reading: fd, writing: fd)
      connection.initialize(name: name)
      connection.call("list/subscribe", params, id: 2)
      return connection
    }
    let full = subscriber(["list": "expand", "snapshot": "none"], name: "bench-full")
    let windowed = subscriber(
      ["list": "expand", "window": ["offset": 0, "limit": 100]], name: "bench-windowed")
    /// The next `list/didChange` body of `connection`.
    func didChange(_ connection: RawConnection) -> [UInt8] {
      while true {
        let body = connection.readFrame()
        if isNotification(body) && String(decoding: body.prefix(48), as: UTF8.self).contains("list/didChange")
        {
          return body
        }
      }
    }

    var answers: [String: Int] = [:]
    var fullBytes = 0
    var windowedBytes = 0
    for (index, rows) in ["all", "none"].enumerated() {
      owner.write(
        requestFrame(
          "outline/expand", ["list": "expand", "item": "root", "rows": .string(rows)], id: 31 + index))
      answers[rows] = owner.readResponse().count
      fullBytes = didChange(full).count
      windowedBytes = didChange(windowed).count
      owner.call("outline/collapse", ["list": "expand", "item": "root", "rows": "none"], id: 40 + index)
      _ = didChange(full)
      _ = didChange(windowed)
    }
    let label = "\(count / 1000)k"
    table.row(
      "\(label)-row expand: windowed subscriber (100 rows)", formatBytes(windowedBytes), "", "",
      "full subscriber " + formatBytes(fullBytes), formatRatio(Double(windowedBytes) / Double(fullBytes)),
      check(windowedBytes <= 20_000, "≤ 20 KB"))
    let lean = answers["none"] ?? 0
    let all = answers["all"] ?? 0
    table.row(
      "\(label)-row expand: owner's rows:\"none\" answer", formatBytes(lean), "", "",
      "rows:\"all\" answer " + formatBytes(all), formatRatio(Double(lean) / Double(all)),
      check(lean <= 1_000, "≤ 1 KB"))
    for connection in [full, windowed] { Platform.close(connection.readFD) }
  }

  static func formatBytes(_ bytes: Int) -> String {
    bytes >= 1 << 20
      ? String(format: "%.1f MB", Double(bytes) / 1e6)
      : bytes >= 10_000 ? String(format: "%.1f KB", Double(bytes) / 1e3) : "\(bytes) B"
  }
}
