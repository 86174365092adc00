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
        .library(name: "ShareKitDeliveryInterface", targets: ["ShareKitDeliveryInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitDeliveryInterfaceTesting", targets: ["ShareKitDeliveryInterfaceTesting"]),
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
            name: "ShareKitDeliveryInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
            ],
            path: "Sources/DeliveryInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitDeliveryInterfaceTesting",
            dependencies: [
                "ShareKitDeliveryInterface",
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitCore", package: "ShareCore"),
            ],
            path: "Sources/DeliveryInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeliveryInterfaceTests",
            dependencies: [
                "ShareKitDeliveryInterface", "ShareKitDeliveryInterfaceTesting",
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitCore", package: "ShareCore"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
