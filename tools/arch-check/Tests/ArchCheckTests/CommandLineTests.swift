import ArchCheckCore
import Foundation
import Synchronization
import Testing

/// Option parsing and the in-process command (usage errors cost no dump).
@Suite("Command line")
struct CommandLineTests {
    @Test("options parse in both --name value and --name=value forms")
    func parse() throws {
        let options = try CommandLineOptions.parse(["--root", "/r", "--json", "--swift=/s/swift", "--jobs", "3"])
        #expect(options.root == "/r")
        #expect(options.format == .json)
        #expect(options.configPath == "/r/.arch-check.json")
        let more = try CommandLineOptions.parse([
            "--config=c.json", "--format", "github", "--no-cache", "--list-targets",
        ])
        #expect(more.configPath == "c.json")
        #expect(more.format == .github)
        #expect(more.noCache && more.listTargets)
        #expect(options.swiftExecutable == "/s/swift")
        #expect(options.jobs == 3)
        #expect(try CommandLineOptions.parse([]).root == ".")
        #expect(try CommandLineOptions.parse(["-h"]).help)
    }

    @Test(
        "bad arguments are usage errors",
        arguments: [["--bogus"], ["--root"], ["--jobs", "0"], ["stray"], ["--format", "xml"], ["--config"]])
    func usageErrors(_ arguments: [String]) {
        #expect(throws: ArchCheckError.self) { try CommandLineOptions.parse(arguments) }
    }

    /// Collects what the command writes.
    final class Capture: Sendable {
        let output = Mutex("")
        let error = Mutex("")
        var sink: ArchCheckCommand.Output {
            ArchCheckCommand.Output(
                standardOutput: { text in self.output.withLock { $0 += text } },
                standardError: { text in self.error.withLock { $0 += text } })
        }
    }

    @Test("a usage error exits 2 and says what was wrong")
    func usageExit() async {
        let capture = Capture()
        let status = await ArchCheckCommand.run(arguments: ["--frobnicate"], output: capture.sink)
        #expect(status == 2)
        #expect(
            capture.error.withLock { $0 }
                == "arch-check: error: usage error: unknown argument --frobnicate (see arch-check --help)\n")
        #expect(capture.output.withLock { $0 }.isEmpty)
    }

    @Test("a root without Package.swift exits 2")
    func missingRoot() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("arch-check-empty-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let capture = Capture()
        try Data(#"{"contracts": []}"#.utf8).write(to: empty.appendingPathComponent(".arch-check.json"))
        let status = await ArchCheckCommand.run(arguments: ["--root", empty.path], output: capture.sink)
        #expect(status == 2)
        #expect(capture.error.withLock { $0 }.contains("no Package.swift in or under"))
    }

    @Test("a root without a configuration exits 2 and names the file")
    func missingConfiguration() async throws {
        let capture = Capture()
        let root = TestPaths.fixture("clean")
        let status = await ArchCheckCommand.run(arguments: ["--root", root], output: capture.sink)
        #expect(status == 2)
        #expect(capture.error.withLock { $0 }.contains("bad configuration \(root)/.arch-check.json: no such file"))
    }

    @Test("--help lists every contract type and the exit statuses, and exits 0")
    func help() async {
        let capture = Capture()
        let status = await ArchCheckCommand.run(arguments: ["--help"], output: capture.sink)
        #expect(status == 0)
        let text = capture.output.withLock { $0 }
        for type in ContractDefinition.types {
            #expect(text.contains("  \(type.type) "))
        }
        #expect(
            text.contains(
                "EXIT STATUS: 0 no violation fails (warnings and baseline entries do not), 1 violations found,\n2 bad configuration, usage or tool error."
            ))
    }

    @Test("swift is found through ARCH_CHECK_SWIFT, then PATH")
    func locateSwift() throws {
        #expect(try ManifestLoader.locateSwift(environment: ["ARCH_CHECK_SWIFT": "/custom/swift"]) == "/custom/swift")
        #expect(throws: ArchCheckError.swiftNotFound) {
            try ManifestLoader.locateSwift(environment: ["PATH": "/nonexistent"])
        }
    }
}
