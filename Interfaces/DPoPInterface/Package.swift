// swift-tools-version: 6.0
// Protocols and values for DPoP proofs (RFC 9449): signing and verification.
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
    name: "DPoPInterface",
    products: [
        .library(name: "DPoPInterface", targets: ["DPoPInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "DPoPInterfaceTesting", targets: ["DPoPInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "DPoPInterface",
            dependencies: [.product(name: "ShareCore", package: "ShareCore")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DPoPInterfaceTesting",
            dependencies: ["DPoPInterface"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
