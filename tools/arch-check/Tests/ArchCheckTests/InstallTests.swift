import Foundation
import Testing

/// Running arch-check in CI without building it each time: `install.sh`
/// builds once and skips an unchanged build; the composite action in
/// `action.yml` takes the inputs the README's workflow passes.
@Suite("CI install and action")
struct InstallTests {
    @Test("install.sh installs the built binary, then builds nothing while the sources are unchanged")
    func installOnce() async throws {
        let tree = try ScratchTree()
        defer { tree.remove() }
        // A swift that records each call and "builds" a stand-in binary.
        let log = tree.root + "/swift.log"
        let binPath = tree.root + "/built"
        try tree.write("#!/bin/sh\necho arch-check 9.9.9\n", to: "built/arch-check")
        chmod(binPath + "/arch-check", 0o755)
        try writeExecutable(
            "#!/bin/sh\necho \"$*\" >> '\(log)'\ncase \"$*\" in *--show-bin-path*) echo '\(binPath)';; esac\n",
            to: tree.root + "/swift")
        let script = TestPaths.packageRoot.appendingPathComponent("install.sh").path
        let environment = ["PATH": tree.root + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        let first = try runShell(script, arguments: [tree.root + "/prefix"], environment: environment)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("installed \(tree.root)/prefix/bin/arch-check (arch-check 9.9.9)"))
        #expect(FileManager.default.isExecutableFile(atPath: tree.root + "/prefix/bin/arch-check"))
        let builds = try String(contentsOfFile: log, encoding: .utf8)
        #expect(builds.contains("build -c release"), "\(builds)")
        let second = try runShell(script, arguments: [tree.root + "/prefix"], environment: environment)
        #expect(second.status == 0)
        #expect(second.output.contains("is up to date"), "\(second.output)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == builds, "the second run called swift")
    }

    @Test("action.yml: a composite action that installs with install.sh and takes the README workflow's inputs")
    func action() throws {
        let action = TestPaths.packageRoot.appendingPathComponent("action.yml").path
        let readme = TestPaths.packageRoot.appendingPathComponent("README.md").path
        let output = try runPython(
            """
            import sys, yaml, re
            action = yaml.safe_load(open(sys.argv[1]))
            assert action["runs"]["using"] == "composite", action["runs"]
            text = open(sys.argv[2]).read()
            block = re.search(r"```yaml\\n(name: architecture.*?)```", text, re.S).group(1)
            workflow = yaml.safe_load(block)
            steps = workflow["jobs"]["arch-check"]["steps"]
            used = [s for s in steps if s.get("uses") == "./tools/arch-check"][0]
            unknown = set(used.get("with", {})) - set(action["inputs"])
            assert not unknown, unknown
            runs = " ".join(s.get("run", "") for s in action["runs"]["steps"])
            assert "install.sh" in runs and "arch-check" in runs
            print("ok")
            """, arguments: [action, readme])
        #expect(output == "ok\n")
    }
}

/// Runs a shell script and returns its exit status and combined output.
private func runShell(_ script: String, arguments: [String], environment: [String: String]) throws -> (
    status: Int32, output: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [script] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
