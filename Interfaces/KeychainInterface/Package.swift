// swift-tools-version: 6.0
// The secret-store protocol: generic items of a shared access group.
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
    name: "KeychainInterface",
    products: [
        .library(name: "ShareKitKeychainInterface", targets: ["ShareKitKeychainInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitKeychainInterfaceTesting", targets: ["ShareKitKeychainInterfaceTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(
            name: "ShareKitKeychainInterface",
            dependencies: [],
            path: "Sources/KeychainInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitKeychainInterfaceTesting",
            dependencies: ["ShareKitKeychainInterface"],
            path: "Sources/KeychainInterfaceTesting",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
