import ArchCheckCore
import Foundation
import Testing

/// Only the files SwiftPM compiles are read: not `.docc` catalogs, not
/// declared resources, not the configuration's excluded folders; symbolic
/// links to folders are followed, a byte order mark does not hide line 1,
/// and manifest positions come from the manifest SwiftPM uses.
@Suite("Sources as SwiftPM compiles them")
struct CompiledSourcesTests {
    @Test("compiled-sources: only real violations, at the places SwiftPM would compile and read")
    func compiledSources() async throws {
        let run = try await runArchCheck(["--root", TestPaths.fixture("compiled-sources")])
        #expect(run.status == 1, "\(run.standardError)")
        let places = run.outputLines.dropLast().map { $0.components(separatedBy: ": error: ")[0] }
        #expect(
            places == [
                "Package@swift-6.0.swift:12:60",
                "Sources/App/ByteOrderMark.swift:1:8",
                "Sources/App/Linked/Linked.swift:2:8",
            ], "\(run.standardOutput)")
        #expect(!run.standardOutput.contains(".docc"))
        #expect(!run.standardOutput.contains("Resources/Template.swift"))
        #expect(!run.standardOutput.contains("Generated"))
    }

    @Test("a .target(name:) dependency is located at its own line, not at the products list")
    func targetDependencyLocation() {
        let text = """
            let package = Package(
                name: "P",
                products: [.library(name: "Other", targets: ["Other"])],
                targets: [
                    .target(name: "Other"),
                    .target(
                        name: "Lib",
                        dependencies: [
                            .target(name: "Other")
                        ]
                    ),
                ]
            )
            """
        let locator = ManifestLocator(file: "Package.swift", text: text)
        #expect(locator.location(ofDependency: "Other", inTarget: "Lib").description == "Package.swift:9:32")
    }

    @Test("a byte order mark before line 1 does not hide its import")
    func byteOrderMark() {
        let imports = ImportScanner.imports(in: "\u{FEFF}import Other\nimport Next\n")
        #expect(imports.map(\.module) == ["Other", "Next"])
        #expect(imports.first.map { "\($0.line):\($0.column)" } == "1:8")
    }
}
