// swift-tools-version: 6.0
// The write-ahead share inbox: entries, manifests, locking, completion.
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
    name: "ShareInboxInterface",
    products: [
        .library(name: "ShareKitInboxInterface", targets: ["ShareKitInboxInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitInboxInterfaceTesting", targets: ["ShareKitInboxInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareKitInboxInterface",
            dependencies: [.product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/ShareInboxInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitInboxInterfaceTesting",
            dependencies: ["ShareKitInboxInterface"],
            path: "Sources/ShareInboxInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareInboxInterfaceTests",
            dependencies: [
                "ShareKitInboxInterface", "ShareKitInboxInterfaceTesting",
                .product(name: "ShareKitCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
