// swift-tools-version: 6.0
// The daemon's durable send queue.
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
    name: "OutboxInterface",
    products: [
        .library(name: "OutboxInterface", targets: ["OutboxInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "OutboxInterfaceTesting", targets: ["OutboxInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../ShareInboxInterface"),
        .package(path: "../DeliveryInterface"),
    ],
    targets: [
        .target(
            name: "OutboxInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "ShareInboxInterface", package: "ShareInboxInterface"),
                .product(name: "DeliveryInterface", package: "DeliveryInterface"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OutboxInterfaceTesting",
            dependencies: ["OutboxInterface", .product(name: "ShareCore", package: "ShareCore")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutboxInterfaceTests",
            dependencies: [
                "OutboxInterface", "OutboxInterfaceTesting", .product(name: "ShareCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
