import Foundation

/// Where things are, found from this file's path so tests work from any
/// current directory.
enum TestPaths {
    /// `tools/arch-check`.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ArchCheckTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `tools/arch-check/Tests/Fixtures`.
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The repository root, two levels above the package.
    static let repositoryRoot = packageRoot.deletingLastPathComponent().deletingLastPathComponent()

    /// The root of one fixture tree.
    static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    /// The built `arch-check` executable: next to the test bundle (SwiftPM
    /// puts every product of a build in one folder), else in `.build/debug`.
    static func executable() throws -> String {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL {
            candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("arch-check"))
        }
        let argumentZero = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argumentZero.deletingLastPathComponent().appendingPathComponent("arch-check"))
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("arch-check"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/arch-check"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found.path
        }
        throw MissingExecutable(searched: candidates.map(\.path))
    }

    /// The executable was not built alongside the tests.
    struct MissingExecutable: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "arch-check executable not found (run `swift build --package-path tools/arch-check`); looked in \(searched)"
        }
    }
}
