// What a list is besides its content: title, appearance and who owns it.

/// How a viewer lays the list out, after UICollectionLayoutListConfiguration.Appearance.
enum Appearance: String, CaseIterable, Sendable {
  case plain, grouped, insetGrouped, sidebar, sidebarPlain
}

/// The metadata of a list.
struct ListMetadata: Sendable {
  var title: String
  var appearance: Appearance
}
