// swift-tools-version: 6.0
// The shared container directory, its allow-listed key-value state and the
// cross-process locks kept in it. The POSIX secure-file code it stands on
// (no-follow opens, owner and mode checks, atomic replace, flock) is the
// support package SecureFiles.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SharedState",
    products: [
        .library(name: "SharedState", targets: ["SharedState"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/SharedStateInterface"),
        .package(path: "../../Support/SecureFiles"),
    ],
    targets: [
        .target(
            name: "SharedState",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "SecureFiles", package: "SecureFiles"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedStateTests",
            dependencies: [
                "SharedState", .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
