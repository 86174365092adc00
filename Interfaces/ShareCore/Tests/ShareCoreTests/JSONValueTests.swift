import Foundation
import ShareKitCore
import Testing

@Suite("JSONValue: any JSON, round trips, whole numbers kept exact")
struct JSONValueTests {
    static func decode(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test("every kind decodes, and members are read by name")
    func kinds() throws {
        let value = try Self.decode(
            #"{"s":"x","i":9007199254740993,"d":1.5,"b":true,"n":null,"a":[1,"two"],"o":{"k":"v"}}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"] == .integer(9_007_199_254_740_993), "beyond a Double's exact range, still exact")
        #expect(value["d"] == .number(1.5))
        #expect(value["b"] == .bool(true))
        #expect(value["n"]?.isNull == true)
        #expect(value["a"]?.arrayValue?.count == 2)
        #expect(value["o"]?["k"]?.stringValue == "v")
        #expect(value["missing"] == nil)
    }

    @Test("encoded with sorted keys, equal values give equal text, which decodes to the same value")
    func stableText() throws {
        let value = try Self.decode(#"{"b":1,"a":[true,null]}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(text == #"{"a":[true,null],"b":1}"#)
        #expect(try Self.decode(text) == value)
    }

    @Test("a description names the kind, never the content")
    func description() throws {
        #expect(try Self.decode(#""secret-token""#).description == "a string")
        #expect(try Self.decode(#"{"a":1}"#).description == "an object of 1 members")
    }

    @Test("integerValue accepts whole numbers only")
    func integers() throws {
        #expect(try Self.decode("7").integerValue == 7)
        #expect(try Self.decode("7.0").integerValue == 7)
        #expect(try Self.decode("7.5").integerValue == nil)
        #expect(try Self.decode("1e300").integerValue == nil)
        #expect(try Self.decode("true").integerValue == nil)
    }
}
