// A Fenwick tree over an outline section's preorder positions counting visible rows.

/// Counts visible nodes by preorder position, so a node's row index (its visible rank) and the
/// node at a row are found in O(log n), and a run of k positions changes visibility in
/// O(k + log n).
struct VisibilityIndex: Sendable, Equatable {
  /// 1-based Fenwick array: `tree[i]` sums positions `(i - lowbit(i), i]` (1-based).
  private var tree: [Int32]

  /// Builds the index from per-position visibility. O(n).
  init(count: Int, isVisible: (Int) -> Bool) {
    tree = [Int32](repeating: 0, count: count + 1)
    for position in 0..<count where isVisible(position) { tree[position + 1] = 1 }
    if count == 0 { return }
    for i in 1...count {
      let j = i + (i & -i)
      if j <= count { tree[j] &+= tree[i] }
    }
  }

  /// Number of positions covered.
  var count: Int { tree.count - 1 }

  /// Number of visible positions in `0..<position`. O(log n).
  func rank(_ position: Int) -> Int {
    var i = min(max(position, 0), count)
    var sum = 0
    while i > 0 {
      sum += Int(tree[i])
      i &= i - 1
    }
    return sum
  }

  /// The position of the visible node with rank `row` (0-based), or nil if out of range. O(log n).
  func position(ofRow row: Int) -> Int? {
    guard row >= 0, count > 0 else { return nil }
    var remaining = row + 1
    var position = 0
    var step = 1
    while step * 2 <= count { step *= 2 }
    while step > 0 {
      let next = position + step
      if next <= count, Int(tree[next]) < remaining {
        position = next
        remaining -= Int(tree[next])
      }
      step /= 2
    }
    return position < count ? position : nil
  }

  /// Adds `delta` to every position in `range`. O(range.count + log n): the nodes inside the
  /// range get their overlap computed in closed form, then the O(log n) nodes above it.
  mutating func add(_ delta: Int32, to range: Range<Int>) {
    guard !range.isEmpty else { return }
    let low = range.lowerBound + 1
    let high = range.upperBound
    for i in low...high {
      let start = i - (i & -i) + 1
      tree[i] &+= delta &* Int32(i - max(start, low) + 1)
    }
    var i = high + (high & -high)
    while i <= count {
      let start = i - (i & -i) + 1
      tree[i] &+= delta &* Int32(high - max(start, low) + 1)
      i += i & -i
    }
  }
}
