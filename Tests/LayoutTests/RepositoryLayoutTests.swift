import Foundation
import SystemTesting
import TestSupport
import Testing

/// The layout of the design card: every boundary is its own package and the
/// root aggregates all of them, so `swift build` compiles every package.
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
            "HTTPTransport", "Outbox", "ShareIntake", "PushPreview",
        ])
    func modulePackages(name: String) {
        #expect(FileManager.default.fileExists(atPath: "\(Self.root)/Modules/\(name)/Package.swift"))
    }

    /// The folders whose immediate subfolders are packages the root aggregates.
    static let packageFolders = ["Interfaces", "Modules", "Support"]

    @Test("the root package aggregates every package under Interfaces/, Modules/ and Support/ by path")
    func rootAggregatesEverything() throws {
        // A scratch path of its own: the running `swift test` holds the lock on .build.
        let scratch = try TemporaryDirectory(prefix: "dump-package")
        defer { scratch.remove() }
        let result = try runProcess(
            "/usr/bin/env",
            ["swift", "package", "--scratch-path", scratch.path, "dump-package", "--package-path", Self.root])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let deps = json["dependencies"] as? [[String: Any]] ?? []
        let paths = Set(
            deps.compactMap { dep -> String? in
                guard let fs = (dep["fileSystem"] as? [[String: Any]])?.first, let path = fs["path"] as? String else {
                    return nil
                }
                return URL(fileURLWithPath: path).standardizedFileURL.path
            })
        for folder in Self.packageFolders {
            for name in Self.packageDirectories(folder) {
                let path = URL(fileURLWithPath: "\(Self.root)/\(folder)/\(name)").standardizedFileURL.path
                #expect(paths.contains(path), "root Package.swift does not aggregate \(folder)/\(name)")
            }
        }
    }

    @Test("Support/ holds the SecureFiles package (the support layer of docs/adr/0003)")
    func supportLayerExists() {
        #expect(Self.packageDirectories("Support").contains("SecureFiles"))
    }

    @Test("every package manifest enables the same upcoming features as the root")
    func sharedSettings() throws {
        let features = ["InternalImportsByDefault", "MemberImportVisibility", "ExistentialAny"]
        for folder in Self.packageFolders {
            for name in Self.packageDirectories(folder) {
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
