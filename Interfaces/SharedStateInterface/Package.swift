// swift-tools-version: 6.0
// The app-group container and its allow-listed key-value state.
// An interface package: protocols, value types and errors only, no I/O.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SharedStateInterface",
    products: [
        .library(name: "ShareKitSharedStateInterface", targets: ["ShareKitSharedStateInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitSharedStateInterfaceTesting", targets: ["ShareKitSharedStateInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../KeychainInterface")
    ],
    targets: [
        .target(
            name: "ShareKitSharedStateInterface",
            dependencies: [],
            path: "Sources/SharedStateInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitSharedStateInterfaceTesting",
            dependencies: ["ShareKitSharedStateInterface"],
            path: "Sources/SharedStateInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedStateInterfaceTests",
            dependencies: [
                "ShareKitSharedStateInterface", "ShareKitSharedStateInterfaceTesting",
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
