// swift-tools-version: 6.0
// Protocols for the cryptographic primitives (SHA-256, P-256 ECDSA, random) an adapter provides.
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
    name: "CryptoInterface",
    products: [
        .library(name: "ShareKitCryptoInterface", targets: ["ShareKitCryptoInterface"])
    ],
    dependencies: [],
    targets: [
        .target(
            name: "ShareKitCryptoInterface",
            dependencies: [],
            path: "Sources/CryptoInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
