// swift-tools-version: 6.0
// Session tokens: the stored session, the token provider the senders use,
// and the errors that say whether a session can still be used.
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
    name: "SessionsInterface",
    products: [
        .library(name: "SessionsInterface", targets: ["SessionsInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "SessionsInterfaceTesting", targets: ["SessionsInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../KeychainInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "SessionsInterface",
            dependencies: [
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SessionsInterfaceTesting",
            dependencies: ["SessionsInterface", .product(name: "KeychainInterface", package: "KeychainInterface")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
