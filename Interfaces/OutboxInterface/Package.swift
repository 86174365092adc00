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
        .library(name: "ShareKitOutboxInterface", targets: ["ShareKitOutboxInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitOutboxInterfaceTesting", targets: ["ShareKitOutboxInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../ShareInboxInterface"),
        .package(path: "../DeliveryInterface"),
    ],
    targets: [
        .target(
            name: "ShareKitOutboxInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitDeliveryInterface", package: "DeliveryInterface"),
            ],
            path: "Sources/OutboxInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitOutboxInterfaceTesting",
            dependencies: ["ShareKitOutboxInterface", .product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/OutboxInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OutboxInterfaceTests",
            dependencies: [
                "ShareKitOutboxInterface", "ShareKitOutboxInterfaceTesting",
                .product(name: "ShareKitCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
