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
        .library(name: "ShareKitOpenSSLCrypto", targets: ["ShareKitOpenSSLCrypto"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Support/LazyLibrary"),
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .systemLibrary(
            name: "CShareKitCrypto",
            path: "Sources/CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "ShareKitOpenSSLCrypto",
            dependencies: [
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"), "CShareKitCrypto",
                "CShareKitCryptoLoader",
            ],
            path: "Sources/OpenSSLCrypto",
            swiftSettings: swiftSettings
        ),
        // The library's functions, loading it on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CShareKitCryptoLoader",
            dependencies: ["CShareKitCrypto", .product(name: "CShareKitLazyLibrary", package: "LazyLibrary")],
            path: "Sources/CCryptoLoader"),
        .testTarget(
            name: "OpenSSLCryptoTests",
            dependencies: [
                "ShareKitOpenSSLCrypto", .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
