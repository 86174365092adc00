// swift-tools-version: 6.0
// The one way to call the server: the authorized API client protocol, typed
// requests, the classification of every answer, Retry-After, the event feed.
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
    name: "ServerAPIInterface",
    products: [
        .library(name: "ShareKitServerAPIInterface", targets: ["ShareKitServerAPIInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitServerAPIInterfaceTesting", targets: ["ShareKitServerAPIInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../HTTPTypes"),
        .package(path: "../HTTPInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitServerAPIInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/ServerAPIInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitServerAPIInterfaceTesting",
            dependencies: ["ShareKitServerAPIInterface", .product(name: "ShareKitHTTPTypes", package: "HTTPTypes")],
            path: "Sources/ServerAPIInterfaceTesting",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerAPIInterfaceTests",
            dependencies: [
                "ShareKitServerAPIInterface", "ShareKitServerAPIInterfaceTesting",
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
