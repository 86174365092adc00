import ArchCheckCore
import Foundation
import Testing

/// Turning contracts on in a codebase that still breaks them: a baseline of
/// known violations, per-contract ignored edges, and a warn level.
@Suite("Adoption: baseline, ignores, warn level")
struct AdoptionTests {
    @Test("--update-baseline writes the known violations; with --baseline they pass and a new one still fails")
    func baseline() async throws {
        let tree = try ScratchTree(copying: "single-package")
        defer { tree.remove() }
        let baseline = tree.root + "/arch-check-baseline.json"
        let written = try await runArchCheck(["--root", tree.root, "--update-baseline", baseline])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(FileManager.default.fileExists(atPath: baseline))
        #expect(
            written.standardError.contains("wrote 5 entries (5 violations) to the baseline"), "\(written.standardError)"
        )

        let known = try await runArchCheck(["--root", tree.root, "--baseline", baseline])
        #expect(known.status == 0, "\(known.standardOutput)\n\(known.standardError)")
        #expect(known.outputLines.last == "arch-check: 6 contracts, 6 kept, 0 broken (0 violations, 5 known)")
        #expect(known.outputLines.filter { $0.contains(": note: [") && $0.contains("(in the baseline)") }.count == 5)

        // A new violation: NetHTTP now imports a feature, which Layers forbids.
        try tree.write("import NetCore\nimport SearchFeature\n", to: "Sources/NetHTTP/HTTP.swift")
        let new = try await runArchCheck(["--root", tree.root, "--baseline", baseline])
        #expect(new.status == 1)
        let errors = new.outputLines.filter { $0.contains(": error: ") }
        #expect(errors.count == 2, "\(new.standardOutput)")
        #expect(errors.allSatisfy { $0.hasPrefix("Sources/NetHTTP/HTTP.swift:2:8: error: ") })
    }

    @Test("a baseline entry that no longer matches is reported as stale; --strict-baseline fails on it")
    func staleBaseline() async throws {
        let tree = try ScratchTree(copying: "single-package")
        defer { tree.remove() }
        let baseline = tree.root + "/baseline.json"
        _ = try await runArchCheck(["--root", tree.root, "--update-baseline", baseline])
        // NetCore no longer imports NetPosix: the three entries for that import are stale.
        try tree.write("import CAtomics\n\npublic struct Buffer {}\n", to: "Sources/NetCore/Core.swift")
        let lenient = try await runArchCheck(["--root", tree.root, "--baseline", baseline])
        #expect(lenient.status == 0, "\(lenient.standardOutput)")
        #expect(lenient.standardError.contains("stale baseline entry"), "\(lenient.standardError)")
        #expect(lenient.standardError.contains("[Layers] NetCore -> NetPosix in Sources/NetCore/Core.swift"))
        let strict = try await runArchCheck(["--root", tree.root, "--baseline", baseline, "--strict-baseline"])
        #expect(strict.status == 1)
        #expect(
            strict.outputLines.contains { $0.contains(": error: [Layers] stale baseline entry") },
            "\(strict.standardOutput)")
    }

    @Test("a file that is no baseline, and --strict-baseline without --baseline, are usage errors (exit 2)")
    func badBaseline() async throws {
        let tree = try ScratchTree()
        defer { tree.remove() }
        try tree.write(#"{"violations": "none"}"#, to: "baseline.json")
        let root = TestPaths.fixture("single-package")
        let bad = try await runArchCheck(["--root", root, "--baseline", tree.root + "/baseline.json"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("is not an arch-check baseline"), "\(bad.standardError)")
        let missing = try await runArchCheck(["--root", root, "--baseline", tree.root + "/none.json"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("write it with --update-baseline"), "\(missing.standardError)")
        let strict = try await runArchCheck(["--root", root, "--strict-baseline"])
        #expect(strict.status == 2)
        #expect(strict.standardError.contains("--strict-baseline needs --baseline FILE"))
    }

    @Test("per-contract ignore edges with a reason keep the contract; a stale ignore is reported")
    func ignores() async throws {
        let tree = try ScratchTree(copying: "single-package")
        defer { tree.remove() }
        try tree.write(
            #"""
            {"contracts": [
              {"name": "Layers", "type": "layers", "layers": ["net-demo", "*Feature", ["NetHTTP", "NetPosix"], "NetCore", "C*"],
               "ignore": [{"from": "NetCore", "to": "NetPosix", "reason": "moved out in the next release"},
                          {"from": "NetCore", "to": "NetHTTP"}]},
              {"name": "Fakes for tests", "type": "testing-only", "targets": ["*Testing"], "level": "warn"}
            ]}
            """#, to: ".arch-check.json")
        let run = try await runArchCheck(["--root", tree.root])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        #expect(run.outputLines.last == "arch-check: 2 contracts, 1 kept, 0 broken (0 violations, 1 warning)")
        #expect(run.outputLines.first?.hasPrefix("Sources/net-demo/main.swift:3:8: warning: [Fakes for tests]") == true)
        #expect(run.standardError.contains("stale ignore in contract \"Layers\": NetCore -> NetHTTP"))
        #expect(run.standardError.contains("Layers KEPT (1 ignored: moved out in the next release)"))
        #expect(run.standardError.contains("Fakes for tests WARNED (1 violation)"))
    }
}
