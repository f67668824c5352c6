// What a list shows when it has no rows: SwiftUI's ContentUnavailableView as data.

/// A list's empty state, after `ContentUnavailableView`: a title, an optional image name and
/// description; or the search variant (`ContentUnavailableView.search`), which names the query
/// that matched nothing.
public struct EmptyState: Hashable, Sendable {
  /// The plain empty state, or the search variant.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case standard
    /// "No results for the query": what a view whose text filter matches nothing reports.
    case search
  }

  public var kind: Kind
  /// For `search`: the query that matched nothing; nil otherwise.
  public var query: String?
  public var title: String
  /// An image name (for example an SF Symbol name).
  public var image: String?
  public var description: String?

  /// A standard empty state.
  public init(title: String, image: String? = nil, description: String? = nil) {
    self.kind = .standard
    self.query = nil
    self.title = title
    self.image = image
    self.description = description
  }

  /// The search variant for `query`, worded as `ContentUnavailableView.search(text:)`.
  public static func search(query: String) -> EmptyState {
    var state = EmptyState(
      title: "No Results for “\(query)”", image: "magnifyingglass",
      description: "Check the spelling or try a new search.")
    state.kind = .search
    state.query = query
    return state
  }
}
