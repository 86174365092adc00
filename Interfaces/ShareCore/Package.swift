// swift-tools-version: 6.0
// Value types every package shares: UUIDv7, base64url, share targets, configuration keys,
// RFC 3339 timestamps, the Unix clock and the retry backoff policy.
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
    name: "ShareCore",
    products: [
        .library(name: "ShareKitCore", targets: ["ShareKitCore"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitCoreTesting", targets: ["ShareKitCoreTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(
            name: "ShareKitCore",
            dependencies: [],
            path: "Sources/ShareCore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitCoreTesting",
            dependencies: ["ShareKitCore"],
            path: "Sources/ShareCoreTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareCoreTests",
            dependencies: ["ShareKitCore"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
