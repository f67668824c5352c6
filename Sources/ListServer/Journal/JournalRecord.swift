// The records of the journal: what each committed change, creation and disposal is on disk.
import JSON
import ListModel
import ListProtocol

/// One record of the journal or of a checkpoint. Its body is a JSON object with a `kind`.
///
/// Changes are journaled as what produced them, which replays deterministically on the version
/// before: a `list/edit` as its wire edits, a `list/replace` as its content, outline and
/// selection changes as their model edits, anything else as the whole resulting state.
enum JournalRecord {
  /// A list as it is at `version`: its creation (version 0), a checkpoint, or a change that is
  /// journaled as its result.
  case state(
    list: String, serial: Int, version: Int, metadata: ListMetadata, selectionMode: SelectionMode,
    content: JSONValue, selected: [String])
  /// A change that produced `version`.
  case change(list: String, serial: Int, version: Int, change: JournaledChange)
  /// The list was disposed.
  case dispose(list: String, serial: Int)
  /// A checkpoint is complete: every list it holds preceded this record.
  case checkpointEnd(generation: Int)

  /// The serial of the list the record is about (nil for a checkpoint's end).
  var serial: Int? {
    switch self {
    case .state(_, let serial, _, _, _, _, _), .change(_, let serial, _, _), .dispose(_, let serial): serial
    case .checkpointEnd: nil
    }
  }

  /// The record of `snapshot` at `version`; its `content` also carries the list attributes
  /// that are not the default (`columns`). O(items).
  static func state(
    list: String, serial: Int, version: Int, metadata: ListMetadata, snapshot: ListSnapshot
  ) -> JournalRecord {
    var content = ContentEncoding.content(snapshot)
    for (key, value) in ListAttributeCoding.object(snapshot) { content = content.setting(key, value) }
    return .state(
      list: list, serial: serial, version: version, metadata: metadata, selectionMode: snapshot.selectionMode,
      content: content, selected: snapshot.selectedItems)
  }

  /// The body bytes. O(size).
  var body: [UInt8] {
    var object: JSONObject
    switch self {
    case .state(let list, let serial, let version, let metadata, let mode, let content, let selected):
      object = [
        "kind": "state", "list": .string(list), "serial": .int(Int64(serial)),
        "version": .int(Int64(version)),
        "title": .string(metadata.title), "appearance": .string(metadata.appearance.rawValue),
        "selectionMode": .string(mode.rawValue), "content": content,
        "selected": .array(selected.map(JSONValue.string)),
      ]
    case .change(let list, let serial, let version, let change):
      object = [
        "kind": "change", "list": .string(list), "serial": .int(Int64(serial)),
        "version": .int(Int64(version)),
      ]
      change.append(to: &object)
    case .dispose(let list, let serial):
      object = ["kind": "dispose", "list": .string(list), "serial": .int(Int64(serial))]
    case .checkpointEnd(let generation):
      object = ["kind": "checkpointEnd", "generation": .int(Int64(generation))]
    }
    return JSONValue.object(object).jsonBytes()
  }

  /// Decodes a body; throws a description of what is wrong.
  init(body: ArraySlice<UInt8>) throws(JournalError) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: body)
    } catch {
      throw JournalError("a record that is not JSON (\(error))")
    }
    func string(_ key: String) throws(JournalError) -> String {
      guard let string = value[key]?.stringValue else { throw JournalError("a record without \"\(key)\"") }
      return string
    }
    func int(_ key: String) throws(JournalError) -> Int {
      guard let int = value[key]?.intValue else { throw JournalError("a record without \"\(key)\"") }
      return Int(int)
    }
    switch try string("kind") {
    case "state":
      guard let appearance = Appearance(rawValue: try string("appearance")),
        let mode = SelectionMode(rawValue: try string("selectionMode")),
        let content = value["content"], case .array(let selected)? = value["selected"]
      else { throw JournalError("a state record with a bad field") }
      self = .state(
        list: try string("list"), serial: try int("serial"), version: try int("version"),
        metadata: ListMetadata(title: try string("title"), appearance: appearance), selectionMode: mode,
        content: content, selected: selected.compactMap(\.stringValue))
    case "change":
      self = .change(
        list: try string("list"), serial: try int("serial"), version: try int("version"),
        change: try JournaledChange(value))
    case "dispose":
      self = .dispose(list: try string("list"), serial: try int("serial"))
    case "checkpointEnd":
      self = .checkpointEnd(generation: try int("generation"))
    case let kind:
      throw JournalError("a record of unknown kind \"\(kind)\"")
    }
  }
}

/// Something wrong with the state directory or a record in it.
struct JournalError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
