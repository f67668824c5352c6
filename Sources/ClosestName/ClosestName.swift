// "Did you mean …?": the known name nearest a mistyped one, for listctl's commands and options and the protocol's enum values.

/// The name of `candidates` nearest `word`, if near enough to be a typo; nil otherwise.
///
/// Fewest edits, a swap of neighbours counting as one, ignoring case; at most 1 edit for words up
/// to 4 characters, 2 up to 8, 3 beyond; ties go to the earlier candidate.
/// O(candidates × length²).
public func closestName(to word: String, among candidates: [String]) -> String? {
  let typed = Array(word.lowercased())
  let limit = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
  var best: (name: String, distance: Int)?
  for candidate in candidates where candidate != word {
    let distance = optimalStringAlignment(typed, Array(candidate.lowercased()))
    if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
  }
  return best?.name
}

/// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// adjacent characters from `a` to `b`.
func optimalStringAlignment(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous2 = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = min(current[j], previous2[j - 2] + 1)
      }
    }
    (previous2, previous, current) = (previous, current, previous2)
  }
  return previous[b.count]
}
