import ArchCheckCore
import Foundation
import Testing

/// Reading `.arch-check.json` and matching its patterns.
@Suite("Configuration")
struct ConfigurationTests {
    @Test("name patterns: * matches any run of characters, the whole name must match")
    func namePatterns() {
        #expect(Pattern.matches("*Feature", "SearchFeature"))
        #expect(!Pattern.matches("*Feature", "FeatureFlags"))
        #expect(Pattern.matches("NIO*", "NIO"))
        #expect(Pattern.matches("C*lib*", "CZlibShim"))
        #expect(!Pattern.matches("NIOCore", "NIOCoreTests"))
    }

    @Test("folder globs: * stays in one component, ** spans any; the shortest matching folder is the unit")
    func folderGlobs() {
        #expect(Pattern.matchesPath("Modules/*", "Modules/Uploads"))
        #expect(!Pattern.matchesPath("Modules/*", "Modules/Uploads/Sources"))
        #expect(Pattern.matchesPath("**/Tests", "Examples/A/Tests"))
        #expect(Pattern.matchingFolder("Modules/*", in: "Modules/Uploads/Sources/Uploads") == "Modules/Uploads")
        #expect(Pattern.matchingFolder("Tests", in: "Tests/Fixtures/X/Sources/X") == "Tests")
        #expect(Pattern.matchingFolder("Apps", in: "Modules/Apps") == nil)
    }

    @Test("every member is read: layers with siblings, selectors with paths, advice, allowUnmatched")
    func parse() throws {
        let configuration = try Configuration.parse(
            Data(
                #"""
                {"exclude": ["Scratch"], "contracts": [
                  {"name": "L", "type": "layers", "layers": [{"paths": ["Apps"]}, ["A", {"targets": ["B"], "paths": ["C/*"]}]]},
                  {"name": "E", "type": "explicit-imports", "allow": ["SwiftUI"], "reportUnknown": true, "advice": "declare it"},
                  {"name": "T", "type": "testing-only", "targets": ["*Testing"], "allowUnmatched": true}
                ]}
                """#.utf8), file: "c.json")
        #expect(configuration.exclude == ["Scratch"])
        #expect(
            configuration.contracts[0].kind
                == .layers([
                    [TargetSelector(paths: ["Apps"])],
                    [TargetSelector(names: ["A"]), TargetSelector(names: ["B"], paths: ["C/*"])],
                ]))
        #expect(
            configuration.contracts[1].kind == .explicitImports(targets: nil, allow: ["SwiftUI"], reportUnknown: true))
        #expect(configuration.contracts[1].advice == "declare it")
        #expect(configuration.contracts[2].allowUnmatched)
        #expect(configuration.contracts.map(\.type) == ["layers", "explicit-imports", "testing-only"])
    }
}
