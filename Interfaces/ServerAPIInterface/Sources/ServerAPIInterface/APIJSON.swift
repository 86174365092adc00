import Foundation

/// The JSON coding of every request and answer body: object members sorted
/// (stable bodies, stable test expectations), slashes not escaped.
/// Member names are spelled out in each type's `CodingKeys`, as the API
/// document writes them, rather than converted from Swift names.
public enum APIJSON {
    /// Encodes a body.
    /// - Parameter value: the value.
    /// - Returns: the JSON text's bytes.
    /// - Throws: `EncodingError` when a number is not finite.
    public static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// Decodes a body.
    /// - Parameters:
    ///   - type: the type.
    ///   - bytes: the JSON text.
    /// - Returns: the value.
    /// - Throws: `DecodingError` when the text is not JSON of that type.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(bytes))
    }
}
