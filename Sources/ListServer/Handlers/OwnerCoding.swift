// The wire forms of a list's owner (`{session, name?}`) and of a user event (`owner/event` params).
import JSON

extension OwnerIdentity {
  /// `{session, name?}`, as list info, `owner/lost` and ownership errors show an owner.
  var json: JSONValue {
    var object: JSONObject = ["session": .int(Int64(session))]
    if let name { object.append("name", .string(name)) }
    return .object(object)
  }
}

extension ListOwner {
  /// ``identity`` in its wire form.
  var ownerInfo: JSONValue { identity.json }
}

extension OwnerEvent {
  /// `{list, event, view?, item?, …operands, session, version}`: the `owner/event` params.
  var params: JSONValue {
    var object: JSONObject = ["list": .string(list), "event": .string(kind)]
    if let view { object.append("view", .string(view)) }
    if let item { object.append("item", .string(item)) }
    for (key, value) in operands {
      switch value {
      case .bool(let flag): object.append(key, .bool(flag))
      case .string(let string): object.append(key, .string(string))
      }
    }
    object.append("session", .int(Int64(session)))
    object.append("version", .int(Int64(version)))
    return .object(object)
  }
}
