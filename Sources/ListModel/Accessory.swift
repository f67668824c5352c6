// Cell accessories and row actions: the seeds' ListAccessory and swipe/context-menu actions as data.

/// The visual style of a swipe or context-menu action.
public enum ActionStyle: String, Hashable, Sendable, CaseIterable {
  /// A regular action.
  case normal
  /// An action that deletes or otherwise destroys data (shown in red).
  case destructive
}

/// A swipe, context-menu or pop-up-menu action. Its `id` is what a viewer reports back when the
/// user triggers it.
public struct ListAction: Hashable, Sendable {
  /// The identifier reported when the action is triggered.
  public var id: String
  /// The title shown to the user.
  public var title: String
  /// Normal or destructive.
  public var style: ActionStyle

  /// An action with the given id, title and style (normal by default).
  public init(id: String, title: String, style: ActionStyle = .normal) {
    self.id = id
    self.title = title
    self.style = style
  }
}

/// A cell accessory, after the seeds' `ListAccessory` (which maps onto `UICellAccessory`).
public enum ListAccessory: Hashable, Sendable {
  case disclosureIndicator
  case checkmark
  case delete
  case reorder
  case outlineDisclosure
  case detail
  case multiselect
  /// A text label.
  case label(String)
  /// A small badge, such as an unread count.
  case badge(String)
  /// An image, by name.
  case image(String)
  /// A progress indicator; the value is clamped to 0...1 (NaN becomes 0) by ``progress(_:)``.
  case progress(Double)
  case activityIndicator
  /// A switch.
  case toggle(isOn: Bool)
  /// A pop-up menu with the given actions.
  case popUpMenu([ListAction])
  /// An escape hatch a viewer interprets by name.
  case custom(String)

  /// A progress accessory with `value` clamped to 0...1 (NaN becomes 0), so equality stays
  /// reflexive and content-equality change detection stays exact.
  public static func progress(clamping value: Double) -> ListAccessory {
    .progress(value.isNaN ? 0 : min(max(value, 0), 1))
  }
}
