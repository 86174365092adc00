// swift-tools-version: 6.0
// The libcrypto adapter: SHA-256, P-256 ECDSA and random numbers behind CryptoInterface.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "OpenSSLCrypto",
    products: [
        .library(name: "OpenSSLCrypto", targets: ["OpenSSLCrypto"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Support/LazyLibrary"),
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "OpenSSLCrypto",
            dependencies: [.product(name: "CryptoInterface", package: "CryptoInterface"), "CCrypto", "CCryptoLoader"],
            swiftSettings: swiftSettings
        ),
        // The library's functions, loading it on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CCryptoLoader",
            dependencies: ["CCrypto", .product(name: "CLazyLibrary", package: "LazyLibrary")]),
        .testTarget(
            name: "OpenSSLCryptoTests",
            dependencies: [
                "OpenSSLCrypto", .product(name: "CryptoInterface", package: "CryptoInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
