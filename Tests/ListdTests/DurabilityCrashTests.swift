// Crash test of --state: daemons killed with SIGKILL mid-burst come back with every version any session saw.
import Foundation
import JSON
import JSONRPC
import SeededRandom
import XCTest

final class DurabilityCrashTests: XCTestCase {
  /// Three writer sessions pipeline random `list/edit` batches to three lists (one list each)
  /// while a fourth session is subscribed to all of them; the daemon is killed with SIGKILL at a
  /// random moment, restarted on the same `--state` directory (`--sync batch` and `always` in
  /// turn, and `none`, which a kill does not reach either; with checkpoints every few hundred KB), and checked: each list is at a version at
  /// least as new as every answer and notification any session received for it, and no newer
  /// than the last batch sent, and its content is the model's at that version.
  ///
  /// `LISTD_CRASH_SEED=n` replays a run; `LISTD_CRASH_CYCLES=n` changes its length (default 50).
  func testKilledDaemonsKeepEveryVersionAnySessionSaw() throws {
    let environment = ProcessInfo.processInfo.environment
    let seed = environment["LISTD_CRASH_SEED"].flatMap(UInt64.init) ?? 4311
    let cycles = environment["LISTD_CRASH_CYCLES"].flatMap(Int.init) ?? 50
    print(
      "DurabilityCrashTests: seed \(seed) (LISTD_CRASH_SEED=\(seed) replays it), \(cycles) kill/restart cycles"
    )
    var random = SplitMix64(seed: seed)
    let directory = try PrivateDirectory()
    defer { directory.remove() }
    let state = directory.file("state")
    let socket = directory.file("listd.sock")
    let lists = (0..<3).map { "l\($0)" }
    var runs = lists.indices.map { MirrorRun(seed: seed &+ UInt64($0) &+ 1, list: lists[$0]) }
    var seen = [Int](repeating: 0, count: lists.count)
    var lost = 0
    var recoveredAhead = 0

    for cycle in 0...cycles {
      let sync = ["batch", "always", "none"][cycle % 3]
      let context = "seed \(seed), cycle \(cycle) (--sync \(sync))"
      let daemon = try DaemonProcess.listening(
        on: socket, ["--state", state, "--sync", sync, "--checkpoint-bytes", "300000"])
      defer { daemon.stop() }
      let writers = try lists.indices.map { index in
        let client = try TestClient.socket(socket, name: "writer-\(index)")
        try client.initialize(name: "writer-\(index)")
        return client
      }
      if cycle == 0 {
        for (index, list) in lists.enumerated() {
          try writers[index].request(
            "list/create",
            [
              "list": .string(list), "selectionMode": "multiple", "content": runs[index].initialContent(),
              "columns": MirrorRun.columns,
            ])
          try runs[index].createReference()
        }
      } else {
        // The daemon recovered: check each list against the model, then go on from there.
        for (index, list) in lists.enumerated() {
          let answer = try writers[index].request("list/subscribe", ["list": .string(list)])
          try writers[index].request("list/unsubscribe", ["list": .string(list)])
          let mirror = try WireMirror(subscribed: try XCTUnwrap(answer["lists"]?.arrayValue?.first))
          guard mirror.version >= seen[index], mirror.version <= runs[index].version else {
            return XCTFail(
              "\(context): \(list) recovered at v\(mirror.version); sessions saw v\(seen[index]), "
                + "the last batch sent made v\(runs[index].version)")
          }
          if let difference = runs[index].expected(at: mirror.version)?.firstDifference(from: mirror) {
            return XCTFail("\(context): \(list) at v\(mirror.version) differs from the model: \(difference)")
          }
          lost += runs[index].version - mirror.version
          if mirror.version > seen[index] { recoveredAhead += 1 }
          try runs[index].rewind(to: mirror.version)
          runs[index].forget(before: mirror.version)
          seen[index] = mirror.version
        }
      }
      guard cycle < cycles else {
        writers.forEach { $0.close() }
        daemon.closeInput()
        XCTAssertEqual(daemon.waitForExit(), 0, "\(context): the last daemon stops cleanly")
        break
      }
      let watcher = try TestClient.socket(socket, name: "watcher")
      try watcher.initialize(name: "watcher")
      for list in lists { try watcher.request("list/subscribe", ["list": .string(list)]) }

      // A pipelined burst on every list, and a kill at a random moment of it.
      var pending: [[(slot: ResultSlot, expectation: MirrorRun.Expectation)]] = Array(
        repeating: [], count: lists.count)
      for index in lists.indices {
        for _ in 0..<random.int(in: 10...80) {
          let (params, expectation) = try runs[index].nextBatch()
          let slot = ResultSlot()
          writers[index].connection.sendRequest("list/edit", params) { slot.set($0) }
          pending[index].append((slot, expectation))
        }
      }
      usleep(UInt32(random.int(in: 0...8_000)))
      kill(daemon.pid, SIGKILL)
      XCTAssertNotNil(daemon.waitForExit(), "\(context): the daemon died")
      unlink(socket)  // left behind by the kill; the next daemon's socket shows it is ready

      for index in lists.indices {
        for (slot, expectation) in pending[index] {
          guard case .success(let answer) = try slot.wait(timeout: 10, "a list/edit of \(lists[index])")
          else {
            continue  // an error, or no answer: the connection died with the daemon
          }
          if case .changed(let version, _) = expectation {
            XCTAssertEqual(answer["version"], .int(Int64(version)), "\(context): \(lists[index])'s answer")
            seen[index] = max(seen[index], version)
          }
        }
      }
      for notification in watcher.notifications where notification.method == "list/didChange" {
        guard let list = notification.params["list"]?.stringValue, let index = lists.firstIndex(of: list),
          let version = notification.params["version"]?.intValue
        else { continue }
        seen[index] = max(seen[index], Int(version))
      }
      for client in writers + [watcher] { client.connection.close() }
    }
    print(
      "DurabilityCrashTests: \(cycles) cycles; lists at v\(runs.map(\.version)); \(lost) unacknowledged "
        + "versions lost to kills, \(recoveredAhead) recoveries newer than anything a session saw")
  }
}
