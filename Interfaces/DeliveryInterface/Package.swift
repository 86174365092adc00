// swift-tools-version: 6.0
// The one delivery engine's contract: a share kept somewhere (the CLI's inbox
// entry, the daemon's outbox) goes through upload and message creation and
// ends with one outcome that says what happened and what was kept.
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
    name: "DeliveryInterface",
    products: [
        .library(name: "DeliveryInterface", targets: ["DeliveryInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "DeliveryInterfaceTesting", targets: ["DeliveryInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../HTTPInterface"),
        .package(path: "../MessagesInterface"),
        .package(path: "../UploadsInterface"),
        .package(path: "../ServerAPIInterface"),
    ],
    targets: [
        .target(
            name: "DeliveryInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DeliveryInterfaceTesting",
            dependencies: [
                "DeliveryInterface",
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeliveryInterfaceTests",
            dependencies: [
                "DeliveryInterface", "DeliveryInterfaceTesting",
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
