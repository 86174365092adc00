import ArchCheckCore
import Foundation
import Testing

/// What a CI user meets around the contracts: the version, a manifest that
/// hangs, several configuration mistakes at once, a wrong `--root`, a rule
/// that matches nothing, and SARIF output for code scanning.
@Suite("Command line: version, timeouts, errors, SARIF")
struct CommandLineRobustnessTests {
    @Test("--version prints the version and exits 0")
    func version() async throws {
        let run = try await runArchCheck(["--version"])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("arch-check 1."), "\(run.standardOutput)\(run.standardError)")
        #expect(run.outputLines.count == 1)
    }

    @Test("a missing --root is said as such, not as a missing configuration")
    func missingRoot() async throws {
        let run = try await runArchCheck(["--root", "/nonexistent/arch-check-root"])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains("--root /nonexistent/arch-check-root: no such folder"), "\(run.standardError)")
        #expect(!run.standardError.contains("configuration"))
    }

    @Test("every configuration error at once, with the nearest target name suggested")
    func allConfigurationErrors() async throws {
        let tree = try ScratchTree()
        defer { tree.remove() }
        try tree.write(
            #"""
            {"contracts": [
              {"name": "a", "type": "forbidden", "source": ["NetCroe"], "forbidden": ["NetPosix"]},
              {"name": "b", "type": "layered"},
              {"name": "c", "type": "independence", "targets": ["SerchFeature", "ProfileFeature"]}
            ]}
            """#, to: "config.json")
        let run = try await runArchCheck(
            ["--root", TestPaths.fixture("single-package"), "--config", tree.root + "/config.json"])
        #expect(run.status == 2)
        let text = run.standardError
        #expect(text.contains("contract \"a\": \"NetCroe\" matches no target (did you mean NetCore?"), "\(text)")
        #expect(text.contains("contract \"b\" has unknown type \"layered\""), "\(text)")
        #expect(text.contains("contract \"c\": \"SerchFeature\" matches no target (did you mean SearchFeature?"))
        #expect(text.contains("3 configuration errors"), "\(text)")
    }

    @Test("allowUnmatched: a contract that matches nothing says so on stderr")
    func allowUnmatchedNote() async throws {
        let tree = try ScratchTree()
        defer { tree.remove() }
        try tree.write(
            #"""
            {"contracts": [{"name": "future", "type": "forbidden", "source": ["Later*"], "forbidden": ["NetPosix"],
                            "allowUnmatched": true}]}
            """#, to: "config.json")
        let run = try await runArchCheck(
            ["--root", TestPaths.fixture("single-package"), "--config", tree.root + "/config.json"])
        #expect(run.status == 0)
        #expect(
            run.standardError.contains("contract \"future\" (allowUnmatched): \"Later*\" matches no target"),
            "\(run.standardError)")
    }

    @Test("--manifest-timeout: a hanging dump-package is stopped with its children, its folders removed, exit 2")
    func manifestTimeout() async throws {
        let tree = try ScratchTree()
        defer { tree.remove() }
        try tree.write("// swift-tools-version:6.0\n", to: "pkg/Package.swift")
        try tree.write(#"{"contracts": []}"#, to: "pkg/.arch-check.json")
        // A swift that starts a child which never ends, in a session (and so a
        // process group) of its own as SwiftPM runs a compiled manifest,
        // records its process id, and waits.
        let pidFile = tree.root + "/child.pid"
        try writeExecutable(
            "#!/bin/sh\nsetsid sleep 300 &\necho $! > '\(pidFile)'\nwait\n", to: tree.root + "/swift")
        let cache = tree.root + "/cache"
        let started = Date()
        let run = try await runArchCheck([
            "--root", tree.root + "/pkg", "--swift", tree.root + "/swift", "--cache-dir", cache,
            "--manifest-timeout", "1",
        ])
        // Not held up by the child (which would keep the output pipes open
        // for its 300 s): the bound is generous, the child's life is not.
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(run.status == 2)
        #expect(
            run.standardError.contains("dump-package for Package.swift did not finish within 1 s"),
            "\(run.standardError)")
        let pid = try #require(
            Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isRunning(pid), "the child \(pid) is still running")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: cache))?.isEmpty ?? true)
        let bad = try await runArchCheck(["--manifest-timeout", "0"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--manifest-timeout needs a number of seconds above 0"))
    }

    @Test("--format sarif: valid SARIF 2.1.0 with one result per violation and a rule per contract")
    func sarif() async throws {
        let run = try await runArchCheck(["--format", "sarif", "--root", TestPaths.fixture("single-package")])
        #expect(run.status == 1)
        let tree = try ScratchTree()
        defer { tree.remove() }
        try tree.write(run.standardOutput, to: "report.sarif")
        let validation = try runPython(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft4Validator(schema).validate(json.load(open(sys.argv[2])))
            print("valid")
            """, arguments: [TestPaths.fixture("sarif/sarif-schema-2.1.0.json"), tree.root + "/report.sarif"])
        #expect(validation == "valid\n")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let sarifRun = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(sarifRun["results"] as? [[String: Any]])
        #expect(results.count == 5)
        let rules = (sarifRun["tool"] as? [String: Any]).flatMap {
            ($0["driver"] as? [String: Any])?["rules"] as? [Any]
        }
        #expect(rules?.count == 6)
        let first = try #require(results.first)
        #expect(first["ruleId"] as? String == "features-apart")
        #expect(first["level"] as? String == "error")
    }
}

/// Whether a process is alive: it exists and is not a zombie (a killed
/// child whose new parent, a container's first process, may never reap it).
func isRunning(_ pid: Int32) -> Bool {
    #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    #else
        return kill(pid, 0) == 0
    #endif
}

/// Runs a Python program and returns its standard output; throws when it
/// fails (the message carries its standard error).
func runPython(_ program: String, arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", program] + arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw PythonFailed(message: String(decoding: error, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
}

/// A Python helper exited non-zero.
struct PythonFailed: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
