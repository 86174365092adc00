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
        .library(name: "ShareCore", targets: ["ShareCore"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareCoreTesting", targets: ["ShareCoreTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(
            name: "ShareCore",
            dependencies: [],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareCoreTesting",
            dependencies: ["ShareCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareCoreTests",
            dependencies: ["ShareCore"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
