// The key decoder on whole, split and combined input: escape sequences, UTF-8, lone Esc.
import ListTUI
import SeededRandom
import XCTest

final class KeyDecoderTests: XCTestCase {
  func decode(_ text: String) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.feed(Array(text.utf8)) + decoder.flush()
  }

  func testPlainKeysArrowsAndPages() {
    XCTAssertEqual(decode("jk/"), [.char("j"), .char("k"), .char("/")])
    XCTAssertEqual(decode("\u{1b}[A\u{1b}[B\u{1b}[C\u{1b}[D"), [.up, .down, .right, .left])
    XCTAssertEqual(decode("\u{1b}OA\u{1b}OD"), [.up, .left])
    XCTAssertEqual(decode("\u{1b}[5~\u{1b}[6~"), [.pageUp, .pageDown])
    XCTAssertEqual(
      decode("\u{1b}[H\u{1b}[F\u{1b}[1~\u{1b}[4~\u{1b}[7~\u{1b}[8~"), [.home, .end, .home, .end, .home, .end])
    XCTAssertEqual(decode("\u{1b}[3~\u{1b}[Z"), [.delete, .backTab])
    XCTAssertEqual(decode("\r\n\t\u{7f}\u{0c}"), [.enter, .enter, .tab, .backspace, .ctrl("l")])
    XCTAssertEqual(decode("\u{1b}[1;5A"), [.up], "modifiers are ignored")
    XCTAssertEqual(decode("\u{1b}[99x"), [.unknown])
  }

  func testUTF8() {
    XCTAssertEqual(decode("é→😀"), [.char("é"), .char("→"), .char("😀")])
  }

  func testALoneEscIsKnownOnlyAfterFlush() {
    var decoder = KeyDecoder()
    XCTAssertEqual(decoder.feed([0x1b]), [])
    XCTAssertTrue(decoder.hasPending)
    XCTAssertEqual(decoder.flush(), [.escape])
    XCTAssertFalse(decoder.hasPending)
    XCTAssertEqual(decoder.feed([0x1b, UInt8(ascii: "q")]), [.escape, .char("q")], "Esc then a key")
    XCTAssertEqual(decoder.feed([0x1b, 0x1b]), [.escape])
    XCTAssertEqual(decoder.flush(), [.escape])
  }

  func testSequencesSplitAnywhereDecodeTheSame() {
    let input = "j\u{1b}[6~é\u{1b}[A\u{1b}OB😀\u{1b}[3~q\u{1b}[Z\r"
    let expected: [Key] = [
      .char("j"), .pageDown, .char("é"), .up, .down, .char("😀"), .delete, .char("q"), .backTab, .enter,
    ]
    XCTAssertEqual(decode(input), expected)
    let bytes = Array(input.utf8)
    var random = SplitMix64(seed: 42)
    for _ in 0..<500 {
      var decoder = KeyDecoder()
      var keys: [Key] = []
      var index = 0
      while index < bytes.count {
        let length = random.int(in: 1...4)
        keys += decoder.feed(bytes[index..<min(bytes.count, index + length)])
        index += length
      }
      XCTAssertEqual(keys, expected)
      XCTAssertFalse(decoder.hasPending)
    }
  }
}
