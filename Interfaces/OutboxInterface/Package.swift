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
        .library(name: "ShareKitOutboxInterface", targets: ["ShareKitOutboxInterface"])
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
        )
    ],
    swiftLanguageModes: [.v6]
)
