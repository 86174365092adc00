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
        .library(name: "ShareKitDPoPInterface", targets: ["ShareKitDPoPInterface"]),
        // Test doubles of this interface, for tests only (arch-check's `testing-only`).
        .library(name: "ShareKitDPoPInterfaceTesting", targets: ["ShareKitDPoPInterfaceTesting"]),
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareKitDPoPInterface",
            dependencies: [.product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/DPoPInterface",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ShareKitDPoPInterfaceTesting",
            dependencies: ["ShareKitDPoPInterface"],
            path: "Sources/DPoPInterfaceTesting",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
