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
        .library(name: "ShareInboxInterface", targets: ["ShareInboxInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareInboxInterfaceTesting", targets: ["ShareInboxInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareInboxInterface",
            dependencies: [.product(name: "ShareCore", package: "ShareCore")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareInboxInterfaceTesting",
            dependencies: ["ShareInboxInterface"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareInboxInterfaceTests",
            dependencies: [
                "ShareInboxInterface", "ShareInboxInterfaceTesting", .product(name: "ShareCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
