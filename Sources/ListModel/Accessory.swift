// Cell accessories and row actions: the seeds' ListAccessory and swipe/context-menu actions as data.

/// The visual style of a swipe or context-menu action.
public enum ActionStyle: String, Hashable, Sendable, CaseIterable {
  /// A regular action.
  case normal
  /// An action that deletes or otherwise destroys data (shown in red).
  case destructive
}

/// A swipe, context-menu or pop-up-menu action. Its `id` is what a viewer reports back when the
/// user triggers it. In a context menu (or a pop-up menu) an action with `children` is a
/// submenu, after `UIMenu`: its children are its actions, and it is never triggered itself.
public struct ListAction: Hashable, Sendable {
  /// The identifier reported when the action is triggered.
  public var id: String
  /// The title shown to the user.
  public var title: String
  /// Normal or destructive.
  public var style: ActionStyle
  /// An image name shown with the title.
  public var image: String?
  /// Shown but not selectable (`UIMenuElement.Attributes.disabled`).
  public var isDisabled: Bool
  /// Shown with a checkmark (`UIMenuElement.State.on`).
  public var isChecked: Bool
  /// A submenu's actions; empty for a plain action.
  public var children: [ListAction]

  /// An action with the given id, title and style (normal by default).
  public init(
    id: String, title: String, style: ActionStyle = .normal, image: String? = nil, isDisabled: Bool = false,
    isChecked: Bool = false, children: [ListAction] = []
  ) {
    self.id = id
    self.title = title
    self.style = style
    self.image = image
    self.isDisabled = isDisabled
    self.isChecked = isChecked
    self.children = children
  }
}

/// Which side of the cell an accessory sits on (`UICellAccessory.Placement`).
public enum AccessoryPlacement: String, Hashable, Sendable, CaseIterable {
  case leading, trailing
}

/// When an accessory shows (`UICellAccessory.DisplayedState`), relative to the list's editing mode.
public enum AccessoryDisplayed: String, Hashable, Sendable, CaseIterable {
  case always, whenEditing, whenNotEditing
}

/// An accessory with its placement and displayed state.
public struct PlacedAccessory: Hashable, Sendable {
  public var accessory: ListAccessory
  public var placement: AccessoryPlacement
  public var displayed: AccessoryDisplayed

  /// The accessory with the given placement and displayed state (by default, its type's UIKit
  /// defaults: ``ListAccessory/defaultPlacement`` and ``ListAccessory/defaultDisplayed``).
  public init(
    _ accessory: ListAccessory, placement: AccessoryPlacement? = nil, displayed: AccessoryDisplayed? = nil
  ) {
    self.accessory = accessory
    self.placement = placement ?? accessory.defaultPlacement
    self.displayed = displayed ?? accessory.defaultDisplayed
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

  /// Where UIKit places this accessory by default: `delete` and `multiselect` leading,
  /// everything else trailing.
  public var defaultPlacement: AccessoryPlacement {
    switch self {
    case .delete, .multiselect: return .leading
    default: return .trailing
    }
  }

  /// When UIKit shows this accessory by default: `delete`, `reorder` and `multiselect` only
  /// while editing, everything else always.
  public var defaultDisplayed: AccessoryDisplayed {
    switch self {
    case .delete, .reorder, .multiselect: return .whenEditing
    default: return .always
    }
  }

  /// A progress accessory with `value` clamped to 0...1 (NaN becomes 0), so equality stays
  /// reflexive and content-equality change detection stays exact.
  public static func progress(clamping value: Double) -> ListAccessory {
    .progress(value.isNaN ? 0 : min(max(value, 0), 1))
  }
}
