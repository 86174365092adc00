import ArchCheckCore
import Foundation
import Testing

/// Reading `dump-package` JSON, finding names in manifest text, reading
/// module maps.
@Suite("Manifests")
struct ManifestTests {
    /// The shape `swift package dump-package` prints (Swift 6.x), trimmed.
    static let dump = """
        {
          "name": "Uploads",
          "dependencies": [
            {"fileSystem": [{"identity": "uploadsinterface", "path": "/repo/Interfaces/UploadsInterface",
                             "productFilter": null, "traits": [{"name": "default"}]}]},
            {"fileSystem": [{"identity": "b", "nameForTargetDependencyResolutionOnly": "BB", "path": "/repo/B"}]}
          ],
          "products": [{"name": "Uploads", "targets": ["Uploads"], "type": {"library": ["automatic"]}, "settings": []}],
          "targets": [
            {"name": "CCurl", "type": "system", "pkgConfig": "libcurl", "dependencies": [], "exclude": [],
             "providers": [{"apt": [["libcurl4-openssl-dev"]]}]},
            {"name": "Uploads", "type": "regular", "path": "Sources/Uploads", "exclude": ["Docs.docc"],
             "dependencies": [
               {"byName": ["CCurl", null]},
               {"target": ["CCurl", null]},
               {"product": ["UploadsInterface", "UploadsInterface", null, null]},
               {"product": ["Linux", "BB", null, {"platformNames": ["linux"]}]}
             ]},
            {"name": "UploadsTests", "type": "test", "dependencies": [{"byName": ["Uploads", null]}], "exclude": []}
          ]
        }
        """

    @Test("dump-package JSON decodes into targets, products and package references")
    func decode() throws {
        let manifest = try PackageManifest.decode(json: Data(Self.dump.utf8), directory: "/repo/Modules/Uploads")
        #expect(manifest.name == "Uploads")
        #expect(manifest.dependencies.map(\.identity) == ["uploadsinterface", "b"])
        #expect(manifest.dependencies[0].path == "/repo/Interfaces/UploadsInterface")
        #expect(manifest.dependencies[1].nameAlias == "BB")
        #expect(manifest.products == [ProductDeclaration(name: "Uploads", targets: ["Uploads"])])
        #expect(manifest.targets.map(\.type) == [.system, .regular, .test])
        #expect(manifest.targets[0].pkgConfig == "libcurl")
        #expect(manifest.targets[0].relativeSourceDirectory == "Sources/CCurl")
        #expect(manifest.targets[1].exclude == ["Docs.docc"])
        #expect(
            manifest.targets[1].dependencies == [
                .byName("CCurl"), .target("CCurl"), .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "Linux", package: "BB"),
            ])
        #expect(manifest.targets[2].relativeSourceDirectory == "Tests/UploadsTests")
    }

    @Test("malformed dump output is an invalid-dump error")
    func malformed() {
        #expect(throws: ArchCheckError.self) {
            try PackageManifest.decode(json: Data("not json".utf8), directory: "/x")
        }
        #expect(throws: ArchCheckError.self) {
            try PackageManifest.decode(json: Data(#"{"targets": []}"#.utf8), directory: "/x")
        }
    }

    @Test("the locator finds a dependency inside its target's declaration, not in comments or other targets")
    func locator() {
        let text = """
            // swift-tools-version:6.0
            // "Messages" is mentioned here only in a comment.
            import PackageDescription

            let package = Package(
                name: "Uploads",
                products: [.library(name: "Uploads", targets: ["Uploads"])],
                targets: [
                    .target(name: "Other", dependencies: ["Messages"]),
                    .target(
                        name: "Uploads",
                        dependencies: [.product(name: "Messages", package: "Messages")]
                    ),
                ]
            )
            """
        let locator = ManifestLocator(file: "Modules/Uploads/Package.swift", text: text)
        #expect(locator.location(ofTarget: "Uploads").description == "Modules/Uploads/Package.swift:11:20")
        #expect(
            locator.location(ofDependency: "Messages", inTarget: "Uploads").description
                == "Modules/Uploads/Package.swift:12:44")
        #expect(
            locator.location(ofDependency: "Messages", inTarget: "Other").description
                == "Modules/Uploads/Package.swift:9:48")
        // Not written anywhere: fall back to 1:1.
        #expect(
            locator.location(ofDependency: "Nowhere", inTarget: "Uploads").description
                == "Modules/Uploads/Package.swift:1:1")
    }

    @Test("a dependency kept in a shared constant is found where the constant is written")
    func locatorConstant() {
        let text = """
            import PackageDescription
            let shared: Target.Dependency = .product(name: "ShareCore", package: "ShareCore")
            let package = Package(name: "P", targets: [.target(name: "P", dependencies: [shared])])
            """
        let locator = ManifestLocator(file: "Package.swift", text: text)
        #expect(locator.location(ofDependency: "ShareCore", inTarget: "P").description == "Package.swift:2:49")
    }

    @Test("module maps give their link names")
    func moduleMap() {
        let text = """
            module CCurl [system] {
                header "shim.h"   // link "commented"
                link "curl"
                link framework "Security"
                export *
            }
            """
        #expect(ModuleMapReader.linkedLibraries(in: text) == ["curl", "Security"])
    }
}
