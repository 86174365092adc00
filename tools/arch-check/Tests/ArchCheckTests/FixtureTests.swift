import ArchCheckCore
import Foundation
import Testing

/// The checker's core API on the fixture trees: exact places, contracts,
/// summary and exit status.
@Suite("Fixture trees through the core API")
struct FixtureTests {
    @Test("each fixture reports exactly its violations", arguments: FixtureExpectation.all)
    func fixture(_ expected: FixtureExpectation) async throws {
        let result = try await CheckerRuns.shared.result(fixture: expected.name)
        let found = result.violations.map { "\($0.location) [\($0.contract)]" }
        let wanted = expected.violations.map { "\($0.location) [\($0.contract)]" }
        #expect(found == wanted)
        #expect(result.summaryLine == expected.summaryLine)
        #expect(result.exitCode == expected.exitCode)
        for contract in result.contracts {
            #expect(contract.isKept == !expected.brokenContracts.contains(contract.name), "\(contract.name)")
        }
    }

    @Test("the hand check: Uploads importing Messages is an independence error that names the fix")
    func handCheck() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "independence")
        let lines = ReportRenderer.diagnostics(result).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "Modules/Uploads/Sources/Uploads/Uploader.swift:3:8: error: [independence] Uploads imports Messages; "
                    + "depend on MessagesInterface instead; modules meet through Interfaces/ and share building blocks "
                    + "from Support/ (declared in Modules/Uploads/Package.swift:11:44)",
                "arch-check: 7 contracts, 6 kept, 1 broken (1 violation)",
            ])
    }

    @Test("messages say how to fix the violation")
    func messages() async throws {
        let explicit = try await CheckerRuns.shared.result(fixture: "explicit-imports").violations.first
        #expect(
            explicit?.message.hasSuffix(
                "add .product(name: \"UploadsInterface\", package: \"UploadsInterface\") to the dependencies of ShareCLI in Package.swift"
            ) == true)
        let layers = try await CheckerRuns.shared.result(fixture: "layers").violations.first
        #expect(
            layers?.message.hasPrefix(
                "UploadsInterface imports Storage, which is in a higher layer (Modules/) than UploadsInterface (Interfaces/); a layer may use only the layers below it; Tests/ > Apps/"
            ) == true)
        let interfaceSupport = try await CheckerRuns.shared.result(fixture: "layers-interface-support").violations
            .first
        #expect(
            interfaceSupport?.message.hasPrefix(
                "UploadsInterface depends on SecureFiles, but Support/ and Interfaces/ are independent siblings of one layer"
            ) == true)
        let shims = try await CheckerRuns.shared.result(fixture: "c-shims").violations.first
        #expect(shims?.message.contains("the C shim of package SQLiteStore") == true)
        let duplicate = try await CheckerRuns.shared.result(fixture: "c-shims-duplicate").violations.first
        #expect(
            duplicate?.message.contains("already declared by COutboxSQLite at Modules/Outbox/Package.swift:9:31")
                == true)
        let testing = try await CheckerRuns.shared.result(fixture: "testing-only").violations.first
        #expect(testing?.message.contains("a testing target that only test targets may use") == true)
        let exported = try await CheckerRuns.shared.result(fixture: "no-exported-import").violations.first
        #expect(exported?.message.contains("make it a plain import") == true)
    }

    @Test("composition-root: the diagnostic names the app target, the module and the root to ask")
    func compositionRootDiagnostic() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "composition-root")
        let lines = ReportRenderer.diagnostics(result).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "Apps/ShareCLIKit/ShareCLI.swift:2:8: error: [composition-root] ShareCLIKit imports Outbox; "
                    + "ask ClientAssembly for an interface instead (declared in Package.swift:25:33)",
                "arch-check: 7 contracts, 6 kept, 1 broken (1 violation)",
            ])
        let clean = try await CheckerRuns.shared.result(fixture: "composition-root-clean")
        #expect(clean.violations.isEmpty)
        // Root, OutboxInterface, Outbox; ClientAssembly, ShareCLIKit, ShareCLI,
        // ShareServerKit, OutboxInterface, Outbox.
        #expect(clean.statistics.packages == 3)
        #expect(clean.statistics.targets == 6)
    }

    @Test("an import inside #if is checked and reported as conditional in JSON")
    func conditionalImportInJSON() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "explicit-imports")
        let json = try ReportRenderer.json(result)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let contracts = try #require(object?["contracts"] as? [[String: Any]])
        #expect(
            contracts.map { $0["name"] as? String } == [
                "layers", "independence", "explicit-imports", "c-shims", "testing-only", "no-exported-import",
                "composition-root",
            ])
        #expect(contracts.map { $0["type"] as? String } == contracts.map { $0["name"] as? String })
        let explicit = try #require(contracts.first { $0["name"] as? String == "explicit-imports" })
        #expect(explicit["status"] as? String == "broken")
        let violation = try #require((explicit["violations"] as? [[String: Any]])?.first)
        #expect(violation["file"] as? String == "Apps/ShareCLI/main.swift")
        #expect(violation["line"] as? Int == 3)
        #expect(violation["column"] as? Int == 12)
        #expect(violation["contract"] as? String == "explicit-imports")
        #expect(violation["conditional"] as? Bool == true)
        #expect(violation["conditions"] as? [String] == ["canImport(Glibc)"])
        let summary = try #require(object?["summary"] as? [String: Any])
        #expect(summary["contracts"] as? Int == 7)
        #expect(summary["kept"] as? Int == 6)
        #expect(summary["broken"] as? Int == 1)
        #expect(summary["violations"] as? Int == 1)
    }

    @Test("the clean tree is read completely: packages, targets, shims, the consumer fixture")
    func cleanTreeModel() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "clean")
        // Root, two interfaces, two modules and Tests/Fixtures/UploadsConsumer.
        #expect(result.statistics.packages == 6)
        #expect(result.statistics.targets == 9)
        #expect(result.statistics.files == 8)
        // The rules name targets this tree does not have (allowUnmatched): only those notes.
        #expect(result.notes.allSatisfy { $0.contains("(allowUnmatched)") }, "\(result.notes)")
    }

    @Test("Support/ packages are read and placed in the support layer; support using support is clean")
    func cleanSupportTreeModel() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "clean-support")
        // Root, one interface, one module and two support packages.
        #expect(result.statistics.packages == 5)
        // ShareCLI, KeychainStoreTests, KeychainInterface, KeychainStore, SecureFiles, PosixErrors.
        #expect(result.statistics.targets == 6)
        #expect(result.statistics.files == 6)
        #expect(result.notes.allSatisfy { $0.contains("(allowUnmatched)") }, "\(result.notes)")
        #expect(result.violations.isEmpty)
    }

    @Test("a manifest that does not evaluate is a tool error naming the package and SwiftPM's message")
    func brokenManifest() async throws {
        var options = CommandLineOptions()
        options.root = TestPaths.fixture("broken-manifest")
        options.config = TestPaths.fixture("sharekit-rules.json")
        await #expect {
            try await ArchCheckCommand.check(options)
        } throws: { error in
            guard case ArchCheckError.dumpPackageFailed(let package, let status, let stderr) = error else {
                return false
            }
            return package == "Modules/Broken/Package.swift" && status != 0 && stderr.contains("undefinedSymbol")
        }
    }

    @Test("two packages of one name with a target of one name are told apart by folder")
    func sameNames() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "monorepo")
        let gen = try #require(result.violations.first { $0.contract == "The generator hooks nothing" })
        #expect(gen.message == "Gen depends on Hooks/On/Hooks, which Gen must not use")
        // Core, Net, App, Gen and both Hooks; Scratch (excluded) and
        // checkouts/Remote are not read.
        #expect(result.statistics.packages == 6)
        #expect(result.notes.isEmpty)
    }

    @Test("a dependency written only in the manifest is reported at the manifest, with the contract's advice")
    func manifestOnly() async throws {
        let result = try await CheckerRuns.shared.result(fixture: "single-package")
        let features = try #require(result.violations.first { $0.contract == "Features apart" })
        #expect(
            features.line
                == "Package.swift:14:67: error: [Features apart] SearchFeature depends on ProfileFeature, but SearchFeature and ProfileFeature must stay independent of each other; share code through NetHTTP"
        )
        let conditional = result.violations.filter { $0.location.file == "Sources/NetCore/Core.swift" }
        #expect(conditional.count == 3)
        #expect(conditional.allSatisfy { $0.conditions == ["os(Linux)"] })
    }
}
