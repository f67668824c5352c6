// Optional Decodable support for params, with -32602 errors naming the field path and value.
import Foundation

extension Params {
  /// Decodes the viewed value as `T` with Foundation's JSONDecoder — a convenience off the hot
  /// path (the typed accessors are much faster). Decoding errors become -32602 errors that name
  /// the field path and the value found, like the accessors': `"edits[1].item" must be a string,
  /// got 7`. O(size of the value).
  public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder())
    throws(ResponseError) -> T
  {
    let value = self.value ?? .object(JSONObject())
    do {
      return try decoder.decode(T.self, from: Data(value.jsonBytes()))
    } catch let error as DecodingError {
      throw responseError(for: error, in: value)
    } catch {
      throw .invalidParams(String(describing: error), field: path.isEmpty ? nil : path)
    }
  }

  private func responseError(for error: DecodingError, in value: JSONValue) -> ResponseError {
    func fieldPath(_ codingPath: [any CodingKey]) -> String {
      var result = path
      for key in codingPath {
        if let index = key.intValue {
          result += "[\(index)]"
        } else {
          result += result.isEmpty ? key.stringValue : "." + key.stringValue
        }
      }
      return result
    }
    func found(_ codingPath: [any CodingKey]) -> JSONValue? {
      var current: JSONValue? = value
      for key in codingPath {
        if let index = key.intValue, case .array(let elements)? = current {
          current = elements.indices.contains(index) ? elements[index] : nil
        } else {
          current = current?[key.stringValue]
        }
      }
      return current
    }
    switch error {
    case .keyNotFound(let key, let context):
      let field = fieldPath(context.codingPath + [key])
      return .invalidParams("missing required field \"\(field)\"", field: field)
    case .typeMismatch(let type, let context):
      let field = fieldPath(context.codingPath)
      let got = found(context.codingPath)?.abbreviatedJSON ?? "nothing"
      return .invalidParams("\"\(field)\" must be \(Self.describe(type)), got \(got)", field: field)
    case .valueNotFound(let type, let context):
      let field = fieldPath(context.codingPath)
      return .invalidParams("\"\(field)\" must be \(Self.describe(type)), got null", field: field)
    case .dataCorrupted(let context):
      let field = fieldPath(context.codingPath)
      let got = found(context.codingPath)?.abbreviatedJSON ?? "nothing"
      return .invalidParams("\"\(field)\" is invalid (\(context.debugDescription)), got \(got)", field: field)
    @unknown default:
      return .invalidParams(String(describing: error), field: path.isEmpty ? nil : path)
    }
  }

  /// "a string", "an integer", … for the type a decoder expected.
  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type, is Substring.Type: return "a string"
    case is Bool.Type: return "a boolean"
    case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type, is UInt.Type, is UInt8.Type,
      is UInt16.Type, is UInt32.Type, is UInt64.Type:
      return "an integer"
    case is Double.Type, is Float.Type: return "a number"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Dictionary") || name.hasPrefix("[String") { return "an object" }
      if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
      return "a valid \(name)"
    }
  }
}
