// swift-tools-version:6.0
// Fixture: breaks `testing-only` once (the app imports UploadsTesting).
import PackageDescription

let package = Package(
    name: "TestingOnlyRoot",
    dependencies: [.package(path: "Modules/Uploads")],
    targets: [
        .executableTarget(
            name: "ShareCLI",
            dependencies: [
                .product(name: "Uploads", package: "Uploads"),
                .product(name: "UploadsTesting", package: "Uploads"),
            ],
            path: "Apps/ShareCLI"
        ),
        .testTarget(
            name: "UploadsTests",
            dependencies: [.product(name: "UploadsTesting", package: "Uploads")],
            path: "Tests/UploadsTests"
        ),
    ]
)
