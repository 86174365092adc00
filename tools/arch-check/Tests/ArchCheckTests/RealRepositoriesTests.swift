import ArchCheckCore
import Foundation
import Testing

/// Three public repositories, trimmed to their manifests and import lines
/// (`Tests/Fixtures/real`), with hand-made `.build/checkouts` and
/// `Package.resolved` standing in for their remote dependencies, each with
/// contracts written for it. The expected numbers were cross-checked with
/// an independent import scan (no difference in either direction).
@Suite("Real repositories, trimmed")
struct RealRepositoriesTests {
    /// What one repository's run must show.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let name: String
        /// Per contract: status and number of violations.
        let contracts: [String: (status: String, count: Int)]
        /// `from -> to` of every unused dependency found.
        let unused: Set<String>
        var testDescription: String { name }
    }

    static let expectations: [Expectation] = [
        Expectation(
            name: "swift-composable-architecture",
            contracts: [
                "Library below tests, examples and benchmarks": ("kept", 0), "Imports are declared": ("broken", 63),
                "No unused dependencies": ("broken", 2), "No re-exports": ("warned", 13),
            ],
            unused: ["AppCore -> AuthenticationClient", "ComposableArchitectureTests -> IssueReportingTestSupport"]),
        Expectation(
            name: "vapor",
            contracts: [
                "Layers": ("kept", 0), "Vapor does not use NIOSSL": ("kept", 0),
                "Imports are declared": ("broken", 149),
                "No unused dependencies": ("broken", 6), "No re-exports": ("kept", 0),
            ],
            unused: [
                "Vapor -> ConsoleLogger", "Vapor -> Atomics", "Vapor -> NIOWebSocket", "Vapor -> SwiftASN1",
                "VaporTesting -> InMemoryLogging", "VaporTests -> NIOTestUtils",
            ]),
        Expectation(
            name: "swift-syntax",
            contracts: [
                "Layers": ("kept", 0), "Imports are declared": ("broken", 201), "No unused dependencies": ("broken", 6),
                "No re-exports": ("kept", 0),
            ],
            unused: [
                "_SwiftSyntaxTestSupport -> SwiftSyntaxMacroExpansion", "SwiftWarningControl -> SwiftParser",
                "SwiftSyntaxMacros -> SwiftParser", "SwiftWarningControlTest -> SwiftSyntaxMacrosGenericTestSupport",
                "SwiftSyntaxMacroExpansionTest -> SwiftOperators", "SwiftParserTest -> SwiftOperators",
            ]),
    ]

    @Test(
        "contracts, counts and unused dependencies; nothing from .docc catalogs or resources; remote imports checked",
        arguments: expectations)
    func repository(_ expected: Expectation) async throws {
        let result = try await CheckerRuns.shared.result(root: TestPaths.fixture("real/\(expected.name)"))
        var seen: [String: (status: String, count: Int)] = [:]
        for contract in result.contracts {
            seen[contract.name] = (contract.status, contract.violations.count)
        }
        for (name, want) in expected.contracts {
            #expect(seen[name]?.status == want.status, "\(name)")
            #expect(seen[name]?.count == want.count, "\(name)")
        }
        #expect(!result.violations.contains { $0.location.file.contains(".docc/") })
        #expect(!result.notes.contains { $0.contains("not checked") }, "\(result.notes)")
        let unused = Set(
            result.contracts.first { $0.name == "No unused dependencies" }?.violations.map { "\($0.from) -> \($0.to)" }
                ?? [])
        #expect(unused == expected.unused)
    }

    @Test("swift-syntax: the committed baseline makes every contract pass")
    func baselinePasses() async throws {
        let root = TestPaths.fixture("real/swift-syntax")
        let run = try await runArchCheck(["--root", root, "--baseline", root + "/arch-check-baseline.json"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.outputLines.last == "arch-check: 4 contracts, 4 kept, 0 broken (0 violations, 207 known)")
        #expect(!run.standardError.contains("stale"))
    }

    @Test("swift-syntax with the baseline: six injected violations (each kind of use) are caught, nothing else")
    func injectedViolations() async throws {
        let tree = try ScratchTree(copying: "real/swift-syntax")
        defer { tree.remove() }
        // SwiftSyntax is the lowest layer; SwiftParser sits above it.
        try tree.write("import SwiftParser\n", to: "Sources/SwiftSyntax/InjectedPlain.swift")
        try tree.write("@testable import SwiftParser\n", to: "Sources/SwiftSyntax/InjectedTestable.swift")
        try tree.write("@_exported import SwiftParser\n", to: "Sources/SwiftSyntax/InjectedExported.swift")
        try tree.write(
            "#if canImport(SwiftParser)\nimport SwiftParser\n#endif\n",
            to: "Sources/SwiftSyntax/InjectedConditional.swift")
        try tree.write("import struct SwiftParser.Parser\n", to: "Sources/SwiftSyntax/InjectedScoped.swift")
        // Manifest only: SwiftDiagnostics declares SwiftParser and never imports it.
        let manifest = tree.root + "/Package.swift"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        let declared = #"name: "SwiftDiagnostics",\#n      dependencies: ["SwiftSyntax"],"#
        #expect(text.contains(declared))
        try tree.write(
            text.replacingOccurrences(
                of: declared, with: #"name: "SwiftDiagnostics",\#n      dependencies: ["SwiftSyntax", "SwiftParser"],"#),
            to: "Package.swift")
        let run = try await runArchCheck([
            "--root", tree.root, "--baseline", TestPaths.fixture("real/swift-syntax/arch-check-baseline.json"),
        ])
        #expect(run.status == 1)
        let errors = run.outputLines.filter { $0.contains(": error: ") }
        for place in [
            "Sources/SwiftSyntax/InjectedPlain.swift:1:8", "Sources/SwiftSyntax/InjectedTestable.swift:1:18",
            "Sources/SwiftSyntax/InjectedExported.swift:1:19", "Sources/SwiftSyntax/InjectedConditional.swift:2:8",
            "Sources/SwiftSyntax/InjectedScoped.swift:1:15", "Package.swift:144:38",
        ] {
            #expect(errors.contains { $0.hasPrefix("\(place): error: [Layers] ") }, "\(place)\n\(run.standardOutput)")
        }
        let injected = errors.filter { $0.contains("Injected") || $0.hasPrefix("Package.swift:144:") }
        #expect(injected.count == errors.count, "\(errors)")
    }
}

/// arch-check's `explicit-imports` findings on the trimmed repositories
/// against an independent scan (`scripts/independent-scan.py`: a regular
/// expression over the files SwiftPM compiles and `dump-package`'s
/// dependencies, no code shared with arch-check): the same imports, none
/// more and none fewer.
@Suite("Real repositories against an independent import scan")
struct IndependentScanTests {
    @Test("the same undeclared imports as the independent scan", arguments: ["vapor", "swift-syntax"])
    func sameFindings(_ name: String) async throws {
        let tree = try ScratchTree()
        defer { tree.remove() }
        try tree.write(ModuleName.toolchain.sorted().joined(separator: "\n") + "\n", to: "toolchain.txt")
        try tree.write(
            #"{"contracts": [{"name": "imports", "type": "explicit-imports", "reportUnknown": true}]}"#,
            to: "imports.json")
        let root = TestPaths.fixture("real/\(name)")
        let result = try await CheckerRuns.shared.result(root: root, config: tree.root + "/imports.json")
        let found = Set(result.violations.map { "\($0.location.file):\($0.location.line) \($0.to)" })
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/independent-scan.py").path
        let scanned = try runPython(
            """
            import os, runpy, sys
            sys.argv = sys.argv[1:]
            sys.path.insert(0, os.path.dirname(sys.argv[0]))
            runpy.run_path(sys.argv[0], run_name="__main__")
            """, arguments: [script, root, tree.root + "/toolchain.txt"])
        let independent = Set(
            scanned.split(separator: "\n").compactMap { line -> String? in
                guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], entry.count == 3
                else { return nil }
                return "\(entry[0]):\(entry[1]) \(entry[2])"
            })
        #expect(!found.isEmpty)
        #expect(found.subtracting(independent).isEmpty, "only arch-check: \(found.subtracting(independent).sorted())")
        #expect(independent.subtracting(found).isEmpty, "only the scan: \(independent.subtracting(found).sorted())")
    }
}
