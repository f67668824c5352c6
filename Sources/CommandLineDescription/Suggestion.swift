// "Did you mean …?": the known word nearest a mistyped command or option.
import ClosestName

/// Finds what a user most likely meant by a word no tool knows.
public enum Suggestion {
  /// The word of `candidates` nearest `word` (fewest edits, a swap of two neighbours counting as
  /// one), if it is near enough to be a typo: at most 1 edit for words up to 4 characters, 2 up to
  /// 8, 3 beyond. Ties go to the earlier candidate. The rule the daemon's "did you mean" follows
  /// too: both call ``ClosestName/closestName(to:among:)``.
  public static func closest(to word: String, among candidates: [String]) -> String? {
    closestName(to: word, among: candidates)
  }

  /// ` (did you mean 'show'?)`, or nothing when no candidate is near `word`.
  public static func phrase(for word: String, among candidates: [String]) -> String {
    closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }
}
