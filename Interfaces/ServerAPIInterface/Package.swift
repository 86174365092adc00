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
        .library(name: "ServerAPIInterface", targets: ["ServerAPIInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ServerAPIInterfaceTesting", targets: ["ServerAPIInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../HTTPTypes"),
        .package(path: "../HTTPInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ServerAPIInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ServerAPIInterfaceTesting",
            dependencies: ["ServerAPIInterface", .product(name: "HTTPTypes", package: "HTTPTypes")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerAPIInterfaceTests",
            dependencies: [
                "ServerAPIInterface", "ServerAPIInterfaceTesting",
                .product(name: "HTTPInterface", package: "HTTPInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
