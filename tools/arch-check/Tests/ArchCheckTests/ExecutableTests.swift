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
        let run = try await runArchCheck(expected.configArguments, currentDirectory: TestPaths.fixture(expected.name))
        #expect(run.status == expected.exitCode, "stderr: \(run.standardError)")
        let lines = run.outputLines
        #expect(lines.last == expected.summaryLine)
        let diagnostics = lines.dropLast()
        #expect(diagnostics.count == expected.violations.count)
        for (line, violation) in zip(diagnostics, expected.violations) {
            #expect(line.hasPrefix("\(violation.location): error: [\(violation.contract)] "), "\(line)")
        }
        // import-linter style overview on stderr, one line per contract.
        for contract in expected.brokenContracts {
            #expect(run.standardError.contains("\n\(contract) BROKEN"), "\(contract)")
        }
        #expect(
            run.standardError.components(separatedBy: " KEPT\n").count - 1 == expected.contractCount
                - expected.brokenContracts.count)
        if expected.name == "independence" {
            // The hand check (the `independence` fixture), word for word as
            // tools/arch-check/README.md ("Output") shows it.
            #expect(
                lines == [
                    "Modules/Uploads/Sources/Uploads/Uploader.swift:3:8: error: [independence] Uploads imports Messages; depend on MessagesInterface instead; modules meet through Interfaces/ and share building blocks from Support/ (declared in Modules/Uploads/Package.swift:11:44)",
                    "arch-check: 7 contracts, 6 kept, 1 broken (1 violation)",
                ])
        }
    }

    @Test("--root and --json: one JSON object with contracts and summary")
    func json() async throws {
        let run = try await runArchCheck(
            [
                "--json", "--root", TestPaths.fixture("testing-only"), "--config",
                TestPaths.fixture("sharekit-rules.json"),
            ])
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
        let run = try await runArchCheck(
            ["--root", TestPaths.fixture("broken-manifest"), "--config", TestPaths.fixture("sharekit-rules.json")])
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

    @Test("--format github prints one workflow command per violation, escaped")
    func github() async throws {
        let run = try await runArchCheck(["--format", "github", "--root", TestPaths.fixture("single-package")])
        #expect(run.status == 1)
        #expect(
            run.outputLines.first
                == "::error file=Package.swift,line=14,col=67::[Features apart] SearchFeature depends on ProfileFeature, but SearchFeature and ProfileFeature must stay independent of each other; share code through NetHTTP"
        )
        #expect(run.outputLines.count == 6)
        #expect(run.outputLines.last == "arch-check: 6 contracts, 1 kept, 5 broken (5 violations)")
        #expect(ReportRenderer.escapeData("50%\nnext") == "50%25%0Anext")
        #expect(ReportRenderer.escapeProperty("a,b:c") == "a%2Cb%3Ac")
    }

    @Test("configuration errors exit 2 with a message naming the problem", arguments: ConfigurationErrorCase.all)
    func configurationErrors(_ error: ConfigurationErrorCase) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arch-check-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        try Data(error.json.utf8).write(to: file)
        let run = try await runArchCheck(["--root", TestPaths.fixture("single-package"), "--config", file.path])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("bad configuration \(file.path): \(error.message)"), "\(run.standardError)")
    }

    @Test("the cache: a second run dumps nothing and gives the same report; nothing is left in TMPDIR")
    func cache() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("arch-check-cache-\(UUID())")
        let cache = base.appendingPathComponent("cache").path
        let tmp = base.appendingPathComponent("tmp").path
        let log = base.appendingPathComponent("dumps.log").path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        // A swift that notes each run in a log, then runs the real one.
        let wrapper = base.appendingPathComponent("swift").path
        let script = "#!/bin/sh\necho run >> '\(log)'\nexec '\(try ManifestLoader.locateSwift())' \"$@\"\n"
        try writeExecutable(script, to: wrapper)
        func dumps() -> Int {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        let arguments = ["--root", TestPaths.fixture("monorepo"), "--cache-dir", cache, "--swift", wrapper]
        let cold = try await runArchCheck(arguments, environment: ["TMPDIR": tmp])
        #expect(cold.status == 1, "\(cold.standardError)")
        #expect(dumps() == 6)
        let warm = try await runArchCheck(arguments, environment: ["TMPDIR": tmp])
        #expect(warm.status == 1)
        #expect(dumps() == 6)
        #expect(warm.standardOutput == cold.standardOutput)
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(entries.count == 6)
        #expect(entries.allSatisfy { $0.hasSuffix(".json") }, "\(entries)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
        let uncached = try await runArchCheck(arguments + ["--no-cache"], environment: ["TMPDIR": tmp])
        #expect(uncached.standardOutput == cold.standardOutput)
        #expect(dumps() == 12)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }
}

/// Writes an executable script through a close-on-exec descriptor. A file
/// written with `Data.write` and then made executable can be inherited open
/// for writing by a process another test spawns meanwhile; running the
/// script then fails with "Text file busy" (ETXTBSY), and arch-check exits 2
/// without having started it once.
func writeExecutable(_ text: String, to path: String) throws {
    let bytes = Array(text.utf8)
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(fd) }
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
}

/// A configuration that is wrong, and the message arch-check must give.
struct ConfigurationErrorCase: Sendable, CustomTestStringConvertible {
    let json: String
    let message: String
    var testDescription: String { message }

    static let all: [ConfigurationErrorCase] = [
        .init(json: "{\"contracts\": [", message: "not valid JSON"),
        .init(
            json: #"{"contracts": [{"type": "layers", "layers": ["A", "B"]}]}"#, message: "contract 1 has no \"name\""),
        .init(
            json: #"{"contracts": [{"name": "x", "type": "layered"}]}"#,
            message: "contract \"x\" has unknown type \"layered\" (known: layers, forbidden, independence,"),
        .init(
            json:
                #"{"contracts": [{"name": "x", "type": "forbidden", "source": ["NetCore"], "forbidden": ["NoSuch*"]}]}"#,
            message: "contract \"x\": \"NoSuch*\" matches no target"),
        .init(
            json: #"{"contracts": [{"name": "x", "type": "independence", "targets": [{"paths": ["Nowhere/*"]}]}]}"#,
            message: "contract \"x\": the folder glob \"Nowhere/*\" matches the sources of no target"),
        .init(
            json: #"{"contracts": [{"name": "x", "type": "forbidden", "source": ["NetCore"]}]}"#,
            message: "contract \"x\" (forbidden) needs \"forbidden\""),
        .init(
            json: #"{"contracts": [{"name": "x", "type": "independence", "targets": ["NetCore"], "target": []}]}"#,
            message: "contract \"x\": unknown member \"target\" for type independence"),
        .init(
            json: #"{"contracts": [{"name": "x", "type": "c-shims"}, {"name": "x", "type": "c-shims"}]}"#,
            message: "two contracts are named \"x\""),
        .init(json: #"{"contract": []}"#, message: "unknown top-level key \"contract\""),
    ]
}
