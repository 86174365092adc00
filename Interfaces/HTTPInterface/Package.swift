// swift-tools-version: 6.0
// The HTTP client protocol: requests, streamed file bodies, responses.
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
    name: "HTTPInterface",
    products: [
        .library(name: "ShareKitHTTPInterface", targets: ["ShareKitHTTPInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitHTTPInterfaceTesting", targets: ["ShareKitHTTPInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../HTTPTypes")
    ],
    targets: [
        .target(
            name: "ShareKitHTTPInterface",
            dependencies: [.product(name: "ShareKitHTTPTypes", package: "HTTPTypes")],
            path: "Sources/HTTPInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitHTTPInterfaceTesting",
            dependencies: ["ShareKitHTTPInterface", .product(name: "ShareKitHTTPTypes", package: "HTTPTypes")],
            path: "Sources/HTTPInterfaceTesting",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
