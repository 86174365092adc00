import ArchCheckCore
import Foundation
import Testing

/// The checker on the repository it lives in: the real tree must keep
/// every contract. The tree is written alongside this tool; until it has
/// a `Modules/` folder there is nothing to check and the test is skipped.
@Suite("The ShareKit repository")
struct RealRepositoryTests {
    static let root = TestPaths.repositoryRoot.path
    static let hasModules =
        FileManager.default.fileExists(atPath: root + "/Modules")
        && FileManager.default.fileExists(atPath: root + "/Package.swift")

    @Test(
        "the repository keeps every contract",
        .enabled(if: hasModules, "the repository has no Modules/ (or no Package.swift) yet: nothing to check"))
    func repositoryKeepsContracts() async throws {
        let result = try await CheckerRuns.shared.result(root: Self.root)
        let report = ReportRenderer.diagnostics(result)
        #expect(result.exitCode == 0, "arch-check on \(Self.root):\n\(report)")
        #expect(result.statistics.packages > 1)
        #expect(result.statistics.files > 0)
    }

    @Test(
        "composition-root is not kept by default: the repository has both composition roots",
        .enabled(if: hasModules, "the repository has no Modules/ (or no Package.swift) yet: nothing to check"))
    func repositoryHasCompositionRoots() throws {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        for root in ContractChecker.compositionRoots.sorted() {
            #expect(manifest.contains("name: \"\(root)\""), "\(root) is no target of the root package")
        }
    }
}
