import ArchCheckCore
import Foundation
import Testing

/// Remote dependencies: read from the resolved checkouts when they exist,
/// else a note that their imports were not checked.
@Suite("Remote packages")
struct RemotePackagesTests {
    @Test("with .build/checkouts and Package.resolved: remote products resolve, contracts name their modules")
    func resolvedCheckouts() async throws {
        let run = try await runArchCheck(["--root", TestPaths.fixture("remote-packages")])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(
            run.outputLines == [
                "Sources/App/main.swift:2:8: error: [Imports are declared] App imports WidgetsCore, which is not a direct dependency of App (a transitive one does not count); add .product(name: \"WidgetsCore\", package: \"swift-widgets\") to the dependencies of App in Package.swift",
                "Sources/App/main.swift:3:8: error: [No gadgets in the app] App imports Gadgets, which App must not use (declared in Package.swift:17:33)",
                "arch-check: 2 contracts, 0 kept, 2 broken (2 violations)",
            ], "\(run.standardOutput)")
        #expect(!run.standardError.contains("not checked"), "\(run.standardError)")
    }

    @Test("without checkouts: a note says remote imports were not checked; platform modules are never unknown")
    func unresolved() async throws {
        let run = try await runArchCheck(["--root", TestPaths.fixture("remote-unresolved")])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(
            run.standardError.contains(
                "remote dependencies are not resolved (no .build/checkouts): imports of WidgetsCore were not checked"),
            "\(run.standardError)")
        #expect(!run.standardOutput.contains("CRT"))
        #expect(!run.standardOutput.contains("WASILibc"))
    }

    @Test("every platform's toolchain modules are known")
    func platformModules() {
        for module in ["CRT", "WASILibc", "ucrt", "WinSDK", "Android", "Bionic", "SwiftUI", "Cxx", "_Differentiation"] {
            #expect(ModuleName.isToolchain(module), "\(module)")
        }
        #expect(!ModuleName.isToolchain("NIOCore"))
    }
}

/// Declared dependencies that no source of the target imports.
@Suite("unused-dependencies")
struct UnusedDependenciesTests {
    @Test("an unused dependency is reported at its manifest line; macros, programs, re-exporters and C targets are not")
    func unused() async throws {
        let run = try await runArchCheck(["--root", TestPaths.fixture("unused-dependencies")])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(
            run.outputLines == [
                "Package.swift:23:18: error: [No unused dependencies] App depends on Unused, but no source of App imports it; remove \"Unused\" from the dependencies of App in Package.swift",
                "arch-check: 1 contracts, 0 kept, 1 broken (1 violation)",
            ], "\(run.standardOutput)")
    }
}
