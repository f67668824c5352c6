// Steps 3 and 4 of applying a changeset: placing arriving sections or rows among the others.

enum ChangesetPlacement {
  /// `others` in order, with each of `placed` (sorted by ascending index) put at its new index;
  /// `misplaced` is the first index that is out of range or repeated (the result is then partial).
  /// O(placed + others).
  static func merge<T>(_ placed: [(index: Int, element: T)], into others: some Sequence<T>) -> (
    elements: [T], misplaced: Int?
  ) {
    var rest = Array(others)[...]
    var result: [T] = []
    result.reserveCapacity(placed.count + rest.count)
    var next = 0
    while next < placed.count || !rest.isEmpty {
      if next < placed.count, placed[next].index == result.count {
        result.append(placed[next].element)
        next += 1
      } else if let element = rest.popFirst() {
        result.append(element)
      } else {
        return (result, placed[next].index)
      }
    }
    return (result, nil)
  }
}
