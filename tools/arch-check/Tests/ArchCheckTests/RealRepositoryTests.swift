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
        #expect(result.contracts.count == 7)
        let report = ReportRenderer.diagnostics(result)
        #expect(result.exitCode == 0, "arch-check on \(Self.root):\n\(report)")
        #expect(result.statistics.packages > 1)
        #expect(result.statistics.files > 0)
    }

    @Test(
        "the fixtures' sharekit-rules.json holds the repository's contracts (plus allowUnmatched)",
        .enabled(if: hasModules, "the repository has no Modules/ (or no Package.swift) yet: nothing to check"))
    func rulesMatchRepository() throws {
        let repository = try Configuration.load(path: Self.root + "/.arch-check.json")
        let fixtures = try Configuration.load(path: TestPaths.fixture("sharekit-rules.json"))
        #expect(repository.contracts.map(\.name) == fixtures.contracts.map(\.name))
        // The fixture trees keep the target names they were written with,
        // before the repository gave its targets the ShareKit prefix
        // (ClientAssembly there, ShareKitClientAssembly here), so the
        // composition roots are compared by their number, everything else as it is.
        #expect(
            repository.contracts.map { Self.withoutRoots($0.kind) }
                == fixtures.contracts.map { Self.withoutRoots($0.kind) })
        #expect(repository.contracts.map(\.advice) == fixtures.contracts.map(\.advice))
    }

    /// A contract's kind with a composition root's roots replaced by as many placeholders.
    private static func withoutRoots(_ kind: ContractDefinition.Kind) -> ContractDefinition.Kind {
        guard case .compositionRoot(let targets, let roots, let implementations) = kind else { return kind }
        return .compositionRoot(
            targets: targets, roots: roots.map { _ in TargetSelector(names: ["root"]) },
            implementations: implementations)
    }
}
