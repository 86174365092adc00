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
        .library(name: "ShareKitSharedState", targets: ["ShareKitSharedState"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/SharedStateInterface"),
        .package(path: "../../Support/SecureFiles"),
    ],
    targets: [
        .target(
            name: "ShareKitSharedState",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
            ],
            path: "Sources/SharedState",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedStateTests",
            dependencies: [
                "ShareKitSharedState", .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
