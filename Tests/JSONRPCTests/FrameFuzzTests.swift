// Randomized robustness test: 10,000 seeded corrupted streams through the frame reader.
import JSONRPC
import RandomJSON
import SeededRandom
import XCTest

final class FrameFuzzTests: XCTestCase {
  /// Bit flips, truncations, duplicated and dropped bytes in small streams of frames. The reader
  /// must never crash or hang, and must deliver every intact frame: with Content-Length framing
  /// all of them (a corrupted length costs its own frame only); newline-delimited, all whose
  /// predecessor is intact too (a corrupted line feed joins the next line to the broken one).
  func testCorruptedStreams() {
    let baseSeed = PropertySeeds.seed("LISTD_FRAME_FUZZ_SEED", default: 0xF2A3_0000)
    var delivered = 0
    var expectedTotal = 0
    var errors = 0
    for streamIndex in 0..<10_000 {
      let seed = baseSeed &+ UInt64(streamIndex)
      var rng = SplitMix64(seed: seed)
      let framing: Framing = rng.chance(0.8) ? .contentLength : .newlineDelimited
      // Build the stream, tagging every byte with the frame it belongs to.
      var bytes: [UInt8] = []
      var owner: [Int] = []
      var bodies: [[UInt8]] = []
      let frameCount = rng.int(3..<7)
      for index in 0..<frameCount {
        var object: JSONObject = [
          "jsonrpc": "2.0", "id": .int(Int64(index)), "method": .string("m/\(streamIndex)"),
        ]
        if rng.chance(0.5) { object["params"] = ["text": .string(RandomJSON.string(&rng))] }
        let body = JSONValue.object(object).jsonBytes()
        bodies.append(body)
        var frame: [UInt8]
        if framing == .contentLength {
          let lineEnd = rng.chance(0.1) ? "\n" : "\r\n"
          var header = "Content-Length: \(body.count)\(lineEnd)"
          if rng.chance(0.2) {
            header = "Content-Type: application/vscode-jsonrpc; charset=utf-8\(lineEnd)" + header
          }
          frame = Array((header + lineEnd).utf8) + body
        } else {
          frame = body + [0x0A]
        }
        bytes += frame
        owner += Array(repeating: index, count: frame.count)
      }
      // Corrupt it.
      var corrupted = Set<Int>()
      for _ in 0..<rng.int(1..<4) {
        guard !bytes.isEmpty else { break }
        let position = rng.int(0..<bytes.count)
        corrupted.insert(owner[position])
        switch rng.int(0..<4) {
        case 0: bytes[position] ^= 1 << UInt8(rng.int(0..<8))
        case 1:
          bytes.insert(bytes[position], at: position)
          owner.insert(owner[position], at: position)
        case 2:
          bytes.remove(at: position)
          owner.remove(at: position)
        default:
          corrupted.formUnion(owner[position]..<frameCount)
          bytes.removeSubrange(position...)
          owner.removeSubrange(position...)
        }
      }
      // Feed it in random pieces.
      var reader = FrameReader(maxFrameSize: 512)
      var events: [FrameEvent] = []
      var offset = 0
      while offset < bytes.count {
        let length = min(bytes.count - offset, rng.int(1..<48))
        events += reader.feed(bytes[offset..<(offset + length)])
        offset += length
      }
      events += reader.finish()
      errors += events.filter { if case .error = $0 { return true } else { return false } }.count
      guard reader.framing == framing else { continue }  // the first byte itself was corrupted
      let expected = (0..<frameCount).filter {
        !corrupted.contains($0) && (framing == .contentLength || $0 == 0 || !corrupted.contains($0 - 1))
      }
      let frames = events.compactMap { event -> [UInt8]? in
        if case .frame(let body) = event { return body } else { return nil }
      }
      // Every expected body appears, in order.
      var next = frames.startIndex
      for index in expected {
        guard let found = frames[next...].firstIndex(of: bodies[index]) else {
          XCTFail(
            "stream \(streamIndex) (seed \(seed)): intact frame \(index) not delivered; corrupted \(corrupted.sorted()); events \(render(events))"
          )
          return
        }
        next = found + 1
        delivered += 1
      }
      expectedTotal += expected.count
    }
    XCTAssertEqual(delivered, expectedTotal)
    XCTAssertGreaterThan(errors, 1000, "the corruptions should have produced framing errors")
    print("corrupted streams: \(expectedTotal) intact frames delivered, \(errors) framing errors reported")
  }
}
