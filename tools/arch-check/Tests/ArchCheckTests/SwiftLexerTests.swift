import ArchCheckCore
import Testing

/// The lexer consumes comments and literals whole and reports positions
/// the way the compiler does.
@Suite("SwiftLexer")
struct SwiftLexerTests {
    /// Identifier texts of a source, in order.
    private func words(_ source: String) -> [String] {
        SwiftLexer.tokenize(source).filter { $0.kind == .identifier }.map(\.text)
    }

    @Test("line comments, block comments and nested block comments are skipped")
    func comments() {
        let source = """
            a // import B
            /* import C /* nested import D */ still comment import E */ f
            /** doc import G */ h
            """
        #expect(words(source) == ["a", "f", "h"])
    }

    @Test("string literals are one token, whatever they contain")
    func strings() {
        let source = ###"""
            let a = "import B // not a comment"
            let c = "escaped \" quote import D"
            let e = "interpolated \(f("import G", ")")) h"
            let i = """
                import J
                "quoted" \(k)
                """
            let l = #"raw " import M \(n) "# + ##"two "# hashes import O"##
            let p = #"""
                import Q """ still raw
                """#
            r
            """###
        let tokens = SwiftLexer.tokenize(source)
        let names = tokens.filter { $0.kind == .identifier }.map(\.text)
        #expect(names == ["let", "a", "let", "c", "let", "e", "let", "i", "let", "l", "let", "p", "r"])
        #expect(tokens.filter { $0.kind == .stringLiteral }.count == 7)
    }

    @Test("simple strings keep their value; strings with escapes or interpolation do not")
    func stringValues() {
        let tokens = SwiftLexer.tokenize(##"["Messages", "a\n", "\(x)", #"Raw"#, ""]"##)
        #expect(tokens.filter { $0.kind == .stringLiteral }.map(\.stringValue) == ["Messages", nil, nil, "Raw", ""])
    }

    @Test("extended regex literals and shebang lines are skipped")
    func regexAndShebang() {
        let source = """
            #!/usr/bin/env swift
            let r = #/import "X"/#
            let s = ##/a/#b/##
            t
            """
        #expect(words(source) == ["let", "r", "let", "s", "t"])
    }

    @Test("positions are 1-based lines and UTF-8 columns, also after multi-line tokens")
    func positions() {
        let source = "a\n  bb /* x\n y */ cc\n\"é\" dd"
        let tokens = SwiftLexer.tokenize(source)
        let positions = tokens.map { "\($0.text)@\($0.line):\($0.column)" }
        #expect(positions == ["a@1:1", "bb@2:3", "cc@3:7", "\"é\"@4:1", "dd@4:6"])
        // `cc` is the first token on line 3: a comment is not a token.
        #expect(tokens.map(\.isFirstOnLine) == [true, true, true, true, false])
    }

    @Test("a token after a multi-line literal on its closing line does not start that line")
    func afterMultilineLiteral() {
        let source = "let s = \"\"\"\n  text\n  \"\"\" + t\nu"
        let tokens = SwiftLexer.tokenize(source)
        let t = tokens.first { $0.text == "t" }
        let u = tokens.first { $0.text == "u" }
        #expect(t?.line == 3 && t?.isFirstOnLine == false)
        #expect(u?.line == 4 && u?.isFirstOnLine == true)
    }

    @Test("back-quoted identifiers are escaped and #directives are their own tokens")
    func escapedAndDirectives() {
        let tokens = SwiftLexer.tokenize("`import` #if os(Linux)")
        #expect(tokens[0].text == "import" && tokens[0].isEscaped && !tokens[0].isWord("import"))
        #expect(tokens[1].kind == .poundKeyword && tokens[1].text == "#if")
    }

    @Test("unterminated literals and comments end without crashing")
    func unterminated() {
        #expect(words("\"open string\nnext") == ["next"])
        #expect(words("a /* never closed import B") == ["a"])
        #expect(words("a \"\"\"\n never closed") == ["a"])
    }
}
