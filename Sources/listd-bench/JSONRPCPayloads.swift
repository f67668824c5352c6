// Benchmark inputs for the jsonrpc suite: a realistic 10k-item snapshot and small request frames.
import JSONRPC

/// Codable mirror of the snapshot payload, for the JSONDecoder/JSONEncoder baseline.
struct BenchSnapshot: Codable {
  var sections: [BenchSection]
  var selection: [String]
}

struct BenchSection: Codable {
  var id: String
  var header: String?
  var footer: String?
  var outline: Bool
  var rows: [BenchRow]
}

struct BenchRow: Codable {
  var id: String
  var level: Int
  var text: String
  var secondaryText: String?
  var image: String?
  var data: BenchRowData?
  var accessories: [BenchAccessory]?
  var leadingSwipeActions: [BenchAction]?
  var trailingSwipeActions: [BenchAction]?
  var contextMenuActions: [BenchAction]?
  var movable: Bool?
}

struct BenchRowData: Codable {
  var index: Int
  var score: Double
  var tags: [String]
  var unread: Bool
}

struct BenchAccessory: Codable {
  var type: String
  var text: String?
  var value: Double?
  var isOn: Bool?
}

struct BenchAction: Codable {
  var id: String
  var title: String
  var style: String?
}

enum JSONRPCPayloads {
  static let names = [
    "Alice", "Bob", "Chloé", "Dmitri", "Eun-ji", "François", "Grace", "Hiro", "Inès", "João",
  ]
  static let images = ["person.circle", "folder", "doc.text", "star.fill", "envelope", "photo"]
  static let tags = ["work", "home", "urgent", "later", "📌 pinned", "shared"]

  /// A deterministic snapshot with `count` rows in sections of 1,000, as the daemon sends it.
  static func snapshot(items count: Int) -> BenchSnapshot {
    var sections: [BenchSection] = []
    var index = 0
    var sectionIndex = 0
    while index < count {
      var rows: [BenchRow] = []
      for _ in 0..<min(1000, count - index) {
        rows.append(row(index))
        index += 1
      }
      sections.append(
        BenchSection(
          id: "section-\(sectionIndex)", header: "Section \(sectionIndex)",
          footer: sectionIndex % 2 == 0 ? "\(rows.count) items" : nil, outline: false, rows: rows))
      sectionIndex += 1
    }
    return BenchSnapshot(sections: sections, selection: ["item-3", "item-42", "item-4711"])
  }

  static func row(_ index: Int) -> BenchRow {
    let name = names[index % names.count]
    var accessories = [BenchAccessory(type: "disclosureIndicator")]
    switch index % 4 {
    case 0: accessories.append(BenchAccessory(type: "badge", text: "\(index % 17)"))
    case 1: accessories.append(BenchAccessory(type: "progress", value: Double(index % 100) / 100))
    case 2: accessories.append(BenchAccessory(type: "toggle", isOn: index % 3 == 0))
    default: break
    }
    return BenchRow(
      id: "item-\(index)", level: 0, text: "\(name) — message \(index)",
      secondaryText: index % 2 == 0 ? "\(index % 60) min ago" : nil,
      image: images[index % images.count],
      data: index % 4 != 0
        ? nil
        : BenchRowData(
          index: index, score: Double(index % 1000) / 7,
          tags: [tags[index % tags.count], tags[(index / 3) % tags.count]],
          unread: index % 5 == 0),
      accessories: accessories,
      leadingSwipeActions: index % 6 == 0 ? [BenchAction(id: "pin", title: "Pin")] : nil,
      trailingSwipeActions: index % 2 == 1
        ? [BenchAction(id: "delete", title: "Delete", style: "destructive")] : nil,
      contextMenuActions: index % 9 == 0
        ? [BenchAction(id: "copy", title: "Copy"), BenchAction(id: "share", title: "Share")] : nil,
      movable: index % 10 == 0 ? true : nil)
  }

  /// The same snapshot as a JSONValue, members in the order JSONEncoder writes them.
  static func jsonValue(_ snapshot: BenchSnapshot) -> JSONValue {
    func actions(_ list: [BenchAction]?) -> JSONValue? {
      list.map {
        .array(
          $0.map { action in
            var object: JSONObject = ["id": .string(action.id), "title": .string(action.title)]
            if let style = action.style { object["style"] = .string(style) }
            return .object(object)
          })
      }
    }
    let sections: [JSONValue] = snapshot.sections.map { section in
      var object: JSONObject = ["id": .string(section.id)]
      if let header = section.header { object["header"] = .string(header) }
      if let footer = section.footer { object["footer"] = .string(footer) }
      object["outline"] = .bool(section.outline)
      object["rows"] = .array(
        section.rows.map { row in
          var item: JSONObject = [
            "id": .string(row.id), "level": .int(Int64(row.level)), "text": .string(row.text),
          ]
          if let value = row.secondaryText { item["secondaryText"] = .string(value) }
          if let value = row.image { item["image"] = .string(value) }
          if let data = row.data {
            item["data"] = [
              "index": .int(Int64(data.index)), "score": .double(data.score),
              "tags": .array(data.tags.map { .string($0) }), "unread": .bool(data.unread),
            ]
          }
          if let list = row.accessories {
            item["accessories"] = .array(
              list.map { accessory in
                var object: JSONObject = ["type": .string(accessory.type)]
                if let text = accessory.text { object["text"] = .string(text) }
                if let value = accessory.value { object["value"] = .double(value) }
                if let isOn = accessory.isOn { object["isOn"] = .bool(isOn) }
                return .object(object)
              })
          }
          if let value = actions(row.leadingSwipeActions) { item["leadingSwipeActions"] = value }
          if let value = actions(row.trailingSwipeActions) { item["trailingSwipeActions"] = value }
          if let value = actions(row.contextMenuActions) { item["contextMenuActions"] = value }
          if let movable = row.movable { item["movable"] = .bool(movable) }
          return .object(item)
        })
      return .object(object)
    }
    return ["sections": .array(sections), "selection": .array(snapshot.selection.map { .string($0) })]
  }

  /// `count` small request bodies such as a client sends (queries and small edits).
  static func smallRequests(_ count: Int) -> [JSONValue] {
    (0..<count).map { index in
      switch index % 3 {
      case 0:
        return [
          "jsonrpc": "2.0", "id": .int(Int64(index)), "method": "list/query",
          "params": ["list": "inbox", "ids": [.string("item-\(index % 997)")]],
        ]
      case 1:
        return [
          "jsonrpc": "2.0", "id": .int(Int64(index)), "method": "list/edit",
          "params": [
            "list": "inbox", "ifVersion": .int(Int64(index)),
            "edits": [["op": "reconfigureItems", "ids": [.string("item-\(index % 991)")]]],
          ],
        ]
      default:
        return ["jsonrpc": "2.0", "method": "$/cancelRequest", "params": ["id": .int(Int64(index - 1))]]
      }
    }
  }
}
