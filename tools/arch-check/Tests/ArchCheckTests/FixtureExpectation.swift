import ArchCheckCore
import Testing

/// What the checker must report for one fixture tree under
/// `Tests/Fixtures`: the exact place and contract of each violation.
struct FixtureExpectation: Sendable, CustomTestStringConvertible {
    /// The fixture folder.
    let name: String
    /// `file:line:col` and contract of every violation, in output order.
    let violations: [(location: String, contract: ContractName)]

    /// The broken contracts.
    var brokenContracts: Set<ContractName> { Set(violations.map(\.contract)) }

    /// The closing line the checker must print.
    var summaryLine: String {
        let broken = brokenContracts.count
        let count = violations.count
        return
            "arch-check: 7 contracts, \(7 - broken) kept, \(broken) broken (\(count) violation\(count == 1 ? "" : "s"))"
    }

    /// 0 for a clean tree, 1 otherwise.
    var exitCode: Int32 { violations.isEmpty ? 0 : 1 }

    var testDescription: String { name }

    /// The clean trees and, per contract (and per Support/ rule of
    /// `layers`), a tree that breaks it exactly once.
    static let all: [FixtureExpectation] = [
        FixtureExpectation(name: "clean", violations: []),
        FixtureExpectation(
            name: "layers",
            violations: [("Interfaces/UploadsInterface/Sources/UploadsInterface/Uploading.swift:2:15", .layers)]),
        // Support/: a support package imports a module (declared too, so
        // reported at the import); an interface depends on a support package
        // (declared only, so reported at the manifest entry); and a tree where
        // support uses support and a module, an app and a test use support.
        FixtureExpectation(
            name: "layers-support",
            violations: [("Support/SecureFiles/Sources/SecureFiles/SecureDirectory.swift:4:8", .layers)]),
        FixtureExpectation(
            name: "layers-interface-support",
            violations: [("Interfaces/UploadsInterface/Package.swift:11:44", .layers)]),
        FixtureExpectation(name: "clean-support", violations: []),
        // The hand check (tools/arch-check/README.md): Uploads imports the Messages module
        // and declares the dependency in its manifest.
        FixtureExpectation(
            name: "independence",
            violations: [("Modules/Uploads/Sources/Uploads/Uploader.swift:3:8", .independence)]),
        FixtureExpectation(
            name: "explicit-imports",
            violations: [("Apps/ShareCLI/main.swift:3:12", .explicitImports)]),
        FixtureExpectation(
            name: "c-shims",
            violations: [("Apps/ShareServer/main.swift:2:24", .cShims)]),
        FixtureExpectation(
            name: "c-shims-duplicate",
            violations: [("Modules/SQLiteStore/Package.swift:10:31", .cShims)]),
        FixtureExpectation(
            name: "testing-only",
            violations: [("Apps/ShareCLI/main.swift:2:8", .testingOnly)]),
        FixtureExpectation(
            name: "no-exported-import",
            violations: [("Modules/Uploads/Sources/Uploads/Uploader.swift:2:26", .noExportedImport)]),
        // ShareCLIKit imports the Outbox module (declared too) instead of
        // asking ClientAssembly; the tree beside it keeps the contract, with
        // both composition roots (ClientAssembly, ShareServerKit) using Outbox.
        FixtureExpectation(
            name: "composition-root",
            violations: [("Apps/ShareCLIKit/ShareCLI.swift:2:8", .compositionRoot)]),
        FixtureExpectation(name: "composition-root-clean", violations: []),
    ]
}
