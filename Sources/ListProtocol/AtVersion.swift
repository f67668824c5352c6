// The version members of time-travel params: atVersion, from, to.
import JSONRPC

extension Params {
  /// `atVersion`, when given and not null: an integer, 0 or more. Whether the list had and
  /// still retains it is the list's to say (``LiveList/snapshot(atVersion:field:)``).
  public func atVersion() throws(ResponseError) -> Int? {
    try contains("atVersion") ? try version("atVersion") : nil
  }

  /// A required version member: an integer, 0 or more.
  public func version(_ key: String) throws(ResponseError) -> Int {
    let version = try int(key)
    guard version >= 0 else { throw invalid(key, "must be 0 or more, got \(version)") }
    return version
  }
}
