// swift-tools-version:6.0
// Fixture: breaks `explicit-imports` once (UploadsInterface is only transitive).
import PackageDescription

let package = Package(
    name: "ExplicitImportsRoot",
    dependencies: [.package(path: "Modules/Uploads")],
    targets: [
        .executableTarget(
            name: "ShareCLI",
            dependencies: [.product(name: "Uploads", package: "Uploads")],
            path: "Apps/ShareCLI"
        ),
    ]
)
