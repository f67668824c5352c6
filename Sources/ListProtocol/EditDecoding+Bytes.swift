// Decodes `list/edit`'s edits from the request's bytes: item trees straight from bytes, the rest as before.
import JSON
import JSONRPC
import ListModel

extension EditDecoding {
  /// The ops whose `items` are item trees, decoded from bytes when large.
  public static let treeOps: Set<String> = ["appendItems", "insertItems", "appendChildren", "replaceItems"]

  /// Below this size an edit is simply parsed (its tree is small).
  public static let deferredEditMinimumBytes = 1024

  /// Decodes `edits` (the bytes of the `list/edit` array): the same result, or the same error,
  /// as ``edits(_:)`` on the parsed array. A large edit's item trees are decoded straight from
  /// the bytes; every other member is parsed as before. O(size of the input).
  public static func edits(_ text: JSONText) throws(ResponseError) -> DecodedEdits {
    let elements = try? text.withReader {
      (reader: inout JSONReader) throws(JSONParseError) -> [Range<Int>]? in
      guard try reader.peek() == .array else { return nil }
      try reader.beginArray()
      var ranges: [Range<Int>] = []
      while try reader.nextElement() {
        guard try reader.peek() == .object else { return nil }  // the checked path names it
        ranges.append(try reader.skipValue())
      }
      return ranges
    }
    guard let elements else { return try edits(Params(["edits": text.parsed()])) }
    var decoded = DecodedEdits()
    for (index, range) in elements.enumerated() {
      let (edit, items) = deferringItems(text.slice(range), path: "edits[\(index)]")
      decoded.ops.append((try? edit.string("op")) ?? "")
      do throws(ResponseError) {
        try decode(edit, index: index, into: &decoded, items: items)
      } catch {
        throw error.naming(editIndex: index)
      }
    }
    return decoded
  }

  /// One wire edit (an object's bytes) viewed at `path`: parsed whole, except that a large
  /// edit of a ``treeOps`` op without repeated members keeps its `items` array as bytes
  /// (returned) and holds `[]` in its place.
  public static func deferringItems(_ edit: JSONText, path: String) -> (Params, items: JSONText?) {
    let whole = { (Params(edit.parsed(), path: path), items: JSONText?.none) }
    guard edit.count >= deferredEditMinimumBytes else { return whole() }
    let members = try? edit.withReader {
      (reader: inout JSONReader) throws(JSONParseError) -> [DeferredMember] in
      try reader.beginObject()
      var members: [DeferredMember] = []
      while let key = try reader.nextKey() {
        members.append(DeferredMember(key: key, range: try reader.skipValue()))
      }
      return members
    }
    guard let members, Set(members.map(\.key)).count == members.count,
      let op = members.first(where: { $0.key == "op" }),
      case .string(let name) = edit.slice(op.range).parsed(),
      treeOps.contains(name), let items = members.first(where: { $0.key == "items" }),
      edit.slice(items.range).isArray
    else { return whole() }
    var object = JSONObject()
    object.reserveCapacity(members.count)
    for member in members {
      object.append(member.key, member.key == "items" ? .array([]) : edit.slice(member.range).parsed())
    }
    return (Params(.object(object), path: path), edit.slice(items.range))
  }
}
