// The `w` key: asks `list/explain` about the cursor's row and keeps the answer in a panel.
import JSON

extension TUIApp {
  /// Opens the panel for `row` and asks why it last changed.
  mutating func explain(_ row: ListRow) -> [AppEffect] {
    guard let list = view?.list else { return [] }
    overlay = .explain(ExplainPanel(item: row.id, title: label(row)))
    return [
      .request(
        .explain(list: list, item: row.id), method: "list/explain",
        params: ["list": .string(list), "item": .string(row.id)])
    ]
  }

  /// Fills the panel with the answer, if it is still open on `item` of `list` (else the answer
  /// is dropped).
  mutating func explained(_ list: String, _ item: String, _ result: Result<JSONValue, RequestFailure>) {
    guard case .explain(var panel) = overlay, panel.item == item, view?.list == list else { return }
    switch result {
    case .success(let answer): panel.lines = ExplainWords.lines(answer: answer, noun: "row")
    case .failure(let failure): panel.failure = "list/explain: \(failure)"
    }
    overlay = .explain(panel)
  }

  /// Keys while the panel is open: Esc, q and w close it; the rest wait (the list keeps
  /// updating underneath).
  mutating func explainKey(_ key: Key) -> [AppEffect] {
    switch key {
    case .escape, .char("q"), .char("w"): overlay = nil
    default: break
    }
    return []
  }
}
