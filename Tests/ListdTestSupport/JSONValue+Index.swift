// Index access into JSON arrays, for terse assertions in tests.
import JSON

extension JSONValue {
  /// The element at `index` if this is an array long enough, else nil.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}
