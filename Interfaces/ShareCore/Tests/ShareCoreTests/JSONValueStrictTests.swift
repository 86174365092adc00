import ShareKitCore
import Testing

@Suite("JSONValue's strict parser and canonical writer: hostile bytes refused, one form written")
struct JSONValueStrictTests {
    static func parse(_ text: String) -> JSONValue? {
        JSONValue(strictJSON: Array(text.utf8))
    }

    @Test("every kind parses; whole numbers within 64 bits are exact, others are numbers")
    func kinds() throws {
        let value = try #require(
            Self.parse(#" {"s":"x\u00e9\ud83d\ude00","i":9007199254740993,"d":1.5,"e":1e2,"b":false,"n":null,"a":[]} "#)
        )
        #expect(value["s"] == .string("xé😀"))
        #expect(value["i"] == .integer(9_007_199_254_740_993))
        #expect(value["d"] == .number(1.5))
        #expect(value["e"] == .number(100), "an exponent makes a number, not an integer")
        #expect(value["b"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([]))
        #expect(Self.parse("99999999999999999999") == .number(1e20), "beyond 64 bits: a number")
        #expect(Self.parse("-0") == .integer(0))
        #expect(Self.parse("7")?.numberValue == 7)
    }

    @Test("refused: duplicates, depth, bad strings, bad numbers, trailing bytes (never read as `null`)")
    func refused() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let limit = JSONValue.strictMaxDepth
        let deepest = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let tooDeep = String(repeating: "[", count: limit + 2) + String(repeating: "]", count: limit + 2)
        #expect(Self.parse(deepest) != nil, "the limit itself is accepted")
        let bad = [
            deep, tooDeep, #"{"a":1,"a":1}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, "\"\u{1}\"", #""\x""#,
            "01", "1.", ".5", "1e", "1e999999", "NaN", "-", "{}x", "{", "[1,]", #"{"a":1,}"#, "\u{FEFF}{}", "",
            "tru", String(repeating: "1", count: 1025),
        ]
        for text in bad { #expect(Self.parse(text) == nil, "\(text.prefix(40))") }
        #expect(JSONValue(strictJSON: [0x22, 0xFF, 0x22]) == nil, "invalid UTF-8")
    }

    @Test("the canonical form: compact, members sorted, strings escaped, and it parses back")
    func canonical() throws {
        let value = try #require(Self.parse(#"{ "b": [1, 2.5, "q\"\\\n\u0001"], "a": {"y": null, "x": true} }"#))
        let text = String(decoding: value.canonicalJSON, as: UTF8.self)
        #expect(text == #"{"a":{"x":true,"y":null},"b":[1,2.5,"q\"\\\n\u0001"]}"#)
        #expect(Self.parse(text) == value)
        #expect(JSONValue.number(.infinity).canonicalJSON == Array("null".utf8))
    }

    @Test("the writer keeps the order members are written in")
    func writerOrder() throws {
        var writer = JSONWriter()
        writer.raw(#"{"typ":"#)
        writer.string("dpop+jwt")
        writer.raw(#","iat":"#)
        writer.integer(-12)
        writer.raw(#","jti":""#)
        writer.uuid(try UUIDv7(string: "01890a5d-ac96-774b-bcce-b302099a8057"))
        writer.raw(#""}"#)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"typ":"dpop+jwt","iat":-12,"jti":"01890a5d-ac96-774b-bcce-b302099a8057"}"#)
    }
}
