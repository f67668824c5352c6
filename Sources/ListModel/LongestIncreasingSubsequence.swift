// Longest increasing subsequence: which matched items stay put so the fewest are reported moved.

/// Marks the elements of a longest strictly increasing subsequence of `values`.
/// O(n) when `values` is already increasing (the common case), else O(n log n).
func longestIncreasingSubsequence(_ values: [Int32]) -> [Bool] {
  let count = values.count
  var isIncreasing = true
  var index = 1
  while index < count {
    if values[index - 1] >= values[index] {
      isIncreasing = false
      break
    }
    index += 1
  }
  if isIncreasing { return [Bool](repeating: true, count: count) }
  // Patience sorting: tails[k] is the index of the smallest tail of an increasing run of k+1.
  var tails: [Int32] = []
  var previous = [Int32](repeating: -1, count: count)
  tails.reserveCapacity(64)
  for i in 0..<count {
    let value = values[i]
    var low = 0
    var high = tails.count
    while low < high {
      let mid = (low + high) / 2
      if values[Int(tails[mid])] < value { low = mid + 1 } else { high = mid }
    }
    if low > 0 { previous[i] = tails[low - 1] }
    if low == tails.count { tails.append(Int32(i)) } else { tails[low] = Int32(i) }
  }
  var keep = [Bool](repeating: false, count: count)
  var cursor = tails.last ?? -1
  while cursor >= 0 {
    keep[Int(cursor)] = true
    cursor = previous[Int(cursor)]
  }
  return keep
}
