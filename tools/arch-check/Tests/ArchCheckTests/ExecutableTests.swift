import ArchCheckCore
import Foundation
import Testing

/// The built `arch-check` executable, run as a subprocess the way CI and
/// developers run it: output lines, KEPT/BROKEN overview, exit status.
@Suite("arch-check executable")
struct ExecutableTests {
    @Test(
        "each fixture, run from its root without --root: violation lines, summary, exit status",
        arguments: FixtureExpectation.all)
    func fixture(_ expected: FixtureExpectation) async throws {
        let run = try await runArchCheck([], currentDirectory: TestPaths.fixture(expected.name))
        #expect(run.status == expected.exitCode, "stderr: \(run.standardError)")
        let lines = run.outputLines
        #expect(lines.last == expected.summaryLine)
        let diagnostics = lines.dropLast()
        #expect(diagnostics.count == expected.violations.count)
        for (line, violation) in zip(diagnostics, expected.violations) {
            #expect(line.hasPrefix("\(violation.location): error: [\(violation.contract.rawValue)] "), "\(line)")
        }
        // import-linter style overview on stderr, one line per contract.
        for contract in ContractName.allCases {
            let broken = expected.brokenContracts.contains(contract)
            let status = broken ? "\(contract.rawValue) BROKEN" : "\(contract.rawValue) KEPT"
            #expect(run.standardError.contains("\n\(status)"), "\(contract.rawValue)")
        }
        if expected.name == "independence" {
            // The hand check (the `independence` fixture), word for word as
            // tools/arch-check/README.md ("Output") shows it.
            #expect(
                lines == [
                    "Modules/Uploads/Sources/Uploads/Uploader.swift:3:8: error: [independence] Uploads imports Messages; depend on MessagesInterface instead (declared in Modules/Uploads/Package.swift:11:44)",
                    "arch-check: 7 contracts, 6 kept, 1 broken (1 violation)",
                ])
        }
    }

    @Test("--root and --json: one JSON object with contracts and summary")
    func json() async throws {
        let run = try await runArchCheck(["--json", "--root", TestPaths.fixture("testing-only")])
        #expect(run.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let contracts = try #require(object?["contracts"] as? [[String: Any]])
        #expect(contracts.count == 7)
        let broken = contracts.filter { $0["status"] as? String == "broken" }
        #expect(broken.map { $0["name"] as? String } == ["testing-only"])
        let violation = try #require((broken.first?["violations"] as? [[String: Any]])?.first)
        #expect(violation["file"] as? String == "Apps/ShareCLI/main.swift")
        #expect(violation["line"] as? Int == 2)
        #expect(violation["column"] as? Int == 8)
        #expect(violation["contract"] as? String == "testing-only")
        #expect((violation["message"] as? String)?.isEmpty == false)
        let summary = try #require(object?["summary"] as? [String: Any])
        #expect(summary["line"] as? String == "arch-check: 7 contracts, 6 kept, 1 broken (1 violation)")
    }

    @Test("a manifest that fails to dump exits 2 and shows which package and SwiftPM's error")
    func brokenManifest() async throws {
        let run = try await runArchCheck(["--root", TestPaths.fixture("broken-manifest")])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("dump-package failed for Modules/Broken/Package.swift"))
        #expect(run.standardError.contains("cannot find 'undefinedSymbol' in scope"))
    }

    @Test("usage errors exit 2; --help exits 0")
    func usage() async throws {
        let bad = try await runArchCheck(["--no-such-option"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("unknown argument --no-such-option"))
        let help = try await runArchCheck(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: arch-check"))
    }
}
