// swift-tools-version:6.0
// Fixture: a tree that keeps every contract. Never built, only dumped.
import PackageDescription

let package = Package(
    name: "CleanRoot",
    dependencies: [
        .package(path: "Interfaces/UploadsInterface"),
        .package(path: "Modules/Messages"),
        .package(path: "Modules/Uploads"),
    ],
    targets: [
        .executableTarget(
            name: "ShareCLI",
            dependencies: [
                .product(name: "Uploads", package: "Uploads"),
                .product(name: "Messages", package: "Messages"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
            ],
            path: "Apps/ShareCLI"
        ),
        .testTarget(
            name: "UploadsTests",
            dependencies: [
                .product(name: "Uploads", package: "Uploads"),
                .product(name: "UploadsTesting", package: "Uploads"),
            ],
            path: "Tests/UploadsTests"
        ),
    ]
)
