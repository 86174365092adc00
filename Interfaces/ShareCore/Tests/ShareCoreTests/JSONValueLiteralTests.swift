import Foundation
import ShareKitCore
import Testing

@Suite("JSONValue literals: objects written in code, encoded as JSONSerialization wrote them")
struct JSONValueLiteralTests {
    static func text(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("each literal makes its case")
    func literals() {
        #expect(JSONValue(nilLiteral: ()) == .null)
        let values: [JSONValue] = [nil, true, 42, 1.5, "x", [1, "a"], ["k": false]]
        #expect(
            values == [
                .null, .bool(true), .integer(42), .number(1.5), .string("x"), .array([.integer(1), .string("a")]),
                .object(["k": .bool(false)]),
            ])
    }

    @Test("optionals become null, values their case")
    func optionals() {
        let none: String? = nil
        #expect(JSONValue(none) == .null)
        #expect(JSONValue("a" as String?) == .string("a"))
        #expect(JSONValue(Int64(7) as Int64?) == .integer(7))
        #expect(JSONValue(Int?.none) == .null)
        #expect(JSONValue(3 as Int?) == .integer(3))
        #expect(JSONValue(Bool?.none) == .null)
        #expect(JSONValue(false as Bool?) == .bool(false))
        #expect(JSONValue(["a", "b"]) == .array([.string("a"), .string("b")]))
    }

    @Test("an object in code encodes with sorted keys, whole numbers without a fraction, null kept")
    func encodedText() throws {
        let size: Int64 = 1_048_576
        let value: JSONValue = [
            "status": "sent", "size": JSONValue(size), "thread_id": nil, "replayed": false,
            "target": ["kind": "thread", "display_path": "Team/general"], "files": [],
        ]
        #expect(
            try Self.text(value)
                == #"{"files":[],"replayed":false,"size":1048576,"status":"sent","#
                + #""target":{"display_path":"Team/general","kind":"thread"},"thread_id":null}"#)
    }

    @Test("an Encodable value becomes the same JSON")
    func encoding() throws {
        struct Counts: Encodable {
            var pending = 2
            var name = "a/b"
            var missing: String? = nil
        }
        #expect(try JSONValue(encoding: Counts()) == ["pending": 2, "name": "a/b"])
    }
}
