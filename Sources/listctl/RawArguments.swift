// The command line as the bytes the shell passed, refused when an argument is not UTF-8.
import JSONRPC

enum RawArguments {
  /// The arguments after the program name. `CommandLine.arguments` would turn invalid UTF-8
  /// into U+FFFD silently (a list id or an item text the user never typed); this refuses it the
  /// way the daemon refuses such bytes in a frame, naming the argument and the byte offset.
  static func decoded() -> Result<[String], UsageError> {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[index] else { continue }
      let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map {
        UInt8(bitPattern: $0)
      }
      guard let text = String(validating: bytes, as: UTF8.self) else {
        return .failure(
          UsageError(
            "argument \(index) is not valid UTF-8: invalid UTF-8 at byte offset \(invalidOffset(bytes))"))
      }
      arguments.append(text)
    }
    return .success(arguments)
  }

  /// The offset where the first invalid UTF-8 sequence starts.
  static func invalidOffset(_ bytes: [UInt8]) -> Int {
    var iterator = bytes.makeIterator()
    var decoder = Unicode.UTF8()
    var offset = 0
    while case .scalarValue(let scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
    return offset
  }
}
