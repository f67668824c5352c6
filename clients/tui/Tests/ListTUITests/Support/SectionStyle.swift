// A section's id, header, footer, kind and header mode, as the model holds them and as a layout holds them.
import ListModel
import ListTUI

/// What a client must know of a section besides its rows, comparable between a ``ListLayout``
/// and the model's snapshot.
struct SectionStyle: Equatable, CustomStringConvertible {
  var id: String
  var header: String?
  var footer: String?
  var kind: String?
  /// nil for the default, `supplementary`, as the wire leaves it out.
  var headerMode: String?

  init(_ shape: SectionShape) {
    self.init(
      id: shape.id, header: shape.header, footer: shape.footer, kind: shape.kind, headerMode: shape.headerMode
    )
  }

  init(id: String, header: String?, footer: String?, kind: String?, headerMode: String?) {
    self.id = id
    self.header = header
    self.footer = footer
    self.kind = kind
    self.headerMode = headerMode
  }

  /// The sections of `snapshot`, in order.
  static func of(_ snapshot: ListSnapshot) -> [SectionStyle] {
    snapshot.sectionIdentifiers.map { id in
      let mode = snapshot.headerMode(ofSection: id)
      return SectionStyle(
        id: id, header: snapshot.header(ofSection: id), footer: snapshot.footer(ofSection: id),
        kind: snapshot.kind(ofSection: id), headerMode: mode == .supplementary ? nil : mode.rawValue)
    }
  }

  var description: String {
    "\(id)[\(header ?? "-")/\(footer ?? "-")/\(kind ?? "-")/\(headerMode ?? "-")]"
  }
}
