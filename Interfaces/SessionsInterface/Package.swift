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
        .library(name: "ShareKitSessionsInterface", targets: ["ShareKitSessionsInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitSessionsInterfaceTesting", targets: ["ShareKitSessionsInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../KeychainInterface"),
        .package(path: "../SharedStateInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitSessionsInterface",
            dependencies: [
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/SessionsInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitSessionsInterfaceTesting",
            dependencies: [
                "ShareKitSessionsInterface", .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
            ],
            path: "Sources/SessionsInterfaceTesting",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
