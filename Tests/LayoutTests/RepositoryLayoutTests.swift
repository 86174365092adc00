import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The layout of the design card: every boundary is its own package and the
/// root vends all of their libraries, so `swift build` compiles every package.
@Suite("repository layout")
struct RepositoryLayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func packageDirectories(_ folder: String) -> [String] {
        let dir = root + "/" + folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: "\(dir)/\($0)/Package.swift") }.sorted()
    }

    @Test(
        "the boundaries docs/architecture.md names each have their own package",
        arguments: [
            "KeychainStore", "SharedState", "DPoP", "Uploads", "Messages", "TargetStore", "ShareInbox", "Sessions",
            "HTTPTransport", "Outbox", "ShareIntake", "PushPreview", "ImageConversion",
        ])
    func modulePackages(name: String) {
        #expect(FileManager.default.fileExists(atPath: "\(Self.root)/Modules/\(name)/Package.swift"))
    }

    /// The folders whose immediate subfolders are packages the root aggregates.
    static let packageFolders = ["Interfaces", "Modules", "Support"]

    @Test("the root package vends every library of the packages under Interfaces/, Modules/ and Support/")
    func rootVendsEverything() throws {
        let json = try Self.rootManifest()
        let products = Set((json["products"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect((json["dependencies"] as? [Any] ?? []).isEmpty, "the root reaches no package by path (docs/adr/0011)")
        let library = try NSRegularExpression(pattern: #"\.library\(name: "([A-Za-z0-9_]+)""#)
        for folder in Self.packageFolders {
            for name in Self.packageDirectories(folder) {
                let manifest = try String(
                    contentsOfFile: "\(Self.root)/\(folder)/\(name)/Package.swift", encoding: .utf8)
                let range = NSRange(manifest.startIndex..., in: manifest)
                for match in library.matches(in: manifest, range: range) {
                    let product = (manifest as NSString).substring(with: match.range(at: 1))
                    #expect(products.contains(product), "the root does not vend \(product) of \(folder)/\(name)")
                }
            }
        }
    }

    /// The root's dump-package JSON, read once for the suite's tests (about
    /// 3 s of SwiftPM each time).
    static func rootManifest() throws -> [String: Any] {
        let result = try dumpedRootManifest.get()
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// `swift package dump-package` of the root, in a scratch path of its
    /// own (the running `swift test` holds the lock on .build).
    private static let dumpedRootManifest = Result<ProcessResult, any Error> {
        let scratch = try TemporaryDirectory(prefix: "dump-package")
        defer { scratch.remove() }
        return try runProcess(
            "/usr/bin/env",
            ["swift", "package", "--scratch-path", scratch.path, "dump-package", "--package-path", Self.root])
    }

    /// CI builds the root once and runs every package's unit tests from that build (tools/test selects them
    /// with the filter `PackageTests\.`), so a package's tests that the root did not carry would silently
    /// never run.
    @Test("the root carries every test folder of the packages under Interfaces/, Modules/ and Support/")
    func rootCarriesPackageTests() throws {
        let targets = (try Self.rootManifest()["targets"] as? [[String: Any]]) ?? []
        let rootTests = Dictionary(
            targets.filter { $0["type"] as? String == "test" }.compactMap { target -> (String, String)? in
                guard let name = target["name"] as? String, let path = target["path"] as? String else { return nil }
                return (path, name)
            },
            uniquingKeysWith: { first, _ in first })
        var seen = 0
        for folder in Self.packageFolders {
            for name in Self.packageDirectories(folder) {
                let tests = "\(folder)/\(name)/Tests"
                let suites = (try? FileManager.default.contentsOfDirectory(atPath: "\(Self.root)/\(tests)")) ?? []
                for suite in suites.sorted() where Self.hasSwiftSources("\(Self.root)/\(tests)/\(suite)") {
                    seen += 1
                    let rootName = rootTests["\(tests)/\(suite)"]
                    #expect(rootName != nil, "the root has no test target for \(tests)/\(suite)")
                    if let rootName {
                        #expect(rootName.hasSuffix("PackageTests"), "\(rootName) escapes the filter PackageTests")
                    }
                }
            }
        }
        #expect(seen > 0, "no package test folder found under \(Self.packageFolders)")
    }

    @Test("Support/ holds the SecureFiles package (the support layer of docs/adr/0003)")
    func supportLayerExists() {
        #expect(Self.packageDirectories("Support").contains("SecureFiles"))
    }

    /// Whether any file under `directory` is Swift source.
    static func hasSwiftSources(_ directory: String) -> Bool {
        guard let files = FileManager.default.enumerator(atPath: directory) else { return false }
        return files.contains { ($0 as? String)?.hasSuffix(".swift") == true }
    }

    @Test("every package manifest with Swift sources enables the same upcoming features as the root")
    func sharedSettings() throws {
        let features = ["InternalImportsByDefault", "MemberImportVisibility", "ExistentialAny"]
        for folder in Self.packageFolders {
            for name in Self.packageDirectories(folder) {
                // A package of C targets only (a loader) has no Swift to set up.
                guard Self.hasSwiftSources("\(Self.root)/\(folder)/\(name)/Sources") else { continue }
                let manifest = try String(
                    contentsOfFile: "\(Self.root)/\(folder)/\(name)/Package.swift", encoding: .utf8)
                for feature in features {
                    #expect(manifest.contains("\"\(feature)\""), "\(folder)/\(name)/Package.swift lacks \(feature)")
                }
                #expect(manifest.contains("swiftLanguageModes: [.v6]"), "\(folder)/\(name) is not in Swift 6 mode")
            }
        }
    }
}
