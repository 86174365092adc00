import ArchCheckCore
import Testing

/// What the checker must report for one fixture tree under
/// `Tests/Fixtures`: the exact place and contract of each violation.
struct FixtureExpectation: Sendable, CustomTestStringConvertible {
    /// The fixture folder.
    let name: String
    /// `file:line:col` and contract name of every violation, in output order.
    let violations: [(location: String, contract: String)]
    /// Whether the fixture has its own `.arch-check.json`; the others are
    /// ShareKit-layout trees checked with `Fixtures/sharekit-rules.json`.
    var ownConfig = false
    /// How many contracts its configuration has.
    var contractCount = 7

    init(name: String, violations: [(location: String, contract: String)], ownConfig: Bool = false, contracts: Int = 7)
    {
        self.name = name
        self.violations = violations
        self.ownConfig = ownConfig
        self.contractCount = contracts
    }

    /// The configuration file to pass, if the fixture has none of its own.
    var configArguments: [String] {
        ownConfig ? [] : ["--config", TestPaths.fixture("sharekit-rules.json")]
    }

    /// The broken contracts.
    var brokenContracts: Set<String> { Set(violations.map(\.contract)) }

    /// The closing line the checker must print.
    var summaryLine: String {
        let broken = brokenContracts.count
        let count = violations.count
        return
            "arch-check: \(contractCount) contracts, \(contractCount - broken) kept, \(broken) broken (\(count) violation\(count == 1 ? "" : "s"))"
    }

    /// 0 for a clean tree, 1 otherwise.
    var exitCode: Int32 { violations.isEmpty ? 0 : 1 }

    var testDescription: String { name }

    /// The clean trees and, per contract of the repository's rules (and per
    /// Support/ rule of `layers`), a tree that breaks it exactly once; then
    /// the trees with their own configuration.
    static let all: [FixtureExpectation] = [
        FixtureExpectation(name: "clean", violations: []),
        FixtureExpectation(
            name: "layers",
            violations: [("Interfaces/UploadsInterface/Sources/UploadsInterface/Uploading.swift:2:15", "layers")]),
        // Support/: a support package imports a module (declared too, so
        // reported at the import); an interface depends on a support package
        // (declared only, so reported at the manifest entry); and a tree where
        // support uses support and a module, an app and a test use support.
        FixtureExpectation(
            name: "layers-support",
            violations: [("Support/SecureFiles/Sources/SecureFiles/SecureDirectory.swift:4:8", "layers")]),
        FixtureExpectation(
            name: "layers-interface-support",
            violations: [("Interfaces/UploadsInterface/Package.swift:11:44", "layers")]),
        FixtureExpectation(name: "clean-support", violations: []),
        // The hand check (tools/arch-check/README.md): Uploads imports the Messages module
        // and declares the dependency in its manifest.
        FixtureExpectation(
            name: "independence",
            violations: [("Modules/Uploads/Sources/Uploads/Uploader.swift:3:8", "independence")]),
        FixtureExpectation(
            name: "explicit-imports",
            violations: [("Apps/ShareCLI/main.swift:3:12", "explicit-imports")]),
        FixtureExpectation(
            name: "c-shims",
            violations: [("Apps/ShareServer/main.swift:2:24", "c-shims")]),
        FixtureExpectation(
            name: "c-shims-duplicate",
            violations: [("Modules/SQLiteStore/Package.swift:10:31", "c-shims")]),
        FixtureExpectation(
            name: "testing-only",
            violations: [("Apps/ShareCLI/main.swift:2:8", "testing-only")]),
        FixtureExpectation(
            name: "no-exported-import",
            violations: [("Modules/Uploads/Sources/Uploads/Uploader.swift:2:26", "no-exported-import")]),
        // ShareCLIKit imports the Outbox module (declared too) instead of
        // asking ClientAssembly; the tree beside it keeps the contract, with
        // both composition roots (ClientAssembly, ShareServerKit) using Outbox.
        FixtureExpectation(
            name: "composition-root",
            violations: [("Apps/ShareCLIKit/ShareCLI.swift:2:8", "composition-root")]),
        FixtureExpectation(name: "composition-root-clean", violations: []),
        // One package, many targets, name patterns: an import under #if that
        // breaks three contracts at one place, a dependency written only in
        // the manifest, fakes used by a program.
        FixtureExpectation(
            name: "single-package",
            violations: [
                ("Package.swift:14:67", "Features apart"),
                ("Sources/NetCore/Core.swift:3:8", "Core stays below Posix"),
                ("Sources/NetCore/Core.swift:3:8", "Layers"),
                ("Sources/NetCore/Core.swift:3:8", "Imports are declared"),
                ("Sources/net-demo/main.swift:3:8", "Fakes for tests"),
            ], ownConfig: true, contracts: 6),
        // Path packages without a root package; two packages called Hooks
        // with a target Hooks each; an excluded folder and a checkouts
        // folder whose manifests would not evaluate.
        FixtureExpectation(
            name: "monorepo",
            violations: [
                ("Packages/App/Sources/App/main.swift:2:8", "Imports are declared"),
                ("Tools/Gen/Package.swift:12:33", "The generator hooks nothing"),
            ], ownConfig: true, contracts: 4),
    ]
}
