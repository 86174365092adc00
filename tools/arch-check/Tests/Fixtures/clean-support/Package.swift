// swift-tools-version:6.0
// Fixture: a tree with a Support/ layer that keeps every contract: support
// uses support, a module, an app and a test use support. Never built, only dumped.
import PackageDescription

let package = Package(
    name: "CleanSupportRoot",
    dependencies: [
        .package(path: "Interfaces/KeychainInterface"),
        .package(path: "Modules/KeychainStore"),
        .package(path: "Support/SecureFiles"),
    ],
    targets: [
        .executableTarget(
            name: "ShareCLI",
            dependencies: [
                .product(name: "KeychainStore", package: "KeychainStore"),
                .product(name: "SecureFiles", package: "SecureFiles"),
            ],
            path: "Apps/ShareCLI"
        ),
        .testTarget(
            name: "KeychainStoreTests",
            dependencies: [
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "KeychainStore", package: "KeychainStore"),
                .product(name: "SecureFiles", package: "SecureFiles"),
            ],
            path: "Tests/KeychainStoreTests"
        ),
    ]
)
