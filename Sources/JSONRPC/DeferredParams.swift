// A request's params kept as the frame's bytes: validated, indexed by member, decoded on demand.
import JSON

/// The params object of a request as the bytes it arrived in: the frame was validated as JSON
/// when it was read, and the params' members were indexed by name, but no tree was built.
/// Small members are parsed when asked for; a handler decodes large ones (a list's content)
/// straight from their bytes.
public struct DeferredParams: Sendable, Hashable {
  /// The params object's bytes.
  public let text: JSONText
  /// Each member's name and value range in `text.buffer`.
  let members: [DeferredMember]

  /// The params of a parsed frame: `buffer` is the frame body, `object` what the parser deferred.
  public init(buffer: [UInt8], object: DeferredObject) {
    text = JSONText(validated: buffer, range: object.range)
    members = object.members
  }

  /// The member names, in order (duplicates kept).
  public var keys: [String] { members.map(\.key) }

  /// The first member named `key`, as bytes. O(members).
  public func member(_ key: String) -> JSONText? {
    guard let member = members.first(where: { $0.key == key }) else { return nil }
    return JSONText(validated: text.buffer, range: member.range)
  }
}
